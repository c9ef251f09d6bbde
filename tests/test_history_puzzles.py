"""A player's puzzle tries in the history: first tries only, the rating, the streak."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path

import pytest

from forage.history.database import DB_NAME, MIGRATIONS
from forage.history.puzzles import (
    START_RATING,
    K,
    PuzzleTry,
    expected,
    puzzle_stats,
    rating_after,
)
from forage.history.store import HistoryStore

DAY = date(2026, 12, 3)


def test_the_rating_moves_by_k_times_the_surprise() -> None:
    assert expected(1200, 1200) == 0.5
    assert rating_after(1200, 1200, True) == 1200 + K // 2
    assert rating_after(1200, 1200, False) == 1200 - K // 2
    # Solving a much harder puzzle gains nearly K; failing a much easier one loses nearly K.
    assert rating_after(1200, 2000, True) == 1200 + round(K * (1 - expected(1200, 2000)))
    assert K - 1 <= rating_after(1200, 2000, True) - 1200 <= K
    assert K - 1 <= 1200 - rating_after(1200, 400, False) <= K


def tries(*days: tuple[int, bool, bool]) -> list[PuzzleTry]:
    """Tries on DAY - offset: (offset, solved, tried on its own day)."""
    return [
        PuzzleTry(i + 1, DAY - timedelta(days=o), DAY - timedelta(days=o if own else o - 1), s, 1)
        for i, (o, s, own) in enumerate(days)
    ]


def test_the_streak_counts_days_solved_on_their_day() -> None:
    stats = puzzle_stats(
        tries((5, True, True), (4, True, True), (2, True, True), (1, True, True)), DAY
    )
    assert (stats.streak_current, stats.streak_best) == (2, 2)  # today still to do
    broken = puzzle_stats(tries((2, True, True), (1, False, True), (0, True, True)), DAY)
    assert (broken.streak_current, broken.streak_best, broken.solved) == (1, 1, 2)
    late = puzzle_stats(tries((1, True, False), (0, True, True)), DAY)  # yesterday's, today
    assert late.streak_current == 1
    assert puzzle_stats(tries((3, True, True)), DAY).streak_current == 0


def test_no_tries_reads_as_the_start() -> None:
    stats = puzzle_stats([], DAY)
    assert (stats.tried, stats.solved, stats.rating, stats.streak_best) == (0, 0, START_RATING, 0)


def test_only_the_first_try_at_a_puzzle_counts(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        first = store.record_puzzle("ann", 7, 1400, DAY, True, DAY)
        assert first is not None
        assert first.figures.rating == rating_after(START_RATING, 1400, True)
        assert store.record_puzzle("ann", 7, 1400, DAY, False, DAY) is None
        second = store.record_puzzle("ann", 8, 1000, DAY + timedelta(days=1), False, DAY)
        assert second is not None
        assert second.figures.rating == rating_after(first.figures.rating, 1000, False)
        assert (second.figures.tried, second.figures.solved) == (2, 1)
        assert [t.puzzle for t in store.puzzle_tries("ann")] == [7, 8]
        assert store.puzzle_tries("bob") == []
        assert store.statistics("ann", DAY).puzzles == second.figures


def test_puzzle_streaks_unlock_achievements(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        unlocked: list[str] = []
        for offset in range(7, 0, -1):
            day = DAY - timedelta(days=offset)
            found = store.record_puzzle("ann", offset, 1200, day, True, day)
            assert found is not None
            unlocked += [a.id for a in found.achievements]
        assert unlocked == ["first-puzzle", "puzzle-three", "puzzle-week"]
        assert {"first-puzzle", "puzzle-three", "puzzle-week"} <= set(store.unlocked("ann"))


def test_a_bad_player_name_stores_nothing(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        assert store.record_puzzle("", 1, 1200, DAY, True, DAY) is None
        assert store.notice is not None and "not recorded" in store.notice


@pytest.mark.parametrize("version", [3])
def test_a_file_from_before_the_puzzles_reads_and_migrates(tmp_path: Path, version: int) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path)
    for migration in MIGRATIONS[:version]:
        for statement in migration:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    with HistoryStore.read(tmp_path) as reading:  # read only: no table, no tries
        assert reading.puzzle_tries("ann") == []
        assert reading.statistics("ann", DAY).puzzles.tried == 0
    with HistoryStore.open(tmp_path) as store:
        assert store.record_puzzle("ann", 1, 1200, DAY, True, DAY) is not None
