"""What the room's screens say happened and how long a turn has waited: the events derived
from successive states of a link (pure), the link's times, the side panel's columns; and a
recipe room of eight against a real rooms server, piloted at 80x24 and 120x40 on a clock
the test drives (Ann's link's), with every player's standing in view."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from app_helpers import in_room, room_mode
from rich.cells import cell_len
from room_serving import QUICK, link_place_first, link_until, rooms_at, run
from test_rooms import game_screen, headline, settle, text_of

from forage.app.describe import LOST_MARK, OUT_MARK, clock_time
from forage.app.modes.room import Fit
from forage.app.room_app import RoomApp
from forage.app.screens.game import GameScreen
from forage.app.screens.lobby import LobbyScreen
from forage.app.screens.rooms import (
    ROOM_RULES,
    Happened,
    RoomEvent,
    event_line,
    events_line,
    room_events,
    standings_text,
)
from forage.app.widgets import HandView, StatusBar
from forage.net.client import RoomClient
from forage.net.link import RoomLink, RoomSeen, RoomState, SeatSeen
from forage.net.protocol import (
    DealOut,
    JoinedOut,
    LobbyOut,
    LobbyPlayer,
    PlayerStanding,
    ProgressOut,
    TurnOut,
)

WAIT = ROOM_RULES.wait_seconds


def seat(player: int, connected: bool = True, playing: bool = True, lost: float | None = None):  # type: ignore[no-untyped-def]
    """A seat of a room's snapshot."""
    name = ["", "Ann", "Bob", "Cid", "Dee"][player]
    return SeatSeen(player, name, connected, playing, None if connected else lost)


def seen(*seats: SeatSeen, host: int = 1, started: bool = True, at: float = 0.0) -> RoomSeen:
    """Ann's snapshot of a room."""
    return RoomSeen(player=1, host=host, started=started, ended=False, seats=seats, at=at)


def happened(old: RoomSeen, new: RoomSeen) -> list[tuple[Happened, str]]:
    """What happened between two snapshots, by kind and name."""
    return [(e.happened, e.name) for e in room_events(old, new)]


def test_a_lost_connection_and_a_return_are_events_of_players_in_the_game() -> None:
    before = seen(seat(1), seat(2), seat(3))
    lost = seen(seat(1), seat(2, connected=False, lost=5.0), seat(3), at=5.0)
    assert happened(before, lost) == [(Happened.LOST, "Bob")]
    assert happened(lost, seen(seat(1), seat(2), seat(3))) == [(Happened.BACK, "Bob")]
    assert happened(lost, lost) == []
    mine = seen(seat(1, connected=False, lost=1.0), seat(2), seat(3))
    assert happened(before, mine) == []  # the player's own connection is said otherwise


def test_leaving_getting_stuck_and_being_waited_out_are_told_apart() -> None:
    before = seen(seat(1), seat(2), seat(3), seat(4, connected=False, lost=0.0))
    after = seen(
        seat(1),
        seat(2, connected=False, playing=False, lost=10.0),  # left: out as the connection went
        seat(3, playing=False),  # stuck: out, still connected
        seat(4, connected=False, playing=False, lost=0.0),  # lost for the room's wait
        at=WAIT,
    )
    assert happened(before, after) == [
        (Happened.LEFT, "Bob"),
        (Happened.STUCK, "Cid"),
        (Happened.WAITED_OUT, "Dee"),
    ]
    # a leave told in two messages (the lobby, then the progress): lost, then left
    lost = seen(seat(1), seat(2, connected=False, lost=10.0), at=10.0)
    out = seen(seat(1), seat(2, connected=False, playing=False, lost=10.0), at=10.5)
    assert happened(seen(seat(1), seat(2)), lost) == [(Happened.LOST, "Bob")]
    assert happened(lost, out) == [(Happened.LEFT, "Bob")]


def test_the_servers_word_on_who_is_out_is_taken_over_a_guess() -> None:
    from dataclasses import replace

    before = seen(seat(1), seat(2), seat(3, connected=False, lost=0.0))
    left = replace(seat(2, connected=False, playing=False, lost=1.0), status="left")
    dropped = replace(seat(3, connected=False, playing=False, lost=0.0), status="dropped")
    # at once after the wait began: a guess would call Cid's "left"; the lobby says dropped
    assert happened(before, seen(seat(1), left, dropped, at=1.0)) == [
        (Happened.LEFT, "Bob"),
        (Happened.WAITED_OUT, "Cid"),
    ]


def test_a_lobby_says_the_room_is_a_challenge_and_who_is_out_for_good() -> None:
    state = RoomState()
    state.follow(JoinedOut(room="K7MX3QPA", player=2, token="t" * 22, host=False))
    state.follow(
        LobbyOut(
            room="K7MX3QPA",
            players=[
                LobbyPlayer(player=1, name="Ann", connected=True),
                LobbyPlayer(player=2, name="Bob", connected=True),
            ],
            host=1,
            recipes=True,
        )
    )
    assert state.recipes is True  # a joiner knows before the deal
    state.follow(
        LobbyOut(
            room="K7MX3QPA",
            players=[
                LobbyPlayer(player=1, name="Ann", connected=False, status="left"),
                LobbyPlayer(player=2, name="Bob", connected=True),
            ],
            host=2,
            started=True,
            recipes=True,
        )
    )
    assert not state.playing(1) and state.playing(2)


def test_the_host_passing_and_the_lobby_coming_and_going_are_events() -> None:
    lobby = seen(seat(1), seat(2), host=2, started=False)
    grown = seen(seat(1), seat(2), seat(3), host=2, started=False)
    assert happened(lobby, grown) == [(Happened.JOINED, "Cid")]
    gone = seen(seat(1), seat(3), host=1, started=False)
    assert happened(grown, gone) == [(Happened.LEFT, "Bob"), (Happened.HOST, "Ann")]
    line = events_line(grown, gone)
    assert line == "Bob left. You are the host now."
    waited = seen(seat(1), seat(2, connected=False, lost=0.0), host=1, started=False)
    assert happened(waited, seen(seat(1), started=False)) == [(Happened.WAITED_OUT, "Bob")]
    ended = RoomSeen(player=1, host=2, started=True, ended=True, seats=(seat(1),), at=9.0)
    assert room_events(seen(seat(1), seat(2)), ended) == []  # the results say the rest


def test_each_event_is_said_in_a_line_with_the_rooms_wait() -> None:
    assert event_line(RoomEvent(Happened.LOST, 3, "Cid"), 1, True) == (
        "Cid lost the connection; the room waits 2 min for them."
    )
    assert event_line(RoomEvent(Happened.WAITED_OUT, 3, "Cid"), 1, True) == (
        "Cid did not come back within 2 min: out of the game."
    )
    assert event_line(RoomEvent(Happened.HOST, 3, "Cid"), 1, True) == "Cid is the host now."
    assert event_line(RoomEvent(Happened.LEFT, 7, "Gus"), 1, True).startswith("Gus left the room")
    assert [clock_time(s) for s in (0, 7.9, 62, 720, -3)] == [
        "0:00",
        "0:07",
        "1:02",
        "12:00",
        "0:00",
    ]


def lobby(*players: tuple[int, bool]) -> LobbyOut:
    """A lobby of players (number, connected), 1 the host."""
    names = ["", "Ann", "Bob", "Cid"]
    lines = [LobbyPlayer(player=n, name=names[n], connected=up) for n, up in players]
    return LobbyOut(room="K7MX3QPA", players=lines, host=1, started=True)


def test_the_state_keeps_when_each_call_came_and_since_when_a_player_is_lost() -> None:
    state = RoomState()
    state.follow(JoinedOut(room="K7MX3QPA", player=1, token="t", host=True), 0.0)
    deal = DealOut(start=1, hand=[2, 3], recipes=[], deck=1)
    state.follow(deal, 1.0)
    assert (state.called_turn, state.called_at, state.recipes) == (1, 1.0, False)
    state.follow(lobby((1, True), (2, False), (3, True)), 4.0)
    state.follow(lobby((1, True), (2, False), (3, True)), 9.0)
    assert state.lost_since == {2: 4.0}  # since it was first told
    lines = [
        PlayerStanding(
            player=n,
            name=["", "Ann", "Bob", "Cid"][n],
            score=0,
            placed=1,
            playing=n != 3,
            connected=n != 2,
        )
        for n in (1, 2, 3)
    ]
    state.follow(TurnOut(turn=2, card=4, standings=lines), 20.0)
    assert (state.called_turn, state.called_at) == (2, 20.0)
    state.follow(deal, 30.0)  # a rejoin's retelling: the call is not made anew
    state.follow(TurnOut(turn=2, card=4, standings=lines), 30.0)
    assert (state.called_turn, state.called_at) == (2, 20.0)
    assert not state.playing(3)  # told out once: out for good, whatever is retold
    state.follow(ProgressOut(turn=2, placed=[3], waiting=[1, 2]), 31.0)
    assert not state.playing(3)
    state.follow(lobby((1, True), (2, True), (3, True)), 40.0)
    assert state.lost_since == {}


def test_the_side_panels_status_words_are_whole_and_two_a_line_has_a_legend() -> None:
    state = RoomState()
    state.follow(JoinedOut(room="K7MX3QPA", player=1, token="t", host=True))
    state.follow(lobby((1, True), (2, False), (3, True)))
    state.follow(DealOut(start=1, hand=[2, 3], recipes=[], deck=1))
    lines = [
        PlayerStanding(
            player=n, name=name, score=40 + n, placed=1, playing=n != 3, connected=n != 2
        )
        for n, name in ((1, "Ann"), (2, "B" * 30), (3, "Cid"))
    ]
    state.follow(TurnOut(turn=2, card=4, standings=lines))
    for width in (27, 28, 42):
        full = standings_text(state, width=width).plain.splitlines()
        assert full[0] in ("Players · score after turn 1", "Scores after turn 1")
        assert full[2].endswith(" lost") and full[3].endswith("  out")
        assert all(cell_len(line) <= width for line in full)
    compact = standings_text(state, compact=True, width=28).plain.splitlines()
    assert compact[-1] == f"{LOST_MARK} lost · {OUT_MARK} out"
    assert all(cell_len(line) <= 28 for line in compact)


# -- a recipe room of eight on a real server -----------------------------------------------


class Clock:
    """A clock the test moves on."""

    def __init__(self) -> None:
        """At 1000 s."""
        self.now = 1000.0

    def __call__(self) -> float:
        """The time now."""
        return self.now


SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
OTHERS = ("Bob", "Cid", "Dee", "Eve", "Fay", "Gus")


async def tick(screen: GameScreen) -> None:
    """What the screen's timer does each second, at once."""
    room_mode(screen).tick()
    await asyncio.sleep(0)


@pytest.mark.parametrize("size", SIZES)
def test_a_recipe_room_of_eight_shows_everyone_says_what_happens_and_times_the_waits(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    async def scenario() -> None:
        gate = asyncio.Event()
        gate.set()

        async def gated(server: str) -> RoomClient:
            await gate.wait()  # closed: Cid's connection cannot come back yet
            return await RoomClient.connect(server, timeout=10)

        async with rooms_at(tmp_path / "server") as rooms:
            hal = RoomLink(rooms.url, retry_seconds=QUICK)
            await hal.create("Hal", recipes=True)
            code = hal.state.room
            clock = Clock()
            ann = RoomLink(rooms.url, retry_seconds=QUICK, clock=clock)
            await ann.join(code, "Ann")
            others = {}
            for name in OTHERS:
                link = RoomLink(
                    rooms.url, retry_seconds=QUICK, **({"connect": gated} if name == "Cid" else {})
                )
                await link.join(code, name)
                others[name] = link
            app = RoomApp(ann)
            async with app.run_test(size=size) as pilot:
                await settle(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await hal.start()
                await settle(pilot, lambda: in_room(app.screen))
                screen = game_screen(app)
                await settle(pilot, lambda: bool(screen.query("#players")))  # composed
                notes: list[str] = []
                keep = screen.keep_note
                screen.keep_note = lambda text, tone="note": (notes.append(text), keep(text, tone))  # type: ignore[method-assign]
                side = screen.query_one("#side")

                def everyone_in_view() -> bool:
                    panel = text_of(screen, "#players")
                    names = ["you" if size == (80, 24) else "Ann (you)", "Hal", *OTHERS]
                    return side.max_scroll_y == 0 and all(n in panel for n in names)

                await settle(pilot, everyone_in_view)
                assert (room_mode(screen).fit is Fit.FULL) is (size == (120, 40))
                # Ann places: the room's turn and whom it waits for, and since when
                await place_first_by_link(pilot, screen)
                clock.now += 42
                await tick(screen)
                await settle(pilot, lambda: "(0:42 since the call)" in headline(app))
                hand = screen.query_one(HandView).state
                assert (hand.turn, hand.waiting) == (1, "waits for 7 players")
                # Cid's connection goes, and stays away: said, then counted down
                gate.clear()
                await rooms.server.service.seats[(code, others["Cid"].state.player)].socket.close()
                lost = "Cid lost the connection; the room waits 2 min for them."
                await settle(pilot, lambda: lost in notes)
                clock.now += 30
                await tick(screen)
                status = screen.query_one(StatusBar)
                await settle(
                    pilot, lambda: "Cid lost the connection: out in 1:30" in status.state.details
                )
                panel = text_of(screen, "#players")
                assert ("? lost" in panel) if room_mode(screen).fit else (" lost" in panel)
                gate.set()
                await settle(pilot, lambda: "Cid is back." in notes)
                # the host leaves: Ann is the host now, Hal out
                await hal.leave()
                await settle(pilot, lambda: any("You are the host now." in n for n in notes))
                await settle(pilot, lambda: any("Hal left the room" in n for n in notes))
                for name in OTHERS:
                    await link_place_first(others[name])
                await settle(pilot, lambda: room_mode(screen).room_watch.state.turn == 2)
                assert "after turn 1" in text_of(screen, "#players")  # the score column named
                assert everyone_in_view()
                # the others place turn 2; Ann is told they wait for her, after a while
                for name in OTHERS:
                    await link_until(others[name], lambda link: link.state.turn == 2)
                    await link_place_first(others[name])
                await link_until(ann, lambda link: len(link.state.placed_now()) == 6)
                await tick(screen)
                assert "wait for you" not in headline(app)
                clock.now += 25
                await tick(screen)
                await settle(
                    pilot,
                    lambda: "have placed turn 2 and wait for you (0:25)." in headline(app),
                )
                for link in others.values():
                    await link.close()
            await ann.close()
            await hal.close()

    run(scenario())


async def place_first_by_link(pilot: object, screen: GameScreen) -> None:
    """Ann places the first legal placement of her hand, as the screen would."""
    game = screen.session.game
    outcome = next(game.outcomes())
    assert game.push(outcome.placement).legal
    screen.changed()
    room_mode(screen).after_placing(outcome)
    await settle(
        pilot,
        lambda: room_mode(screen).room_watch.link.pending is None and room_mode(screen).waiting(),
    )  # type: ignore[arg-type]
