"""Plain ASCII (``FORAGE_ASCII=1``, or a locale that is not UTF-8): the glyphs, the game
screen, its footer and the dialogs drawn without a character beyond ASCII."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from app_helpers import (
    SIZES,
    ascii_output,
)


def test_ascii_fallback_draws_no_box_glyphs() -> None:
    code = (
        "from forage.app.describe import BASKET, SLASH, CROSS, ARROW, LEGEND;"
        "from forage.app.screens.help import READING;"
        "print(BASKET, SLASH, CROSS, ARROW); print(all(ord(c) < 128 for c in LEGEND))"
    )
    for env in (
        {"FORAGE_ASCII": "1"},
        {"FORAGE_ASCII": "", "LANG": "C", "LC_ALL": "", "LC_CTYPE": "", "PYTHONCOERCECLOCALE": "0"},
    ):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**os.environ, **env},
            timeout=60,
        )
        assert done.stdout.split("\n")[:2] == ["U / x >", "True"], (env, done.stderr)


def test_ascii_fallback_on_the_game_screen() -> None:
    script = (
        "import asyncio\n"
        "from forage.app.app import ForageApp\n"
        "from forage.app.widgets import HandView, WoodlandView\n"
        "async def main():\n"
        "    app = ForageApp(seed=1, offer_resume=False)\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "        await pilot.press('left', 'left', 'left')\n"
        "        print(app.screen.query_one(WoodlandView).plain_text())\n"
        "        print(app.screen.query_one(HandView).render().plain)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "FORAGE_ASCII": "1"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "b/m" in done.stdout  # seed 1's start card has a split area
    assert not set("╱⊔✗→┃") & set(done.stdout)


ASCII_SCRIPT = """
import asyncio, sys
sys.path.insert(0, {helpers!r})
from app_helpers import greedy, session_of, game_screen, quick_idle_checks
from forage.app.app import ForageApp
from forage.app.widgets import HandView, ScorePanel, StatusBar, WoodlandView
from forage.app.widgets.keys import KeyBar
from textual.widgets import Static

async def main():
    app = ForageApp(seed=3, recipes=True, offer_resume=False)
    async with app.run_test(size=({columns}, {rows})) as pilot:
        await pilot.pause()
        session = session_of(app)
        session.go_to(greedy(session).placement)
        game_screen(app).action_place()
        await pilot.pause()
        await pilot.press("left", "left")
        screen = app.screen
        parts = [
            str(screen.query_one("#title", Static).render()),
            screen.query_one(WoodlandView).plain_text(),
            screen.query_one(HandView).render().plain,
            str(screen.query_one(ScorePanel).render()),
            "\\n".join(text for text, _ in screen.query_one(StatusBar).lines(78)),
            screen.query_one(KeyBar).render().plain,
        ]
        print("\\n".join(parts))

quick_idle_checks()
asyncio.run(main())
"""


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_forage_ascii_draws_the_game_screen_in_plain_ascii(
    size: tuple[int, int], tmp_path: Path
) -> None:
    helpers = str(Path(__file__).resolve().parent)
    script = ASCII_SCRIPT.format(helpers=helpers, columns=size[0], rows=size[1])
    shown = ascii_output(script, tmp_path)
    assert "Placed the " in shown and "Turn 2 of 8" in shown
    assert shown.isascii(), sorted({c for c in shown if not c.isascii()})
    assert " > " not in shown.replace("->", "")  # no 'score 0 > -1' read as a comparison


ASCII_SCREENS = """
import asyncio, sys
sys.path.insert(0, {helpers!r})
from app_helpers import quick_idle_checks, play_out_quickly
from forage.app.app import ForageApp
from forage.app.recorder import Recorder

def shown(app):
    strips = app.screen._compositor.render_strips()
    return "\\n".join("".join(segment.text for segment in strip) for strip in strips)

async def main():
    app = ForageApp(seed=5, offer_resume=False, recorder=Recorder("ann"))
    async with app.run_test(size=({columns}, {rows})) as pilot:
        await pilot.pause()
        print(shown(app))
        for keys in {keys!r}:
            if keys == ["PLAY"]:
                await play_out_quickly(pilot, app)
            else:
                await pilot.press(*keys)
            await pilot.pause()
            print("=" * 10)
            print(shown(app))

quick_idle_checks()
asyncio.run(main())
"""


def ascii_screens(size: tuple[int, int], tmp_path: Path, keys: list[list[str]]) -> list[str]:
    """The screens as drawn with FORAGE_ASCII=1, at first and after each group of keys."""
    helpers = str(Path(__file__).resolve().parent)
    script = ASCII_SCREENS.format(helpers=helpers, columns=size[0], rows=size[1], keys=keys)
    return ascii_output(script, tmp_path).split("=" * 10 + "\n")


@pytest.mark.parametrize("size", SIZES)
def test_forage_ascii_footer_is_plain_and_whole(size: tuple[int, int], tmp_path: Path) -> None:
    """With FORAGE_ASCII=1 the game's footer is plain ASCII (no "…" where a line is cut) and
    whole: its last keys, "t Hint" among them, are there at 80 columns."""
    (screen,) = ascii_screens(size, tmp_path, [])
    assert screen.isascii(), sorted({c for c in screen if not c.isascii()})
    last = screen.rstrip("\n").splitlines()[-1]
    assert "t Hint" in last and "enter Place" in last


@pytest.mark.parametrize("size", SIZES)
def test_forage_ascii_draws_dialogs_in_plain_ascii(size: tuple[int, int], tmp_path: Path) -> None:
    """With FORAGE_ASCII=1 the dialogs (help, statistics, the games, the end) are drawn in
    plain ASCII: no box corners or lines, block scroll bars, or stars."""
    keys = [["question_mark"], ["escape", "s"], ["escape", "g"], ["escape"], ["PLAY"]]
    screens = ascii_screens(size, tmp_path, keys)
    help_screen, stats, games, _, end = screens[1:]
    assert "Keys" in help_screen and "Statistics of" in stats and "Your games" in games
    assert "Game over" in end
    for screen in screens:
        assert screen.isascii(), sorted({c for c in screen if not c.isascii()})
