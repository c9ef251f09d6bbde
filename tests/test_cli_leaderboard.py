"""``forage leaderboard``: a real ``forage serve``'s board as a table and as its JSON; a server
that cannot be reached or answers junk, and a bad date, in one line (exit 2); no Textual."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from helpers import run_forage
from room_serving import Player, expect, run
from serving import forage_server, free_port

from forage.net.client import RoomClient
from forage.net.daily import BOARD_MOST_BYTES
from forage.net.protocol import JoinedOut


async def play_a_try(url: str, name: str) -> None:
    """A whole daily try under ``name`` on the server at ``url``."""
    client = await RoomClient.connect(url)
    player = Player(client)
    await client.daily(name)
    player.took(await expect(client, JoinedOut))
    await player.play_to_end()
    await client.close()


def test_the_board_of_a_server_as_a_table_and_as_its_json(tmp_path: Path) -> None:
    with forage_server(tmp_path / "home", tmp_path) as served:
        run(play_a_try(served.url, "Ann & Bob"), 60)
        server = served.url.rstrip("/")
        table = run_forage("leaderboard", "--server", server)
        as_json = run_forage("leaderboard", "--server", server, "--json")
        with urllib.request.urlopen(f"{server}/daily/leaderboard", timeout=10) as response:
            body = response.read().decode("utf-8")
    assert table.returncode == 0, table.stderr
    assert "Ann & Bob" in table.stdout and "being played" in table.stdout
    assert as_json.returncode == 0 and as_json.stdout == body + "\n"
    [entry] = json.loads(as_json.stdout)["entries"]
    assert (entry["rank"], entry["name"]) == (1, "Ann & Bob")


def test_a_server_that_cannot_be_reached_is_one_line() -> None:
    done = run_forage("leaderboard", "--server", f"http://127.0.0.1:{free_port()}")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("forage: cannot reach http://127.0.0.1:")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@contextmanager
def answering(status: int, body: bytes) -> Iterator[str]:
    """A web server on a free port that answers every GET with ``body``."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_server_answering_junk_is_one_line() -> None:
    for status, body, said in (
        (200, b"hello", "not JSON"),
        (200, b'{"date": "2026-05-01", "entries": [{"rank": "x"}]}', "entries.0.rank"),
        (200, b"\xff\xfe", "not UTF-8"),
        (404, b"<html>nothing</html>", "HTTP 404"),
        (400, b'{"error": "not a date: \\"x\\""}', 'not a date: "x"'),
        (400, b'{"error": "\\u001b]0;PWNED\\u0007gone"}', "]0;PWNEDgone"),  # no escape
        (200, b" " * (BOARD_MOST_BYTES + 1), f"over {BOARD_MOST_BYTES} bytes"),
    ):
        with answering(status, body) as url:
            for extra in ((), ("--json",)):
                done = run_forage("leaderboard", "--server", url, *extra)
                assert done.returncode == 2 and done.stdout == "", done
                assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


def test_a_bad_date_or_server_is_one_line_before_asking() -> None:
    done = run_forage("leaderboard", "--date", "2026-02-30")
    assert done.returncode == 2 and done.stderr.startswith("forage: --date: not a date")
    done = run_forage("leaderboard", "--server", "ftp://example.invalid")
    assert done.returncode == 2 and done.stderr.startswith("forage: --server: not an http")


def test_the_leaderboard_loads_neither_textual_nor_aiohttp() -> None:
    probe = (
        "import contextlib, io, sys\n"
        "from forage.cli import main\n"
        "with contextlib.redirect_stderr(io.StringIO()):\n"
        "    main(['leaderboard', '--server', 'http://127.0.0.1:1'])\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'aiohttp'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_players_own_line_is_marked_whatever_the_case_of_the_name() -> None:
    from rich.console import Console

    from forage.cli.leaderboard import table
    from forage.net.daily import Board

    board = Board.model_validate(
        {
            "date": "2025-01-05",
            "entries": [
                {"rank": 1, "name": "Bob", "final": 44, "finished": "2025-01-05T10:00:00"},
                {"rank": 2, "name": "ANN", "final": 41, "finished": "2025-01-05T11:00:00"},
            ],
        }
    )
    out = Console(width=80, record=True, color_system=None)
    out.print(table(board, "ann"))
    lines = out.export_text().splitlines()
    assert any("ANN (you)" in line and "41" in line for line in lines)
    assert not any("Bob (you)" in line for line in lines)
    out.print(table(board, None))
    assert out.export_text().count("(you)") == 0


def test_the_board_in_plain_ascii_draws_in_ascii() -> None:
    board = {
        "date": "2026-05-01",
        "over": True,
        "deal": "1.2.3.4.5.6.7.8.9",
        "entries": [
            {"rank": 1, "name": "Ann", "final": 52, "finished": "2026-05-01T10:00:00Z"},
            {"rank": 2, "name": "Bob", "final": 41, "finished": "2026-05-01T11:00:00Z"},
        ],
    }
    with answering(200, json.dumps(board).encode()) as url:
        drawn = run_forage("leaderboard", "--server", url)
        plain = run_forage("leaderboard", "--server", url, env={**os.environ, "FORAGE_ASCII": "1"})
    assert drawn.returncode == 0 and not drawn.stdout.isascii(), drawn
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.isascii() and "| Ann" in plain.stdout, plain.stdout
