"""Snapshot tests of the room's lobby and results at 80x24 and 120x40, on a link handed the
server's messages (no server: a fixed code, fixed names, a room played out by the pure
room); the big letters of a room code, in blocks and in plain ASCII."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from app_helpers import ascii_output, in_room, room_mode
from rich.cells import cell_len
from room_helpers import first_legal, place_in, room_of, to
from textual.pilot import Pilot
from textual.widgets import Static

from forage.app.describe import ELLIPSIS
from forage.app.lettering import GLYPHS, HEIGHT, big_lines, big_width, shown_code
from forage.app.modes.room import Fit
from forage.app.room_app import RoomApp
from forage.app.screens.results import ResultsScreen, ordinal, results_text, winner_line
from forage.app.screens.rooms import finished_game, places, standings_text
from forage.engine import Deal
from forage.net.link import Connection, RoomLink
from forage.net.protocol import (
    CODE_ALPHABET,
    EndOut,
    JoinedOut,
    LobbyOut,
    LobbyPlayer,
    PlayerStanding,
    ResultLine,
    ServerMessage,
    TurnOut,
)
from forage.net.rooms import Phase

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
Snap = Callable[..., bool]
CODE = "K7MX3QPA"


def told(*messages: ServerMessage) -> RoomLink:
    """A link that has been told these messages, its connection open (no server)."""
    link = RoomLink("http://127.0.0.1:8000")
    link.connection = Connection.OPEN
    for message in messages:
        link.state.follow(message)
    return link


def lobby_of(*players: tuple[str, bool]) -> LobbyOut:
    """A lobby of players (name, connected), the first the host."""
    lines = [
        LobbyPlayer(player=n + 1, name=name, connected=up) for n, (name, up) in enumerate(players)
    ]
    return LobbyOut(room=CODE, players=lines, host=1)


JOINED = JoinedOut(room=CODE, player=1, token="t", host=True)


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_with_a_lost_connection(snap_compare: Snap, size: tuple[int, int]) -> None:
    link = told(JOINED, lobby_of(("Ann", True), ("Bob", True), ("Cy", False)))
    assert snap_compare(RoomApp(link), terminal_size=size)


def played_room(players: int) -> EndOut:
    """The end of a room of ``players`` (seed 7): Ann places where her score gains most,
    the others their first legal placement."""
    room = room_of(players, Deal.from_seed(7))
    room.start(1, 1.0)
    updates = []
    while room.phase is Phase.PLAYING:
        for seat in list(room.seats.values()):
            if seat.playing and seat.placed < room.turn and room.phase is Phase.PLAYING:
                assert seat.game is not None
                outcomes = list(seat.game.outcomes())
                best = max(outcomes, key=lambda o: o.score_change) if seat.player == 1 else None
                placement = (best or outcomes[0]).placement
                updates.append(room.place(seat.player, place_in(room.turn, placement), 1.0))
    [end] = [m for m in to(updates[-1], 1) if isinstance(m, EndOut)]
    return end


@pytest.mark.parametrize("size", SIZES)
def test_the_results_of_a_room_of_three(snap_compare: Snap, size: tuple[int, int]) -> None:
    end = played_room(3)
    link = told(JOINED, lobby_of(("Ann", True), ("Bob", True), ("Cy", True)), end)
    app = RoomApp(link)

    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await app.push_screen(ResultsScreen())
        await pilot.press("tab")  # the second player's woodland
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_the_results_show_the_players_own_woodland_first_whatever_their_place() -> None:
    end = played_room(3)
    cy = JoinedOut(room=CODE, player=3, token="t", host=False)
    link = told(cy, lobby_of(("Ann", True), ("Bob", True), ("Cy", True)), end)
    app = RoomApp(link)
    order = [line.name for line in end.results]
    assert order[0] != "Cy"  # Ann places for the most, the others the first they can

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await app.push_screen(ResultsScreen())
            await pilot.pause()
            caption = app.screen.query_one("#results-caption", Static)
            assert str(caption.content).startswith("Your woodland")
            await pilot.press("tab")
            after = order[(order.index("Cy") + 1) % 3]
            assert str(caption.content).startswith(f"{after}'s woodland")

    asyncio.run(scenario())


@pytest.mark.parametrize("long", ["W" * 40, "李" * 40, "Ann"])
def test_a_long_name_is_cut_with_an_ellipsis_and_keeps_you(long: str) -> None:
    lines = [
        PlayerStanding(player=1, name=long, score=12, placed=1, playing=True, connected=True),
        PlayerStanding(
            player=2, name=long[:-1] + "x", score=3, placed=1, playing=True, connected=True
        ),
    ]
    state = told(JOINED).state
    state.follow(TurnOut(turn=2, card=4, standings=lines))
    side = standings_text(state).plain.splitlines()[1:3]
    assert cell_len(side[0]) == cell_len(side[1])  # the scores stay in one column
    assert " (you)" in side[0] and " (you)" not in side[1]
    assert (ELLIPSIS in side[0]) is (cell_len(long) > 12)
    end = EndOut(
        results=[
            ResultLine(player=p, name=line.name, final=line.score, won=False, record={})
            for p, line in enumerate(lines, 1)
        ]
    )
    table = results_text(end, 1, 0).plain.splitlines()[1:3]
    assert " (you)" in table[0] and cell_len(table[0]) == cell_len(table[1])


def dealt_to_eight() -> RoomLink:
    """Ann's link in a room of eight, dealt and called to turn 2, nobody placed yet."""
    room = room_of(1, Deal.from_seed(7))
    names = ["Ann", *(f"{letter * 12}{n}" for n, letter in enumerate("BCDEFGH", 2))]
    told_ann = [JOINED]
    for number, name in enumerate(names[1:], 2):
        told_ann += to(room.join(name, f"token-{number}", 0.0), 1)
    told_ann += to(room.start(1, 1.0), 1)
    for number in range(1, 9):
        assert room.seats[number].game is not None
        told_ann += to(room.place(number, place_in(1, first_legal(room, number)), 1.0), 1)
    return told(*told_ann)


@pytest.mark.parametrize(("size", "compact"), [((80, 24), True), ((120, 40), False)])
def test_eight_players_fit_the_side_panel_two_a_line_where_one_would_not(
    size: tuple[int, int], compact: bool
) -> None:
    app = RoomApp(dealt_to_eight())

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            for _ in range(20):
                await pilot.pause(0.02)
            screen = app.screen
            assert in_room(screen)
            assert (room_mode(screen).fit is Fit.COMPACT) is compact
            assert screen.query_one("#side").max_scroll_y == 0  # every player on screen
            panel = str(screen.query_one("#players", Static).content)
            assert ("you" in panel.split()) is compact and ("Ann (you)" in panel) is not compact
            assert all(letter in panel for letter in "BCDEFGH")

    asyncio.run(scenario())


def test_the_history_keeps_the_game_played_here_whatever_the_end_says() -> None:
    room = room_of(2, Deal.from_seed(7))
    told_ann: list[ServerMessage] = [JOINED, *to(room.start(1, 1.0), 1)]
    while room.phase is Phase.PLAYING:
        for number in (1, 2):
            seat = room.seats[number]
            if seat.playing and seat.placed < room.turn and room.phase is Phase.PLAYING:
                placement = first_legal(room, number)
                told_ann += to(room.place(number, place_in(room.turn, placement), 1.0), 1)
    end = told_ann[-1]
    assert isinstance(end, EndOut)
    played = next(line.record for line in end.results if line.player == 1)["moves"]
    other = played_room(2).results[0].record  # a record of another game
    forged = [line.model_copy(update={"record": other}) for line in end.results]
    state = told(*told_ann[:-1], end.model_copy(update={"results": forged})).state
    found = finished_game(state, None)
    assert found is not None
    game, info = found
    assert [m.notation() for m in game.moves] == [
        m.notation()
        for m in told(*told_ann).state.game.game().moves  # type: ignore[union-attr]
    ]
    assert len(game.moves) == len(played) and info.player == "Ann"


def test_who_won_a_room_and_the_places_of_a_tie() -> None:
    def line(player: int, name: str, final: int) -> ResultLine:
        return ResultLine(player=player, name=name, final=final, won=final >= 35, record={})

    tie = EndOut(results=[line(2, "Bob", 40), line(1, "Ann", 40), line(3, "Cy", 12)])
    assert places(tie) == [1, 1, 3]
    assert winner_line(tie) == "Bob and Ann share first place with 40 points."
    alone = EndOut(results=[line(1, "Ann", 41), line(2, "Bob", 40)], reason="idle")
    assert winner_line(alone).startswith("Ann wins the room with 41 points. The room ended")
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "21st", "22nd"
    ]  # fmt: skip


def test_every_character_of_a_room_code_has_a_big_glyph_five_by_five() -> None:
    assert set(CODE_ALPHABET) <= set(GLYPHS)
    for char, glyph in GLYPHS.items():
        assert len(glyph) == HEIGHT and len({len(row) for row in glyph}) == 1, char
    lines = big_lines(shown_code(CODE), plain=False)
    assert len(lines) == HEIGHT and {len(line) for line in lines} == {big_width("K7MX-3QPA")}
    assert big_width("K7MX-3QPA") <= 76  # whole at 80 columns, with the lobby's margins
    assert set("".join(lines)) == {"█", " "}
    assert shown_code(CODE) == "K7MX-3QPA"


def test_the_big_code_is_plain_ascii_under_forage_ascii(tmp_path: object) -> None:
    out = ascii_output(
        "from forage.app.lettering import big_lines\nprint('\\n'.join(big_lines('K7MX-3QPA')))",
        tmp_path,  # type: ignore[arg-type]
    )
    assert set(out) <= set("# \n") and "#" in out
    assert out.splitlines()[0].startswith("#   # #####")


def recipe_room_of_eight() -> RoomLink:
    """Ann's link in a recipe room of eight on a fixed clock: turn 2 called at 30 s, all
    but Dee placed, Dee's connection lost at 58 s and Hal gone; the clock at 100 s."""
    room = room_of(1, Deal.from_seed(7, recipes=True))
    told_ann: list[ServerMessage] = [JOINED]
    for number, name in enumerate(["Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"], 2):
        told_ann += to(room.join(name, f"token-{number}", 0.0), 1)
    told_ann += to(room.start(1, 1.0), 1)
    for number in range(1, 9):
        told_ann += to(room.place(number, place_in(1, first_legal(room, number)), 1.0), 1)
    link = RoomLink("http://127.0.0.1:8000", clock=lambda: 100.0)
    link.connection = Connection.OPEN
    for message in told_ann:
        link.state.follow(message, 30.0)
    later = [room.place(n, place_in(2, first_legal(room, n)), 1.0) for n in (1, 2, 3, 5, 6, 7)]
    later += [room.disconnect(4, 2.0), room.leave(8, 3.0)]
    for update in later:
        for message in to(update, 1):
            link.state.follow(message, 58.0)
    return link


def test_a_recipe_room_of_eight_at_80x24_shows_every_standing(snap_compare: Snap) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        for _ in range(20):
            await pilot.pause(0.02)

    app = RoomApp(recipe_room_of_eight())
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
