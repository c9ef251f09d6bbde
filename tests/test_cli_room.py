"""``forage room new`` and ``forage room join``: their one-line errors, exit 2, before any
screen (a bad code or name, a server that cannot be reached, a room that is not there, a
name taken, a room started), Textual not loaded for them; and a browser tab's game told
where its server's rooms are."""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from aiohttp.test_utils import make_mocked_request
from helpers import run_forage
from serving import forage_server, free_port

from forage.cli.game_server import game_command
from forage.cli.serve import _make_server
from forage.cli.serve_rooms import room_server
from forage.history.store import HistoryStore
from forage.net import ROOMS_CLIENT_VARIABLE, ROOMS_SERVER_VARIABLE
from forage.net.client import RoomClient
from forage.net.protocol import JoinedOut, LobbyOut


def home_env(home: Path) -> dict[str, str]:
    """The environment with FORAGE_HOME=home."""
    return {**os.environ, "FORAGE_HOME": str(home)}


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("join", "ZZ"),
            "forage: CODE: not a room code: 'ZZ' (8 letters and digits, as the host's "
            "screen shows it)",
        ),
        (("new", "--name", "a[b"), "forage: --name: a player name cannot hold [ (got 'a[b')"),
        (("new", "--name", " "), "forage: --name: a player name cannot be empty (got ' ')"),
        (
            ("new", "--server", "http://[::1"),
            "forage: --server: not a server address: 'http://[::1' (give one as http://HOST:PORT)",
        ),
        (
            ("new", "--recipes", "--deck", "2"),
            "forage: a recipe challenge has no deck 2 (RULINGS R12): drop --deck 2",
        ),
    ],
)
def test_bad_room_options_are_one_line_exit_2(
    tmp_path: Path, args: tuple[str, ...], line: str
) -> None:
    done = run_forage("room", *args, env=home_env(tmp_path))
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")


def test_room_without_new_or_join_is_one_line_exit_2(tmp_path: Path) -> None:
    done = run_forage("room", "open", env=home_env(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("forage: argument new|join: invalid choice: 'open'")


def test_a_server_that_cannot_be_reached_is_one_line_exit_2(tmp_path: Path) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    done = run_forage("room", "new", "--name", "Ann", "--server", nowhere, env=home_env(tmp_path))
    assert done.returncode == 2
    assert done.stderr == (
        f"forage: --server: cannot reach {nowhere} (connection refused): "
        "is forage serve running there?\n"
    )


@pytest.mark.parametrize("command", [("room", "join", "ABCD-EFGH"), ("daily", "--online")])
def test_ctrl_c_while_a_server_never_answers_ends_quietly(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent:  # takes the connection, says nothing
        silent.settimeout(30)
        port = silent.getsockname()[1]
        words = [*command, "--name", "Ann", "--server", f"http://127.0.0.1:{port}"]
        process = subprocess.Popen(
            [sys.executable, "-m", "forage", *words],
            env=home_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        held, _ = silent.accept()  # the handshake under way
        with held:
            time.sleep(0.5)
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stderr == ""


def test_the_last_name_used_is_checked_as_the_server_checks_names(tmp_path: Path) -> None:
    with HistoryStore.open(tmp_path) as store:
        store.set_last_player("Zed <3")
    done = run_forage(
        "room", "new", "--server", f"http://127.0.0.1:{free_port()}", env=home_env(tmp_path)
    )
    assert done.returncode == 2
    assert done.stderr == (
        "forage: --name: a player name cannot hold < (got 'Zed <3'; give another with --name)\n"
    )


def test_a_room_not_there_a_name_taken_or_a_room_started_is_one_line_exit_2(
    tmp_path: Path,
) -> None:
    home = tmp_path / "player"

    async def open_room(url: str) -> tuple[RoomClient, RoomClient, str, str]:
        ann = await RoomClient.connect(url)
        await ann.create("Ann")
        joined = await ann.receive(10)
        assert isinstance(joined, JoinedOut)
        cy = await RoomClient.connect(url)
        await cy.create("Cy")
        other = await cy.receive(10)
        assert isinstance(other, JoinedOut)
        return ann, cy, joined.room, other.room

    async def start(client: RoomClient, url: str, code: str) -> RoomClient:
        dee = await RoomClient.connect(url)
        await dee.join(code, "Dee")
        assert isinstance(await dee.receive(10), JoinedOut)
        await client.start()
        while not (isinstance(m := await client.receive(10), LobbyOut) and m.started):
            pass
        return dee

    with forage_server(tmp_path / "server", tmp_path) as served:
        url = served.url.rstrip("/")
        loop = asyncio.new_event_loop()
        try:
            ann, cy, code, started = loop.run_until_complete(open_room(url))
            dee = loop.run_until_complete(start(cy, url, started))
            unknown = run_forage("room", "join", "abcd-2345", "--server", url, env=home_env(home))
            taken = run_forage(
                "room", "join", code.lower(), "--name", "ann", "--server", url, env=home_env(home)
            )
            late = run_forage(
                "room", "join", started, "--name", "Eve", "--server", url, env=home_env(home)
            )
            for client in (ann, cy, dee):
                loop.run_until_complete(client.close())
        finally:
            loop.close()
    assert (unknown.returncode, unknown.stderr) == (
        2,
        f"forage: room ABCD2345: no room has that code on {url} (check it with the host)\n",
    )
    assert (taken.returncode, taken.stderr) == (
        2,
        "forage: --name: 'ann' is already playing in this room (choose another with --name)\n",
    )
    assert (late.returncode, late.stderr) == (
        2,
        f"forage: room {started} has started on {url}, and this data folder holds no seat in "
        "it: take yours back from the computer (or FORAGE_HOME) that joined it, or ask the "
        "host for a new room\n",
    )


def test_a_browser_tabs_game_is_told_where_its_servers_rooms_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORAGE_HOME", str(tmp_path))
    served = _make_server("0.0.0.0", 8123, None, 4, room_server(None))
    assert f"export {ROOMS_SERVER_VARIABLE}=http://127.0.0.1:8123; " in served.command
    assert served.command.endswith("-m forage play")
    assert ROOMS_SERVER_VARIABLE not in game_command(1234)  # no rooms served: not told
    told = game_command(1234, "http://127.0.0.1:8123", "203.0.113.5 ab12")
    assert f"export {ROOMS_CLIENT_VARIABLE}='203.0.113.5 ab12'; " in told
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (
        ("203.0.113.5", 50000) if name == "peername" else default
    )
    tab = served.command_for(make_mocked_request("GET", "/ws", transport=transport))
    vouch = shlex.split(tab.split(f"export {ROOMS_CLIENT_VARIABLE}=")[1].split(";")[0])[0]
    assert served.rooms is not None and served.rooms.vouched(vouch) == "203.0.113.5"
    assert served.rooms is not None
    served.rooms.service.store.close()


def test_textual_is_not_loaded_before_the_room_is_joined(tmp_path: Path) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    script = (
        "import sys\nfrom forage.cli import main\n"
        f"code = main(['room', 'join', 'ABCD2345', '--name', 'Ann', '--server', '{nowhere}'])\n"
        "print(code, sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=home_env(tmp_path),
    )
    assert done.stdout == "2 []\n", done.stderr
