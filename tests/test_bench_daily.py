"""benchmarks/daily_online.py: a short real run against forage serve on SQLite, its count check
and its cache of worked-out hands."""

from __future__ import annotations

import argparse
from pathlib import Path

from helpers import load_benchmark
from serving import forage_server

from forage.net.daily import Board, BoardEntry
from forage.net.store import RoomStore


def test_a_short_run_plays_every_try_and_counts_the_board(tmp_path: Path) -> None:
    module = load_benchmark("daily_online.py")
    args = argparse.Namespace(players=12, tries=40, requests=8)
    home = tmp_path / "home"
    with forage_server(home, tmp_path) as served:
        store = RoomStore.open(home)
        found = module.measure([served.url], store, args)
        store.close()
    assert found["placements"] == 12 * 8
    assert found["p99"] >= found["p50"] > 0 and found["board_p99"] >= found["board_p50"] > 0
    assert (found["check_players"], found["check_all"]) == ("ok", "ok")


def test_the_count_check_finds_a_try_missing_or_twice() -> None:
    module = load_benchmark("daily_online.py")

    def shown(*names: str) -> Board:
        entries = [
            BoardEntry(rank=i, name=name, final=10 - i, finished="2026-05-01T10:00:00.000000Z")
            for i, name in enumerate(names, 1)
        ]
        return Board.model_validate({"date": "2026-05-01", "entries": entries})

    assert module.count_check(shown("a", "b"), 2) == "ok"
    assert module.count_check(shown("a", "a"), 2) != "ok"
    assert module.count_check(shown("a"), 2) != "ok"
