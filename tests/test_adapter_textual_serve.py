"""textual-serve as ``forage serve`` uses it: its private names only in the adapter, and
still there; the parts of its public API the server calls, still as called.

After an upgrade of textual-serve, a failure here names what changed, and
``src/forage/adapters/textual_serve.py`` (or ``game_server.py``) is to follow it.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
import re
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from textual_serve.server import Server

from forage.adapters.textual_serve import PRIVATE_NAMES, game_process
from forage.cli.game_server import UNKNOWN_CHILD, GameServer, OneLine
from forage.net.bucket import Bucket

SRC = Path(__file__).parent.parent / "src"
ADAPTER = SRC / "forage" / "adapters" / "textual_serve.py"
CHANGED = f"textual-serve {version('textual-serve')} changed"


def owner(path: str) -> type:
    """A class named by its dotted path."""
    module, _, name = path.rpartition(".")
    found: type = getattr(importlib.import_module(module), name)
    return found


def parameters(function: object) -> list[str]:
    """The names of a function's parameters, as it declares them."""
    assert callable(function)
    return list(inspect.signature(function).parameters)


def test_textual_serve_is_bound_to_the_major_version_tested() -> None:
    pyproject = (SRC.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"textual-serve>=1.1.3,<2"' in pyproject
    assert version("textual-serve").split(".")[0] == "1"


def test_only_the_adapter_uses_textual_serves_private_names() -> None:
    users = [
        f"{path.relative_to(SRC)}: {name}"
        for path in SRC.rglob("*.py")
        if path != ADAPTER
        for _, name in PRIVATE_NAMES
        if re.search(rf"\.{name}\b", path.read_text(encoding="utf-8"))
    ]
    assert users == [], "textual-serve's private names belong in forage/adapters/textual_serve.py"


def test_every_private_name_in_the_adapter_is_listed_and_checked_here() -> None:
    used = set(re.findall(r"\.(_[a-z]\w*)", ADAPTER.read_text(encoding="utf-8")))
    assert used == {name for _, name in PRIVATE_NAMES}
    assert set(PRIVATE_NAMES) == {
        ("textual_serve.server.Server", "_make_app"),  # test_the_adapter_builds_the_app
        ("textual_serve.app_service.AppService", "_process"),  # ..._reaches_a_games_process
    }


def test_the_adapter_builds_the_app() -> None:
    found = getattr(Server, "_make_app", None)
    assert inspect.iscoroutinefunction(found), f"{CHANGED}: Server._make_app is gone"
    assert parameters(found) == ["self"], f"{CHANGED}: Server._make_app takes other arguments"

    async def routes() -> set[str]:
        app = await GameServer("127.0.0.1", 8000, None, 1, command="true").web_app()
        return {resource.canonical for resource in app.router.resources()}

    assert {"/", "/ws"} <= asyncio.run(routes()), f"{CHANGED}: Server._make_app's routes"


def test_the_adapter_reaches_a_games_process() -> None:
    async def run() -> tuple[bool, int | None]:
        game = AppService(
            "exec sleep 30",
            write_bytes=_ignore,
            write_str=_ignore,
            close=_nothing,
            download_manager=DownloadManager(),
        )
        assert "_process" in vars(game), f"{CHANGED}: AppService._process is gone"
        before = game_process(game) is None
        await game.start(80, 24)
        process = game_process(game)
        assert isinstance(process, asyncio.subprocess.Process), f"{CHANGED}: AppService._process"
        process.kill()
        await process.wait()
        await game.stop()
        game.stdin.close()  # so the process's pipes are closed before the loop is
        await asyncio.sleep(0)
        return before, process.returncode

    before, code = asyncio.run(run())
    assert before
    assert code is not None


async def _ignore(data: object) -> None:
    """Stands in for a websocket's write."""


async def _nothing() -> None:
    """Stands in for a websocket's close."""


@pytest.mark.parametrize(
    ("function", "names"),
    [
        (Server.__init__, ["self", "command", "host", "port", "title"]),
        (Server.handle_index, ["self", "request"]),
        (AppService.__init__, ["self", "command", "write_bytes", "write_str", "close"]),
        (AppService.start, ["self", "width", "height"]),
        (AppService.stop, ["self"]),
        (AppService.send_bytes, ["self", "data"]),
        (AppService.set_terminal_size, ["self", "width", "height"]),
        (AppService.blur, ["self"]),
        (AppService.focus, ["self"]),
    ],
    ids=lambda given: getattr(given, "__qualname__", ""),
)
def test_the_public_api_the_server_calls_is_as_called(function: object, names: list[str]) -> None:
    found = parameters(function)
    assert found[: len(names)] == names, (
        f"{CHANGED}: {getattr(function, '__qualname__', function)} now takes {found}"
    )


def test_the_server_keeps_the_hooks_it_overrides() -> None:
    for name in ("serve", "initialize_logging", "on_startup", "on_shutdown", "handle_websocket"):
        assert hasattr(Server, name), f"{CHANGED}: Server.{name} is gone"
        assert getattr(GameServer, name) is not getattr(Server, name)
    assert hasattr(Server(command="true"), "download_manager"), f"{CHANGED}: download_manager"


def test_a_token_bucket_gives_its_burst_then_its_rate() -> None:
    bucket = Bucket.full(400, 100, 0.0)
    assert bucket.take(0.0, 300)
    assert not bucket.take(0.0, 200)  # 100 left: nothing taken
    assert bucket.take(0.0, 100)
    assert not bucket.take(0.0) and bucket.empty(0.0)
    assert not bucket.take(1.5, 151)  # 150 more
    assert bucket.take(1.5, 150)
    assert not bucket.take(100.0, 401)  # never more than the capacity
    assert bucket.take(100.0, 400)


def test_a_log_record_is_one_line_without_its_error() -> None:
    try:
        raise ValueError("Cookie: secret\nmore")
    except ValueError:
        record = logging.LogRecord(
            "aiohttp.server", logging.ERROR, __file__, 1, "Error handling\nrequest", None, None
        )
        record.exc_info = sys.exc_info()
    line = OneLine().format(record)
    assert line == "forage: Error handling request (ValueError)"


def test_asyncio_s_unknown_child_process_is_one_line_in_forage_s_words() -> None:
    import asyncio.unix_events

    assert UNKNOWN_CHILD in Path(asyncio.unix_events.__file__).read_text()  # its words
    record = logging.LogRecord(
        "asyncio", logging.WARNING, __file__, 1, UNKNOWN_CHILD, (4242,), None
    )
    line = OneLine().format(record)
    assert line == (
        "forage: a game's process (pid 4242) had ended before the server could read how: "
        "its exit code is unknown"
    )
