"""The review opened from the end screen (`r`) and from the history screen (`g`)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from app_helpers import play_out_quickly, screen_text, session_of, sync
from history_helpers import played, record, stored
from special_files import is_kind, special_file
from textual.widgets import DataTable, Static

from forage.ai.par import QUICK
from forage.ai.review import ReviewSettings
from forage.app.app import ForageApp
from forage.app.recorder import Recorder
from forage.app.screens import EndScreen, GameScreen, HistoryScreen, ReviewScreen
from forage.app.screens import history as history_screen
from forage.app.screens.history import stored_game
from forage.history.report import HISTORY_COLUMNS, WIDE_TABLE, shown_columns
from forage.history.store import HistoryStore
from forage.record import load_game, record_from_game

SMALL = ReviewSettings(samples=4, candidates=2, par_effort=QUICK)


def small_reviews(app: ForageApp) -> ForageApp:
    """The app with quick reviews, in one process."""
    app.review_settings = SMALL
    app.review_workers = 1
    return app


@sync
async def test_r_on_the_end_screen_reviews_the_game_and_q_comes_back() -> None:
    app = small_reviews(ForageApp(seed=4, offer_resume=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        assert "r review your moves" in str(app.screen.query_one("#end-choices", Static).render())
        await pilot.press("r")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.placements == session_of(app).game.moves
        assert len(review.placements) == 8
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)  # the review closes back to the summary


@sync
async def test_closing_a_review_opened_over_the_game_alone_never_ends_the_game() -> None:
    """A review right over the game screen (the end screen it came from already closed by
    a key typed quickly after r) closes back to the game; only the review on its own
    (forage review FILE) ends its app."""
    from forage.app.review_app import ReviewApp
    from forage.app.screens.review import review_screen

    app = small_reviews(ForageApp(seed=4, offer_resume=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = session_of(app).game
        await app.push_screen(review_screen(app, game))
        assert [type(s) for s in app.screen_stack] == [GameScreen, ReviewScreen]
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, GameScreen)
    alone = ReviewApp(game, SMALL, workers=1)
    async with alone.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(alone.screen, ReviewScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not alone.is_running


@sync
async def test_g_lists_the_stored_games_and_enter_reviews_one(forage_home: Path) -> None:
    app = small_reviews(ForageApp(seed=4, offer_resume=False, recorder=Recorder("ann")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        played = list(session_of(app).game.moves)
        final = session_of(app).game.result().score.final
        await pilot.press("a")  # the same deal again, then the list of games
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 1
        assert [str(c.label) for c in table.columns.values()] == [
            HISTORY_COLUMNS[i].heading for i in shown_columns(80)
        ]
        row = table.get_row_at(0)
        assert [str(cell) for cell in row[2:6]] == ["ann", "standard", str(final), "yes"]
        await pilot.press("enter")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.placements == played
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


@sync
async def test_x_on_the_games_list_refuses_a_fifo_in_the_exports_folder(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with HistoryStore.open(forage_home) as store:
        record(store, played(1), "fay", 1)
    (forage_home / "exports").mkdir()
    fifo = special_file(forage_home / "exports", "fifo")
    monkeypatch.setattr(history_screen, "export_name", lambda stored: fifo.name)
    app = ForageApp(seed=4, offer_resume=False, recorder=Recorder("fay"))
    told: list[str] = []
    app.notify = lambda message, **kwargs: told.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("x")
        await pilot.pause()
        note = str(app.screen.query_one("#history-note", Static).render())
    assert told == [] and note == "Not exported: is a pipe (FIFO), not a file."
    assert is_kind(fifo, "fifo")


def test_a_stored_record_that_cannot_be_read_gives_a_one_line_reason() -> None:
    broken = stored(7, record="{not json")
    found = stored_game(broken)
    assert isinstance(found, str) and found.startswith("Game 7's record cannot be read")
    assert "\n" not in found


def test_a_stored_record_replays_to_its_moves() -> None:
    game = played(4)
    text = json.dumps(record_from_game(game, seed=4).to_data())
    found = stored_game(replace(stored(3), record=text))
    assert not isinstance(found, str)
    assert found.moves == game.moves


@sync
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_x_on_the_games_list_writes_the_record(
    forage_home: Path, size: tuple[int, int]
) -> None:
    app = ForageApp(seed=4, offer_resume=False, recorder=Recorder("ann"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        played = [p.notation() for p in session_of(app).game.moves]
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("x")
        await pilot.pause()
        (written,) = (forage_home / "exports").glob("forage-game-*.json")
        assert list(app._notifications) == []  # nothing pops up over the list
        strips = app.screen._compositor.render_strips()
        shown = ["".join(segment.text for segment in strip) for strip in strips]
        said = str(app.screen.query_one("#history-note", Static).render()).split("\n")
        # each line of the note whole on screen: the file's name whole, its folder broken
        # (where it must be) only after a /
        assert all(any(line in row for row in shown) for line in said)
        assert said[0].endswith(f" {written.name}, in the folder:")
        assert "".join(said[1:]) == str(written.parent)
        assert all(line.endswith("/") for line in said[1:-1])
    game, refusal = load_game(written.read_text())
    assert refusal is None and [p.notation() for p in game.moves] == played


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@sync
async def test_the_games_list_keeps_every_deal_code_whole(
    forage_home: Path, size: tuple[int, int]
) -> None:
    with HistoryStore.open(forage_home) as store:  # challenges: the longest codes
        name = "Annabelle-of-the-woods"
        games = [record(store, played(s, recipes=True), name, s) for s in (1, 2, 3)]
    app = ForageApp(seed=4, offer_resume=False, recorder=Recorder("ann"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table = screen.query_one(DataTable)
        headings = [str(c.label) for c in table.columns.values()]
        assert ("par" in headings) == (size[0] >= WIDE_TABLE)
        lines = screen_text(app).splitlines()
    for done in games:
        code = done.game.deal
        assert sum(code in line for line in lines) == 1, (code, lines)


@sync
async def test_reviewing_a_stored_record_nested_deep_says_it_cannot_be_read(
    forage_home: Path,
) -> None:
    import sqlite3

    from history_helpers import record

    from forage.history.database import DB_NAME
    from forage.history.store import HistoryStore

    with HistoryStore.open(forage_home) as store:
        bad = record(store, played(4), "ann", 1).game.id
    with sqlite3.connect(forage_home / DB_NAME) as conn:
        conn.execute(
            "UPDATE games SET record = ? WHERE id = ?", ("[" * 100_000 + "]" * 100_000, bad)
        )
    app = small_reviews(ForageApp(seed=4, offer_resume=False, recorder=Recorder("ann")))
    told: list[str] = []
    app.notify = lambda message, **kwargs: told.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        note = str(app.screen.query_one("#history-note", Static).render())
    assert app.crash is None and told == []
    assert note == f"Game {bad}'s record cannot be read: not a record (JSON nested too deeply)"
