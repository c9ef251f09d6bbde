"""``forage puzzle`` on the game screen: the first placement judged, the answer shown on
the woodland, the first try kept in the history, and ``P`` from a game."""

from __future__ import annotations

from datetime import date

import pytest
from app_helpers import keys_onto, sync
from textual.pilot import Pilot
from textual.widgets import Static

from forage.app.app import ForageApp
from forage.app.describe import CROSS, TICK
from forage.app.modes.puzzle import PRACTICE, TRIED_BEFORE, PuzzleMode
from forage.app.puzzle_app import PuzzleApp
from forage.app.recorder import Recorder
from forage.app.screens.game import GameScreen
from forage.app.view import card_cells
from forage.app.widgets import StatusBar
from forage.engine import Placement
from forage.history.daily import today
from forage.history.store import HistoryStore
from forage.puzzle import Puzzle, daily_puzzle

DAY = date(2026, 12, 3)
SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


def puzzle_screen(app: PuzzleApp | ForageApp) -> GameScreen:
    """The puzzle's screen."""
    screen = app.screen
    assert isinstance(screen, GameScreen) and isinstance(screen.mode, PuzzleMode)
    return screen


def puzzle_mode(screen: GameScreen) -> PuzzleMode:
    """The puzzle's mode of its screen."""
    assert isinstance(screen.mode, PuzzleMode)
    return screen.mode


def lines(screen: GameScreen) -> str:
    """The puzzle's two lines under the title."""
    return str(screen.query_one("#lesson", Static).render())


def same_spot(a: Placement, b: Placement) -> bool:
    """Whether two placements choose the same card, rotation and spot."""
    return (a.card, a.rotation, a.x, a.y) == (b.card, b.rotation, b.x, b.y)


def wrong_first(puzzle: Puzzle) -> tuple[Placement, int]:
    """A legal first placement that is not the answer, and the best final score a game
    can reach after it (its last card's best drop, counted here)."""
    game = puzzle.game()
    answer = puzzle.line()[0]
    for outcome in list(game.outcomes()):
        if not same_spot(outcome.placement, answer):
            game.push(outcome)
            lasts = [game.base + o.score_change for o in game.outcomes()]
            return outcome.placement, max(lasts, default=game.base)
    raise AssertionError("no other first placement")


async def drive(pilot: Pilot[int], screen: GameScreen, placement: Placement) -> None:
    """Take the placement's card and bring it onto the placement by keys (not placing it)."""
    await pilot.press(str(screen.session.game.hand.index(placement.card) + 1))
    await pilot.press(*keys_onto(screen.session, placement))
    await pilot.pause()
    here = screen.session.cursor
    assert here is not None and same_spot(here, placement)


def stored_tries() -> list[tuple[int, bool]]:
    """The tries the history holds for the default player."""
    with HistoryStore.open() as store:
        return [(t.puzzle, t.solved) for t in store.puzzle_tries(store.default_player())]


@SIZES
@sync
async def test_the_answer_solves_the_puzzle_and_the_try_is_kept(size: tuple[int, int]) -> None:
    puzzle = daily_puzzle(DAY)
    recorder = Recorder()
    app = PuzzleApp(puzzle, DAY, recorder)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = puzzle_screen(app)
        assert f"best line scores {puzzle.best}" in lines(screen)
        title = str(screen.query_one("#title", Static).render())
        assert f"#{puzzle.id}" in title and DAY.isoformat() in title
        answer, last = puzzle.line()
        await drive(pilot, screen, answer)
        await pilot.press("enter")
        await pilot.pause()
        assert f"{TICK} Solved" in lines(screen)
        await drive(pilot, screen, last)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.game.is_over()
        assert f"{TICK} Final score {puzzle.best}" in lines(screen)
        await pilot.press("escape")
    recorder.close()
    assert stored_tries() == [(puzzle.id, True)]


@sync
async def test_a_wrong_first_placement_says_what_it_loses_and_shows_the_answer() -> None:
    puzzle = daily_puzzle(DAY)
    wrong, reach = wrong_first(puzzle)
    recorder = Recorder()
    app = PuzzleApp(puzzle, DAY, recorder)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = puzzle_screen(app)
        await drive(pilot, screen, wrong)
        await pilot.press("enter")
        await pilot.pause()
        said = lines(screen)
        assert f"{CROSS} Not the answer: from here {reach} at best" in said
        details = screen.query_one(StatusBar).state.details  # the last card is dealt
        assert "tab" not in details and "t suggests" not in details  # one card: no tab
        assert f"short of {puzzle.best}" in said
        await pilot.press("a")
        await pilot.pause()
        answer, last = puzzle.line()
        assert len(screen.session.game.moves) == len(puzzle.record.moves)
        here = screen.session.cursor
        assert here is not None and same_spot(here, answer)
        cells = card_cells(screen.session.game, answer)
        assert screen.mode.marked() == frozenset((x, y) for x, y, _ in cells)
        assert "The answer, marked" in lines(screen)
        await pilot.press("enter")
        await pilot.pause()
        here = screen.session.cursor
        assert here is not None and same_spot(here, last)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.game.result().score.final == puzzle.best
        await pilot.press("n")  # again: the position, nothing marked
        await pilot.pause()
        assert len(screen.session.game.moves) == len(puzzle.record.moves)
        assert screen.mode.marked() == frozenset()
        await drive(pilot, screen, answer)
        await pilot.press("enter")
        await pilot.pause()
        assert f"{TICK} Solved" in lines(screen)
        await pilot.press("escape")
    recorder.close()
    assert stored_tries() == [(puzzle.id, False)]  # only the first try counts


@sync
async def test_the_game_keys_that_would_give_the_answer_away_do_nothing() -> None:
    puzzle = daily_puzzle(DAY)
    app = PuzzleApp(puzzle, DAY)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = puzzle_screen(app)
        before = screen.session.cursor
        await pilot.press("t", "u", "n", "s", "g")
        await pilot.pause()
        assert app.screen is screen and screen.session.cursor == before
        for action in ("hint", "undo", "new_game", "stats", "history"):
            assert screen.check_action(action, ()) is False


@sync
async def test_p_opens_the_day_s_puzzle_over_a_game_and_escape_comes_back() -> None:
    app = ForageApp(seed=5, offer_resume=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        game_screen = app.screen
        assert isinstance(game_screen, GameScreen)
        await pilot.press("P")
        await pilot.pause()
        screen = puzzle_screen(app)
        mode = puzzle_mode(screen)
        assert mode.puzzle == daily_puzzle(today()) and mode.over_game
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game_screen


def listen(app: PuzzleApp) -> list[str]:
    """The notifications the app is asked to pop up (none should cover the puzzle)."""
    told: list[str] = []
    app.notify = lambda message, **_: told.append(message)  # type: ignore[method-assign,assignment]
    return told


@SIZES
@sync
async def test_the_title_names_the_puzzle_s_difficulty_and_then_the_player_s_rating(
    size: tuple[int, int],
) -> None:
    puzzle = daily_puzzle(DAY)
    recorder = Recorder()
    app = PuzzleApp(puzzle, DAY, recorder)
    told = listen(app)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = puzzle_screen(app)
        title = str(screen.query_one("#title", Static).render())
        assert f"difficulty {puzzle.rating}" in title and "rating" not in title
        answer, _ = puzzle.line()
        await drive(pilot, screen, answer)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        with HistoryStore.open() as store:
            mine = store.puzzle_tries(store.default_player())[-1].rating
        title = str(screen.query_one("#title", Static).render())
        assert f"difficulty {puzzle.rating}" in title and f"your rating {mine}" in title
        assert "1 solved of 1" in screen.query_one(StatusBar).state.note
        await pilot.press("escape")
    recorder.close()
    assert told == []


@SIZES
@sync
async def test_after_the_best_line_a_line_says_what_it_gathers(size: tuple[int, int]) -> None:
    puzzle = daily_puzzle(DAY)
    app = PuzzleApp(puzzle, DAY)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = puzzle_screen(app)
        for placement in puzzle.line():
            await drive(pilot, screen, placement)
            await pilot.press("enter")
            await pilot.pause()
        first, why = lines(screen).split("\n")
    assert f"scores {puzzle.best}, against {puzzle.second} at best otherwise" in first
    assert why.startswith("The best line ") and ", then the last card " in why
    said = why
    for outcome in puzzle.line_outcomes():  # each drop's biggest gain, in the engine's dice
        gains = [
            (e.die.value - (e.below.die.value if e.below and e.below.die else 0), e.die.value)
            for e in outcome.effects
            if e.die is not None and e.effect.value in ("placed", "raised")
        ]
        if gains:
            value = str(max(gains)[1])
            assert value in said, (value, why)
            said = said[said.index(value) + len(value) :]


def whole(screen: GameScreen) -> str:
    """The puzzle's two lines, each checked to fit its width whole (not cut)."""
    width = screen.query_one("#lesson", Static).content_region.width
    for line in puzzle_mode(screen).lines():
        assert len(line) <= width, (line, width)
    return lines(screen)


@SIZES
@sync
async def test_a_second_try_says_only_the_first_counts_whole(size: tuple[int, int]) -> None:
    puzzle = daily_puzzle(DAY)
    wrong, _ = wrong_first(puzzle)
    app = PuzzleApp(puzzle, DAY)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = puzzle_screen(app)
        assert PRACTICE not in whole(screen)
        await drive(pilot, screen, wrong)
        await pilot.press("enter")
        await pilot.pause()
        assert PRACTICE not in whole(screen)
        await pilot.press("n")
        await pilot.pause()
        assert f"({PRACTICE})" in whole(screen)
        await drive(pilot, screen, wrong)
        await pilot.press("enter")
        await pilot.pause()
        assert f"{CROSS} Not the answer" in whole(screen) and PRACTICE in whole(screen)
        await pilot.press("n")
        await drive(pilot, screen, puzzle.line()[0])
        await pilot.press("enter")
        await pilot.pause()
        assert f"{TICK} Solved" in whole(screen) and PRACTICE in whole(screen)


@sync
async def test_a_puzzle_tried_before_says_at_once_that_only_the_first_try_counts() -> None:
    puzzle = daily_puzzle(DAY)
    wrong, _ = wrong_first(puzzle)
    recorder = Recorder()
    app = PuzzleApp(puzzle, DAY, recorder)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = puzzle_screen(app)
        await drive(pilot, screen, wrong)
        await pilot.press("enter", "escape")
    recorder.close()
    recorder = Recorder()
    app = PuzzleApp(puzzle, DAY, recorder)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete([w for w in app.workers if w.group == "tried"])
        await pilot.pause()
        screen = puzzle_screen(app)
        assert TRIED_BEFORE in screen.query_one(StatusBar).state.note
        assert f"({PRACTICE})" in whole(screen)
        await drive(pilot, screen, puzzle.line()[0])
        await pilot.press("enter", "escape")
    recorder.close()
    assert stored_tries() == [(puzzle.id, False)]


@sync
async def test_the_help_of_a_puzzle_lists_only_the_keys_a_puzzle_has() -> None:
    from forage.app.screens.help import HelpScreen

    app = PuzzleApp(daily_puzzle(DAY), DAY)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text", Static).content)
    assert "rotate clockwise" in text and "q, escape         leave" in text
    for gone in ("undo the last placement", "hint: a suggested", "new game", "saved and offered"):
        assert gone not in text
