"""A game being played on screen: the engine's Game plus the card being placed (the cursor).

Pure Python, no Textual and no I/O: the screen asks this object (and through it the
engine) for every rule, and each change returns what happened; writing the game down is
``forage.app.keeper``'s.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Final

from forage.app import saves
from forage.app.describe import DOT
from forage.app.saves import SAVE_FORMAT
from forage.app.saves import save_path as save_path
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Outcome, Placement, Reason, Rotation
from forage.i18n import _

MAX_SEED: Final = 999_999


def random_seed() -> int:
    """A fresh seed for a new game, small enough to read out and type."""
    return random.SystemRandom().randint(1, MAX_SEED)


_SESSION_KEYS: Final = itertools.count(1)
"""Numbers for sessions, one each (:attr:`Session.key`)."""


class Session:
    """One game on screen: the engine game, how it was dealt, and the card being placed.

    The cursor is a frozen :class:`Placement`: the hand card, its rotation, its top-left
    and any mouse colours chosen with ``c``. Queries (``preview``) never change it.
    """

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        deck_number: int = 1,
        record_path: Path | None = None,
        cursor: Placement | None = None,
    ) -> None:
        """A session of this game; without a cursor, the card to place starts beside the
        woodland, as at the start of every turn."""
        self.game = game
        self.seed = seed
        self.deck_number = deck_number
        self.record_path = record_path
        self.cursor = cursor
        self.hints = 0
        self.undos = 0
        self.started = datetime.now(UTC)
        self.redo_stack: list[Placement] = []
        """Placements undone, the last undone last; a new placement clears it."""
        self.fresh = False
        """The card was just put at its starting spot and the player has not moved it yet."""
        self.player: str | None = None
        """Who plays, if named (``--player``); kept in the save for the history."""
        self.daily: date | None = None
        """The date of the daily deal this game plays, if it is one; kept in the save."""
        self.keeps_history = False
        """The app records this game in the history when it ends: until then the keeper
        keeps the finished game on disk (:meth:`SaveSlot.keep_finished`) rather than
        removing its save."""
        self.finished_file: Path | None = None
        """Where the finished game was kept for the history, once it ended (None before)."""
        self.finished_in_save = False
        """The finished game could not be kept in a file of its own, but the save holds it."""
        self.key = next(_SESSION_KEYS)
        """The session's own number for the run (the history records each session's game
        once under it; unlike ``id()``, never reused by a later session)."""
        if cursor is None:
            self.reset_cursor()

    # -- starting ----------------------------------------------------------------------------

    @classmethod
    def deal_up(
        cls,
        deal: Deal,
        seed: int | None = None,
        deck_number: int = 1,
        record_path: Path | None = None,
        moves: Sequence[Placement] = (),
    ) -> Session:
        """A game on a deal with these moves made (raises ValueError on an illegal one),
        the card to place beside the woodland: every way a session starts."""
        game = Game(deal, standard_deck())
        replayed = game.replay(moves)
        if replayed.refusal is not None:
            raise ValueError(
                f"illegal move {replayed.refusal.placement}: {replayed.refusal.reason}"
            )
        number = deck_number if deal.recipes is None else 1
        return cls(game, seed=seed, deck_number=number, record_path=record_path)

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
            return cls.deal_up(Deal.from_code(deal_code), record_path=record_path)
        if seed is None:
            seed = random_seed()
        deal = Deal.from_seed(seed, recipes=recipes, deck=deck)
        return cls.deal_up(deal, seed, deck, record_path)

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
        if self.seed is not None and self.is_challenge:
            label = _("seed {seed} {dot} recipe challenge")
        elif self.seed is not None:
            label = _("seed {seed} deck {deck} {dot} standard game")
        elif self.is_challenge:
            label = _("deal {code} {dot} recipe challenge")
        else:
            label = _("deal {code} {dot} standard game")
        return label.format(seed=self.seed, deck=self.deck_number, code=self.deal.code, dot=DOT)

    def snapshot(self) -> Game:
        """A copy of the game that another thread may work on."""
        return self.game.copy()

    def same_deal(self) -> Session:
        """A fresh game on the same deal."""
        return Session.deal_up(self.deal, self.seed, self.deck_number, self.record_path)

    def other_deck(self) -> Session | None:
        """The standard game's other nine cards (R12), or None where there is no other deck."""
        if self.is_challenge:
            return None
        if self.seed is not None:
            number = 2 if self.deck_number == 1 else 1
            deal = Deal.from_seed(self.seed, deck=number)
            return Session.deal_up(deal, self.seed, number, self.record_path)
        other = self.deal.other_deck()
        if other is None:
            return None
        return Session.deal_up(other, record_path=self.record_path)

    def new_game(self) -> Session:
        """A new game of the same kind on a fresh random seed."""
        return Session.start(None, None, self.is_challenge, 1, self.record_path)

    # -- the cursor ------------------------------------------------------------------------------

    @property
    def card_number(self) -> int | None:
        """The number of the hand card being placed, or None when the hand is empty."""
        return self.cursor.card if self.cursor is not None else None

    @property
    def selected(self) -> int:
        """The index in the hand of the card being placed (0 when the hand is empty)."""
        hand = self.game.hand
        return hand.index(self.cursor.card) if self.cursor and self.cursor.card in hand else 0

    def card_size(self) -> tuple[int, int]:
        """The (width, height) of the card being placed at its rotation."""
        if self.cursor is None:
            return 0, 0
        return self.game.card(self.cursor.card).size(self.cursor.rotation)

    def limits(self) -> tuple[int, int, int, int]:
        """The cursor's allowed top-left range: up to one card beyond the woodland's edge."""
        x0, y0, x1, y1 = self.game.woodland.bounds()
        width, height = self.card_size()
        return x0 - width, y0 - height, x1 + 1, y1 + 1

    def _put(self, card: int, rotation: Rotation, x: int, y: int) -> Placement:
        """Set the cursor, kept within its limits, without mouse colours; returns it."""
        self.cursor = Placement(card=card, rotation=rotation, x=x, y=y)
        lo_x, lo_y, hi_x, hi_y = self.limits()
        inside = max(lo_x, min(hi_x, x)), max(lo_y, min(hi_y, y))
        if inside != (x, y):
            self.cursor = Placement(card=card, rotation=rotation, x=inside[0], y=inside[1])
        return self.cursor

    def reset_cursor(self) -> None:
        """Start a turn with the first hand card beside the woodland, to the right, level
        with where the last card went (or with the woodland's middle, at a session's
        start): the woodland stays in sight, no drop is shown before the player moves the
        card, and enter there is refused until then."""
        hand = self.game.hand
        if not hand:
            self.cursor = None
            return
        before = self.cursor
        rotation = Rotation.R0 if before is None else before.rotation
        _, y0, x1, y1 = self.game.woodland.bounds()
        height = self.game.card(hand[0]).size(rotation)[1]
        level = (y0 + y1 + 1 - height) // 2 if before is None else before.y
        self._put(hand[0], rotation, x1 + 1, max(y0, min(level, y1 + 1 - height)))
        self.fresh = True

    def move(self, dx: int, dy: int) -> bool:
        """Move the card one area; returns whether it moved (it stops one card past the edge)."""
        here = self.cursor
        if here is None:
            return False
        now = self._put(here.card, here.rotation, here.x + dx, here.y + dy)
        if (now.x, now.y) == (here.x, here.y):
            self.cursor = here  # stopped at the edge: the colours chosen still stand
            return False
        self.fresh = False
        return True

    def rotate(self, clockwise: bool = True) -> None:
        """Turn the card a quarter clockwise or counter-clockwise, where it is: a card
        still where it was dealt stays there, and one on the woodland stays on it."""
        if self.cursor is not None:
            here = self.cursor
            self._put(here.card, here.rotation.turned(clockwise), here.x, here.y)
            self._stay_on(here)

    def choose(self, index: int) -> bool:
        """Take hand card 0 or 1 where the card being placed is (as :meth:`rotate` keeps
        it); returns whether that card exists."""
        hand = self.game.hand
        if not 0 <= index < len(hand) or self.cursor is None:
            return False
        if hand[index] != self.cursor.card:
            here = self.cursor
            self._put(hand[index], here.rotation, here.x, here.y)
            self._stay_on(here)
        return True

    def _stay_on(self, before: Placement) -> None:
        """After the card was turned or swapped at ``before``'s spot: where it covered some
        of the woodland and now covers none, move it the least that makes it cover some
        again (the player did not move it off). A card still where it was dealt stays
        there, waiting (``fresh``)."""
        if self.fresh or self.cursor is None:
            return
        now = self.cursor
        if self._covers(now) or not self._covers(before):
            return
        shifts = sorted(
            ((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3)),
            key=lambda d: (abs(d[0]) + abs(d[1]), abs(d[1]), d),
        )
        for dx, dy in shifts:
            moved = now.model_copy(update={"x": now.x + dx, "y": now.y + dy})
            if self._covers(moved):
                self._put(moved.card, moved.rotation, moved.x, moved.y)
                return

    def _covers(self, placement: Placement) -> bool:
        """Whether a placement covers at least one area of the woodland (R5), by the engine."""
        return self.game.outcome(placement).reason is not Reason.NO_OVERLAP

    def next_card(self) -> None:
        """Take the other hand card."""
        if self.game.hand:
            self.choose((self.selected + 1) % len(self.game.hand))

    def go_to(self, placement: Placement) -> bool:
        """Put the cursor on a placement (a hint, a click); returns whether its card is in hand."""
        if placement.card not in self.game.hand:
            return False
        self.cursor = placement
        self.fresh = False
        return True

    def placement(self) -> Placement | None:
        """The placement the cursor shows, with the mouse colours chosen so far."""
        return self.cursor

    @property
    def waiting(self) -> bool:
        """The card is where it was dealt and cannot go there: nothing the player did, so
        the screen says what to do rather than why not. Changes nothing."""
        if not self.fresh:
            return False
        outcome = self.preview()
        return outcome is not None and not outcome.legal

    def preview(self) -> Outcome | None:
        """The engine's outcome for the cursor's placement; where its default mouse colours
        are refused but a choice of colours is legal, that choice's (R8c). Changes nothing."""
        if self.cursor is None:
            return None
        return self.game.outcome(self.cursor, choose_mice=True)

    def cycle_mouse(self) -> bool:
        """The `c` key: the next legal choice of mouse colours on the split areas (R8c)."""
        outcome = self.preview()
        if outcome is None or not outcome.legal:
            return False
        options = self.game.mouse_options(outcome.placement)
        if len(options) < 2:
            return False
        now = next((i for i, o in enumerate(options) if o == outcome), -1)
        self.cursor = options[(now + 1) % len(options)].placement
        self.fresh = False
        return True

    # -- playing ----------------------------------------------------------------------------------

    def place(self) -> Outcome | None:
        """Make the cursor's placement if legal; the outcome says what happened or why not."""
        outcome = self.preview()
        if outcome is None:
            return None
        if outcome.legal:
            self.game.push(outcome)
            self.redo_stack.clear()
            self.reset_cursor()
        return outcome

    def undo(self) -> Placement | None:
        """Take back the last placement; the cursor goes back to where that card was."""
        if not self.game.moves:
            return None
        placement = self.game.pop()
        self.undos += 1
        self.redo_stack.append(placement)
        self._put(placement.card, placement.rotation, placement.x, placement.y)
        return placement

    def redo(self) -> Outcome | None:
        """Make again the placement last undone (None when there is none to redo)."""
        if not self.redo_stack:
            return None
        outcome = self.game.push(self.redo_stack.pop())
        if not outcome.legal:  # cannot happen: the game is where the undo left it
            self.redo_stack.clear()
            return None
        self.cursor = outcome.placement
        self.reset_cursor()
        return outcome

    # -- saving ---------------------------------------------------------------------------------

    def save_data(self) -> dict[str, Any]:
        """What the save file holds: how the game was dealt, the moves so far, and what the
        history stores with the game."""
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "deal": self.deal.code,
            "seed": self.seed,
            "deck": self.deck_number,
            "moves": [p.notation() for p in self.game.moves],
            "started": self.started.isoformat(),
            "hints": self.hints,
            "undos": self.undos,
        }
        if self.player is not None:
            data["player"] = self.player
        if self.daily is not None:
            data["daily"] = self.daily.isoformat()
        return data

    def carry_on(self, other: Session) -> Session:
        """This new session, told who plays and whether it is recorded, as ``other`` was."""
        self.player, self.keeps_history = other.player, other.keeps_history
        self.daily = other.daily if other.deal == self.deal else None
        return self

    @classmethod
    def from_save_data(cls, data: dict[str, Any], record_path: Path | None = None) -> Session:
        """Rebuild a saved game; raises ValueError if the save does not make sense."""
        save = saves.parse_save(data)
        moves = [Placement.from_notation(text) for text in save.moves]
        session = cls.deal_up(save.deal, save.seed, save.deck, record_path, moves)
        session.player, session.daily = save.player, save.daily
        session.hints, session.undos = save.hints, save.undos
        if save.started is not None:
            session.started = save.started
        return session
