"""``forage serve``: its options, its one-line errors, and a real server answering HTTP."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers import run_forage
from serving import Served, forage_server, free_port

from forage.cli import main
from forage.cli.game_server import refusal
from forage.cli.serve import exposed, local_names, page_address
from forage.net.forwarded import Arrival

forage = run_forage


def test_help_names_the_options() -> None:
    done = forage("serve", "--help")
    assert done.returncode == 0
    assert "--host" in done.stdout and "--port" in done.stdout
    assert "--forwarded-allow-ips" in done.stdout
    listed = forage("--help")
    assert "serve" in listed.stdout


@pytest.mark.parametrize(
    ("port", "words"),
    [
        ("eighty", "not a whole number: 'eighty'"),
        ("0", "from 1 to 65535, not 0"),
        ("65536", "from 1 to 65535, not 65536"),
        ("-5", "from 1 to 65535, not -5"),
    ],
)
def test_bad_port_is_one_line(port: str, words: str) -> None:
    done = forage("serve", "--port", port)
    assert done.returncode == 2
    assert done.stderr.startswith("forage: --port:") and words in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("127.0.0.1,", "an empty item (give addresses separated by commas): ''"),
        ("proxy.example", "not an IP address or network: 'proxy.example'"),
        ("10.0.0.1/8", "a network with bits set beyond its prefix: '10.0.0.1/8'"),
        ("1" * 60, f"not an IP address or network: '{'1' * 37}...'"),
    ],
)
def test_bad_forwarded_allow_ips_is_one_line(given: str, said: str) -> None:
    done = forage("serve", "--port", str(free_port()), "--forwarded-allow-ips", given)
    assert done.returncode == 2
    assert done.stderr == f"forage: --forwarded-allow-ips: {said}\n"
    assert done.stdout == ""


def test_port_in_use_is_one_line() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        done = forage("serve", "--host", "127.0.0.1", "--port", port)
    assert done.returncode == 2
    assert (
        done.stderr
        == f"forage: --port: {port} is in use on 127.0.0.1 (choose another with --port)\n"
    )


def test_unknown_host_is_one_line() -> None:
    done = forage("serve", "--host", "no-such-host.invalid", "--port", str(free_port()))
    assert done.returncode == 2
    assert done.stderr == "forage: --host: no such address: 'no-such-host.invalid'\n"


def test_only_other_addresses_count_as_exposed() -> None:
    assert exposed("127.0.0.1", 8000) == []
    assert exposed("localhost", 8000) == []
    assert exposed("::1", 8000) == []
    assert exposed("0.0.0.0", 8000) == ["0.0.0.0"]
    assert exposed("192.0.2.7", 8000) == ["192.0.2.7"]


def test_page_address_is_one_a_browser_here_can_open() -> None:
    assert page_address("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert page_address("0.0.0.0", 9000) == "http://127.0.0.1:9000"
    assert page_address("::", 80) == "http://[::1]:80"
    assert page_address("::1", 8080) == "http://[::1]:8080"
    assert page_address("localhost", 8000) == "http://localhost:8000"


def test_server_answers_http_and_stops_cleanly(tmp_path: Path) -> None:
    with forage_server(tmp_path / "home", tmp_path) as served:
        page = served.get_page()
        port = served.url.rsplit(":", 1)[1].strip("/")
        assert "<div>Forage</div>" in page
        # The page's websocket goes back to the address the browser used.
        assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page
        # Another site's page, or a name pointed at this computer, gets no game.
        for path, headers in [
            ("", {"Host": f"rebound.example:{port}"}),
            ("ws", {"Origin": "http://elsewhere.example"}),
        ]:
            request = urllib.request.Request(served.url + path, headers=headers)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=5)
            assert refused.value.code == 403
        served.stop()
        assert served.process.returncode == 130
        said = served.output()
    assert f"serving the game at http://127.0.0.1:{port}" in said
    assert "Traceback" not in said
    assert "warning" not in said


@pytest.mark.parametrize(
    ("number", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"]
)
def test_a_signal_with_a_game_open_stops_server_and_game_with_its_exit_code(
    tmp_path: Path, number: int, code: int
) -> None:
    import aiohttp

    async def play_until_stopped(served: Served) -> bytes:
        """Open a game as a browser tab would, then signal the server while it runs."""
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session,
            session.ws_connect(served.url + "ws?width=100&height=40") as socket,
        ):
            drawn = b""
            while b"Turn 1 of 8" not in drawn:
                message = await socket.receive(timeout=20)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += message.data
            stopping = asyncio.create_task(asyncio.to_thread(served.stop, number))
            async for _ in socket:  # as a browser does, until the server closes the tab
                pass
            await stopping
            return drawn

    with forage_server(tmp_path / "home", tmp_path) as served:
        assert b"Forage" in asyncio.run(play_until_stopped(served))
        assert served.process.returncode == code
        assert "Traceback" not in served.output()
        # The game ran in the server's process group; nothing of it is left.
        deadline = time.monotonic() + 10
        while True:
            try:
                os.killpg(served.process.pid, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, "the game outlived the server"
            time.sleep(0.1)


def test_version_and_the_game_do_not_load_the_web_server() -> None:
    probe = (
        "import contextlib, io, sys\n"
        "import forage.app.app\n"
        "from forage.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['--version'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual_serve', 'aiohttp'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


class StubServer:
    """Stands in for the web server: records that it was asked to serve, serves nothing."""

    served = False
    exit_code = 0

    def serve(self) -> None:
        StubServer.served = True


def test_other_computers_are_warned_about(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import forage.cli.serve as serve

    monkeypatch.setattr(serve, "_make_server", lambda *given: StubServer())
    port = free_port()
    assert main(["serve", "--host", "0.0.0.0", "--port", str(port)]) == 0
    said = capsys.readouterr()
    assert StubServer.served
    assert f"serving the game at http://127.0.0.1:{port}" in said.out
    assert said.err == (
        f"forage: warning: listening on 0.0.0.0: anyone who can reach this computer on port "
        f"{port} can play, and each game runs here\n"
    )
    StubServer.served = False
    assert main(["serve", "--port", str(port)]) == 0
    assert StubServer.served
    assert capsys.readouterr().err == ""


def asked(host: str, origin: str | None, names: frozenset[str] | None) -> str | None:
    """Why the page refuses a request to ``host`` from this computer, not through a proxy."""
    return refusal(Arrival("127.0.0.1", "http", host, forwarded=False), origin, names)


def test_a_local_server_answers_only_local_names_and_its_own_page() -> None:
    names = local_names("127.0.0.1", 8000)
    assert names is not None
    assert asked("127.0.0.1:8000", None, names) is None
    assert asked("localhost:8000", "http://localhost:8000", names) is None
    assert asked("[::1]:8000", None, names) is None
    assert asked("rebound.example:8000", None, names) == (
        "unknown host 'rebound.example:8000': open the game as localhost or 127.0.0.1"
    )
    assert asked("127.0.0.1:8000", "https://elsewhere.example", names) == (
        "the game can be played only from its own page"
    )
    # Listening for other computers, any name will do, but still only from its own page.
    assert local_names("0.0.0.0", 8000) is None
    assert asked("my-laptop.local:8000", None, None) is None
    assert asked("my-laptop.local:8000", "http://evil.example", None)
