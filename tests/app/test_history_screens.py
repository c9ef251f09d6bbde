"""Pilot tests of the history in the app: games recorded, the end screen's panel, `s` statistics."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from app_helpers import drive_to, greedy, play_out_quickly, session_of, sync
from textual.widgets import Static

from forage.app.app import ForageApp
from forage.app.recorder import Recorder, score_changes
from forage.app.screens import ConfirmScreen, EndScreen, StatsScreen
from forage.app.widgets.history import HistoryPanel
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.history.daily import daily_deal, daily_seed
from forage.history.store import HistoryStore
from forage.record import record_from_game


def panel_text(app: ForageApp) -> str:
    """The plain text of the end screen's history panel."""
    return str(app.screen.query_one(HistoryPanel).render())


def app_with(recorder: Recorder, seed: int, recipes: bool = False) -> ForageApp:
    return ForageApp(seed=seed, recipes=recipes, offer_resume=False, recorder=recorder)


@sync
async def test_a_finished_game_is_recorded_once_and_announced(forage_home: Path) -> None:
    recorder = Recorder("ann")
    app = app_with(recorder, 4)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        text = panel_text(app)
        assert "Achievement: First harvest" in text  # greedy wins seed 4 (checked below)
        assert "Scoreboard for this deal" in text and "ann" in text
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("enter")  # the same game ends again: not recorded twice
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert "Achievement" not in panel_text(app)
        final = session_of(app).game.result()
    with HistoryStore.open(forage_home) as store:
        (game,) = store.games()
        assert (game.player, game.status, game.seed) == ("ann", "finished", 4)
        assert game.undos == 0  # the undo came after the game was recorded
        assert game.won is final.won is True
        assert store.last_player() == "ann"


@sync
async def test_a_new_game_records_the_one_left_as_abandoned(forage_home: Path) -> None:
    app = app_with(Recorder("bob"), 4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        first = greedy(session).placement
        await drive_to(pilot, app, first)
        await pilot.press("enter", "u")
        await pilot.pause()
        await drive_to(pilot, app, first)
        await pilot.press("enter", "t")  # one placement (and an undo), one hint asked for
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert session_of(app) is not session
    with HistoryStore.open(forage_home) as store:
        (game,) = store.games("bob")
        assert (game.status, game.moves, game.won) == ("abandoned", 1, None)
        assert (game.hints, game.undos) == (1, 1)


@sync
async def test_the_statistics_screen_opens_and_closes(forage_home: Path) -> None:
    app = app_with(Recorder("cat"), 4)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await pilot.press("a")  # the same deal again, then its statistics
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        figures = app.screen.query_one("#stats-figures", Static)
        assert figures.display
        score = session_of(app).game  # the new, empty game; the first one's score is stored
        assert score.moves == []
        trend = str(app.screen.query_one("#stats-trend", Static).render())
        assert len(trend) == 1
        screen = app.screen
        assert screen.stats is not None and screen.stats.games == 1
        assert "first-win" in screen.unlocked
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


@pytest.mark.parametrize(("key", "notice"), [("s", "#stats-off"), ("g", "#history-off")])
@sync
async def test_without_history_the_statistics_and_games_screens_say_so(
    key: str, notice: str
) -> None:
    app = ForageApp(seed=1, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        assert "History is off" in str(app.screen.query_one(notice, Static).render())
        await pilot.press("r")  # the games screen has nothing to review: nothing happens
        await pilot.pause()
        assert app.screen.query(notice)


@sync
async def test_the_daily_deal_shows_its_share_line(forage_home: Path) -> None:
    day = date(2026, 12, 1)
    recorder = Recorder("dan", daily=day)
    app = app_with(recorder, daily_seed(day))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert session_of(app).deal == daily_deal(day)
        title = str(app.screen.query_one("#title", Static).content)
        assert "daily deal 2026-12-01 · standard game" in title
        await play_out_quickly(pilot, app)
        text = panel_text(app)
        assert "Forage daily 2026-12-01" in text and daily_deal(day).code not in text
    with HistoryStore.open(forage_home) as store:
        assert store.games("dan")[0].daily == "2026-12-01"


def test_the_share_lines_changes_are_each_moves_score_change() -> None:
    game = Game(Deal.from_seed(5, recipes=True), standard_deck())
    changes = []
    while not game.is_over():
        changes.append(game.push(max(game.outcomes(), key=lambda o: o.score_change)).score_change)
    assert len(changes) == len(game.moves) and any(changes)
    assert score_changes(record_from_game(game).to_json()) == changes
    assert score_changes("not a record") == []


@sync
async def test_a_damaged_history_is_announced_and_play_goes_on(forage_home: Path) -> None:
    forage_home.mkdir(parents=True, exist_ok=True)
    (forage_home / "history.sqlite3").write_bytes(b"garbage" * 100)
    app = app_with(Recorder("eve"), 4)
    told: list[str] = []
    app.notify = lambda message, **kwargs: told.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        await pilot.pause()
        assert len(told) == 1 and "damaged" in told[0] and "history.sqlite3.damaged-" in told[0]
        assert "ann" not in panel_text(app) and "eve" in panel_text(app)
    assert len(list(forage_home.glob("history.sqlite3.damaged-*"))) == 1


@sync
async def test_pass_and_play_the_end_screen_ranks_everyone_on_the_deal(forage_home: Path) -> None:
    for name in ("ann", "bob"):
        app = app_with(Recorder(name), 4)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            await play_out_quickly(pilot, app)
            text = panel_text(app)
            final = session_of(app).game.result().score.final
    assert f"{final:>3}  won  ann" in text and f"{final:>3}  won  bob" in text


@sync
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_row_edited_by_hand_is_left_out_of_s_and_g_and_counted(
    forage_home: Path, size: tuple[int, int]
) -> None:
    import sqlite3

    from history_helpers import played, record

    from forage.app.screens import HistoryScreen
    from forage.history.database import DB_NAME

    with HistoryStore.open(forage_home) as store:
        record(store, played(1), "fay", 1)
        bad = record(store, played(2), "fay", 2).game.id
    with sqlite3.connect(forage_home / DB_NAME) as conn:
        conn.execute("UPDATE games SET final = 'abc' WHERE id = ?", (bad,))
    app = app_with(Recorder("fay"), 4)
    told: list[str] = []
    app.notify = lambda message, **kwargs: told.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert app.screen.stats is not None and app.screen.stats.games == 1
        await pilot.press("escape", "g")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert app.screen.games is not None and len(app.screen.games) == 1
    assert app.crash is None
    assert "1 stored game could not be read (left out)." in told


def edited_history(home: Path, sql: str) -> None:
    """Fay's game of seed 4 and her tries at puzzles 1 and 2, then ``sql`` run on the file
    by hand (``?`` is the game's id)."""
    import sqlite3

    from history_helpers import played, record

    from forage.history.database import DB_NAME

    with HistoryStore.open(home) as store:
        game = record(store, played(4), "fay", 1, seed=4).game.id
        for puzzle in (1, 2):
            day = date(2026, 3, puzzle)
            assert store.record_puzzle("fay", puzzle, 1300, day, True, day) is not None
    with sqlite3.connect(home / DB_NAME) as conn:
        conn.execute(sql, (game,) if "?" in sql else ())


@pytest.mark.parametrize(
    ("sql", "games", "tried", "notice"),
    [
        ("UPDATE games SET final = 10000 WHERE id = ?", 0, 2, "1 stored game"),
        ("UPDATE puzzle_tries SET rating = 9e999 WHERE puzzle = 2", 1, 1, "1 stored puzzle try"),
    ],
    ids=["final", "puzzle-rating"],
)
@sync
async def test_s_leaves_out_a_stored_value_the_rules_cannot_give(
    forage_home: Path, sql: str, games: int, tried: int, notice: str
) -> None:
    edited_history(forage_home, sql)
    app = app_with(Recorder("fay"), 4)
    told: list[str] = []
    app.notify = lambda message, **kwargs: told.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        stats = app.screen.stats
        assert stats is not None and (stats.games, stats.puzzles.tried) == (games, tried)
    assert app.crash is None
    assert f"{notice} could not be read (left out)." in told


@sync
async def test_the_end_screen_takes_no_par_beyond_the_rules_from_the_history(
    forage_home: Path,
) -> None:
    edited_history(forage_home, "UPDATE games SET par = 1e999, par_proven = 1 WHERE id = ?")
    app = app_with(Recorder("fay"), 4)
    told: list[str] = []
    app.notify = lambda message, **kwargs: told.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        text = panel_text(app)
        assert "Scoreboard for this deal" in text and "fay" in text and "par" not in text
    assert app.crash is None
    assert "1 stored game could not be read (left out)." in told
