"""Analyses kept and read back: a deal's par and a review, keyed by what decides them."""

from __future__ import annotations

from pathlib import Path

import pytest

from forage.ai import par as par_module
from forage.ai import review as review_module
from forage.ai.par import QUICK, ParResult, keep_par, kept_par, par, par_key
from forage.ai.review import Settings, review, start_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.history.store import HistoryStore

SMALL = Settings(samples=6, candidates=2, par_effort=QUICK)


class Notebook:
    """A memory in a dict, counting what is asked of it."""

    def __init__(self) -> None:
        """Nothing kept yet."""
        self.kept: dict[tuple[str, str], str] = {}
        self.reads = 0

    def remembered(self, kind: str, key: str) -> str | None:
        """The analysis kept under this key, or None."""
        self.reads += 1
        return self.kept.get((kind, key))

    def remember(self, kind: str, key: str, value: str) -> None:
        """Keep an analysis under this key."""
        self.kept[(kind, key)] = value


def four_card_game() -> Game:
    """A four-card deal of the built-in deck, no move made."""
    return Game(Deal(cards=(5, 12, 3, 1)), standard_deck())


def test_a_par_kept_is_read_back_the_same_without_searching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memory = Notebook()
    game = four_card_game()
    found = par(game, QUICK, memory)
    assert len(memory.kept) == 1
    monkeypatch.setattr(par_module.Searcher, "run", lambda self: pytest.fail("searched again"))
    again = par(game, QUICK, memory)
    assert (again.score, again.proven, again.placements) == (
        found.score,
        found.proven,
        found.placements,
    )
    assert again.seconds == 0.0


def test_the_par_key_changes_with_the_version_moves_and_effort(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = four_card_game()
    key = par_key(game, QUICK)
    assert par_key(game, par_module.FULL) != key
    moved = game.copy()
    moved.push(next(moved.outcomes()))
    assert par_key(moved, QUICK) != key
    monkeypatch.setattr(par_module, "PAR_VERSION", par_module.PAR_VERSION + 1)
    assert par_key(game, QUICK) != key
    assert kept_par(game, Notebook(), QUICK) is None


def test_a_kept_par_that_cannot_be_read_is_worked_out_again() -> None:
    memory = Notebook()
    game = four_card_game()
    memory.remember("par", par_key(game, QUICK), "{not json")
    assert kept_par(game, memory, QUICK) is None
    assert par(game, QUICK, memory).score == par(game, QUICK).score


def test_a_review_uses_the_par_kept_for_its_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    from helpers import play_hints

    game = play_hints(four_card_game(), poor=0)
    start = start_of(game)
    memory = Notebook()
    kept = ParResult(score=99, proven=False, seconds=1.0, placements=[], method="kept")
    keep_par(start, kept, memory, SMALL.par_effort)
    monkeypatch.setattr(review_module, "par", lambda *a: pytest.fail("par searched again"))
    found = review(start_of(game), game.moves, SMALL, workers=1, memory=memory)
    assert found.par.score == 99  # the kept par, not a new search


def test_a_review_keeps_the_par_it_works_out(tmp_path: Path) -> None:
    from helpers import play_hints

    game = play_hints(four_card_game(), poor=0)
    with HistoryStore.open(tmp_path) as memory:
        found = review(start_of(game), game.moves, SMALL, workers=1, memory=memory)
        kept = kept_par(start_of(game), memory, SMALL.par_effort)
    assert kept is not None and kept.placements == par(start_of(game), QUICK).placements
    assert found.par.score >= kept.score
