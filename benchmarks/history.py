"""History benchmarks: opening the file, recording a game, statistics and a deal's scoreboard,
with a player's history of N games already stored.

    uv run python benchmarks/history.py [--games 100 1000 5000] [--json]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.history.games import PlayInfo
from forage.history.store import HistoryStore

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def greedy_game(seed: int) -> Game:
    """A finished game: the best immediate score change each turn."""
    game = Game(Deal.from_seed(seed), standard_deck())
    while not game.is_over():
        game.push(max(game.outcomes(), key=lambda o: o.score_change).placement)
    return game


def fill(folder: Path, deals: list[Game], games: int) -> None:
    """Store ``games`` games: ten through the store, the rest copies made in SQL (quicker)."""
    store = HistoryStore.open(folder)
    for i, game in enumerate(deals[:games]):
        ended = T0 + timedelta(minutes=i)
        store.record(game, PlayInfo("ann", ended, ended))
    store.close()
    conn = sqlite3.connect(folder / "history.sqlite3", isolation_level=None)
    names = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] != "id"]
    columns = ", ".join(names)
    while (count := conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]) < games:
        conn.execute(
            f"INSERT INTO games ({columns}) SELECT {columns} FROM games "
            f"ORDER BY id LIMIT {games - count}"
        )
    conn.close()


def median_ms(work: Callable[[], object], runs: int = 5) -> float:
    """The median time of a few runs, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def measure(games: int) -> dict[str, Any]:
    """The figures with ``games`` games of one player stored (ten deals, played greedily)."""
    deals = [greedy_game(seed) for seed in range(10)]
    with tempfile.TemporaryDirectory() as folder:
        fill(Path(folder), deals, games)
        size = (Path(folder) / "history.sqlite3").stat().st_size
        opened: list[HistoryStore] = []
        open_ms = median_ms(lambda: opened.append(HistoryStore.open(Path(folder))))
        store = opened[-1]
        minute = iter(range(games, games + 100))

        def record() -> None:
            ended = T0 + timedelta(minutes=next(minute))
            store.record(deals[0], PlayInfo("ann", ended, ended))

        figures = {
            "games": games,
            "file_bytes": size,
            "open_ms": open_ms,
            "record_ms": median_ms(record),
            "statistics_ms": median_ms(lambda: store.statistics("ann")),
            "scoreboard_ms": median_ms(lambda: store.scoreboard(deals[0].deal.code)),
        }
        for each in opened:
            each.close()
    return figures


def main() -> None:
    """Print the figures for each history size asked for."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(n) for n in args.games]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{'games':>6} {'file KB':>8} {'open ms':>8} {'record ms':>10} {'stats ms':>9} "
        f"{'board ms':>9}"
    )
    for row in rows:
        print(
            f"{row['games']:>6} {row['file_bytes'] // 1024:>8} {row['open_ms']:>8} "
            f"{row['record_ms']:>10} {row['statistics_ms']:>9} {row['scoreboard_ms']:>9}"
        )


if __name__ == "__main__":
    main()
