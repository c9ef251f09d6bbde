"""Analyses kept and read back: a deal's par and a review, keyed by what decides them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forage.ai import par as par_module
from forage.ai import review as review_module
from forage.ai.memory import kept
from forage.ai.par import QUICK, ParResult, keep_par, kept_par, par, par_key
from forage.ai.review import ReviewSettings, review, start_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.history.store import HistoryStore

SMALL = ReviewSettings(samples=6, candidates=2, par_effort=QUICK)


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


def test_an_analysis_is_read_back_from_its_kind_and_key_and_one_unreadable_is_none() -> None:
    memory = Notebook()
    assert kept(memory, "par", "key", int) is None
    memory.remember("par", "key", "41")
    assert kept(memory, "par", "key", int) == 41
    assert kept(memory, "review", "key", int) is None
    assert kept(memory, "par", "other key", int) is None
    memory.remember("par", "key", "forty-one")
    assert kept(memory, "par", "key", int) is None


STORED_PAR = (
    '{"score": 14, "proven": true, "placements": ["3r180@0,-1", "1r270@-2,0", "12r90@-1,0"], '
    '"method": "exact"}'
)
"""A par of :func:`four_card_game` as the history file keeps it."""


def test_a_par_as_the_history_keeps_it_is_read_back_and_written_the_same() -> None:
    memory = Notebook()
    game = four_card_game()
    memory.remember("par", par_key(game, QUICK), STORED_PAR)
    found = kept_par(game, memory, QUICK)
    assert found is not None
    assert (found.score, found.proven, found.method) == (14, True, "exact")
    assert [p.notation() for p in found.placements] == ["3r180@0,-1", "1r270@-2,0", "12r90@-1,0"]
    keep_par(game, found, memory, QUICK)
    assert memory.kept[("par", par_key(game, QUICK))] == STORED_PAR


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
    monkeypatch.setattr(par_module, "par", lambda *a: pytest.fail("par searched again"))
    found = review(start_of(game), game.moves, SMALL, workers=1, memory=memory)
    assert found.par.score == 99  # the kept par, not a new search


def test_a_review_keeps_the_par_it_works_out(tmp_path: Path) -> None:
    from helpers import play_hints

    game = play_hints(four_card_game(), poor=0)
    with HistoryStore.open(tmp_path) as store:
        found = review(start_of(game), game.moves, SMALL, workers=1, memory=store.analyses)
        kept = kept_par(start_of(game), store.analyses, SMALL.par_effort)
    assert kept is not None and kept.placements == par(start_of(game), QUICK).placements
    assert found.par.score >= kept.score


class WorkedOutAgain(Exception):
    """The review's moves were worked out again: what was kept was not used."""


@pytest.fixture(scope="module")
def kept_review() -> tuple[Game, str]:
    """A four-card game and its review as kept."""
    from helpers import play_hints

    game = play_hints(four_card_game(), poor=0)
    memory = Notebook()
    review(start_of(game), game.moves, SMALL, workers=1, memory=memory)
    (text,) = (v for (kind, _), v in memory.kept.items() if kind == "review")
    return game, text


def _first_card_far_away(notation: str) -> str:
    """The same card placed where no woodland reaches."""
    return notation.split("r")[0].split("@")[0] + "@40,40"


EDITS = {
    "index-infinite": lambda d: d["moves"][0].update(index="INF"),
    "index-out-of-place": lambda d: d["moves"][0].update(index=1),
    "placement-of-another-move": lambda d: d["moves"][0].update(placement=d["moves"][1]["best"]),
    "score-after-infinite": lambda d: d["moves"][0].update(score_after="INF"),
    "best-illegal": lambda d: d["moves"][0].update(
        best=_first_card_far_away(d["moves"][0]["best"])
    ),
    "expected-infinite": lambda d: d["moves"][0]["expected"].__setitem__(0, "INF"),
    "loss-infinite": lambda d: d["moves"][0].update(loss="INF"),
    "label-unknown": lambda d: d["moves"][0].update(label="brilliant"),
    "orders-more-than-sampled": lambda d: d["moves"][0].update(orders=10**9),
    "par-score-infinite": lambda d: d["par"].update(score="INF"),
    "par-line-illegal": lambda d: d["par"].update(
        placements=[_first_card_far_away(d["par"]["placements"][0])]
    ),
}


@pytest.fixture
def no_new_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Working a move out raises WorkedOutAgain."""

    def worked_out_again(*args: object) -> object:
        raise WorkedOutAgain

    monkeypatch.setattr(review_module, "review_move", worked_out_again)
    monkeypatch.setattr(par_module, "par", worked_out_again)


def keep(game: Game, text: str) -> Notebook:
    """A memory holding ``text`` as the kept review of a game."""
    memory = Notebook()
    key = review_module.review_key(start_of(game), game.moves, SMALL)
    memory.remember("review", key, text)
    return memory


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
@pytest.mark.usefixtures("no_new_work")
def test_a_kept_review_that_is_no_review_of_the_game_is_worked_out_again(
    kept_review: tuple[Game, str], edit: Any
) -> None:
    game, text = kept_review
    data = json.loads(text)
    edit(data)
    memory = keep(game, json.dumps(data).replace('"INF"', "1e999"))
    with pytest.raises(WorkedOutAgain):
        review(start_of(game), game.moves, SMALL, workers=1, memory=memory)


@pytest.mark.usefixtures("no_new_work")
def test_a_kept_review_nested_deep_is_worked_out_again(kept_review: tuple[Game, str]) -> None:
    game, _ = kept_review
    memory = keep(game, "[" * 100_000 + "]" * 100_000)
    with pytest.raises(WorkedOutAgain):
        review(start_of(game), game.moves, SMALL, workers=1, memory=memory)


@pytest.mark.usefixtures("no_new_work")
def test_a_kept_review_as_it_was_kept_is_read_back(kept_review: tuple[Game, str]) -> None:
    game, text = kept_review
    found = review(start_of(game), game.moves, SMALL, workers=1, memory=keep(game, text))
    assert review_module.stored_review(found) == text
