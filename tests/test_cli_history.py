"""``forage stats``, ``history`` and ``daily --code`` in a fresh process with FORAGE_HOME set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from helpers import run_forage
from history_helpers import GAME_KEYS, STATS_KEYS, played, record
from special_files import is_kind, special_file

from forage.history.database import DB_NAME
from forage.history.store import HistoryStore


def forage(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m forage`` with FORAGE_HOME=home."""
    return run_forage(*args, env={**os.environ, "FORAGE_HOME": str(home), "COLUMNS": "120"})


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with games by ann (3 finished, 1 abandoned) and, last, bob."""
    folder = tmp_path_factory.mktemp("home")
    with HistoryStore.open(folder) as store:
        record(store, played(1), "ann", 1, seed=1)
        record(store, played(2, recipes=True), "ann", 2, seed=2, hints=1)
        record(store, played(3, moves=3), "ann", 3)
        record(store, played(4), "ann", 4, daily=date(2026, 3, 1), undos=2)
        record(store, played(5), "bob", 5)
    return folder


def test_stats_json_has_the_contract_keys(home: Path) -> None:
    done = forage(home, "stats", "--player", "ann", "--json")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert set(stats) >= STATS_KEYS
    finals = [played(1), played(2, recipes=True), played(4)]
    scores = [g.result().score.final for g in finals]
    assert stats["player"] == "ann" and stats["games"] == 3
    assert stats["wins"] == sum(1 for g in finals if g.result().won)
    assert stats["best"] == max(scores)
    assert stats["mean"] == round(sum(scores) / 3, 2)
    assert set(stats["streak"]) == {"current", "best"}
    assert stats["recipe_challenges"]["played"] == 1
    assert all({"id", "name", "unlocked", "date"} <= set(a) for a in stats["achievements"])


def test_stats_defaults_to_the_last_player(home: Path) -> None:
    done = forage(home, "stats", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["player"] == "bob"


def test_stats_as_tables(home: Path) -> None:
    done = forage(home, "stats", "--player", "ann")
    assert done.returncode == 0, done.stderr
    assert "Statistics of ann" in done.stdout and "Achievements" in done.stdout
    assert "First harvest" in done.stdout


def test_history_json_is_newest_first_and_its_records_replay(home: Path, tmp_path: Path) -> None:
    done = forage(home, "history", "--player", "ann", "--json")
    assert done.returncode == 0, done.stderr
    games = json.loads(done.stdout)["games"]
    assert len(games) == 4
    assert all(set(g) >= GAME_KEYS for g in games)
    assert [g["ended"] for g in games] == sorted((g["ended"] for g in games), reverse=True)
    assert games[0]["daily"] == "2026-03-01" and games[0]["undos"] == 2
    assert games[1]["won"] is None  # the abandoned game
    assert {g["mode"] for g in games} == {"standard", "recipe"}
    path = tmp_path / "stored.json"
    path.write_text(json.dumps(games[-1]["record"]), encoding="utf-8")
    replayed = forage(home, "replay", str(path), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["score"]["final"] == games[-1]["final"]
    limited = json.loads(
        forage(home, "history", "--player", "ann", "--limit", "2", "--json").stdout
    )
    assert [g["id"] for g in limited["games"]] == [g["id"] for g in games[:2]]


def test_history_as_a_table(home: Path) -> None:
    done = forage(home, "history", "--player", "ann")
    assert done.returncode == 0, done.stderr
    assert "left" in done.stdout and "2026-03-01" in done.stdout


def test_daily_code_prints_the_days_deal(tmp_path: Path) -> None:
    done = forage(tmp_path, "daily", "--date", "2026-12-01", "--code")
    assert (done.returncode, done.stdout) == (0, "5.10.6.4.16.13.17.14.7\n")
    done = forage(tmp_path, "daily", "--date", "2026-12-01", "--recipes", "--code")
    assert done.stdout == "15.17:14.11.12.6.10.8.13.5.2\n"
    today = forage(tmp_path, "daily", "--code")
    assert today.returncode == 0 and today.stdout.count(".") == 8


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["daily", "--date", "2026-02-30", "--code"], "--date"),
        (["stats", "--player", "  "], "--player"),
        (["history", "--limit", "0"], "--limit"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], names: str) -> None:
    done = forage(tmp_path, *args)
    assert done.returncode == 2
    assert names in done.stderr and "Traceback" not in done.stderr
    if args[0] != "history":  # argparse adds its usage line
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("forage: ")


def test_a_damaged_history_is_an_error_naming_the_file_not_an_empty_one(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"\x00garbage" * 64)
    for command in ("stats", "history"):
        done = forage(tmp_path, command, "--json")
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and str(tmp_path / DB_NAME) in done.stderr
        assert done.stdout == ""
    assert (tmp_path / DB_NAME).read_bytes() == b"\x00garbage" * 64  # read only: left be


def test_a_history_that_is_a_folder_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).mkdir()
    for command in ("stats", "history"):
        done = forage(tmp_path, command, "--json")
        assert done.returncode == 2 and "is a folder" in done.stderr
        assert str(tmp_path / DB_NAME) in done.stderr and done.stderr.count("\n") == 1


def test_a_history_locked_past_the_wait_is_an_error_naming_it(tmp_path: Path) -> None:
    import sqlite3

    with HistoryStore.open(tmp_path) as store:
        record(store, played(1), "ann", 1)
    (tmp_path / DB_NAME).with_name(DB_NAME + "-wal").unlink(missing_ok=True)
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("PRAGMA journal_mode = DELETE")
    other.execute("BEGIN EXCLUSIVE")
    try:
        done = forage(tmp_path, "stats", "--player", "ann", "--json")
    finally:
        other.close()
    assert done.returncode == 2 and "locked" in done.stderr, done.stderr
    assert str(tmp_path / DB_NAME) in done.stderr


def test_reading_the_history_writes_nothing(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        record(store, played(1), "ann", 1)
    before = (tmp_path / DB_NAME).read_bytes()
    assert forage(tmp_path, "stats", "--json").returncode == 0
    assert forage(tmp_path, "history", "--json").returncode == 0
    assert (tmp_path / DB_NAME).read_bytes() == before  # (SQLite's reader may add -shm)


@pytest.mark.parametrize(
    ("column", "value"), [("final", "abc"), ("recipes", "a.b"), ("moves", "x"), ("deck", 1.5)]
)
def test_a_row_edited_by_hand_is_left_out_and_counted(
    tmp_path: Path, column: str, value: object
) -> None:
    import sqlite3

    with HistoryStore.open(tmp_path) as store:
        record(store, played(1), "ann", 1)
        bad = record(store, played(2, recipes=True), "ann", 2).game.id
        record(store, played(3), "ann", 3)
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, bad))
    stats = forage(tmp_path, "stats", "--player", "ann", "--json")
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["games"] == 2
    assert stats.stderr == "forage: 1 stored game could not be read (left out)\n"
    history = forage(tmp_path, "history", "--player", "ann", "--json")
    assert history.returncode == 0
    assert [g["id"] for g in json.loads(history.stdout)["games"]] == [bad + 1, bad - 1]
    assert "1 stored game could not be read" in history.stderr
    table = forage(tmp_path, "history", "--player", "ann")
    assert table.returncode == 0 and "Traceback" not in table.stderr


def test_the_history_commands_do_not_import_textual(tmp_path: Path) -> None:
    code = (
        "import sys; from forage.cli import main;"
        "main(['stats', '--json']); main(['history', '--json']);"
        "main(['daily', '--code']);"
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    env = {**os.environ, "FORAGE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr


def test_a_history_that_does_not_exist_reads_as_empty(tmp_path: Path) -> None:
    """FORAGE_HOME below a plain file: there is no history there, so none is shown."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    done = forage(blocker / "home", "stats", "--player", "ann", "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["games"] == 0
    history = forage(blocker / "home", "history", "--player", "ann", "--json")
    assert history.returncode == 0 and json.loads(history.stdout) == {"games": []}


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[object, ...], dict[str, object]]]:
    """Calls to the game's entry point, which is not started."""
    import forage.cli.play

    calls: list[tuple[tuple[object, ...], dict[str, object]]] = []

    def fake_run_game(*args: object, **kwargs: object) -> int:
        calls.append((args, kwargs))
        return 0

    monkeypatch.setattr(forage.cli.play, "run_game", fake_run_game)
    return calls


def test_daily_starts_the_game_on_the_days_deal(
    launched: list[tuple[tuple[object, ...], dict[str, object]]],
) -> None:
    from forage.cli import main
    from forage.history.daily import daily_seed

    assert main(["daily", "--date", "2026-12-01", "--recipes", "--player", " zed "]) == 0
    ((args, kwargs),) = launched
    seed = daily_seed(date(2026, 12, 1), recipes=True)
    assert args == (seed, None, True, 1, None)
    assert kwargs == {"player": "zed", "daily": date(2026, 12, 1)}


def test_play_passes_the_player_on_and_refuses_a_bad_name(
    launched: list[tuple[tuple[object, ...], dict[str, object]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    from forage.cli import main

    assert main(["--seed", "3", "--player", "amy"]) == 0
    assert launched[0][1] == {"player": "amy", "offer_learn": False}
    assert main(["play", "--player", "\x1b[2J"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("forage: --player:") and err.count("\n") == 1
    assert len(launched) == 1


def test_history_fits_80_columns_with_every_deal_code_whole(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        for minute, seed in enumerate((2, 7, 11)):
            record(store, played(seed, recipes=True), "a-player-with-a-long-name", minute)
        codes = [g.deal for g in store.games()]
    done = run_forage("history", env={**os.environ, "FORAGE_HOME": str(tmp_path), "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    heading = next(line for line in lines if line.lstrip().startswith("id"))
    assert heading.split() == ["id", "ended", "player", "mode", "final", "won", "deal"]
    for code in codes:
        assert sum(code in line for line in lines) == 1  # whole, on one line


def test_history_export_writes_a_record_that_replays(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        done = record(store, played(2, recipes=True), "ann", 1)
    target = tmp_path / "out" / "game.json"
    exported = forage(tmp_path, "history", "--export", str(done.game.id), str(target))
    assert exported.returncode == 0, exported.stderr
    game = done.game.id
    said = f"Game {game}'s record written to {target}; watch it with: forage review {target}\n"
    assert exported.stdout == said
    assert json.loads(target.read_text()) == json.loads(done.game.record)
    replayed = forage(tmp_path, "replay", str(target), "--json")
    assert replayed.returncode == 0
    assert json.loads(replayed.stdout)["score"]["final"] == done.game.final
    to_stdout = forage(tmp_path, "history", "--export", str(game))
    assert json.loads(to_stdout.stdout) == json.loads(done.game.record)


def test_history_export_to_a_fifo_is_refused_and_leaves_it(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        done = record(store, played(1), "ann", 1)
    fifo = special_file(tmp_path, "fifo")
    exported = forage(tmp_path, "history", "--export", str(done.game.id), str(fifo))
    assert exported.returncode == 2 and exported.stdout == ""
    assert exported.stderr == f"forage: --export FILE {fifo}: is a pipe (FIFO), not a file\n"
    assert is_kind(fifo, "fifo")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--export", "99"], "no stored game"),
        (["--export", "0"], "--export"),
        (["stray.json"], "goes with --export"),
    ],
)
def test_history_export_errors_are_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    with HistoryStore.open(tmp_path) as store:
        record(store, played(1), "ann", 1)
    done = forage(tmp_path, "history", *args)
    assert done.returncode == 2 and words in done.stderr
    assert "Traceback" not in done.stderr


def test_stats_and_history_in_plain_ascii_draw_in_ascii(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        for seed in range(1, 4):
            record(store, played(seed), "Annabelle-of-the-woods", seed, seed=seed)
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), "COLUMNS": "80"}
    for command in ("stats", "history"):
        drawn = run_forage(command, env=env)
        plain = run_forage(command, env={**env, "FORAGE_ASCII": "1"})
        assert drawn.returncode == 0 and not drawn.stdout.isascii(), drawn
        assert plain.returncode == 0, plain.stderr
        assert plain.stdout.isascii(), plain.stdout
        assert "Annabel..." in plain.stdout or "Annabelle-of-the-woods" in plain.stdout
    assert "Annabel..." in plain.stdout and "------" in plain.stdout
