"""The seat kept on disk, with the real command: ``forage room join CODE --name Cid`` in a
terminal of its own, killed (SIGKILL: nothing of it runs after) in the lobby, with a turn
to place, after placing and at the last turn, then ``forage room join CODE`` (no name)
from the same data folder takes the seat back and plays on; the room ends with every
player's record replaying to its final, Cid's game played to its end, the seat forgotten
and the game in Cid's history under the name remembered. The other player (the host)
talks to the same real server through the protocol's client."""

from __future__ import annotations

import asyncio
import functools
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run_forage
from room_serving import Player, check_results, rooms_at, run
from terminal import Terminal

from forage.history.store import HistoryStore
from forage.net.identity import seats
from forage.net.protocol import LAST_TURN, DealOut, EndOut, LobbyOut, ProgressOut, TurnOut
from forage.record import load_game
from forage.settings import Settings, save_settings

CID = 2
"""Cid's number in the room (Ann, the host, is 1)."""
WAIT = 60.0
"""The longest a test waits for any one thing to happen."""


async def ann_until(ann: Player, done: Callable[[], bool], seconds: float = WAIT) -> None:
    """Read Ann's messages until ``done()`` holds, failing after ``seconds``."""
    async with asyncio.timeout(seconds):
        while not done():
            await ann.read()


def cid_connected(ann: Player) -> bool | None:
    """Whether Cid's connection is up, as the last lobby Ann was told says (None: not there)."""
    lobbies = [m for m in ann.told if isinstance(m, LobbyOut)]
    if not lobbies:
        return None
    return next((p.connected for p in lobbies[-1].players if p.player == CID), None)


def cid_has_placed(ann: Player, turn: int) -> bool:
    """Whether Ann has been told Cid placed ``turn`` (or the room went past it)."""
    for message in ann.told:
        if isinstance(message, ProgressOut) and message.turn == turn and CID in message.placed:
            return True
    return past(ann, turn)


def past(ann: Player, turn: int) -> bool:
    """Whether Ann has been told the room went past ``turn`` (the next call, or the end)."""
    return any(
        isinstance(m, EndOut) or (isinstance(m, TurnOut) and m.turn > turn) for m in ann.told
    )


async def cid_places(cid: Terminal, ann: Player, turn: int) -> None:
    """Cid places ``turn`` with the keys a player would use (f: the best spot, enter:
    place), pressed again while Ann has not been told of it (the keys may come before the
    screen has the turn; tab takes the other card where one has no spot)."""
    async with asyncio.timeout(WAIT):
        while not cid_has_placed(ann, turn):
            cid.send("f\r")
            try:
                await ann_until(ann, lambda: cid_has_placed(ann, turn), 2.0)
            except TimeoutError:
                cid.send("\t")


def join_command(code: str, url: str, *name: str) -> tuple[str, ...]:
    """``forage room join CODE --server URL [--name NAME]``."""
    return ("room", "join", code, "--server", url, *name)


async def killed_and_taken_back(cid: Terminal, ann: Player, home: Path, url: str) -> Terminal:
    """Kill Cid's forage, see the server lose it, list the seat, and take it back with a
    new ``forage room join CODE`` (no name): Ann sees Cid connected again."""
    cid.kill()
    await ann_until(ann, lambda: cid_connected(ann) is False)
    env = {**os.environ, "FORAGE_HOME": str(home)}
    listed = await asyncio.to_thread(run_forage, "room", "--server", url, env=env)
    code = ann.room
    assert listed.returncode == 0, listed.stderr
    (line,) = listed.stdout.splitlines()
    assert line.startswith(f"{code[:4]}-{code[4:]}  {url}  ") and line.endswith("(Cid)")
    ann.told.clear()
    back = Terminal(home, *join_command(code, url))
    back.keep_reading()
    await ann_until(ann, lambda: cid_connected(ann) is True)
    return back


@pytest.mark.parametrize("kill_at", ["lobby", "mid-turn", "after placing", "last turn"])
def test_a_killed_client_takes_its_seat_back_and_the_room_finishes(
    tmp_path: Path, kill_at: str
) -> None:
    home = Path(os.environ["FORAGE_HOME"])
    save_settings(Settings(ask_costly=False))  # enter places at once

    async def scenario() -> EndOut:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await rooms.player()
            await ann.create("Ann")
            cid = Terminal(home, *join_command(ann.room, rooms.url, "--name", "Cid"))
            try:
                cid.keep_reading()
                assert await asyncio.to_thread(cid.wait_for, "Waiting for Ann", WAIT)
                if kill_at == "lobby":
                    cid = await killed_and_taken_back(cid, ann, home, rooms.url)
                await ann.client.start()
                await ann.read_until(DealOut)
                assert ann.mirror is not None
                last = LAST_TURN  # a deck has more cards than the turns of a room
                killed = False
                while True:
                    turn = ann.mirror.turn
                    if not killed and (
                        (kill_at == "mid-turn" and turn == 3)
                        or (kill_at == "last turn" and turn == last)
                    ):
                        await ann.place_first()
                        cid = await killed_and_taken_back(cid, ann, home, rooms.url)
                        killed = True
                        await cid_places(cid, ann, turn)
                    elif not killed and kill_at == "after placing" and turn == 4:
                        await cid_places(cid, ann, turn)
                        cid = await killed_and_taken_back(cid, ann, home, rooms.url)
                        killed = True
                        await ann.place_first()
                    else:
                        await ann.place_first()
                        await cid_places(cid, ann, turn)
                    await ann_until(ann, functools.partial(past, ann, turn))
                    end = next((m for m in ann.told if isinstance(m, EndOut)), None)
                    if end is not None:
                        assert killed or kill_at == "lobby"
                        return end
                    assert turn < last
            finally:
                cid.kill()

    end = run(scenario(), seconds=300)
    check_results(end, 2)
    for line in end.results:  # every game played to its end: nobody was waited out
        game, _ = load_game(json.dumps(line.record))
        assert game.is_over(), line.name
    assert {line.name for line in end.results} == {"Ann", "Cid"}


def test_the_seat_is_forgotten_and_the_game_kept_under_the_name_remembered(
    tmp_path: Path,
) -> None:
    home = Path(os.environ["FORAGE_HOME"])
    save_settings(Settings(ask_costly=False))

    async def scenario() -> str:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await rooms.player()
            await ann.create("Ann")
            with Terminal(home, *join_command(ann.room, rooms.url, "--name", "Cid")) as cid:
                cid.keep_reading()
                assert await asyncio.to_thread(cid.wait_for, "Waiting for Ann", WAIT)
                await ann.client.start()
                await ann.read_until(DealOut)
                assert ann.mirror is not None
                while not any(isinstance(m, EndOut) for m in ann.told):
                    turn = ann.mirror.turn
                    await ann.place_first()
                    await cid_places(cid, ann, turn)
                    await ann_until(ann, functools.partial(past, ann, turn))
                async with asyncio.timeout(WAIT):  # the end is Cid's too: the seat goes
                    while seats():
                        await asyncio.sleep(0.05)
                async with asyncio.timeout(WAIT):  # and the game goes into the history
                    while not HistoryStore.read(home).games():
                        await asyncio.sleep(0.05)
            return ann.room

    code = run(scenario(), seconds=300)
    env = {**os.environ, "FORAGE_HOME": str(home)}
    shown = run_forage("history", "--json", env=env)
    (game,) = json.loads(shown.stdout)["games"]
    assert (game["player"], game["room"]) == ("Cid", code)
    listed = run_forage("room", env=env)
    assert listed.stdout == "This data folder holds no seat in a room.\n"
