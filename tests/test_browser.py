"""The game in a real browser: headless Chromium plays ``forage serve``'s page to the end.

Needs Debian's ``chromium`` (``apt-get install chromium``; ``.ci/run`` installs it where it
can) and the ``playwright`` package (the dev group). Without them the test is skipped.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from serving import Served, forage_server

from forage.app.saves import SAVE_NAME
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium to drive (apt-get install chromium)"
)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (uv sync --group dev)"
)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_SECONDS = 20.0
REVIEW_SECONDS = 60.0
"""The review's first move takes a second or two on a quiet machine; CI may be slower."""
SETTLE_SECONDS = 0.15
VIEWPORT = {"width": 1400, "height": 900}
SCREENSHOT_ENV = "FORAGE_BROWSER_SCREENSHOT"
"""Set to a PNG path to keep a picture of the game in the browser (docs/browser.png)."""

# xterm.js draws the terminal on a canvas, so the page has no text to read. textual-serve's
# script keeps its xterm Terminal in a field named `terminal`; this runs before that script
# and catches the object as it is stored, so the test reads what the browser shows through
# xterm's own buffer API.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    window.forageTerminal = value;
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
  },
});
"""
SCREEN_LINES = """() => {
  const terminal = window.forageTerminal;
  if (!terminal) return null;
  const buffer = terminal.buffer.active, lines = [];
  for (let row = 0; row < terminal.rows; row++) {
    lines.push(buffer.getLine(buffer.viewportY + row).translateToString(true));
  }
  return lines;
}"""


class Tab:
    """A browser tab showing the game, read as lines of terminal text."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def lines(self) -> list[str]:
        """The terminal's lines as the browser shows them."""
        found: list[str] | None = self.page.evaluate(SCREEN_LINES)
        return found or []

    def text(self) -> str:
        """The terminal's text."""
        return "\n".join(self.lines())

    def wait(self, check: Callable[[str], bool], what: str, seconds: float = WAIT_SECONDS) -> str:
        """Wait until the screen's text passes the check and has stopped changing.

        A frame can reach the page in several pieces, so a text is taken only once a second
        look, a moment later, finds the same.
        """
        deadline = time.monotonic() + seconds
        seen = None
        while True:
            text = self.text()
            if text == seen and check(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {seconds:.0f} s for {what}; screen:\n{text}")
            seen = text
            time.sleep(SETTLE_SECONDS)

    def wait_for(self, words: str) -> str:
        """Wait until these words are on screen."""
        return self.wait(lambda text: words in text, repr(words))

    def press(self, key: str) -> None:
        """Press a key as a player would."""
        self.page.keyboard.press(key)

    def locate(self, words: str) -> tuple[int, int]:
        """The (row, column) where these words first appear on screen."""
        for row, line in enumerate(self.lines()):
            if words in line:
                return row, line.index(words)
        raise AssertionError(f"{words!r} is not on screen:\n{self.text()}")

    def click_on(self, words: str) -> None:
        """Click the mouse on the first character of these words on screen."""
        self.click(*self.locate(words))

    def click(self, row: int, column: int) -> None:
        """Click the mouse on the middle of a character cell of the terminal."""
        box = self.page.locator(".xterm-screen").bounding_box()
        columns, rows = self.page.evaluate(
            "() => [window.forageTerminal.cols, window.forageTerminal.rows]"
        )
        width, height = box["width"] / columns, box["height"] / rows
        self.page.mouse.click(box["x"] + (column + 0.5) * width, box["y"] + (row + 0.5) * height)


def preview_line(text: str) -> str | None:
    """The status line saying what enter would do (✓ ..., ▼ ... where it loses points),
    why it cannot (✗ ...), or that the card waits to be moved (Your card to place ...), if
    shown."""
    for line in text.splitlines():
        if line.strip()[:1] in ("✓", "▼", "✗") or line.strip().startswith("Your card to place"):
            return line.strip()
    return None


def preview(text: str) -> str:
    """The placement preview, which must be on screen."""
    line = preview_line(text)
    assert line is not None, f"no placement preview on screen:\n{text}"
    return line


def number(pattern: str, text: str) -> int:
    """The whole number the pattern's group finds on screen."""
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not on screen:\n{text}"
    return int(found.group(1))


def saved_game(home: Path) -> tuple[list[Placement], int]:
    """The moves of the game saved in FORAGE_HOME, and its score as the engine counts it."""
    saved = json.loads((home / SAVE_NAME).read_text(encoding="utf-8"))
    game = Game(Deal.from_code(saved["deal"]), standard_deck())
    moves = [Placement.from_notation(text) for text in saved["moves"]]
    refusal = game.replay(moves).refusal
    assert refusal is None, refusal.placement
    return moves, game.position.base


def woodland_lines(text: str) -> list[str]:
    """The screen's lines cut to the woodland's columns (left of the side panel)."""
    lines = text.splitlines()
    side = next((line.index("Turn ") for line in lines if "Turn " in line), None)
    return [line[:side] for line in lines]


def woodland_corner(text: str) -> tuple[int, int]:
    """(row, column) of the top-left area label on the woodland: its top row, leftmost."""
    for row, line in enumerate(woodland_lines(text)[1:], start=1):  # line 0 is the title
        found = re.search(r"[A-Za-z]", line)
        if found:
            return row, found.start()
    raise AssertionError(f"no area label on the woodland:\n{text}")


def square_width(text: str) -> int:
    """How many columns apart the squares of the woodland are (the empty table's dots)."""
    gaps = set()
    for line in woodland_lines(text)[1:]:
        if set(line) == {" ", "·"}:
            dots = [column for column, char in enumerate(line) if char == "·"]
            gaps.update(right - left for left, right in itertools.pairwise(dots))
    assert gaps, f"no empty table on screen:\n{text}"
    return min(gaps)


def click_and_place(tab: Tab, home: Path, row: int, column: int) -> tuple[Placement, int]:
    """Click a woodland square and place the first card there; returns it and its score.

    The score on the page after placing must be the one previewed, and the save file in
    FORAGE_HOME must hold just that move, which the engine scores the same.
    """
    before = tab.text()
    tab.click(row, column)
    clicked = tab.wait(
        lambda text: woodland_lines(text) != woodland_lines(before), "the card to follow"
    )
    previewed = number(r"score 0 → (-?\d+)", preview(clicked))
    place_shown(tab)
    placed = tab.wait_for("Turn 2 of 8")
    assert number(r"Score (-?\d+)", placed) == previewed
    [move], score = saved_game(home)
    assert score == previewed
    return move, previewed


ASKED: Final = "enter again places it"
"""What the headline says when a costly drop asks for a second enter."""


def place_shown(tab: Tab) -> None:
    """Press enter to place the card shown, and enter again where the drop is a costly
    one that asks for it (once the first enter has been answered either way)."""
    before = turn_of(tab.text())
    tab.press("Enter")
    text = tab.wait(
        lambda now: ASKED in now or "Game over" in now or turn_of(now) != before,
        "the card placed, or the question before a costly drop",
    )
    if ASKED in text:
        tab.press("Enter")


def turn_of(text: str) -> int | None:
    """The turn the screen shows, if it shows one."""
    found = re.search(r"Turn (\d+) of", text)
    return int(found.group(1)) if found else None


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """``forage serve`` on a free loopback port, saving into a fresh FORAGE_HOME."""
    with forage_server(tmp_path / "home", tmp_path) as server:
        yield server


@pytest.fixture
def browser(tmp_path: Path, served: Served) -> Iterator[Any]:
    """Headless Chromium with a fresh profile that can reach only the game's server."""
    origin = served.url.rstrip("/")

    def only_the_game(route: Any) -> None:
        if route.request.url.startswith(origin):
            route.continue_()
        else:  # the page asks for a web font; this test stays on this computer
            route.abort()

    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=VIEWPORT,
            timeout=WAIT_SECONDS * 1000,
        )
        try:
            context.set_default_timeout(WAIT_SECONDS * 1000)
            context.route("**/*", only_the_game)
            context.add_init_script(CATCH_TERMINAL)
            yield context
        finally:
            context.close()


def open_tab(browser: Any, served: Served) -> Tab:
    """A new tab on the game's page, its terminal connected and drawn."""
    page = browser.new_page()
    page.goto(served.url)
    tab = Tab(page)
    tab.wait(lambda text: bool(text.strip()), "the game to be drawn")
    page.locator(".xterm-helper-textarea").focus()
    return tab


def test_a_card_is_placed_in_the_browser(tmp_path: Path, served: Served, browser: Any) -> None:
    home = tmp_path / "home"
    tab = open_tab(browser, served)
    start = tab.wait_for("Turn 1 of 8")
    if os.environ.get(SCREENSHOT_ENV):
        tab.page.screenshot(path=os.environ[SCREENSHOT_ENV])

    # Help opens and closes with keys.
    tab.press("?")
    tab.wait_for("move the card being placed one area")
    tab.press("Escape")
    tab.wait(lambda text: "move the card being placed" not in text, "help to close")

    # A mouse click on the second hand card chooses it.
    # The hand names each card by the recipe on its back, one under the other:
    # "▶1 Chestnut Flour" and " 2 Mushroom Soup", in the side panel's column.
    lines = start.splitlines()
    row = next(i for i, text in enumerate(lines) if "▶1 " in text)
    column = lines[row].index("▶1 ")
    hand = [re.match(r"([▶ ])([12]) (\S+(?: \S+)*)", lines[row + k][column:]) for k in (0, 1)]
    assert [m.groups()[:2] if m else None for m in hand] == [("▶", "1"), (" ", "2")], start
    assert hand[1] is not None
    second = hand[1].group(3)
    tab.click_on(f"2 {second}")
    chosen = tab.wait_for(f"▶2 {second}")

    # Arrows move the card: from beside the woodland, where it is dealt, onto it; then the
    # preview changes, and comes back.
    tab.press("ArrowLeft")
    onto = tab.wait(lambda text: woodland_lines(text) != woodland_lines(chosen), "the card on")
    tab.press("ArrowDown")
    tab.wait(lambda text: woodland_lines(text) != woodland_lines(onto), "the card to move")
    tab.press("ArrowUp")
    here = tab.wait(
        lambda text: woodland_lines(text) == woodland_lines(onto), "the card to move back"
    )

    # A click on the woodland moves the card there; enter places it, scoring as previewed.
    first, _ = click_and_place(tab, home, *woodland_corner(here))
    placed = standard_deck()[first.card].recipe
    assert placed is not None and placed.name == second

    # u undoes it; a click one square to the right places the card one square to the right.
    tab.press("u")
    undone = tab.wait_for("Turn 1 of 8")
    row, column = woodland_corner(undone)
    move, previewed = click_and_place(tab, home, row, column + square_width(undone))
    assert (move.x, move.y) == (first.x + 1, first.y)

    # A second tab is a new game that offers to resume the saved one.
    tab.page.close()
    other = open_tab(browser, served)
    offer = other.wait_for("Resume it?")
    assert f"turn 2 of 8, score {previewed}." in " ".join(offer.replace("│", " ").split())
    other.press("y")
    other.wait_for("Turn 2 of 8")

    # Enter (or a hint, where the card shown cannot go) plays the game out.
    for _ in range(40):
        text = other.wait(
            lambda now: "Game over" in now or preview_line(now) is not None, "the next card"
        )
        if "Game over" in text:
            break
        if not preview(text).startswith(("✓", "▼")):  # refused, or waiting: a hint
            other.press("t")
            other.wait(lambda now: (preview_line(now) or "")[:1] in ("✓", "▼"), "a hint")
            continue
        turn = turn_of(text)
        place_shown(other)
        other.wait(
            lambda now: "Game over" in now or turn_of(now) not in (None, turn),  # noqa: B023
            "the next turn",
        )
    end = other.wait_for("Game over")
    assert "Base score" in end
    assert not (home / SAVE_NAME).exists(), "a finished game leaves no save"

    # r reviews the game just finished: its analysis runs in worker processes started under
    # the app (which could fail at once), and the progress bar moves when the first move is
    # analysed; q stops the analysis there and comes back to the summary. (A whole
    # analysis on screen is the pilot tests' part, tests/app/test_review_screen.py.)
    other.press("r")
    other.wait_for("move 1 of 8")
    other.wait(
        lambda now: re.search(r"(?<!\d)(?:[1-9]\d?|100)%", now) is not None,
        "the review's first analysed move",
        REVIEW_SECONDS,
    )
    other.press("q")
    other.wait_for("Game over")

    # q quits: the game ends and the page says so.
    other.press("q")
    other.page.wait_for_selector("body.-closed")
