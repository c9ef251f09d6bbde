"""The history store: round trips, migrations, two writers, damaged and unusable files."""

from __future__ import annotations

import getpass
import json
import sqlite3
import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest
from history_helpers import GAME_KEYS, T0, played, record

from forage.history import database
from forage.history.database import DB_NAME, MIGRATIONS, SCHEMA_VERSION
from forage.history.games import PlayInfo, game_row
from forage.history.store import HistoryStore
from forage.players import check_player
from forage.record import load_game


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    opened = HistoryStore.open(tmp_path)
    assert opened.enabled and opened.notice is None
    return opened


def test_a_finished_game_round_trips(store: HistoryStore) -> None:
    game = played(7, recipes=True)
    result = game.result()
    done = record(store, game, hints=2, undos=1, seed=7, daily=date(2026, 3, 1), par=60)
    (back,) = store.games()
    assert back == done.game
    assert back.status == "finished" and back.mode == "recipe"
    assert back.deal == game.deal.code and back.seed == 7
    assert back.recipes == game.deal.recipes
    assert back.score == result.score and back.final == result.score.final
    assert back.won is result.won
    assert back.recipes_met == tuple(r.number for r in result.recipes if r.met)
    assert (back.hints, back.undos, back.par, back.daily) == (2, 1, 60, "2026-03-01")
    assert back.started == "2026-03-01T11:55:00Z" and back.ended == "2026-03-01T12:00:00Z"
    replayed, refusal = load_game(back.record)
    assert refusal is None and replayed.result() == result
    shown = back.to_json()
    assert set(shown) >= GAME_KEYS
    assert shown["record"]["format"] == "forage/1"


def test_an_unfinished_game_is_stored_as_abandoned_and_an_untouched_one_not_at_all(
    store: HistoryStore,
) -> None:
    half = played(3, moves=4)
    done = record(store, half)
    assert done.game.status == "abandoned" and done.game.won is None
    assert done.achievements == []
    assert store.record(played(4, moves=0), PlayInfo("ann", T0)) is None
    assert [g.id for g in store.games()] == [done.game.id]
    assert store.finished("ann") == []
    assert store.abandoned_count("ann") == 1


def test_games_come_newest_first_per_player_with_a_limit(store: HistoryStore) -> None:
    game = played(1)
    ids = [
        record(store, game, player, minute).game.id
        for minute, player in enumerate(["ann", "bob", "ann", "ann"])
    ]
    assert [g.id for g in store.games("ann")] == [ids[3], ids[2], ids[0]]
    assert [g.id for g in store.games("ann", limit=2)] == [ids[3], ids[2]]
    assert [g.id for g in store.games()] == ids[::-1]
    assert [g.id for g in store.finished("ann")] == [ids[0], ids[2], ids[3]]


def test_the_default_player_is_the_last_one_used_else_the_login_name(
    store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(getpass, "getuser", lambda: "login")
    assert store.default_player() == "login"
    record(store, played(1), "bob")
    assert store.default_player() == "bob"
    store.set_last_player("  cat ")
    assert store.default_player() == "cat"

    def no_user() -> str:
        raise OSError("no user name")

    monkeypatch.setattr(getpass, "getuser", no_user)
    assert HistoryStore(None, Path("x")).default_player() == "player"


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "tab\there"])
def test_bad_player_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        check_player(name)


def test_a_deals_scoreboard_has_every_players_best(store: HistoryStore) -> None:
    good = played(5)
    best = record(store, good, "ann", 1)
    record(store, good, "bob", 2)
    record(store, played(5, moves=3), "cat", 3)  # abandoned: not on the board
    low = played(5)
    low.pop()
    while not low.is_over():  # a worse finish: the lowest-scoring placement each turn
        low.push(min(low.outcomes(), key=lambda o: o.score_change).placement)
    record(store, low, "bob", 0)
    board = store.scoreboard(good.deal.code)
    final = good.result().score.final
    assert low.result().score.final < final
    assert [(line.player, line.best, line.games) for line in board.lines] == sorted(
        [("ann", final, 1), ("bob", final, 2)], key=lambda t: t[0]
    )
    assert board.par is None
    first = store.scoreboard(good.deal.code, first_only=True)
    assert {line.player: line.best for line in first.lines} == {
        "ann": final,
        "bob": low.result().score.final,
    }
    assert [line.player for line in first.lines] == ["ann", "bob"]
    store.set_par(best.game.id, final + 2, proven=True)
    assert store.scoreboard(good.deal.code).par == final + 2
    assert store.scoreboard("1.2.3").lines == ()


def test_par_can_be_set_later_and_unlocks_the_par_achievement(store: HistoryStore) -> None:
    game = played(2)
    done = record(store, game)
    assert done.game.par is None
    assert "par-matched" not in {a.id for a in done.achievements}
    final = game.result().score.final
    unlocked = store.set_par(done.game.id, final + 3, proven=True)
    assert unlocked == []  # three short of par
    assert store.games()[0].par == final + 3
    unlocked = store.set_par(done.game.id, final, proven=True)
    assert {a.id for a in unlocked} == {"par-matched", "par-unaided"}
    assert store.scoreboard(game.deal.code).par == final
    assert store.set_par(done.game.id, final, proven=True) == []  # only once


def test_the_first_finished_daily_attempt_is_the_one_that_counts(store: HistoryStore) -> None:
    day = date(2026, 3, 1)
    record(store, played(9, moves=2), minute=0, daily=day)  # abandoned
    first = record(store, played(9), minute=1, daily=day)
    record(store, played(9), minute=2, daily=day)
    found = store.daily_result("ann", day)
    assert found is not None and found.id == first.game.id
    assert store.daily_result("ann", day, recipes=True) is None
    assert store.daily_result("bob", day) is None


# -- schema and migrations ---------------------------------------------------------------------


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_an_empty_version_0_file_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    sqlite3.connect(path).close()
    assert _version(path) == 0
    with HistoryStore.open(tmp_path) as opened:
        assert opened.enabled and opened.notice is None
        record(opened, played(1))
    assert _version(path) == SCHEMA_VERSION == 5


def test_a_version_1_file_keeps_its_games_and_gains_par(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO games (player, status, mode, deal, dice_total, mice, split_dice, edwood,"
        " base, bonus, final, rating, stuck, won, moves, started, ended, app_version, record)"
        " VALUES ('old', 'finished', 'standard', '1.2.3', 40, 0, 0, 0, 40, 0, 40, 'A berry"
        " good harvest', 0, 1, 2, '2025-01-01T00:00:00Z', '2025-01-01T00:10:00Z', '0.0.1',"
        ' \'{"format": "forage/1", "deal": [1, 2, 3]}\')'
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with HistoryStore.open(tmp_path) as opened:
        assert opened.notice is None
        (old,) = opened.games("old")
        assert (old.final, old.won, old.par, old.app_version) == (40, True, None, "0.0.1")
        unlocked = {a.id for a in opened.set_par(old.id, 41, proven=False)}
        assert "first-win" in unlocked  # an old win is counted once looked at again
        assert not unlocked & {"par-matched", "par-unaided"}  # 40 is below par 41
        assert opened.games("old")[0].par == 41
    assert _version(path) == SCHEMA_VERSION


def test_a_version_4_file_keeps_every_game_and_id_and_takes_room_games(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path)
    for steps in MIGRATIONS[:4]:
        for statement in steps:
            conn.execute(statement)
    stored = {}
    for number, seed in ((5, 1), (9, 2), (41, 3)):  # ids apart, as deletions would leave them
        row = game_row(played(seed), PlayInfo("ann", T0, T0))
        for added in ("room", "placing", "players"):  # the columns version 4 did not have
            del row[added]
        row["id"] = number
        conn.execute(
            f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
            list(row.values()),
        )
        stored[number] = (row["final"], row["record"])
    conn.execute("INSERT INTO achievements VALUES ('ann', 'first-win', 9, '2026-03-01')")
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    with HistoryStore.open(tmp_path) as opened:
        assert opened.notice is None
        assert {g.id: (g.final, g.record) for g in opened.games()} == stored
        assert opened.unlocked("ann") == {"first-win": "2026-03-01"}
        room = record(opened, played(9), "ann", 9, room="K7MX3QPA", placing=2, players=4)
        assert room.game.id == 42 and room.game.mode == "room"
    assert _version(path) == SCHEMA_VERSION
    with sqlite3.connect(path) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        assert {"games", "games_by_player", "games_by_deal"} <= names
        assert "games_v5" not in names
        with pytest.raises(sqlite3.IntegrityError):  # the mode is still checked
            conn.execute("UPDATE games SET mode = 'duel' WHERE id = 5")


def test_a_room_game_is_stored_with_its_room_and_placing_and_keeps_the_contracts_mode(
    store: HistoryStore,
) -> None:
    game = played(5, recipes=True)
    done = record(store, game, room="K7MX3QPA", placing=2, players=4)
    (back,) = store.games()
    assert back == done.game
    assert (back.mode, back.room, back.placing, back.players) == ("room", "K7MX3QPA", 2, 4)
    shown = back.to_json()
    assert set(shown) >= GAME_KEYS
    assert shown["mode"] == "recipe"  # the contract's two kinds of deal
    assert (shown["room"], shown["placing"], shown["players"]) == ("K7MX3QPA", 2, 4)
    alone = record(store, played(6), minute=1).game.to_json()
    assert (alone["mode"], alone["room"], alone["placing"], alone["players"]) == (
        "standard",
        None,
        None,
        None,
    )


def test_a_file_from_a_newer_forage_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    opened = HistoryStore.open(tmp_path)
    assert not opened.enabled
    assert opened.notice is not None and "newer forage" in opened.notice
    assert _version(path) == 99 and list(tmp_path.iterdir()) == [path]


# -- two games at once, damage, no access ------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from history_helpers import played
    from forage.history.store import HistoryStore
    from forage.history.games import PlayInfo, now_utc
    game = played(int(sys.argv[2]))
    store = HistoryStore.open(Path(sys.argv[1]))
    assert store.enabled, store.notice
    for _ in range(15):
        assert store.record(game, PlayInfo(sys.argv[3], now_utc())) is not None, store.notice
    """
)


def test_two_processes_recording_at_once_both_keep_every_game(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), str(seed), name],
            cwd=root,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed, name in ((1, "ann"), (2, "bob"))
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    with HistoryStore.open(tmp_path) as opened:
        assert len(opened.games("ann")) == 15 and len(opened.games("bob")) == 15


def test_a_damaged_file_is_moved_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    garbage = b"this is not a database\x00\xff" * 100
    path.write_bytes(garbage)
    opened = HistoryStore.open(tmp_path)
    assert opened.enabled
    assert opened.notice is not None and "damaged" in opened.notice
    (aside,) = tmp_path.glob(f"{DB_NAME}.damaged-*")
    assert aside.read_bytes() == garbage
    assert aside.name in opened.notice
    record(opened, played(1))
    assert len(opened.games()) == 1


def test_a_read_only_folder_plays_without_history(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        opened = HistoryStore.open(folder / "data")
        if opened.enabled:  # root ignores permissions: the next test injects the failure
            pytest.skip("permissions are not enforced for this user")
        assert opened.notice is not None and "without history" in opened.notice
        assert opened.record(played(1), PlayInfo("ann", T0)) is None
    finally:
        folder.chmod(0o700)


@pytest.mark.parametrize(
    "error",
    [
        sqlite3.OperationalError("attempt to write a readonly database"),
        PermissionError(13, "Permission denied"),
    ],
)
def test_an_unwritable_history_never_stops_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    def refuse(*args: object, **kwargs: object) -> sqlite3.Connection:
        raise error

    monkeypatch.setattr(database.sqlite3, "connect", refuse)
    opened = HistoryStore.open(tmp_path)
    assert not opened.enabled
    assert opened.notice is not None and "without history" in opened.notice
    assert opened.record(played(1), PlayInfo("ann", T0)) is None
    assert opened.games() == [] and opened.finished("ann") == []
    assert opened.default_player()  # still someone to play as


def test_an_error_after_opening_is_noted_not_raised(store: HistoryStore) -> None:
    assert store._conn is not None
    store._conn.close()  # the file goes away under the game
    assert store.record(played(1), PlayInfo("ann", T0)) is None
    assert store.notice is not None and "could not be used" in store.notice
    assert store.games() == []


def test_analyses_are_kept_in_the_file_and_read_back_by_kind_and_key(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        store.analyses.remember("review", "key", "first")
        store.analyses.remember("review", "key", "second")
        store.analyses.remember("par", "key", "a par")
    with HistoryStore.open(tmp_path) as again:
        assert again.analyses.remembered("review", "key") == "second"
        assert again.analyses.remembered("par", "key") == "a par"
        assert again.analyses.remembered("review", "other key") is None


def test_an_unusable_history_keeps_no_analysis_and_says_why(store: HistoryStore) -> None:
    assert store._conn is not None
    store._conn.close()
    store.analyses.remember("review", "key", "text")
    assert store.analyses.remembered("review", "key") is None
    assert store.notice is not None and "could not be used" in store.notice


def test_the_record_column_is_json_that_names_the_seed(store: HistoryStore) -> None:
    done = record(store, played(11), seed=11)
    data = json.loads(done.game.record)
    assert data["seed"] == 11 and data["deal"] == list(played(11).deal.cards)


def test_a_row_edited_by_hand_is_reported_not_raised(store: HistoryStore) -> None:
    done = record(store, played(1))
    assert store._conn is not None
    store._conn.execute(
        "UPDATE games SET record = 'not json', seed = 'x' WHERE id = ?", (done.game.id,)
    )
    assert store.games() == []
    assert store.notice == "1 stored game could not be read (left out)"
    store._conn.execute("UPDATE games SET seed = NULL WHERE id = ?", (done.game.id,))
    (game,) = store.games()
    assert game.record_json() is None and game.to_json()["record"] is None
