"""``forage room new`` and ``forage room join CODE``: play with friends in a room on a
rooms server (``forage serve``); ``forage room``: the rooms this data folder holds a seat
in; ``forage daily --online``: the server's daily, a room of one.

The name and the code are checked as the server checks them, and the room is opened or
joined before the screen comes up: a bad name or code, a server that cannot be reached, a
room that is not there or has started are each one line on stderr, exit 2. The seat is
kept in the data folder (:mod:`forage.net.identity`) as soon as the server gives it: a
``join`` of a room whose seat is kept takes it back, at any point of the game, whatever
became of the program that held it. Once the screen is up, a lost connection is said
there and tried again by itself. Textual is imported only once in the room.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Coroutine
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from forage.cli.errors import BadInput, program_line, shortened
from forage.cli.player import player_name, remember_player
from forage.files import os_problem
from forage.i18n import _
from forage.net.identity import Seat, daily_token, keep_daily_token, seat_in, seats
from forage.net.link import Refused, RoomLink, Unreachable
from forage.net.protocol import ErrorCode, name_key, new_token, room_code, room_name
from forage.wording import shown

T = TypeVar("T")


def run_on(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the loop to its end; when interrupted (ctrl+c, a signal's
    exception), it is cancelled and let finish before the interruption goes on, so that
    nothing is left half done to complain on the way out."""
    task = loop.create_task(coroutine)
    try:
        return loop.run_until_complete(task)
    except BaseException:
        task.cancel()
        with contextlib.suppress(BaseException):
            loop.run_until_complete(task)
        raise


def room_player(given: str | None) -> str:
    """The name to play under in a room: ``--name`` (remembered as the data folder's), else
    the last name used, else the login name; BadInput naming the problem if the server
    would refuse it."""
    return player_name(given, "--name", room_name, remember=True)


def refusal_line(refused: Refused, server: str, code: str | None) -> str:
    """The one line for a room the server would not open or let the player into."""
    if refused.code == ErrorCode.NAME_TAKEN:
        return _("--name: {refused} (choose another with --name)").format(refused=shown(refused))
    if refused.code == ErrorCode.NO_ROOM:
        return _("room {code}: no room has that code on {server} (check it with the host)").format(
            code=code, server=server
        )
    if refused.code == ErrorCode.STARTED:
        return _(
            "room {code} has started on {server}, and this data folder holds no seat in it: "
            "take yours back from the computer (or FORAGE_HOME) that joined it, or ask the "
            "host for a new room"
        ).format(code=code, server=server)
    return f"{server}: {shown(refused)}"


def seat_line(seat: Seat) -> str:
    """A seat as ``forage room`` lists it: code, server, turn (or lobby), name."""
    turn = _("turn {turn}").format(turn=seat.turn) if seat.turn else _("lobby")
    from forage.app.lettering import shown_code  # it loads Rich: only for the list of seats

    return f"{shown_code(seat.room)}  {seat.server}  {turn}  ({seat.name})"


def seats_command(server: str | None) -> int:
    """List the rooms this data folder holds a seat in (on ``server`` only, if given)."""
    held = seats(server)
    if not held:
        if server is None:
            print(_("This data folder holds no seat in a room."))
        else:
            print(_("This data folder holds no seat in a room on {server}.").format(server=server))
        return 0
    for seat in held:
        print(seat_line(seat))
    return 0


def held_seat(code: str, server: str, given: str | None) -> Seat | None:
    """The seat this data folder holds in room ``code``, if any; a ``--name`` other than
    the seat's is said (the seat is taken back under its own name)."""
    seat = seat_in(server, code)
    if seat is not None and given is not None and name_key(given.strip()) != name_key(seat.name):
        taking = _(
            "taking back your seat in room {code} as {name} "
            "(it was joined under that name; --name {given} is not used)"
        ).format(code=code, name=repr(seat.name), given=repr(shortened(given)))
        print(program_line(taking), file=sys.stderr)
    return seat


def room_command(args: argparse.Namespace) -> int:
    """Open (``new``) or join a room, or take a seat kept in it back, then play in it on the
    screen until done with it; with neither, list the seats kept."""
    if args.room_command is None:
        return seats_command(args.seats_server)
    code = None
    if args.room_command == "join":
        code = room_code(args.code)
        if code is None:
            raise BadInput(
                _(
                    "CODE: not a room code: {code} (8 letters and digits, "
                    "as the host's screen shows it)"
                ).format(code=repr(shortened(args.code)))
            )
    seat = None if code is None else held_seat(code, args.server, args.name)
    if seat is None:
        name = room_player(args.name)
    else:
        name = seat.name
        remember_player(name)
    loop = asyncio.new_event_loop()
    link = RoomLink(args.server, keep_seat=True)
    try:
        try:
            if code is None:
                run_on(loop, link.create(name, args.recipes, args.deck))
            elif seat is not None:
                run_on(loop, link.rejoin(seat))
            else:
                run_on(loop, link.join(code, name))
        except Unreachable as exc:
            raise BadInput(f"--server: {shown(exc)}") from None
        except Refused as exc:
            if seat is not None and exc.code == ErrorCode.NO_ROOM:
                raise BadInput(
                    _(
                        "room {code}: {server} no longer has it (it has ended, or you left "
                        "it): its seat is forgotten"
                    ).format(code=code, server=args.server)
                ) from None
            raise BadInput(refusal_line(exc, args.server, code)) from None
        if link.seat_problem is not None:
            warning = _(
                "warning: your seat cannot be kept ({problem}): if this "
                "program ends, room {room} cannot be taken back from here"
            ).format(problem=shown(link.seat_problem), room=link.state.room)
            print(program_line(warning), file=sys.stderr)
        return play_room(link, name, loop)
    finally:
        run_on(loop, link.close())
        loop.close()


def play_room(
    link: RoomLink,
    name: str,
    loop: asyncio.AbstractEventLoop,
    online_daily: date | None = None,
) -> int:
    """The room's screens on the terminal, on the event loop that holds the link; the
    player's game is kept in their history under ``name`` (a try of the online daily of
    ``online_daily``, if it is one)."""
    from forage.app.recorder import Recorder  # Textual: only once the room is joined
    from forage.app.room_app import RoomApp
    from forage.cli.play import run_app

    recorder = Recorder(name)
    made: list[RoomApp] = []

    def app() -> RoomApp:
        made.append(RoomApp(link, recorder, online_daily))
        return made[-1]

    try:
        code = run_app(app, loop=loop)
    finally:
        recorder.close()
    if made and made[-1].farewell is not None:
        print(made[-1].farewell)
    return code


def daily_online_command(args: argparse.Namespace) -> int:
    """Play today's try of the server's online daily (registering the name on its first
    try, its token kept in the data folder), then see the day's board."""
    name = room_player(args.name if args.name is not None else args.player)
    token = daily_token(args.server, name)
    made = token is None
    if token is None:  # kept before asking, so that an answer lost on the way costs nothing
        token = new_token()
        try:
            keep_daily_token(args.server, name, token)
        except OSError as exc:
            warning = _(
                "warning: your name's token cannot be kept ({problem}): "
                "{name} cannot be played on {server} from here again"
            ).format(problem=shown(os_problem(exc)), name=repr(name), server=args.server)
            print(program_line(warning), file=sys.stderr)
    loop = asyncio.new_event_loop()
    link = RoomLink(args.server)
    try:
        try:
            run_on(loop, link.daily(name, token))
        except Unreachable as exc:
            raise BadInput(f"--server: {shown(exc)}") from None
        except Refused as exc:
            if exc.code == ErrorCode.PLAYED:
                played = _(
                    "you have played today's online daily on {server} (one "
                    "ranked try a day); its board: forage leaderboard --server {server}"
                ).format(server=args.server)
                print(program_line(played))
                return 0
            if exc.code == ErrorCode.NAME_TAKEN:
                if made:  # the name is someone else's: the token made for it is no use
                    with contextlib.suppress(OSError):
                        keep_daily_token(args.server, name, None)
                raise BadInput(
                    _(
                        "--name: {name} is taken on {server}'s online daily: it was first "
                        "used on another computer, which alone holds its key; choose another name"
                    ).format(name=repr(name), server=args.server)
                ) from None
            raise BadInput(refusal_line(exc, args.server, None)) from None
        if link.state.token != token:  # a server that made its own
            with contextlib.suppress(OSError):
                keep_daily_token(args.server, name, link.state.token)
        return play_room(link, name, loop, online_daily=today_utc())
    finally:
        run_on(loop, link.close())
        loop.close()


def today_utc() -> date:
    """Today, UTC: the online daily's day."""
    return datetime.now(UTC).date()
