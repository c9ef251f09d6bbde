"""``forage learn``: every lesson walked by the keys its lines name, wrong drops explained
and not placed, the tutorial resumed where it was left, and offered once at the first start."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest
from app_helpers import ascii_output, keys_onto, place_greedy, playing_own_game, sync
from textual.pilot import Pilot
from textual.widgets import Static

from forage.app.app import ForageApp
from forage.app.describe import TICK
from forage.app.learn_app import LearnApp
from forage.app.modes.lesson import LessonMode
from forage.app.saves import save_path
from forage.app.screens.confirm import ConfirmScreen
from forage.app.screens.game import GameScreen
from forage.app.tutorial import Progress, load_progress, progress_path, save_progress
from forage.app.widgets import KeyBar, StatusBar, WoodlandView
from forage.engine import Placement
from forage.learn import FINISHED, LESSONS, Lesson, goal_met, lesson_text

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


def learn_screen(app: LearnApp | ForageApp) -> GameScreen:
    """The tutorial's screen (under any dialog)."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, GameScreen) and isinstance(screen.mode, LessonMode):
            return screen
    raise AssertionError("no tutorial screen")


def lesson_mode(screen: object) -> LessonMode:
    """The tutorial's mode of a game screen."""
    assert isinstance(screen, GameScreen) and isinstance(screen.mode, LessonMode), screen
    return screen.mode


def lesson_lines(screen: GameScreen) -> str:
    """The two lines under the title."""
    return str(screen.query_one("#lesson", Static).render())


async def drive(pilot: Pilot[int], screen: GameScreen, placement: Placement) -> None:
    """Turn and move the card onto a placement by keys (not placing it)."""
    await pilot.press(*keys_onto(screen.session, placement))
    await pilot.pause()
    here = screen.session.cursor
    assert here is not None and (here.rotation, here.x, here.y) == (
        placement.rotation,
        placement.x,
        placement.y,
    )


async def pass_lessons(pilot: Pilot[int], screen: GameScreen, count: int) -> None:
    """Meet the goals of the next ``count`` lessons on their marks, going on after each."""
    for _ in range(count):
        await drive(pilot, screen, lesson_mode(screen).lesson.placement)
        await pilot.press("enter", "enter")
        await pilot.pause()


async def walk(pilot: Pilot[int], app: LearnApp) -> list[str]:
    """Play every lesson on its marked spot by keys; the lesson lines seen on the way."""
    seen = []
    screen = learn_screen(app)
    for number, lesson in enumerate(LESSONS):
        assert lesson_mode(screen).step == number
        seen.append(lesson_lines(screen))
        view = screen.query_one(WoodlandView)
        assert view.state.marked  # the spot is shown
        await drive(pilot, screen, lesson.placement)
        await pilot.press("enter")
        await pilot.pause()
        assert (
            lesson_mode(screen).done is lesson and screen.session.cursor is None
        )  # the drop shown
        assert lesson_lines(screen).startswith(f"{TICK} {lesson.done}")
        assert "Press enter" in lesson_lines(screen)
        await pilot.press("enter")
        await pilot.pause()
    assert lesson_mode(screen).finished
    return seen


@SIZES
@sync
async def test_every_lesson_is_played_by_the_keys_it_names(size: tuple[int, int]) -> None:
    app = LearnApp()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        seen = await walk(pilot, app)
        screen = learn_screen(app)
        assert "Every step done" in screen.query_one(StatusBar).state.headline
        assert "forage" in lesson_lines(screen)
        assert not screen.query_one(WoodlandView).state.marked
        shown = screen.query_one(KeyBar).keys()
        actions = {action for _, _, action, _ in shown}
        assert "mode('leave')" in actions and not actions & {"place", "move", "rotate", "undo"}
        for lines in seen:  # each lesson fits the width: nothing cut
            for line in lines.split("\n"):
                assert len(line) <= size[0] - 2, line
        assert "r turns it" in seen[0] and "enter" in seen[0]
    assert load_progress().finished


@sync
async def test_a_wrong_drop_is_explained_and_not_placed() -> None:
    app = LearnApp(step=2)  # match to raise
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = learn_screen(app)
        game = screen.session.game
        card = game.hand[0]
        wrong = next(
            o
            for o in game.outcomes(card)
            if o.placement.rotation == 0 and not goal_met(LESSONS[2], game, o)
        )
        moves = list(game.moves)
        await drive(pilot, screen, wrong.placement)
        await pilot.press("enter")
        await pilot.pause()
        assert lesson_mode(screen).step == 2 and game.moves == moves  # nothing placed
        lines = lesson_lines(screen)
        assert lines.startswith("Not placed: this drop would give")
        assert f"(score {wrong.score_change:+d})" in lines
        assert "This step wants a drop that raises a die" in lines
        assert "marked spot" in screen.query_one(StatusBar).state.note
        await pilot.press("left")  # the card moves on: the lesson's own lines again
        await pilot.pause()
        assert lesson_lines(screen).startswith("A food area on a die of its colour")


@sync
async def test_a_refused_drop_says_why_and_the_lesson_stays() -> None:
    app = LearnApp(step=6)  # Edwood chases a mouse
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = learn_screen(app)
        game = screen.session.game
        card = game.hand[0]
        cursor = screen.session.cursor
        assert cursor is not None
        refused = next(
            Placement(card=card, rotation=cursor.rotation, x=x, y=y)
            for y in range(-3, 4)
            for x in range(-3, 4)
            if not game.outcome(Placement(card=card, rotation=cursor.rotation, x=x, y=y)).legal
            and abs(x - cursor.x) + abs(y - cursor.y) <= 3
        )
        await drive(pilot, screen, refused)
        moves = list(game.moves)
        await pilot.press("enter")
        await pilot.pause()
        assert lesson_mode(screen).step == 6 and game.moves == moves
        assert screen.query_one(StatusBar).state.refused


@sync
async def test_escape_leaves_and_the_tutorial_resumes_at_its_step() -> None:
    app = LearnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = learn_screen(app)
        await pass_lessons(pilot, screen, 2)
        assert lesson_mode(screen).step == 2 and lesson_mode(screen).done is None
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0
    data = json.loads(progress_path().read_text())
    assert data["step"] == 2 and data["finished"] is False
    again = LearnApp()
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = learn_screen(again)
        assert lesson_mode(screen).step == 2
        assert "match to raise" in str(screen.query_one("#title", Static).render())


@sync
async def test_the_first_start_offers_the_tutorial_once() -> None:
    app = ForageApp(seed=3, offer_learn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "forage learn" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
        assert lesson_mode(app.screen).step == 0
        await pilot.press("escape")  # back to the game the first start dealt
        await pilot.pause()
        assert playing_own_game(app.screen)
    assert load_progress().offered
    again = ForageApp(seed=3, offer_learn=True)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert playing_own_game(again.screen)  # never offered again


@sync
async def test_no_offer_once_the_history_has_games(forage_home: Path) -> None:
    forage_home.mkdir(parents=True, exist_ok=True)
    (forage_home / "history.sqlite3").write_bytes(b"")
    app = ForageApp(seed=3, offer_learn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert playing_own_game(app.screen)
    assert not progress_path().exists()


@sync
async def test_a_lesson_leaves_the_saved_game_alone() -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await place_greedy(pilot, app)
    saved = save_path().read_text()
    learn = LearnApp()
    async with learn.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = learn_screen(learn)
        await drive(pilot, screen, LESSONS[0].placement)
        await pilot.press("enter")
        await pilot.pause()
        assert lesson_mode(screen).step == 1
    assert save_path().read_text() == saved


@sync
async def test_no_color_walks_every_lesson(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = LearnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.no_color
        await walk(pilot, app)


ASCII_SCRIPT = """\
import asyncio, sys
sys.path.insert(0, {helpers!r})
from app_helpers import quick_idle_checks
from test_learn import learn_screen, drive, lesson_lines, lesson_mode
from forage.app.learn_app import LearnApp
from forage.app.saves import save_path
from forage.app.describe import TICK
from forage.app.widgets import KeyBar, StatusBar, WoodlandView
from forage.learn import LESSONS

async def main():
    app = LearnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = learn_screen(app)
        for lesson in LESSONS:
            print(screen.query_one(WoodlandView).plain_text())
            print(lesson_lines(screen))
            await drive(pilot, screen, lesson.placement)
            print(screen.query_one(WoodlandView).plain_text())
            state = screen.query_one(StatusBar).state
            print(state.headline, state.details, state.note)
            await pilot.press("enter")
            await pilot.pause()
            print(lesson_lines(screen))
            await pilot.press("enter")
            await pilot.pause()
        print(lesson_lines(screen), lesson_mode(screen).finished)

quick_idle_checks()
asyncio.run(main())
"""


def test_forage_ascii_walks_every_lesson_in_plain_ascii(tmp_path: Path) -> None:
    helpers = str(Path(__file__).resolve().parent)
    shown = ascii_output(ASCII_SCRIPT.format(helpers=helpers), tmp_path)
    assert shown.rstrip().endswith("True")  # every lesson done
    assert "1->3->6->10->15" in shown and ">" in shown and "<" in shown  # the marks
    assert shown.isascii(), sorted({c for c in shown if not c.isascii()})


def test_unreadable_progress_starts_at_the_first_lesson() -> None:
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    nested = "[" * 100_000 + "]" * 100_000
    for text in ("{not json", '{"format": "forage-learn/1", "step": "two"}', "[]", nested):
        path.write_text(text)
        assert load_progress() == Progress()
    assert save_progress(Progress(step=4, offered=True))
    assert load_progress() == Progress(step=4, offered=True)
    assert not list(path.parent.glob(".learn.json.*"))  # no temporary file left


@sync
async def test_a_step_beyond_the_lessons_starts_at_the_first() -> None:
    save_progress(Progress(step=len(LESSONS) + 3))
    app = LearnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert lesson_mode(learn_screen(app)).step == 0


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.goal.value for lesson in LESSONS])
def test_each_lesson_spot_meets_its_goal_and_another_drop_does_not(lesson: Lesson) -> None:
    game = lesson.game()
    assert not game.is_over()
    assert lesson.placement.card == game.hand[0]  # the card the screen starts with
    assert goal_met(lesson, game, game.outcome(lesson.placement))
    others = [o for o in game.outcomes() if not goal_met(lesson, game, o)]
    assert others  # the check can say no: the step is not passed by any drop at all


def test_each_lesson_says_what_to_do_in_two_lines_that_fit_80_columns() -> None:
    for lesson in LESSONS:
        for to, slash in (("→", "╱"), ("->", "/")):
            first, second, wants = lesson_text(lesson, lesson.game(), to, slash)
            assert first and second and wants
            assert max(len(first), len(second)) <= 78, lesson.title
            assert "{" not in first + second + wants  # every value filled in
    assert all(len(line) <= 78 for line in FINISHED)


@sync
async def test_help_names_forage_learn() -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help-text", Static).render())
        assert "forage learn" in text


def test_forage_learn_is_a_command() -> None:
    from forage.cli import build_parser

    assert build_parser().parse_args(["learn"]).command == "learn"
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["learn", "--seed", "3"])
    assert stopped.value.code == 2


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal and signals")
def test_forage_learn_in_a_terminal_keeps_its_step_on_sigterm(forage_home: Path) -> None:
    from terminal import Terminal

    from forage.exits import EXIT_TERMINATED

    forage_home.mkdir(parents=True, exist_ok=True)
    save_progress(Progress(step=3))
    with Terminal(forage_home, "learn", size=(80, 24)) as terminal:
        assert terminal.wait_for("step 4 of 10"), terminal.text()[-300:]
        assert terminal.wait_for("esc")
        terminal.signal(signal.SIGTERM)
        assert terminal.wait() == EXIT_TERMINATED
        shown = terminal.raw
    assert b"\x1b[?1049l" in shown and b"Traceback" not in shown  # the terminal restored
    assert load_progress().step == 3


@sync
async def test_lessons_opened_over_a_game_are_never_recorded() -> None:
    from forage.app.recorder import Recorder
    from forage.app.session import Session

    class Watching(Recorder):
        """A recorder that notes every game it is told was replaced."""

        def __init__(self) -> None:
            super().__init__("ann")
            self.told: list[Session] = []

        def replaced(self, session: Session) -> None:
            self.told.append(session)
            super().replaced(session)

    recorder = Watching()
    app = ForageApp(seed=3, offer_learn=True, recorder=recorder)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        screen = learn_screen(app)
        await pass_lessons(pilot, screen, 2)
        assert lesson_mode(screen).step == 2
        await pilot.press("escape")
        await pilot.pause()
        assert playing_own_game(app.screen)
    recorder.close()
    assert recorder.told == []


@sync
async def test_the_first_start_offer_answered_play_plays() -> None:
    app = ForageApp(seed=3, offer_learn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "learn" in str(dialog.query_one("#answers", Static).render())
        await pilot.press("n")
        await pilot.pause()
        assert playing_own_game(app.screen)
    assert load_progress() == Progress(offered=True)


@sync
async def test_l_in_a_game_opens_the_tutorial_and_escape_comes_back() -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await place_greedy(pilot, app)
        game = app.session
        assert game is not None and len(game.game.moves) == 1
        await pilot.press("L")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.mode, LessonMode)
        assert app.session is game  # the player's own game, not the lesson's
        await drive(pilot, screen, LESSONS[0].placement)
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert playing_own_game(app.screen) and app.session is game
        assert len(game.game.moves) == 1
    assert load_progress().step == 1


def labels(bar: KeyBar) -> set[tuple[str, str]]:
    """(action, what the bar calls it) for each key the bar shows."""
    shown = bar.keys()
    return {(action, said) for _, said, action, _ in shown}


@sync
async def test_between_lessons_the_key_bar_calls_enter_next() -> None:
    app = LearnApp(step=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = learn_screen(app)
        bar = screen.query_one(KeyBar)
        assert ("place", "Place") in labels(bar)
        await drive(pilot, screen, LESSONS[0].placement)
        await pilot.press("enter")
        await pilot.pause()
        assert lesson_mode(screen).done is LESSONS[0]
        assert ("place", "Next") in labels(bar)
        await pilot.press("enter")
        await pilot.pause()
        assert lesson_mode(screen).done is None and ("place", "Place") in labels(bar)


@sync
async def test_a_lesson_s_screen_is_mounted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    mounts: list[GameScreen] = []
    mount = GameScreen.on_mount

    def counted(screen: GameScreen) -> None:
        mounts.append(screen)
        mount(screen)

    monkeypatch.setattr(GameScreen, "on_mount", counted)
    app = LearnApp(step=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert mounts == [app.screen]
