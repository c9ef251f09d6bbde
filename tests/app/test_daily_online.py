"""The terminal client of the online daily (``forage daily --online``), against a real rooms
server on a free 127.0.0.1 port: a whole try on the room's game screen to its results and
the day's board with the player's place, the try kept in the history (mode
``daily-online``); the name's token kept in the data folder and given back the next time;
a try stopped for now waits, and the next ``daily`` takes it up; the command's one-line
answers."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp import web
from app_helpers import drive_to, greedy, in_room, room_mode
from room_serving import QUICK, rooms_at, run, serving_play
from textual.pilot import Pilot
from textual.widgets import Static

from forage.app.recorder import Recorder
from forage.app.room_app import RoomApp
from forage.app.screens.confirm import ConfirmScreen
from forage.app.screens.results import ResultsScreen
from forage.history.store import HistoryStore
from forage.net.identity import daily_token, keep_daily_token, tokens_path
from forage.net.link import Refused, RoomLink

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


async def settle(pilot: Pilot[int], check: Callable[[], bool], seconds: float = 15.0) -> None:
    """Let the app run until ``check()`` holds, failing after ``seconds``."""
    async with asyncio.timeout(seconds):
        while not check():
            await pilot.pause(0.02)


async def place_one(pilot: Pilot[int], app: RoomApp) -> None:
    """Drive the card to the greedy placement, place it, and wait for the next call."""
    screen = app.screen
    assert in_room(screen)
    session = screen.session
    turn = len(session.game.moves) + 1
    await drive_to(pilot, app, greedy(session).placement)  # type: ignore[arg-type]
    await pilot.press("enter", "enter")  # a costly drop asks for a second enter
    await settle(
        pilot,
        lambda: (
            isinstance(app.screen, ResultsScreen)
            or (in_room(app.screen) and room_mode(app.screen).room_watch.state.turn > turn)
        ),
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_try_of_the_online_daily_plays_to_the_days_board_and_the_history(
    tmp_path: Path, forage_home: Path, size: tuple[int, int]
) -> None:
    async def scenario() -> tuple[str, str]:
        async with rooms_at(tmp_path / "server") as rooms:
            link = RoomLink(rooms.url, retry_seconds=QUICK)
            await link.daily("Ann", None)
            token = link.state.token
            assert token
            recorder = Recorder("Ann")
            app = RoomApp(link, recorder, datetime.now(UTC).date())
            async with app.run_test(size=size) as pilot:
                await settle(pilot, lambda: in_room(app.screen))
                day = datetime.now(UTC).date().isoformat()
                game = app.screen
                assert in_room(game)
                assert game.session.label() == f"online daily {day} · standard game"
                assert game.key_label("quit_game", "Quit") == "Stop for now"
                assert not game.query_one("#players").display  # played alone: no players
                while in_room(app.screen):
                    await place_one(pilot, app)
                results = app.screen
                assert isinstance(results, ResultsScreen)
                await settle(pilot, lambda: results.board is not None)
                title = str(results.query_one("#results-title", Static).content)
                assert title == f"Forage · online daily {day} · results"
                winner = str(results.query_one("#results-winner", Static).content)
                assert "Today's board" in winner and "you are 1st of 1" in winner
                share = (
                    f"To share: Forage online daily {day}: {results.end.results[0].final} points"
                )
                assert f"{share}, 1st of 1" in winner
                (line,) = results.end.results
                verdict = "a win" if line.won else "not a win"
                assert winner.startswith(f"Your try: {line.final} points, {verdict} (35 points")
                assert str(results.query_one("#results-table", Static).content) == ""
                assert results.check_action("step", (1,)) is False
                assert "Your try is in your history." in winner
                await pilot.press("q")
                await settle(pilot, lambda: not app.is_running)
            recorder.close()
            return link.state.room, token

    code, token = run(scenario())
    with HistoryStore.open(forage_home) as store:
        (game,) = store.games()
    assert (game.player, game.mode, game.room) == ("Ann", "daily-online", code)
    assert game.finished and game.daily == datetime.now(UTC).date().isoformat()
    data = game.to_json()
    assert data["online"] is True and data["mode"] == "standard"
    assert token


def test_the_token_of_a_name_is_kept_for_the_player_alone(forage_home: Path) -> None:
    assert daily_token("http://127.0.0.1:8000", "Ann") is None
    keep_daily_token("http://127.0.0.1:8000/", "Ann", "tok-ann")
    keep_daily_token("http://other:8000", "Ann", "tok-other")
    assert daily_token("http://127.0.0.1:8000", "ANN") == "tok-ann"  # as the server compares
    assert daily_token("http://OTHER:8000", "Ann") == "tok-other"
    if os.name == "posix":
        assert stat.S_IMODE(tokens_path().stat().st_mode) == 0o600
    tokens_path().write_text("[not what forage writes", encoding="utf-8")
    assert daily_token("http://127.0.0.1:8000", "Ann") is None  # read as none, no crash


def test_a_try_stopped_for_now_waits_and_the_next_daily_takes_it_up(
    tmp_path: Path, forage_home: Path
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            link = RoomLink(rooms.url, retry_seconds=QUICK)
            await link.daily("Ann", None)
            token = link.state.token
            app = RoomApp(link, Recorder("Ann"), datetime.now(UTC).date())
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, lambda: in_room(app.screen))
                await place_one(pilot, app)
                await pilot.press("q")
                await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                question = app.screen
                assert isinstance(question, ConfirmScreen)
                assert "waits for you" in question.question
                command = f"forage daily --online --name Ann --server {rooms.url}"
                assert command in question.question  # the exact command that takes it up
                await pilot.press("y")
                await settle(pilot, lambda: not app.is_running)
            assert not link.state.left  # the try is not given up
            again = RoomLink(rooms.url, retry_seconds=QUICK)
            await again.daily("Ann", token)  # the same try, one move in
            await asyncio.sleep(0.2)
            game = again.state.game
            assert game is not None and len(game.moves) == 1
            await again.close()
            stranger = RoomLink(rooms.url, retry_seconds=QUICK)
            with pytest.raises(Refused) as refused:
                await stranger.daily("Ann", None)
            assert refused.value.code == "name-taken"

    run(scenario())


def forage_command(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m forage ARGS`` with its own data folder."""
    return subprocess.run(
        [sys.executable, "-m", "forage", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "FORAGE_HOME": str(home)},
    )


def test_the_command_answers_in_one_line(tmp_path: Path) -> None:
    unreachable = forage_command(
        tmp_path / "away", "daily", "--online", "--server", "http://127.0.0.1:9", "--name", "Ann"
    )
    assert unreachable.returncode == 2 and unreachable.stderr.count("\n") == 1
    assert "--server" in unreachable.stderr and "Traceback" not in unreachable.stderr
    mixed = forage_command(tmp_path, "daily", "--online", "--recipes")
    assert mixed.returncode == 2 and "--online" in mixed.stderr
    bad = forage_command(tmp_path, "daily", "--online", "--name", "\x1b[31mAnn")
    assert bad.returncode == 2 and "--name" in bad.stderr
    assert not (tmp_path / "online-daily.json").exists()


def test_a_first_try_whose_answer_is_lost_is_taken_up_with_the_token_kept(
    tmp_path: Path, forage_home: Path
) -> None:
    heard: list[dict[str, object]] = []

    async def hangs_up(request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        heard.append(json.loads((await socket.receive()).data))
        request.transport.abort()  # the answer never comes  # type: ignore[union-attr]
        return socket

    async def lost_answer() -> None:
        async with serving_play(hangs_up) as url:
            done = await asyncio.to_thread(
                forage_command, forage_home, "daily", "--online", "--server", url, "--name", "Ann"
            )
            assert done.returncode == 2 and "Traceback" not in done.stderr

    asyncio.run(lost_answer())
    (asked,) = heard
    token = asked["token"]
    assert asked["type"] == "daily" and isinstance(token, str) and len(token) >= 22
    with_port = next(iter(json.loads(tokens_path().read_text())))
    assert daily_token(with_port, "Ann") == token  # kept: the next try gives it again

    async def next_try() -> None:
        async with rooms_at(tmp_path) as rooms:
            link = RoomLink(rooms.url)
            await link.daily("Ann", token)  # the name registered with it (the answer lost)
            assert link.state.token == token
            await link.close()
            again = RoomLink(rooms.url)
            await again.daily("Ann", token)  # and the same try taken up with it
            assert again.state.room == link.state.room
            await again.close()
            elsewhere = tmp_path / "elsewhere"  # another computer: Ann is someone else's there
            taken = await asyncio.to_thread(
                forage_command,
                elsewhere,
                "daily",
                "--online",
                "--server",
                rooms.url,
                "--name",
                "Ann",
            )
            assert taken.returncode == 2 and "'Ann' is taken" in taken.stderr
            assert "first used on another computer" in taken.stderr
            assert "ann" not in (elsewhere / "online-daily.json").read_text()  # its token dropped
            weak = RoomLink(rooms.url)
            await weak.daily("Bob", "short")  # not 128 bits: the server makes one
            assert weak.state.token != "short" and len(weak.state.token) >= 22
            await weak.close()

    run(next_try())
