"""Every value read back from the history file is checked: a row edited to hold what the rules
cannot give is left out and counted, never a crash, a hang or a huge allocation."""

from __future__ import annotations

import getpass
import json
import os
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from history_helpers import played, record

from forage.ai.par import QUICK, ParResult, keep_par, kept_par, par_key
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.history.database import DB_NAME
from forage.history.puzzles import START_RATING, K
from forage.history.stats import distribution
from forage.history.store import HistoryStore
from forage.players import login_name

BIG = 9_223_372_036_854_775_807
"""The largest whole number SQLite stores."""


def two_games(home: Path) -> int:
    """A history of two finished games by ann; the id of the first."""
    with HistoryStore.open(home) as store:
        first = record(store, played(1), "ann", 1, seed=1).game.id
        record(store, played(4), "ann", 2, seed=4)
    return first


def edit(home: Path, sql: str, *args: object) -> None:
    """Change the history file by hand, as anyone can (its CHECK constraints off)."""
    with sqlite3.connect(home / DB_NAME) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute(sql, args)


def forage(home: Path, *args: str, memory: int | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m forage ARGS`` with FORAGE_HOME=home, within ``memory`` bytes of address
    space if given, and at most 30 seconds."""

    def limit() -> None:
        import resource

        assert memory is not None
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "forage", *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={**os.environ, "FORAGE_HOME": str(home), "COLUMNS": "120"},
        preexec_fn=limit if memory is not None else None,
    )


# -- games ------------------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="an address-space limit (RLIMIT_AS)")
def test_forage_stats_leaves_out_a_huge_final_score_at_once(tmp_path: Path) -> None:
    bad = two_games(tmp_path)
    edit(tmp_path, "UPDATE games SET final = ? WHERE id = ?", BIG, bad)
    done = forage(tmp_path, "stats", "--player", "ann", memory=512 * 2**20)
    assert done.returncode == 0, done.stderr[-500:]
    assert "games finished" in done.stdout and "Scores" in done.stdout
    assert done.stderr == "forage: 1 stored game could not be read (left out)\n"
    figures = forage(tmp_path, "stats", "--player", "ann", "--json", memory=512 * 2**20)
    assert json.loads(figures.stdout)["games"] == 1


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("final", BIG),
        ("final", 10_000),
        ("base", -BIG),
        ("bonus", 3),  # a standard game has no recipe bonus, and final is no longer base + bonus
        ("dice_total", 10**6),
        ("mice", -1),
        ("split_dice", 16),
        ("edwood", 2),
        ("moves", 10**9),
        ("hints", -1),
        ("undos", BIG),
        ("par", 10**12),
        ("deck", 7),
        ("stuck", 5),
        ("won", 3),
        ("seed", "1" + "0" * 30),
        ("daily", "someday"),
        ("ended", "late"),
        ("rating", "x" * 10_000),
        ("recipes_met", "1.2.3"),
        ("mode", "recipe"),  # a deal without recipes
        ("mode", "room"),  # a room game with no room
        ("room", "K7MX3QPA"),  # a room for a game not played in one
        ("players", 4),
    ],
)
def test_a_value_the_rules_cannot_give_leaves_its_game_out(
    tmp_path: Path, column: str, value: object
) -> None:
    bad = two_games(tmp_path)
    edit(tmp_path, f"UPDATE games SET {column} = ? WHERE id = ?", value, bad)
    with HistoryStore.open(tmp_path) as store:
        assert [g.id for g in store.games("ann")] == [bad + 1]
        assert store.statistics("ann").games == 1
        assert store.game(bad) is None
        assert store.notice == "1 stored game could not be read (left out)"


def test_a_final_that_is_not_the_base_plus_the_bonus_is_left_out(tmp_path: Path) -> None:
    bad = two_games(tmp_path)
    edit(tmp_path, "UPDATE games SET final = final + 1, base = base + 1 WHERE id = ?", bad)
    with HistoryStore.open(tmp_path) as store:
        assert [g.id for g in store.games("ann")] == [bad + 1]  # base no longer its parts' sum


def test_the_distribution_of_scores_far_apart_lists_the_buckets_that_hold_them() -> None:
    assert distribution([3, 25]) == [(0, 1), (10, 0), (20, 1)]
    assert distribution([0, 10**7, 10**7 + 1]) == [(0, 1), (10**7, 2)]
    assert distribution([-(10**7), 0]) == [(-(10**7), 1), (0, 1)]


def test_a_par_beyond_the_rules_is_no_deals_par(tmp_path: Path) -> None:
    bad = two_games(tmp_path)
    with HistoryStore.open(tmp_path) as store:
        deal = store.games("ann")[-1].deal
        store.set_par(bad, 50, proven=True)
    edit(tmp_path, "UPDATE games SET par = 1e999, par_proven = 1 WHERE id = ?", bad)
    with HistoryStore.open(tmp_path) as store:
        assert store.scoreboard(deal).par is None
        assert store.proven_par(deal) is None
        assert store.notice == "1 stored game could not be read (left out)"


def test_a_daily_deal_of_the_first_date_there_is_is_recorded(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        done = record(store, played(1), "ann", 1, daily=date(1, 1, 1))
        assert done.game.daily == "0001-01-01"


# -- records ----------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [995, 100_000], ids=["just-readable", "too-deep"])
def test_a_record_nested_deep_reads_as_no_record(tmp_path: Path, depth: int) -> None:
    bad = two_games(tmp_path)
    edit(tmp_path, "UPDATE games SET record = ? WHERE id = ?", "[" * depth + "]" * depth, bad)
    done = forage(tmp_path, "history", "--player", "ann", "--json")
    assert done.returncode == 0, done.stderr[-500:]
    records = {g["id"]: g["record"] for g in json.loads(done.stdout)["games"]}
    assert records[bad] is None and records[bad + 1]["format"] == "forage/1"
    export = forage(tmp_path, "history", "--export", str(bad))
    assert export.returncode == 2 and "stored record" in export.stderr


# -- the last player --------------------------------------------------------------------------


def test_a_last_player_that_is_no_name_is_ignored(tmp_path: Path) -> None:
    me = login_name()
    assert me == getpass.getuser()  # the login name the commands fall back on
    with HistoryStore.open(tmp_path) as store:
        record(store, played(1), me, 1)
    edit(tmp_path, "UPDATE settings SET value = X'ff00' WHERE key = 'last_player'")
    with HistoryStore.open(tmp_path) as store:
        assert store.last_player() is None and store.default_player() == me
    done = forage(tmp_path, "history", "--json")
    assert done.returncode == 0, done.stderr
    assert [g["player"] for g in json.loads(done.stdout)["games"]] == [me]


# -- puzzle tries -----------------------------------------------------------------------------


def three_tries(home: Path) -> None:
    """Ann's first tries at puzzles 1 to 3, on three days running."""
    with HistoryStore.open(home) as store:
        for puzzle in (1, 2, 3):
            day = date(2026, 3, puzzle)
            assert store.record_puzzle("ann", puzzle, 1300, day, True, day) is not None


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("rating", "9e999"),
        ("rating", str(BIG)),
        ("rating", str(START_RATING + 3 * K + 1)),  # further than one try moves it
        ("puzzle", "9e999"),
        ("puzzle", "0"),
        ("solved", "2"),
        ("day", "'someday'"),
        ("tried", "X'ff00'"),
    ],
)
def test_a_puzzle_try_the_rules_cannot_give_is_left_out_and_tries_still_recorded(
    tmp_path: Path, column: str, value: str
) -> None:
    three_tries(tmp_path)
    edit(tmp_path, f"UPDATE puzzle_tries SET {column} = {value} WHERE puzzle = 3")
    done = forage(tmp_path, "stats", "--player", "ann", "--json")
    assert done.returncode == 0, done.stderr[-500:]
    assert json.loads(done.stdout)["puzzles"]["tried"] == 2
    assert done.stderr == "forage: 1 stored puzzle try could not be read (left out)\n"
    with HistoryStore.open(tmp_path) as store:
        day = date(2026, 3, 4)
        recorded = store.record_puzzle("ann", 4, 1300, day, True, day)
        assert recorded is not None and recorded.figures.tried == 3
        assert [t.puzzle for t in store.puzzle_tries("ann")] == [1, 2, 4]


def test_a_puzzle_streak_reaching_the_first_date_there_is_is_counted(tmp_path: Path) -> None:
    three_tries(tmp_path)
    edit(tmp_path, "UPDATE puzzle_tries SET day = '0001-01-01', tried = '0001-01-01'")
    with HistoryStore.open(tmp_path) as store:
        figures = store.statistics("ann").puzzles
    assert (figures.tried, figures.streak_best) == (3, 1)


def test_achievements_stored_with_no_name_or_date_are_left_out(tmp_path: Path) -> None:
    two_games(tmp_path)
    with HistoryStore.open(tmp_path) as store:
        assert "first-win" in store.unlocked("ann")
    edit(tmp_path, "UPDATE achievements SET unlocked = 9e999 WHERE id = 'first-win'")
    with HistoryStore.open(tmp_path) as store:
        assert "first-win" not in store.unlocked("ann")
        assert store.notice == "1 stored achievement could not be read (left out)"


# -- analyses ---------------------------------------------------------------------------------


def four_cards() -> Game:
    return Game(Deal(cards=(5, 12, 3, 1)), standard_deck())


@pytest.mark.parametrize(
    "kept",
    [
        '{"score": 1e999, "proven": true, "placements": [], "method": "exact"}',
        '{"score": 12345678, "proven": true, "placements": [], "method": "exact"}',
        '{"score": 40, "proven": true, "placements": ["12@99,99"], "method": "exact"}',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["infinite", "huge", "illegal-line", "nested"],
)
def test_a_kept_par_that_is_no_par_is_worked_out_again(tmp_path: Path, kept: str) -> None:
    game = four_cards()
    with HistoryStore.open(tmp_path) as store:
        keep_par(game, ParResult(40, True, 1.0, [], "exact"), store.analyses, QUICK)
        assert kept_par(game, store.analyses, QUICK) is not None
    edit(tmp_path, "UPDATE analyses SET value = ? WHERE key = ?", kept, par_key(game, QUICK))
    with HistoryStore.open(tmp_path) as store:
        assert kept_par(game, store.analyses, QUICK) is None


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("room", "K7MX-3QPA"),
        ("room", "x" * 1000),
        ("room", b"K7MX3QPA"),  # a blob, not text
        ("placing", 5),  # of 4 players
        ("placing", 0),
        ("players", 0),
        ("players", 10**6),
        ("mode", "standard"),  # a room game's row with the room's fields left on
    ],
)
def test_a_room_game_holding_what_no_room_gives_is_left_out(
    tmp_path: Path, column: str, value: object
) -> None:
    with HistoryStore.open(tmp_path) as store:
        bad = record(store, played(1), "ann", 1, room="K7MX3QPA", placing=2, players=4).game.id
        record(store, played(4), "ann", 2, room="K7MX3QPA", placing=1, players=4)
    edit(tmp_path, f"UPDATE games SET {column} = ? WHERE id = ?", value, bad)
    with HistoryStore.open(tmp_path) as store:
        assert [g.id for g in store.games("ann")] == [bad + 1]
        assert store.notice == "1 stored game could not be read (left out)"
