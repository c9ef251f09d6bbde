"""The terminal client of rooms (``forage room``), driven by the pilot at 80x24 and 120x40
against a real rooms server on a free 127.0.0.1 port, Bob playing the other seat on a plain
link: a whole room to its results and the history's row, whom a turn waits for, a
connection the server drops mid-turn taken back (a placement made meanwhile sent again),
leaving the game and the lobby; the browser game's ``i``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from app_helpers import drive_to, greedy, in_room, room_mode
from room_serving import QUICK, link_place_first, link_play_to_end, link_until, rooms_at, run
from textual.binding import Binding
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static

from forage.app.app import ForageApp
from forage.app.describe import FRIENDS_KEY
from forage.app.lettering import big_lines, shown_code
from forage.app.recorder import Recorder
from forage.app.room_app import RoomApp
from forage.app.screens.confirm import ConfirmScreen
from forage.app.screens.friends import FriendsScreen
from forage.app.screens.game import GameScreen
from forage.app.screens.lobby import LobbyScreen
from forage.app.screens.results import ResultsScreen
from forage.app.widgets import HandView, KeyBar, StatusBar
from forage.history.store import HistoryStore
from forage.net import ROOMS_SERVER_VARIABLE
from forage.net.client import RoomClient
from forage.net.identity import seat_in, seats
from forage.net.link import Connection, RoomLink
from forage.net.protocol import LAST_TURN

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


async def settle(pilot: Pilot[int], check: Callable[[], bool], seconds: float = 15.0) -> None:
    """Let the app run until ``check()`` holds, failing after ``seconds``."""
    async with asyncio.timeout(seconds):
        while not check():
            await pilot.pause(0.02)


def shown(widget: Widget) -> list[str]:
    """The lines a widget draws, as text."""
    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.outer_size))]


def text_of(screen: Widget, selector: str) -> str:
    """What a Static on a screen says, as plain text."""
    return str(screen.query_one(selector, Static).content)


def game_screen(app: RoomApp | ForageApp) -> GameScreen:
    """The room's game screen, on top."""
    screen = app.screen
    assert in_room(screen) and isinstance(screen, GameScreen), screen
    return screen


def headline(app: RoomApp | ForageApp) -> str:
    """The room's game's status headline and last line."""
    state = game_screen(app).query_one(StatusBar).state
    return f"{state.headline} | {state.details} | {state.note}"


async def open_room(url: str, name: str = "Ann", retry: tuple[float, ...] = QUICK) -> RoomLink:
    """A new room on the server, with ``name`` its host."""
    link = RoomLink(url, retry_seconds=retry)
    await link.create(name)
    return link


async def dealt(pilot: Pilot[int], app: RoomApp, url: str) -> RoomLink:
    """Bob joins Ann's room (shown in the app), Ann deals with ``s``; Bob's link, dealt."""
    ann = app.services.room
    assert ann is not None
    await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
    bob = RoomLink(url, retry_seconds=QUICK)
    await bob.join(shown_code(ann.state.room), "Bob")
    await settle(pilot, lambda: len(ann.state.players) == 2)
    await pilot.press("s")
    await settle(pilot, lambda: in_room(app.screen))
    await link_until(bob, lambda link: link.state.game is not None)
    return bob


async def place_by_keys(pilot: Pilot[int], app: RoomApp) -> int:
    """Ann drives her card to the greedy placement and places it with enter; the turn."""
    session = game_screen(app).session
    turn = len(session.game.moves) + 1
    await drive_to(pilot, app, greedy(session).placement)  # type: ignore[arg-type]
    await pilot.press("enter")
    await settle(pilot, lambda: len(game_screen(app).session.game.moves) == turn)
    return turn


@pytest.mark.parametrize("size", SIZES)
def test_a_room_of_two_plays_to_its_results_and_ann_keeps_it_in_her_history(
    tmp_path: Path, forage_home: Path, size: tuple[int, int]
) -> None:
    async def scenario() -> str:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await open_room(rooms.url)
            recorder = Recorder("Ann")
            app = RoomApp(ann, recorder)
            async with app.run_test(size=size) as pilot:
                bob = await dealt(pilot, app, rooms.url)
                side = game_screen(app).query_one("#players")
                woodland = game_screen(app).query_one("#woodland")
                assert side.region.x >= woodland.region.right  # the game screen's grid
                while in_room(app.screen):
                    turn = await place_by_keys(pilot, app)
                    screen = game_screen(app)
                    await settle(pilot, lambda: ann.pending is None)
                    waiting = f"to place turn {turn} (" if turn < 8 else "to finish"
                    await settle(  # the screen has taken the server's answer in
                        pilot,
                        lambda waiting=waiting: waiting in headline(app),  # type: ignore[misc]
                    )
                    players = text_of(screen, "#players")
                    if turn < 8:  # whom the turn waits for, until Bob places
                        assert f"Waiting for Bob to place turn {turn} (" in headline(app)
                        assert "✓ Ann (you)" in players
                        hand = screen.query_one(HandView).state  # the room's turn, not hers
                        assert (hand.turn, hand.waiting) == (turn, "waits for Bob")
                    else:
                        assert "All your cards are placed." in headline(app)
                        assert "Waiting for Bob to finish" in headline(app)
                    await link_place_first(bob)
                    await settle(
                        pilot,
                        lambda turn=turn: (
                            isinstance(app.screen, ResultsScreen)  # type: ignore[misc]
                            or room_mode(game_screen(app)).room_watch.state.turn > turn
                        ),
                    )
                    if in_room(app.screen):
                        assert f"Turn {turn + 1}: the" in headline(app)  # the card called, if any
                        assert "Waiting" not in headline(app)
                results = app.screen
                assert isinstance(results, ResultsScreen)
                end = ann.state.end
                assert end is not None and [r.name for r in end.results] != []
                await settle(pilot, lambda: text_of(results, "#results-table") != "")
                table = text_of(results, "#results-table")
                assert "Ann (you)" in table and "Bob" in table
                assert "wins the room" in text_of(results, "#results-winner") or (
                    "share first place" in text_of(results, "#results-winner")
                )
                # her own woodland first, whatever her place, then Bob's
                assert text_of(results, "#results-caption").startswith("Your woodland")
                await pilot.press("tab")
                assert text_of(results, "#results-caption").startswith("Bob's woodland")
                await settle(pilot, lambda: results.kept != "")
                place = 1 + sum(1 for r in end.results if r.final > ann_final(end))
                assert results.kept == f"Your game is in your history: {ordinal(place)} of 2."
                await pilot.press("q")
                await settle(pilot, lambda: not app.is_running)
            assert app.return_value == 0
            assert ann.connection is Connection.CLOSED
            await bob.close()
            recorder.close()
            return ann.state.room

    code = run(scenario())
    with HistoryStore.open(forage_home) as store:
        (game,) = store.games()
    assert (game.player, game.mode, game.room, game.players) == ("Ann", "room", code, 2)
    assert game.finished and game.moves == 8 and game.placing in (1, 2)
    assert game.to_json()["mode"] == "standard"


def ann_final(end: object) -> int:
    """Ann's final in an end message."""
    return next(r.final for r in end.results if r.name == "Ann")  # type: ignore[attr-defined]


def ordinal(number: int) -> str:
    """1st, 2nd."""
    return {1: "1st", 2: "2nd"}[number]


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_shows_its_code_large_and_whole_and_who_is_here(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await open_room(rooms.url)
            app = RoomApp(ann)
            async with app.run_test(size=size) as pilot:
                await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
                screen = app.screen
                code = screen.query_one("#lobby-code", Static)
                drawn = shown(code)
                big = big_lines(shown_code(ann.state.room))
                for line in big:  # every line of the big code, whole, inside the screen
                    assert any(line.rstrip() in row for row in drawn)
                assert code.region.right <= size[0] and code.region.bottom <= size[1] - 1
                assert "1. Ann (host, you)" in text_of(screen, "#lobby-players")
                # the browser game's key that opens the friends' dialog, whatever it is
                assert f"this server: {FRIENDS_KEY}, then" in text_of(screen, "#lobby-join")
                assert any(
                    (b.key, b.action) == (FRIENDS_KEY, "friends")
                    for b in GameScreen.BINDINGS
                    if isinstance(b, Binding)
                )
                await pilot.press("s")  # alone: the host is told why not
                assert "only you are here" in text_of(screen, "#lobby-status")
                bob = RoomLink(rooms.url)
                await bob.join(ann.state.room, "Bob")
                await settle(pilot, lambda: "2. Bob" in text_of(screen, "#lobby-players"))
                seat = rooms.server.service.seats[(ann.state.room, 2)]
                await seat.socket.close()  # Bob's connection gone: said in the lobby
                await settle(
                    pilot, lambda: "Bob  connection lost" in text_of(screen, "#lobby-players")
                )
                await bob.close()
                await pilot.press("q")
                await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                assert "You can join it again with its code" in str(
                    app.screen.query_one("#question", Static).content
                )
                await pilot.press("y")
                await settle(pilot, lambda: not app.is_running)
            assert ann.state.left

    run(scenario())


def test_a_connection_dropped_mid_turn_is_taken_back_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            back = asyncio.Event()  # Ann's link connects again only once the test says

            async def connect_when_let(server: str) -> RoomClient:
                await back.wait()
                return await RoomClient.connect(server)

            back.set()
            ann = RoomLink(rooms.url, connect=connect_when_let, retry_seconds=QUICK)
            await ann.create("Ann")
            app = RoomApp(ann)
            async with app.run_test(size=(80, 24)) as pilot:
                bob = await dealt(pilot, app, rooms.url)
                await place_by_keys(pilot, app)
                await link_place_first(bob)
                await settle(pilot, lambda: room_mode(game_screen(app)).room_watch.state.turn == 2)
                seat = rooms.server.service.seats[(ann.state.room, ann.state.player)]
                back.clear()
                await seat.socket.close()  # the server ends Ann's connection mid-turn
                await settle(pilot, lambda: ann.connection is Connection.LOST)
                await pilot.pause()
                assert "Connection lost, trying again" in headline(app)
                await place_by_keys(pilot, app)  # placed while the connection is down
                assert ann.pending is not None
                back.set()
                await settle(pilot, lambda: ann.connection is Connection.OPEN)
                await settle(pilot, lambda: ann.connection is Connection.OPEN)
                await settle(pilot, lambda: "Back in the room." in headline(app))
                await settle(pilot, lambda: ann.pending is None)
                assert "Waiting for Bob to place turn 2 (" in headline(app)
                await link_place_first(bob)
                await settle(pilot, lambda: room_mode(game_screen(app)).room_watch.state.turn == 3)
                mine = game_screen(app).session.game
                told = ann.state.game
                assert told is not None and mine.moves == told.moves and len(mine.hand) == 2
                await bob.close()

    run(scenario())


@pytest.mark.parametrize("how", ["q", "signal"])
def test_leaving_the_game_says_what_it_does_and_keeps_it_as_left(
    tmp_path: Path, forage_home: Path, how: str
) -> None:
    """q asks first, saying what leaving does, and the others play on; a stopping signal
    (the terminal closed) keeps the game the same way."""

    async def scenario() -> str:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await open_room(rooms.url)
            recorder = Recorder("Ann")
            app = RoomApp(ann, recorder)
            async with app.run_test(size=(80, 24)) as pilot:
                bob = await dealt(pilot, app, rooms.url)
                await place_by_keys(pilot, app)
                if how == "q":
                    await pilot.press("q")
                    await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                    question = str(app.screen.query_one("#question", Static).content)
                    assert "You leave the room; the others play on." in question
                    await pilot.press("y")
                else:
                    app.stop_on_signal(129)
                await settle(pilot, lambda: not app.is_running)
            if how == "q":
                assert ann.state.left and ann.connection is Connection.CLOSED
                await link_place_first(bob)  # Bob plays on alone: the next card is called
                await link_until(bob, lambda link: link.state.turn == 2)
                assert not bob.state.playing(ann.state.player)
            else:
                assert app.return_value == 129
            await bob.close()
            await ann.close()
            recorder.close()
            return ann.state.room

    code = run(scenario())
    with HistoryStore.open(forage_home) as store:
        (game,) = store.games()
    assert (game.status, game.mode, game.room, game.placing) == ("abandoned", "room", code, None)
    assert game.moves == 1


def test_stopping_for_now_keeps_the_seat_and_says_the_command_that_takes_it_back(
    tmp_path: Path, forage_home: Path
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            await ann.create("Ann")
            app = RoomApp(ann, Recorder("Ann"))
            async with app.run_test(size=(80, 24)) as pilot:
                bob = await dealt(pilot, app, rooms.url)
                await place_by_keys(pilot, app)
                await pilot.press("q")
                await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                command = f"forage room join {shown_code(ann.state.room)} --server {rooms.url}"
                question = str(app.screen.query_one("#question", Static).content)
                assert f"{command} takes it back" in question
                answers = str(app.screen.query_one("#answers", Static).content)
                assert "[b reverse]s[/] stop for now" in answers
                await pilot.press("s")
                await settle(pilot, lambda: not app.is_running)
            assert app.farewell == f"To take the game up again: {command}"
            assert not ann.state.left  # still in the room: the seat waits
            assert [seat.room for seat in seats()] == [ann.state.room]
            await bob.close()
            await ann.close()

    run(scenario())


def test_a_seat_taken_back_once_the_room_has_ended_shows_its_results(
    tmp_path: Path, forage_home: Path
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            await ann.create("Ann")
            bob = RoomLink(rooms.url, retry_seconds=QUICK)
            await bob.join(ann.state.room, "Bob")
            await link_until(ann, lambda link: len(link.state.players) == 2)
            assert await ann.start()
            for turn in range(1, LAST_TURN + 1):  # Ann is gone before the last is answered
                for link in (ann, bob):
                    await link_until(link, lambda link, turn=turn: link.state.turn == turn)
                    game = link.state.game
                    assert game is not None
                    if not game.game().is_over():
                        await link_place_first(link)
                        await link_until(link, lambda link: link.pending is None)
                    if turn == LAST_TURN and link is ann:
                        await ann.close()
            await link_until(bob, lambda link: link.state.end is not None)
            seat = seat_in(rooms.url, ann.state.room)
            assert seat is not None  # the end was never told to Ann's program
            back = RoomLink(rooms.url, retry_seconds=QUICK, keep_seat=True)
            await back.rejoin(seat)
            app = RoomApp(back, Recorder("Ann"))
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
                await pilot.press("q")
                await settle(pilot, lambda: not app.is_running)
            assert seats() == []
            await bob.close()

    run(scenario())


def test_leaving_before_the_first_placement_promises_nothing_and_keeps_nothing(
    tmp_path: Path, forage_home: Path
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await open_room(rooms.url)
            recorder = Recorder("Ann")
            app = RoomApp(ann, recorder)
            async with app.run_test(size=(80, 24)) as pilot:
                bob = await dealt(pilot, app, rooms.url)
                await pilot.press("q")
                await settle(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                question = str(app.screen.query_one("#question", Static).content)
                assert "as left" not in question and "placed no card" in question
                await pilot.press("y")
                await settle(pilot, lambda: not app.is_running)
            await bob.close()
            await ann.close()
            recorder.close()

    run(scenario())
    with HistoryStore.open(forage_home) as store:
        assert store.games() == []


def test_the_help_in_a_room_lists_only_the_keys_a_room_has(tmp_path: Path) -> None:
    from forage.app.screens.help import HelpScreen

    async def scenario() -> str:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await open_room(rooms.url)
            app = RoomApp(ann, Recorder("Ann"))
            async with app.run_test(size=(80, 24)) as pilot:
                bob = await dealt(pilot, app, rooms.url)
                await pilot.press("question_mark")
                await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
                text = text_of(app.screen, "#help-text")
                await bob.close()
            await ann.close()
            return text

    text = run(scenario())
    assert "rotate clockwise" in text and "leave the room (it asks first)" in text
    for gone in ("undo the last placement", "hint: a suggested", "new game", "saved and offered"):
        assert gone not in text


def test_i_in_the_game_joins_a_friends_room_on_the_tabs_server_and_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            monkeypatch.setenv(ROOMS_SERVER_VARIABLE, rooms.url)
            host = await open_room(rooms.url, "Cy")
            recorder = Recorder("Ann")
            app = ForageApp(seed=1, offer_resume=False, recorder=recorder)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.press("i")
                await settle(pilot, lambda: isinstance(app.screen, FriendsScreen))
                dialog = app.screen
                dialog.query_one("#friends-name", Input).value = "Dee"
                dialog.query_one("#friends-code", Input).value = "ABCD2345"
                dialog.query_one("#friends-code", Input).focus()
                await pilot.press("enter")
                await settle(
                    pilot, lambda: text_of(dialog, "#friends-status") == "No room has that code."
                )
                dialog.query_one("#friends-code", Input).value = shown_code(host.state.room).lower()
                await pilot.press("enter")
                await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await link_until(host, lambda link: len(link.state.players) == 2)
                await settle(pilot, lambda: "2. Dee (you)" in text_of(app.screen, "#lobby-players"))
                await pilot.press("q", "y")
                await settle(pilot, lambda: isinstance(app.screen, GameScreen))
                assert app.services.room is None
                await link_until(host, lambda link: len(link.state.players) == 1)
                assert recorder.later(lambda: recorder.player).result(10) == "Dee"
            await host.close()
            recorder.close()
            with HistoryStore.read() as store:  # the name typed is the data folder's
                assert store.last_player() == "Dee"

    run(scenario())


async def ended_pair(url: str) -> tuple[RoomLink, RoomLink]:
    """Ann's room (Ann the host) and Bob's seat in it, played to the end on plain links."""
    ann = await open_room(url)
    bob = RoomLink(url, retry_seconds=QUICK)
    await bob.join(ann.state.room, "Bob")
    await link_until(ann, lambda link: len(link.state.players) == 2)
    assert await ann.start()
    for link in (ann, bob):
        await link_until(link, lambda link: link.state.game is not None)
    await asyncio.gather(link_play_to_end(ann), link_play_to_end(bob))
    return ann, bob


def test_the_hosts_r_on_the_results_opens_a_rematch_whose_lobby_takes_over(
    tmp_path: Path, forage_home: Path
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann, bob = await ended_pair(rooms.url)
            old = ann.state.room
            app = RoomApp(ann, Recorder("Ann"))
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
                results = app.screen
                assert "r opens a new room" in text_of(results, "#results-winner")
                keys = " ".join(shown(results.query_one(KeyBar)))
                assert "Rematch" in keys and "Join the rematch" not in keys
                await pilot.press("r")
                await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
                new = ann.state.room
                assert new != old and ann.state.is_host
                await link_until(bob, lambda link: link.state.rematch is not None)
                await bob.join_rematch()
                await settle(pilot, lambda: len(ann.state.players) == 2)
                await pilot.press("s")
                await settle(pilot, lambda: in_room(app.screen))
                await pilot.press("escape")  # the new game runs; leaving is asked
                await bob.close()

    run(scenario())


def test_the_others_y_on_the_results_joins_the_hosts_rematch(
    tmp_path: Path, forage_home: Path
) -> None:
    async def scenario() -> None:
        async with rooms_at(tmp_path / "server") as rooms:
            ann, bob = await ended_pair(rooms.url)
            app = RoomApp(bob, Recorder("Bob"))
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, lambda: isinstance(app.screen, ResultsScreen))
                results = app.screen
                keys = " ".join(shown(results.query_one(KeyBar)))
                assert "Rematch" not in keys  # neither key until the host opens one
                assert await ann.rematch()
                await link_until(ann, lambda link: link.state.end is None)
                await settle(pilot, lambda: "y joins it" in text_of(results, "#results-winner"))
                assert shown_code(ann.state.room) in text_of(results, "#results-winner")
                await settle(
                    pilot, lambda: "Join the rematch" in " ".join(shown(results.query_one(KeyBar)))
                )
                await pilot.press("y")
                await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
                assert bob.state.room == ann.state.room and bob.state.end is None
                await link_until(ann, lambda link: len(link.state.players) == 2)
                assert await ann.start()
                await settle(pilot, lambda: in_room(app.screen))
                await ann.close()

    run(scenario())
