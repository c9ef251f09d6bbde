"""A game being played on screen: the engine's Game plus the card being placed (the cursor).

Pure Python, no Textual: the screen asks this object (and through it the engine) for
every rule, so the logic here can be tested without a terminal.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from forage.carddata import standard_deck
from forage.engine import (
    Colour,
    Deal,
    Game,
    Outcome,
    Placement,
    Reason,
    Rotation,
)
from forage.engine.woodland import Pos
from forage.paths import data_dir
from forage.record import record_from_game, write_atomic

SAVE_FORMAT: Final = "forage-save/1"
SAVE_NAME: Final = "current-game.json"
MAX_SEED: Final = 999_999


def save_path() -> Path:
    """Where the game in progress is saved."""
    return data_dir() / SAVE_NAME


def random_seed() -> int:
    """A fresh seed for a new game, small enough to read out and type."""
    return random.SystemRandom().randint(1, MAX_SEED)


@dataclass
class Cursor:
    """The card being placed: which hand card, its rotation, its top-left and mouse colours."""

    index: int = 0
    rotation: Rotation = Rotation.R0
    x: int = 0
    y: int = 0
    mouse: dict[Pos, Colour] = field(default_factory=dict)


@dataclass
class Session:
    """One game on screen: the engine game, how it was dealt, and the cursor."""

    game: Game
    seed: int | None = None
    deck_number: int = 1
    record_path: Path | None = None
    cursor: Cursor = field(default_factory=Cursor)
    hints: int = 0
    undos: int = 0
    started: datetime = field(default_factory=lambda: datetime.now(UTC))

    # -- starting ----------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        seed: int | None = None,
        deal_code: str | None = None,
        recipes: bool = False,
        deck: int = 1,
        record_path: Path | None = None,
    ) -> Session:
        """A new game from a seed, a deal code, or (neither given) a fresh random seed."""
        if deal_code is not None:
            deal = Deal.from_code(deal_code)
            seed = None
        else:
            if seed is None:
                seed = random_seed()
            deal = Deal.from_seed(seed, recipes=recipes, deck=deck)
        session = cls(
            Game(deal, standard_deck()),
            seed=seed,
            deck_number=deck if deal.recipes is None else 1,
            record_path=record_path,
        )
        session.reset_cursor(centre=True)
        return session

    @property
    def deal(self) -> Deal:
        """The deal being played."""
        return self.game.deal

    @property
    def is_challenge(self) -> bool:
        """Whether this is a recipe challenge."""
        return self.deal.recipes is not None

    def label(self) -> str:
        """How the deal is named on screen: its seed (and deck) or its deal code."""
        kind = "recipe challenge" if self.is_challenge else "standard game"
        if self.seed is not None:
            deck = f" deck {self.deck_number}" if not self.is_challenge else ""
            return f"seed {self.seed}{deck} · {kind}"
        return f"deal {self.deal.code} · {kind}"

    def snapshot(self) -> Game:
        """A copy of the game that another thread may work on."""
        return self.game.copy()

    def same_deal(self) -> Session:
        """A fresh game on the same deal."""
        session = Session(
            Game(self.deal, self.game.deck),
            seed=self.seed,
            deck_number=self.deck_number,
            record_path=self.record_path,
        )
        session.reset_cursor(centre=True)
        return session

    def other_deck(self) -> Session | None:
        """The standard game's other nine cards (R12), or None where there is no other deck."""
        if self.is_challenge:
            return None
        if self.seed is not None:
            number = 2 if self.deck_number == 1 else 1
            deal = Deal.from_seed(self.seed, deck=number)
            session = Session(
                Game(deal, self.game.deck),
                seed=self.seed,
                deck_number=number,
                record_path=self.record_path,
            )
        else:
            other = self.deal.other_deck()
            if other is None:
                return None
            session = Session(Game(other, self.game.deck), record_path=self.record_path)
        session.reset_cursor(centre=True)
        return session

    def new_game(self) -> Session:
        """A new game of the same kind on a fresh random seed."""
        return Session.start(None, None, self.is_challenge, 1, self.record_path)

    # -- the cursor ------------------------------------------------------------------------------

    @property
    def card_number(self) -> int | None:
        """The number of the hand card being placed, or None when the hand is empty."""
        hand = self.game.hand
        if not hand:
            return None
        return hand[min(self.cursor.index, len(hand) - 1)]

    def card_size(self) -> tuple[int, int]:
        """The (width, height) of the card being placed at its rotation."""
        return (2, 3) if self.cursor.rotation in (Rotation.R0, Rotation.R180) else (3, 2)

    def limits(self) -> tuple[int, int, int, int]:
        """The cursor's allowed top-left range: up to one card beyond the woodland's edge."""
        x0, y0, x1, y1 = self.game.woodland.bounds()
        width, height = self.card_size()
        return x0 - width, y0 - height, x1 + 1, y1 + 1

    def _clamp(self) -> None:
        lo_x, lo_y, hi_x, hi_y = self.limits()
        self.cursor.x = max(lo_x, min(hi_x, self.cursor.x))
        self.cursor.y = max(lo_y, min(hi_y, self.cursor.y))

    def reset_cursor(self, centre: bool = False) -> None:
        """Start a turn with the first hand card: centred on the woodland, or else near
        where the last card went, on the nearest spot where it can legally be placed."""
        self.cursor.index = 0
        self.cursor.mouse = {}
        if centre:
            self.cursor.rotation = Rotation.R0
            x0, y0, x1, y1 = self.game.woodland.bounds()
            width, height = self.card_size()
            self.cursor.x = (x0 + x1 + 1 - width) // 2 + 1
            self.cursor.y = (y0 + y1 + 1 - height) // 2 + 1
        else:
            self._nearest_legal()
        self._clamp()

    def _nearest_legal(self) -> None:
        """Move the cursor to the closest legal spot of its card, if it is not on one."""
        number = self.card_number
        if number is None or self.game.is_over():
            return
        here = self.placement()
        if here is not None and self.game.outcome(here).legal:
            return
        x, y, rotation = self.cursor.x, self.cursor.y, self.cursor.rotation
        spots = [o.placement for o in self.game.outcomes(number) if not o.placement.mouse]
        if not spots:
            return
        best = min(
            spots,
            key=lambda p: (abs(p.x - x) + abs(p.y - y) + (p.rotation != rotation), p.y, p.x),
        )
        self.cursor.x, self.cursor.y, self.cursor.rotation = best.x, best.y, best.rotation

    def move(self, dx: int, dy: int) -> bool:
        """Move the card one area; returns whether it moved (it stops one card past the edge)."""
        before = (self.cursor.x, self.cursor.y)
        self.cursor.x += dx
        self.cursor.y += dy
        self._clamp()
        moved = (self.cursor.x, self.cursor.y) != before
        if moved:
            self.cursor.mouse = {}
        return moved

    def rotate(self, clockwise: bool = True) -> None:
        """Turn the card a quarter clockwise or counter-clockwise."""
        self.cursor.rotation = self.cursor.rotation.turned(clockwise)
        self.cursor.mouse = {}
        self._clamp()

    def choose(self, index: int) -> bool:
        """Take hand card 0 or 1; returns whether that card exists."""
        if not 0 <= index < len(self.game.hand):
            return False
        if index != self.cursor.index:
            self.cursor.index = index
            self.cursor.mouse = {}
        return True

    def next_card(self) -> None:
        """Take the other hand card."""
        if self.game.hand:
            self.choose((self.cursor.index + 1) % len(self.game.hand))

    def go_to(self, placement: Placement) -> bool:
        """Put the cursor on a placement (a hint, a click); returns whether its card is in hand."""
        if placement.card not in self.game.hand:
            return False
        self.cursor.index = self.game.hand.index(placement.card)
        self.cursor.rotation = placement.rotation
        self.cursor.x, self.cursor.y = placement.x, placement.y
        self.cursor.mouse = placement.choices()
        return True

    def placement(self) -> Placement | None:
        """The placement the cursor shows, with the mouse colours chosen so far."""
        number = self.card_number
        if number is None:
            return None
        placement = Placement(
            card=number, rotation=self.cursor.rotation, x=self.cursor.x, y=self.cursor.y
        )
        return placement.with_mouse(self.cursor.mouse) if self.cursor.mouse else placement

    def preview(self) -> Outcome | None:
        """The engine's outcome for the cursor's placement.

        As in the engine's list of legal placements, when the default mouse colours are
        refused but another choice of colours is legal, that choice is shown instead.
        """
        placement = self.placement()
        if placement is None:
            return None
        outcome = self.game.outcome(placement)
        if (
            not outcome.legal
            and not placement.mouse
            and outcome.reason in (Reason.NO_MOUSE_DIE, Reason.EDWOOD_USED)
        ):
            for choice in self._colour_choices(placement):
                trial = self.game.outcome(placement.with_mouse(choice))
                if trial.legal:
                    self.cursor.mouse = dict(choice)
                    return trial
        return outcome

    def _colour_choices(self, placement: Placement) -> list[dict[Pos, Colour]]:
        """Every choice of mouse colours on the card's split areas over the woodland."""
        card = self.game.card(placement.card)
        splits = [
            ((placement.x + dx, placement.y + dy), area.colours)
            for dx, dy, area in card.footprint(placement.rotation)
            if not area.is_food and (placement.x + dx, placement.y + dy) in self.game.woodland
        ]
        choices: list[dict[Pos, Colour]] = []
        for combo in itertools.product(*(colours for _, colours in splits)):
            choices.append({pos: colour for (pos, _), colour in zip(splits, combo, strict=True)})
        return choices

    def cycle_mouse(self) -> bool:
        """The `c` key: the next mouse colour on a split area that has a choice (R8c)."""
        outcome = self.preview()
        if outcome is None or not outcome.legal or not outcome.mouse_choice_possible:
            return False
        placement = outcome.placement
        current = {(e.x, e.y): e.die.colour for e in outcome.effects if e.die is not None}
        card = self.game.card(placement.card)
        areas = {
            (placement.x + dx, placement.y + dy): area
            for dx, dy, area in card.footprint(placement.rotation)
        }
        squares = list(outcome.mouse_choice_possible)
        options = [areas[pos].colours for pos in squares]
        combos = list(itertools.product(*options))
        now = tuple(current.get(pos, opts[0]) for pos, opts in zip(squares, options, strict=True))
        start = combos.index(now) if now in combos else -1
        for step in range(1, len(combos) + 1):
            combo = combos[(start + step) % len(combos)]
            choice = dict(self.cursor.mouse)
            choice.update(dict(zip(squares, combo, strict=True)))
            trial = self.game.outcome(placement.with_mouse(choice))
            if trial.legal:
                self.cursor.mouse = choice
                return True
        return False

    # -- playing ----------------------------------------------------------------------------------

    def place(self) -> Outcome | None:
        """Make the cursor's placement if legal; the outcome says what happened or why not."""
        outcome = self.preview()
        if outcome is None:
            return None
        if outcome.legal:
            self.game.push(outcome.placement)
            self.cursor.mouse = {}
            self.reset_cursor()
            self.persist()
        return outcome

    def undo(self) -> Placement | None:
        """Take back the last placement; the cursor goes back to where that card was."""
        if not self.game.moves:
            return None
        placement = self.game.pop()
        self.undos += 1
        self.go_to(placement)
        self.cursor.mouse = {}
        self._clamp()
        self.persist()
        return placement

    # -- saving ---------------------------------------------------------------------------------

    def save_data(self) -> dict[str, Any]:
        """What the save file holds: how the game was dealt and the moves so far."""
        return {
            "format": SAVE_FORMAT,
            "deal": self.deal.code,
            "seed": self.seed,
            "deck": self.deck_number,
            "moves": [p.notation() for p in self.game.moves],
        }

    def persist(self) -> None:
        """Save the game (or forget the save once it is over) and write the --record file."""
        if self.record_path is not None:
            record = record_from_game(self.game, self.seed, self.deck_number)
            write_atomic(self.record_path, record.to_json())
        self.save()

    def save(self) -> None:
        """Write the save file atomically; a finished game or an untouched one leaves none."""
        path = save_path()
        if self.game.is_over() or not self.game.moves:
            path.unlink(missing_ok=True)
            return
        write_atomic(path, json.dumps(self.save_data(), indent=1) + "\n")

    @classmethod
    def from_save_data(cls, data: dict[str, Any], record_path: Path | None = None) -> Session:
        """Rebuild a saved game; raises ValueError if the save does not make sense."""
        if data.get("format") != SAVE_FORMAT:
            raise ValueError("not a forage save file")
        deal = Deal.from_code(str(data["deal"]))
        seed = data.get("seed")
        deck = data.get("deck", 1)
        if seed is not None and not isinstance(seed, int):
            raise ValueError("bad seed in save file")
        if not isinstance(deck, int):
            raise ValueError("bad deck in save file")
        session = cls(
            Game(deal, standard_deck()), seed=seed, deck_number=deck, record_path=record_path
        )
        for text in data.get("moves", []):
            outcome = session.game.push(Placement.from_notation(str(text)))
            if not outcome.legal:
                raise ValueError(f"illegal move in save file: {text}")
        session.reset_cursor(centre=True)
        return session


def load_saved(record_path: Path | None = None) -> Session | None:
    """The saved game in progress, or None if there is none (or it cannot be read)."""
    path = save_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            return None
        session = Session.from_save_data(data, record_path)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if session.game.is_over():
        return None
    return session


def forget_saved() -> None:
    """Delete the save file."""
    save_path().unlink(missing_ok=True)
