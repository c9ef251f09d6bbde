"""``forage serve`` speaks each browser's language: a tab's game runs with FORAGE_LANG set
from its ``Accept-Language``, and the server's own pages are in it too."""

from __future__ import annotations

import asyncio
import subprocess
import time

import aiohttp
import pytest
from aiohttp import web
from serving import free_port

from forage.cli.game_server import GameServer, browser_language, full_page

DEADLINE_SECONDS = 20.0


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("ja,en;q=0.5", "ja"),
        ("ja-JP", "ja"),
        ("en-GB,en;q=0.9,ja;q=0.8", "en"),
        ("fr-FR,ja;q=0.7,en;q=0.3", "ja"),
        ("fr-FR,de;q=0.9", "en"),
        ("en;q=0.2, ja;q=0.9", "ja"),
        ("ja;q=0, en", "en"),
        ("ja;q=nonsense", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_the_language_is_the_best_shipped_one_of_the_header(
    header: str | None, language: str
) -> None:
    assert browser_language(header) == language


class RecordingServer(GameServer):
    """The game server, each tab's command kept and a harmless one run in its place."""

    def __init__(self, port: int) -> None:
        super().__init__("127.0.0.1", port, None, 4)
        self.commands: list[str] = []

    def command_for(self, request: web.Request) -> str:
        """The command the server would run, kept; a process that waits, run instead."""
        self.commands.append(super().command_for(request))
        return "exec sleep 600"


def environment_language(command: str) -> str:
    """FORAGE_LANG as the shell of a tab's command sets it for the game."""
    exports = command.rsplit("exec ", 1)[0]
    shell = subprocess.run(
        ["sh", "-c", exports + 'printf %s "$FORAGE_LANG"'],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return shell.stdout


async def tab_commands(languages: list[str]) -> tuple[list[str], list[str]]:
    """The commands a real server gives tabs opened with these ``Accept-Language`` headers,
    and the pages it gives those browsers."""
    port = free_port()
    server = RecordingServer(port)
    runner = web.AppRunner(await server.web_app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    pages = []
    try:
        for header in languages:
            async with aiohttp.ClientSession(headers={"Accept-Language": header}) as session:
                async with session.get(f"http://127.0.0.1:{port}/") as response:
                    pages.append(await response.text())
                tab = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
                deadline = time.monotonic() + DEADLINE_SECONDS
                while len(server.commands) < len(pages):
                    assert time.monotonic() < deadline, "the tab's game never started"
                    await asyncio.sleep(0.02)
                await tab.close()
    finally:
        await runner.cleanup()
    return server.commands, pages


def test_a_tab_runs_its_game_in_the_language_its_browser_asks_for() -> None:
    commands, pages = asyncio.run(tab_commands(["ja,en;q=0.5", "fr-FR,de;q=0.9"]))
    assert [environment_language(command) for command in commands] == ["ja", "en"]
    assert commands[0].endswith("-m forage play") and "FORAGE_LANG=ja" in commands[0]
    japanese, other = pages
    assert "lang='ja'" in japanese and ">Session ended.<" not in japanese
    assert ">Session ended.<" in other and "lang='ja'" not in other


def test_the_page_saying_every_game_is_taken_is_in_the_browsers_language() -> None:
    english = full_page(3)
    assert "All 3 games are being played" in english
    japanese = full_page(3, "ja")
    assert "lang='ja'" in japanese and "3" in japanese
    assert "being played" not in japanese and "Close a tab" not in japanese
