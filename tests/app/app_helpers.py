"""Helpers for the game screen tests: driving the card by key presses, playing games out."""

from __future__ import annotations

import asyncio
import functools
import os
import random
import subprocess
import sys
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, TypeVar

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from forage.app.app import ForageApp
from forage.app.modes.room import RoomMode
from forage.app.modes.solo import SoloMode
from forage.app.screens import GameScreen
from forage.app.services import Analysis
from forage.app.session import Session
from forage.app.widgets import StatusBar
from forage.engine import Deal, Outcome, Placement

T = TypeVar("T")

IDLE_CHECK_SECONDS = 1 / 200
"""How often the pilot checks that the app is idle after a key press or pause (Textual's own
is every 20 ms): see :func:`quick_idle_checks`."""


def quick_idle_checks() -> None:
    """Make Textual's pilot check for idleness every 5 ms (with the same 5% CPU share as its
    test of idle), for a test run in a fresh interpreter; tests/app/conftest.py does the same
    for every pilot test here."""
    import textual._wait

    textual._wait.SLEEP_GRANULARITY = IDLE_CHECK_SECONDS
    textual._wait.SLEEP_IDLE = IDLE_CHECK_SECONDS / 20


def sync(test: Callable[..., Coroutine[None, None, None]]) -> Callable[..., None]:
    """Run an async test function to completion (no pytest-asyncio needed)."""

    @functools.wraps(test)
    def wrapper(*args: object, **kwargs: object) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper


def session_of(app: ForageApp) -> Session:
    """The session on the app's game screen."""
    session = app.session
    assert session is not None
    return session


def keys_to(session: Session, placement: Placement) -> list[str]:
    """The key presses that take the cursor from where it is to a placement (no mouse choice)."""
    keys: list[str] = []
    hand = session.game.hand
    index = hand.index(placement.card)
    keys.append(str(index + 1))
    turns = ((placement.rotation - session.cursor.rotation) % 360) // 90
    keys += ["r"] * turns
    return keys


async def drive_to(pilot: Pilot[int], app: ForageApp, placement: Placement) -> None:
    """Press the keys that bring the card being placed onto a placement (not placing it),
    each reckoned from the cursor as the app has it once the keys before it are taken."""
    session = session_of(app)
    card, *_ = keys_to(session, placement)
    await pilot.press(card)  # choosing the card may turn the cursor: turn from where it is
    await pilot.pause()
    await pilot.press(*keys_to(session, placement)[1:])
    await pilot.pause()
    dx = placement.x - session.cursor.x
    dy = placement.y - session.cursor.y
    moves = ["right" if dx > 0 else "left"] * abs(dx) + ["down" if dy > 0 else "up"] * abs(dy)
    if moves:
        await pilot.press(*moves)
    assert (session.cursor.x, session.cursor.y) == (placement.x, placement.y)
    assert session.cursor.rotation == placement.rotation


def keys_onto(session: Session, placement: Placement) -> list[str]:
    """The keys a lesson of ``forage learn`` names (r turns, arrows move) that bring the
    card being placed onto a placement of the same card."""
    cursor = session.cursor
    assert cursor is not None and cursor.card == placement.card  # no need to change card
    keys = ["r"] * (((placement.rotation - cursor.rotation) % 360) // 90)
    dx, dy = placement.x - cursor.x, placement.y - cursor.y
    keys += ["right" if dx > 0 else "left"] * abs(dx) + ["down" if dy > 0 else "up"] * abs(dy)
    return keys


def greedy(session: Session) -> Outcome:
    """The legal placement (default mouse colours) that raises the base score most."""
    outcomes = [o for o in session.game.outcomes() if not o.placement.mouse]
    return max(outcomes, key=lambda o: (o.score_change, -o.placement.y, -o.placement.x))


async def press_place(pilot: Pilot[int], app: ForageApp) -> None:
    """Press enter to place the card where it is shown, and enter again where the drop is
    a costly one that asks for a second enter."""
    await pilot.press("enter")
    await pilot.pause()
    if game_screen(app).asks_again:
        await pilot.press("enter")
        await pilot.pause()


async def place_greedy(pilot: Pilot[int], app: ForageApp) -> Outcome:
    """Drive the card to the greedy placement and place it by keys; returns its outcome."""
    outcome = greedy(session_of(app))
    await drive_to(pilot, app, outcome.placement)
    await press_place(pilot, app)
    return outcome


async def play_out(pilot: Pilot[int], app: ForageApp) -> None:
    """Play the game to its end by key presses alone, greedily."""
    session = session_of(app)
    while not session.game.is_over():
        target = greedy(session).placement
        await drive_to(pilot, app, target)
        await press_place(pilot, app)


def game_screen(app: ForageApp) -> GameScreen:
    """The game screen, under any dialog."""
    for screen in app.screen_stack:
        if isinstance(screen, GameScreen):
            return screen
    raise AssertionError("no game screen")


def playing_own_game(screen: object) -> bool:
    """Whether a screen is the game screen of the player's own game (not a lesson's, a
    puzzle's or a room's)."""
    return isinstance(screen, GameScreen) and isinstance(screen.mode, SoloMode)


def in_room(screen: object) -> bool:
    """Whether a screen is the game screen of a room's game."""
    return isinstance(screen, GameScreen) and isinstance(screen.mode, RoomMode)


def room_mode(screen: object) -> RoomMode:
    """The room's mode of the game screen of a room's game."""
    assert isinstance(screen, GameScreen) and isinstance(screen.mode, RoomMode), screen
    return screen.mode


def choice_spot(seeds: range = range(1, 60)) -> tuple[int, Placement]:
    """A seed whose first turn has a legal placement with a split-area mouse colour choice."""
    from forage.carddata import standard_deck
    from forage.engine import Deal, Game

    for seed in seeds:
        game = Game(Deal.from_seed(seed), standard_deck())
        found = [o for o in game.outcomes() if o.mouse_choice_possible and not o.placement.mouse]
        if found:
            best = max(found, key=lambda o: (o.score_change, -o.placement.y, -o.placement.x))
            return seed, best.placement
    raise AssertionError("no deal with a mouse colour choice")


def place_by_action(app: ForageApp, placement: Placement) -> None:
    """Make a placement through the screen's action (no key presses), twice where the drop
    is a costly one that asks for a second enter."""
    session_of(app).go_to(placement)
    screen = game_screen(app)
    screen.action_place()
    if screen.asks_again:
        screen.action_place()


async def place_quickly(pilot: Pilot[int], app: ForageApp) -> None:
    """Make the greedy placement through the screen's actions (no key presses)."""
    place_by_action(app, greedy(session_of(app)).placement)
    await pilot.pause()


async def play_out_quickly(pilot: Pilot[int], app: ForageApp) -> None:
    """Play the game to its end greedily through the screen's actions (no key presses)."""
    session = session_of(app)
    while not session.game.is_over():
        await place_quickly(pilot, app)
    await settled(pilot, app)


def ascii_output(script: str, home: Path) -> str:
    """What a Python script prints when run with ``FORAGE_ASCII=1`` and its own data folder
    (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "FORAGE_ASCII": "1", "FORAGE_HOME": str(home)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


async def settled(pilot: Pilot[int], app: ForageApp) -> None:
    """Wait until the history has answered the end screen, and that is shown."""
    await app.workers.wait_for_complete([w for w in app.workers if w.group == "history"])
    await pilot.pause()
    await pilot.pause()


async def saved(pilot: Pilot[int], app: ForageApp) -> None:
    """Wait until the save's writes asked for so far are made, and what they did is told."""
    await asyncio.wrap_future(app.services.writes.done())
    await pilot.pause()
    await pilot.pause()


def output_with_theme(code: str, theme: str) -> str:
    """What Python code prints in a fresh interpreter started with ``FORAGE_THEME=theme``."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "FORAGE_THEME": theme},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_drawn_as_textual_would(widget: Widget, rng: random.Random, crops: int = 10) -> None:
    """A widget that hands its lines to the compositor itself (``WholeLines``) draws only
    RGB colours, and for random crops its lines are what Textual's styles cache would
    draw, filters and all."""
    for line in widget.render_lines(Region(0, 0, *widget.outer_size)):
        for segment in line:
            style = segment.style
            assert style is not None and not style.dim
            for colour in (style.color, style.bgcolor):
                assert colour is None or colour.triplet is not None
    width, height = widget.outer_size
    for _ in range(crops):
        x, y = rng.randrange(width), rng.randrange(height)
        crop = Region(x, y, rng.randint(1, width - x), rng.randint(1, height - y))
        ours = widget.render_lines(crop)
        widget._styles_cache.clear()
        theirs = widget._styles_cache.render_widget(widget, crop)
        assert [list(strip) for strip in ours] == [list(strip) for strip in theirs]


class InlinePool(Executor):
    """The app's analyses worked out at once on the thread that hands them out, with no
    worker process: for tests. ``fakes`` answers chosen functions instead (by name), and
    ``calls`` lists the names of the functions asked for."""

    def __init__(self, fakes: dict[str, Callable[..., Any]] | None = None) -> None:
        """A pool answering ``fakes`` (function name to fake) and the rest for real."""
        self.fakes = fakes or {}
        self.calls: list[str] = []

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """The answer, at once."""
        self.calls.append(fn.__name__)
        future: Future[T] = Future()
        try:
            future.set_result(self.fakes.get(fn.__name__, fn)(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


def inline_analysis(pool: InlinePool | None = None) -> Analysis:
    """The app's analyses on an :class:`InlinePool` (a fresh one by default)."""
    chosen = pool or InlinePool()
    return Analysis(1, lambda workers: chosen)


SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


MOUSE_FIRST = "5r90@-1,0"
"""Seed 1's first turn, leaving a B mouse at (1, 0)."""


ONTO_THE_MOUSE = "8@1,-2"
"""Then card 8 (no B area where the mouse is) over that mouse: refused there alone."""


def moves(*notations: str) -> list[Placement]:
    """Placements from their compact notation."""
    return [Placement.from_notation(n) for n in notations]


def app_on(seed: int, made: list[Placement], recipes: bool = False) -> ForageApp:
    """An app continuing a seed's game after these moves."""
    deal = Deal.from_seed(seed, recipes=recipes)
    return ForageApp(session=Session.deal_up(deal, seed, 1, None, made), offer_resume=False)


def status(app: ForageApp) -> StatusBar:
    """The status bar of the game screen."""
    return game_screen(app).query_one(StatusBar)


def screen_text(app: ForageApp) -> str:
    """The screen as the terminal shows it, in plain text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)
