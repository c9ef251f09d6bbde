"""forage in Japanese at 80x24, as a player's terminal shows it: no English word on any screen
of a game, a recipe challenge, the lessons and the puzzle, and no line cut that English keeps
whole."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from screen_text import Shown, english_words

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")

KEY_NAMES = frozenset(
    {"esc", "escape", "enter", "tab", "space", "ctrl", "shift", "home", "end", "pgup", "pgdn"}
)
"""Words a screen may show in any language: the keys as the keyboard names them."""


class Tour:
    """One forage run in Japanese, and what each of its screens showed."""

    def __init__(self, shown: Shown) -> None:
        """Look at ``shown`` as it goes."""
        self.shown = shown
        self.seen: dict[str, str] = {}

    def look(self, name: str, pattern: str) -> str:
        """Wait for a screen showing ``pattern``; keep it, under ``name``."""
        text = self.shown.wait_for(pattern)
        self.seen[name] = text
        return text

    def english(self) -> dict[str, list[str]]:
        """The English words each screen showed (none, where it is all Japanese)."""
        found = {name: english_words(text, KEY_NAMES) for name, text in self.seen.items()}
        return {name: words for name, words in found.items() if words}

    def cut(self) -> dict[str, list[str]]:
        """The lines each screen cut short (an ellipsis at their end)."""
        found = {
            name: [line for line in text.splitlines() if line.rstrip(" │").endswith("…")]
            for name, text in self.seen.items()
        }
        return {name: lines for name, lines in found.items() if lines}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A player's data folder of their own."""
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def toured(home: Path, *args: str) -> Iterator[Tour]:
    """forage ARGS in Japanese at 80x24, toured by the test."""
    with Shown(home, *args, size=(80, 24), language="ja") as shown:
        yield Tour(shown)


def judged(tour: Tour) -> None:
    """Fail, naming the screens and words, where English or a cut line was shown."""
    english = tour.english()
    assert english == {}, "\n".join(
        f"{name}: {words}\n{tour.seen[name]}" for name, words in english.items()
    )
    cut = tour.cut()
    assert cut == {}, "\n".join(f"{name}: {lines}" for name, lines in cut.items())


def test_a_standard_game_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "play", "--seed", "1"):
        tour.look("the game", r"手札|配置")
        tour.shown.send("?")
        tour.look("help", r"ヘルプを閉じる")
        tour.shown.send("\x1b[F")  # end: the help's last lines
        tour.look("help, its end", r"ルール|得点")
        tour.shown.send("?")
        tour.shown.send("t")
        tour.look("a hint", r"ヒント")
        tour.shown.send("s")
        tour.look("statistics", r"統計")
        tour.shown.send("q")
        tour.shown.send("g")
        tour.look("your games", r"ゲーム")
        tour.shown.send("q")
        for _ in range(8):
            tour.shown.send("t")
            tour.shown.send("\r")
        tour.look("the end", r"最終|終了")
        judged(tour)


def test_a_recipe_challenge_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "play", "--recipes", "--seed", "2"):
        tour.look("the challenge", r"レシピ")
        judged(tour)


def test_the_lessons_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "learn"):
        tour.look("the first lesson", r"1\s*/\s*10|10")
        judged(tour)


def test_the_puzzle_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "puzzle", "--date", "2026-12-06"):
        tour.look("the puzzle", r"パズル")
        judged(tour)
