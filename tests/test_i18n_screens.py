"""forage in Japanese at 80x24, as a player's terminal shows it: no English word on any screen
of a game, a recipe challenge, the lessons, the puzzle and a room, and no line cut that English
keeps whole."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from room_serving import rooms_at, run
from screen_text import Shown, english_words

from forage.net.protocol import DealOut
from forage.settings import Settings, save_settings

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")

KEY_NAMES = frozenset(
    {"esc", "escape", "enter", "tab", "space", "ctrl", "shift", "home", "end", "pgup", "pgdn"}
)
"""Words a screen may show in any language: the keys as the keyboard names them."""


class Tour:
    """One forage run in Japanese, and what each of its screens showed."""

    def __init__(
        self, shown: Shown, hidden: tuple[str, ...] = (), words: frozenset[str] = frozenset()
    ) -> None:
        """Look at ``shown`` as it goes; ``hidden``: what a screen may show in Latin letters
        that is no English (a room's code), ``words`` too (those of a command, which a
        dialog may break over lines)."""
        self.shown = shown
        self.hidden = hidden
        self.words = KEY_NAMES | words
        self.seen: dict[str, str] = {}

    def look(self, name: str, pattern: str) -> str:
        """Wait for a screen showing ``pattern``; keep it, under ``name``."""
        text = self.shown.wait_for(pattern)
        self.seen[name] = text
        return text

    def english(self) -> dict[str, list[str]]:
        """The English words each screen showed (none, where it is all Japanese)."""
        found = {
            name: english_words(self.unhidden(text), self.words) for name, text in self.seen.items()
        }
        return {name: words for name, words in found.items() if words}

    def unhidden(self, text: str) -> str:
        """A screen without what is hidden from the look for English."""
        for each in self.hidden:
            text = text.replace(each, "")
        return text

    def cut(self) -> dict[str, list[str]]:
        """The lines each screen cut short (an ellipsis at their end)."""
        found = {
            name: [line for line in text.splitlines() if line.rstrip(" │").endswith("…")]
            for name, text in self.seen.items()
        }
        return {name: lines for name, lines in found.items() if lines}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A player's data folder of their own, where enter places a costly drop at once (the
    tours play where the hint says)."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("FORAGE_HOME", str(folder))
    save_settings(Settings(ask_costly=False))
    return folder


PLAYER = "ハナ"
"""The player's name (a name is the player's own, in any script: not the login name)."""
SETTLED_END = r"(?s)^(?!.*保存中).*共有用のディールコード.*あなたの得点は"
"""The end screen once the game is kept in the history and the deal's par is worked out."""
HINTED = r"(?<!暫定)ヒント：[^\n]*をここに（今 [^\n]*）。"
"""A hint's final answer on the status bar (the answer so far ends in an ellipsis)."""


def played_to_the_end(tour: Tour, turns: int = 8) -> None:
    """Play every turn where the hint puts the card (asking before a costly drop off)."""
    for turn in range(1, turns + 1):
        tour.shown.wait_for(rf"手番 {turn}/{turns}")
        tour.shown.send("t")
        tour.look(f"a hint, turn {turn}", HINTED)
        tour.shown.send("\r")


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
    for tour in toured(home, "play", "--seed", "1", "--player", PLAYER):
        tour.look("the game", r"手札|配置")
        tour.shown.send("?")
        tour.look("help", r"ヘルプを閉じる")
        tour.shown.send("\x1b[F")  # end: the help's last lines
        tour.look("help, its end", r"ルール|得点")
        tour.shown.send("?")
        tour.shown.wait_for(r"手番 1/8")
        tour.shown.send("s")
        tour.look("statistics", r"統計を閉じる")
        tour.shown.send("q")
        tour.shown.wait_for(r"手番 1/8")
        tour.shown.send("g")
        tour.look("your games", r"記録を書き出す")
        tour.shown.send("q")
        played_to_the_end(tour)
        tour.look("the end", SETTLED_END)
        judged(tour)


def test_a_recipe_challenge_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "play", "--recipes", "--seed", "2", "--player", PLAYER):
        tour.look("the challenge", r"レシピ")
        played_to_the_end(tour)
        tour.look("the end", SETTLED_END)
        judged(tour)


def test_the_lessons_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "learn"):
        tour.look("the first lesson", r"1\s*/\s*10|10")
        judged(tour)


def test_stepping_through_the_lessons_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "learn"):
        for step in range(1, 4):
            tour.look(f"lesson {step}", rf"ステップ {step}/10：")
            tour.shown.send("t")
            tour.look(f"lesson {step}, a hint", HINTED)
            tour.shown.send("\r")
            said = tour.look(f"lesson {step}, the drop", r"ステップ \d+ 完了|配置していません")
            if "配置していません" in said:
                break  # the hint's drop is not the lesson's: the refusal is what is shown
            tour.shown.send("\r")
        judged(tour)


def test_the_puzzle_in_japanese_at_80x24(home: Path) -> None:
    for tour in toured(home, "puzzle", "--date", "2026-12-06"):
        tour.look("the puzzle", r"パズル")
        judged(tour)


def test_a_room_in_japanese_at_80x24(home: Path, tmp_path: Path) -> None:
    async def scenario() -> Tour:
        async with rooms_at(tmp_path / "server") as rooms:
            ann = await rooms.player()
            await ann.create("アン")
            command = ("room", "join", ann.room, "--server", rooms.url, "--name", "シド")
            with Shown(home, *command, size=(80, 24), language="ja") as shown:
                code = f"{ann.room[:4]}-{ann.room[4:]}"
                join = f"forage room join {code} --server {rooms.url}"
                tour = Tour(shown, (join, code), frozenset(english_words(join, frozenset())))
                await asyncio.to_thread(tour.look, "the lobby", r"ホストの アン がゲームを")
                await ann.client.start()
                await ann.read_until(DealOut)
                await asyncio.to_thread(tour.look, "the room's game", r"手番 1/")
                await ann.place_first()
                shown.send("f")
                await asyncio.to_thread(tour.look, "the room's game, a spot", r"Enter で配置")
                shown.send("\r")
                await asyncio.to_thread(
                    tour.look, "the room's game, turn 2", r"(?s)^(?!.*待っています…).*手番 2/"
                )
                shown.send("q")
                await asyncio.to_thread(tour.look, "leaving the room", r"ルームを出ますか")
                return tour

    judged(run(scenario(), seconds=180))
