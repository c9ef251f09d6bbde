"""The game a record describes: its deck, its deal (from the deal list, the seed or the
deal code), its placements, and the game replayed from them."""

from __future__ import annotations

from forage.carddata import standard_deck
from forage.engine import (
    Card,
    Deal,
    Deck,
    Game,
    MouseChoice,
    Outcome,
    Placement,
    Rotation,
)
from forage.engine.deal import MOST_CARDS
from forage.files import number_problem
from forage.i18n import N_
from forage.record.schema import FORMAT, GameRecord, MoveIn, RecordError, parse_record
from forage.wording import SaidError


def deal_from_code(code: str) -> Deal:
    """The deal of a deal code; raises ValueError saying what is wrong, in the user's terms."""
    try:
        return Deal.from_code(code)
    except SaidError:
        raise
    except ValueError as exc:
        raise ValueError(number_problem(exc)) from None


def _deck_of(record: GameRecord) -> Deck:
    """The deck a record plays: the built-in 18 cards, or its ``cards``, which replace them."""
    if record.cards is None:
        return standard_deck()
    if not record.cards:
        raise RecordError("cards", N_("a custom deck needs at least one card"))
    seen: set[int] = set()
    cards = []
    for i, card in enumerate(record.cards):
        if card.number in seen:
            raise RecordError(
                f"cards[{i}].number", N_("card {number} appears twice"), number=card.number
            )
        seen.add(card.number)
        cards.append(Card(number=card.number, areas=tuple(card.areas)))
    return Deck.of(cards)


def _deal_of(record: GameRecord, deck: Deck) -> Deal:
    recipes: tuple[int, int] | None = None
    if record.recipes:  # an empty list names no recipes, like a missing one
        if len(record.recipes) != 2:
            raise RecordError(
                "recipes", N_("give none or two recipes, not {count}"), count=len(record.recipes)
            )
        for i, number in enumerate(record.recipes):
            if number not in standard_deck().recipes():
                raise RecordError(
                    f"recipes[{i}]", N_("unknown recipe {number} (recipes are 1-18)"), number=number
                )
        if record.recipes[0] == record.recipes[1]:
            raise RecordError(
                "recipes[1]", N_("recipe {number} appears twice"), number=record.recipes[1]
            )
        recipes = (record.recipes[0], record.recipes[1])
    seeded: Deal | None = None
    if record.seed is not None:
        if record.recipe_challenge and record.deck == 2:
            raise RecordError("deck", N_("a recipe challenge has no deck 2 (RULINGS R12)"))
        try:
            seeded = Deal.from_seed(
                record.seed,
                recipes=bool(record.recipe_challenge),
                deck=record.deck or 1,
                numbers=deck.numbers,
            )
        except ValueError as exc:
            raise RecordError("seed", exc if isinstance(exc, SaidError) else str(exc)) from None
    elif record.deck is not None or record.recipe_challenge is not None:
        field = "deck" if record.deck is not None else "recipe_challenge"
        if record.deal is None:
            raise RecordError(field, N_("goes with seed, which is missing"))
    if record.deal is None:
        if seeded is None:
            raise RecordError("deal", N_("missing: a record needs deal (or seed)"))
        if recipes is not None and seeded.recipes is None:
            return Deal(cards=seeded.cards, recipes=recipes)
        if recipes is not None and set(seeded.recipes or ()) != set(recipes):
            raise RecordError("recipes", N_("do not match the seed's recipe challenge"))
        return seeded
    if not 1 <= len(record.deal) <= MOST_CARDS:
        raise RecordError(
            "deal",
            N_("a deal has 1 to {most} cards, not {count}"),
            most=MOST_CARDS,
            count=len(record.deal),
        )
    seen: set[int] = set()
    for i, number in enumerate(record.deal):
        if number not in deck:
            raise RecordError(f"deal[{i}]", N_("unknown card {number}"), number=number)
        if number in seen:
            raise RecordError(f"deal[{i}]", N_("card {number} appears twice"), number=number)
        seen.add(number)
    deal = Deal(cards=tuple(record.deal), recipes=recipes)
    if seeded is not None:
        if seeded.cards != deal.cards:
            raise RecordError("seed", N_("the seed's deal differs from deal"))
        if seeded.recipes is not None:
            if recipes is None:
                return seeded
            if set(seeded.recipes) != set(recipes):
                raise RecordError("recipes", N_("do not match the seed's recipe challenge"))
    return deal


def placement_of(move: MoveIn, field: str = "") -> Placement:
    """The placement a record's move describes; raises RecordError (under ``field``) for a
    square whose mouse colour is chosen twice. The card is not checked against a deck."""
    seen: set[tuple[int, int]] = set()
    for j, choice in enumerate(move.mouse):
        if (choice.x, choice.y) in seen:
            where = f"{field}.mouse[{j}]" if field else f"mouse[{j}]"
            raise RecordError(where, N_("square ({x}, {y}) chosen twice"), x=choice.x, y=choice.y)
        seen.add((choice.x, choice.y))
    return Placement(
        card=move.card,
        rotation=Rotation(move.rotation),
        x=move.x,
        y=move.y,
        mouse=tuple(MouseChoice(x=m.x, y=m.y, colour=m.colour) for m in move.mouse),
    )


def _placements(record: GameRecord, deck: Deck) -> list[Placement]:
    placements = []
    for i, move in enumerate(record.moves):
        if move.card not in deck:
            raise RecordError(f"moves[{i}].card", N_("unknown card {number}"), number=move.card)
        placements.append(placement_of(move, f"moves[{i}]"))
    return placements


def build_game(record: GameRecord) -> tuple[Game, list[Placement]]:
    """The game a record starts, and its moves (not yet played); raises RecordError."""
    if record.format is not None and record.format != FORMAT:
        raise RecordError(
            "format",
            N_("unknown format {given} (expected {format})"),
            given=repr(record.format),
            format=repr(FORMAT),
        )
    deck = _deck_of(record)
    deal = _deal_of(record, deck)
    placements = _placements(record, deck)
    return Game(deal, deck, recipe_book=standard_deck().recipes()), placements


def load_game(text: str) -> tuple[Game, Outcome | None]:
    """Read a record and replay its moves; returns the game and the first refusal, if any."""
    game, placements = build_game(parse_record(text))
    _, refusal = game.replay(placements)
    return game, refusal
