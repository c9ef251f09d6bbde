"""What the game and review screens show, worked out from engine values: pure functions.

A screen keeps one :class:`Standing` per position (it changes only when a card is placed,
undone or redone) and asks these functions for each widget's state; moving the card being
placed costs one engine outcome and the states that depend on it.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from forage.app.describe import (
    ARROW_KEYS,
    DOT,
    card_name,
    cell_previews,
    costly_question,
    outcome_lines,
)
from forage.app.widgets import HandState, ScoreState, StatusState, WoodlandState
from forage.engine import Area, Game, GameResult, Outcome, Placement, RecipeProgress, Square
from forage.engine.woodland import Pos
from forage.i18n import _

CardCells = tuple[tuple[int, int, Area], ...]
"""A card's areas as (x, y, area) in woodland coordinates."""

PositionKey = tuple[int, tuple[Placement, ...]]
"""Which game of a screen (its serial) and the moves made: a position on that screen."""


class Standing(NamedTuple):
    """What stays while the card being placed moves: the woodland's squares and the
    standing of the game, for one position."""

    key: PositionKey
    squares: dict[Pos, Square]
    result: GameResult


def standing_of(game: Game, serial: int = 0) -> Standing:
    """The woodland and the standing of the game as it is (copied: later moves leave it)."""
    return Standing((serial, tuple(game.moves)), dict(game.woodland.squares), game.result())


def card_cells(game: Game, placement: Placement | None) -> CardCells:
    """The areas a placement's card would cover (none for no placement)."""
    if placement is None:
        return ()
    card = game.card(placement.card)
    return tuple(
        (placement.x + dx, placement.y + dy, area)
        for dx, dy, area in card.footprint(placement.rotation)
    )


COSTLY_LOSS: Final = 5
"""A drop that loses this many points or more asks for a second enter (as does one that
takes the score below zero), unless the player has turned the question off."""


class DropChange(NamedTuple):
    """What a drop does to the score that decides the game."""

    before: int
    after: int
    final: bool
    """Whether that score is the final score (a recipe challenge), else the base score."""


def drop_change(game: Game, outcome: Outcome, after: GameResult | None = None) -> DropChange:
    """The score that decides the game before and after a legal drop: the base score, or in
    a recipe challenge (``after``, the engine's standing after the drop) the final score."""
    if after is not None:
        return DropChange(game.result().score.final, after.score.final, True)
    return DropChange(game.base, game.base + outcome.score_change, False)


def is_costly(change: DropChange) -> bool:
    """Whether a drop loses enough to ask for a second enter: ``COSTLY_LOSS`` points or
    more, or the score taken below zero."""
    return change.before - change.after >= COSTLY_LOSS or change.after < 0 <= change.before


class Spot(NamedTuple):
    """A legal placement of the card being placed and what it gives at once."""

    placement: Placement
    gain: int
    """The change of the score that decides the game: base, or final in a challenge."""


def spot_order(game: Game, card: int) -> tuple[Spot, ...]:
    """Every legal placement of a hand card (each rotation and spot once, with the default
    mouse colours or the first legal choice), what gives most at once first; placements
    that give the same keep the engine's order (rotation, then top to bottom, left to
    right)."""
    now = game.result().score.final if game.recipes else game.base

    def gain(outcome: Outcome) -> int:
        if game.recipes:
            return game.result_after(outcome).score.final - now
        return outcome.score_change

    spots = [Spot(o.placement, gain(o)) for o in game.outcomes(card)]
    return tuple(sorted(spots, key=lambda spot: -spot.gain))


def spot_index(spots: tuple[Spot, ...], here: Placement | None, step: int) -> int:
    """Where ``step`` (1 on, -1 back) goes in ``spots`` from the placement ``here``: the
    next or previous one, going round; from a placement not among them, the first (on)
    or the last (back)."""
    where = (here.card, here.rotation, here.x, here.y) if here is not None else None
    for index, spot in enumerate(spots):
        p = spot.placement
        if (p.card, p.rotation, p.x, p.y) == where:
            return (index + step) % len(spots)
    return 0 if step > 0 else len(spots) - 1


def woodland_state(
    game: Game,
    squares: dict[Pos, Square],
    outcome: Outcome | None,
    *,
    previews: bool = True,
    peek: bool = False,
    serial: int = 0,
    marked: frozenset[Pos] = frozenset(),
    follow: bool = True,
) -> WoodlandState:
    """The woodland with the outcome's card over it (and, with ``previews``, what the drop
    does on each of its areas), and the squares ``marked`` as the place to go; ``follow``:
    whether the view moves to show the card (not while it waits where it was dealt)."""
    cells = card_cells(game, outcome.placement if outcome is not None else None)
    shown = {}
    if outcome is not None and previews:
        shown = cell_previews(outcome, {(x, y): area for x, y, area in cells}, squares)
    return WoodlandState(
        squares=squares,
        card=cells,
        outcome=outcome,
        previews=shown,
        peek=peek,
        game=serial,
        marked=marked,
        follow=follow,
    )


def hand_state(game: Game, cursor: Placement | None, challenge: bool) -> HandState:
    """The hand, the card being placed marked with its rotation, the turn and the pile."""
    hand = game.hand
    selected = hand.index(cursor.card) if cursor is not None and cursor.card in hand else 0
    return HandState(
        cards=tuple(game.card(n) for n in hand),
        selected=selected,
        turn=game.turn,
        turns=game.turns,
        draw_pile=game.draw_pile,
        rotation=cursor.rotation if cursor is not None else None,
        challenge=challenge,
        over=game.is_over(),
    )


def score_state(
    game: Game, standing: Standing, after: GameResult | None, outcome: Outcome | None = None
) -> ScoreState:
    """The score panel: the standing, the recipes, the standing after the drop shown
    (``outcome``, with ``after`` the engine's standing after it) and how far each recipe
    that is a count has got, as that drop would leave it."""
    progress: tuple[RecipeProgress | None, ...] = ()
    if game.recipes:
        progress = tuple(game.recipe_progress(outcome if after is not None else None))
    return ScoreState(result=standing.result, recipes=game.recipes, after=after, progress=progress)


def title_text(label: str) -> str:
    """The screen's title line for a deal named ``label``."""
    return _("Forage {dot} {label}").format(dot=DOT, label=label)


def status_state(
    game: Game,
    standing: Standing,
    outcome: Outcome | None,
    *,
    waiting: bool,
    peek: bool,
    note: str,
    note_tone: str = "note",
    after: GameResult | None = None,
    hints: bool = True,
    asking: DropChange | None = None,
) -> StatusState:
    """The status bar: what the drop shown would do (or why not, or what to do first) and
    a note on the last line, in the palette's mark ``note_tone``; ``hints``: whether the
    hint key works here, to be named; ``asking``: the drop shown is a costly one that
    enter has been pressed for once, and asks for a second enter."""
    if outcome is None:
        return StatusState(
            _("The game is over."),
            # Translators: the status line, 78 columns at most.
            _("enter shows the summary again; u undoes the last placement; n new game."),
            note=note,
            note_tone=note_tone,
        )
    if waiting:
        name = card_name(game.card(outcome.placement.card))
        other = len(game.hand) > 1
        # Translators: the status line, 78 columns at most; {keys} are the arrow keys.
        if other and hints:
            how = _("{keys} move it, r turns it, tab takes the other card; t suggests a spot.")
        elif other:
            how = _("{keys} move it, r turns it, tab takes the other card.")
        elif hints:
            how = _("{keys} move it, r turns it; t suggests a spot.")
        else:
            how = _("{keys} move it, r turns it.")
        return StatusState(
            _("Your card to place: {name}. Move it onto the woodland.").format(name=name),
            how.format(keys=ARROW_KEYS),
            "idle",
            note,
            note_tone,
        )
    final = None if after is None else (standing.result.score.final, after.score.final)
    preview = outcome_lines(outcome, game.position.base, final)
    headline = preview.headline
    if asking is not None:
        headline = costly_question(asking.before, asking.after, asking.final)
    if peek:
        headline = _("Peeking under the card: p shows the card again.")
    return StatusState(headline, preview.details, preview.tone, note, note_tone, preview.brief)
