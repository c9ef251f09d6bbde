"""The woodland view's drawing shortcuts: rows kept away from the card, narrow repaints."""

from __future__ import annotations

import random

import pytest
from app_helpers import assert_drawn_as_textual_would, place_quickly, sync
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.geometry import Region

from forage.app.app import ForageApp
from forage.app.describe import cell_previews
from forage.app.session import Session
from forage.app.widgets import StatusBar
from forage.app.widgets.woodland import (
    SIZES,
    CellSize,
    RowCache,
    WoodlandState,
    WoodlandView,
    grid_segments,
)
from forage.engine import Square
from forage.engine.woodland import Pos

MOVES = st.lists(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1), "rotate", "next"]), max_size=25)


def _state(
    session: Session,
    squares: dict[Pos, Square],
    peek: bool = False,
    marked: frozenset[Pos] = frozenset(),
) -> WoodlandState:
    """What the game screen gives the view for the session's cursor."""
    outcome = session.preview()
    assert outcome is not None
    placement = outcome.placement
    card = session.game.card(placement.card)
    cells = tuple(
        (placement.x + dx, placement.y + dy, area)
        for dx, dy, area in card.footprint(placement.rotation)
    )
    over = {(x, y): area for x, y, area in cells}
    previews = cell_previews(outcome, over, squares)
    return WoodlandState(
        squares=squares, card=cells, outcome=outcome, previews=previews, peek=peek, marked=marked
    )


@settings(max_examples=30, deadline=None)
@given(
    moves=MOVES,
    size=st.sampled_from(SIZES),
    placed=st.integers(0, 4),
    peek=st.booleans(),
    marked=st.frozensets(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=3),
)
def test_cached_rows_draw_the_same_grid_as_drawing_afresh(
    moves: list[object], size: CellSize, placed: int, peek: bool, marked: frozenset[Pos]
) -> None:
    """Rows kept without the card, with the card's areas and separators drawn again over
    them, are the grid drawn row by row with the card, peeking or not, marks or not."""
    session = Session.start(seed=7)
    for _ in range(placed):
        best = max(session.game.outcomes(), key=lambda o: o.score_change)
        session.game.push(best.placement)
    squares = dict(session.game.woodland.squares)
    cache: RowCache = {}
    for move in moves:
        if move == "rotate":
            session.rotate()
        elif move == "next":
            session.next_card()
        else:
            assert isinstance(move, tuple)
            session.move(*move)
        state = _state(session, squares, peek, marked)
        fresh = grid_segments(state, size, -6, -5, 70, 30)
        kept = grid_segments(state, size, -6, -5, 70, 30, rows_cache=cache)
        assert kept == fresh


@sync
async def test_a_move_repaints_only_the_lines_that_changed() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.screen.query_one(WoodlandView)
        before = list(view.grid_lines())
        repainted: list[int] = []
        refresh = view.refresh

        def spy(*regions: Region, **kwargs: bool) -> WoodlandView:
            repainted.extend(y for region in regions for y in region.line_range)
            return refresh(*regions, **kwargs)

        view.refresh = spy  # type: ignore[method-assign]
        await pilot.press("h")  # from beside the woodland onto it
        after = view.grid_lines()
        changed = [y for y, line in enumerate(after) if line != before[y]]
        assert 0 < len(changed) < len(after) // 2
        assert sorted(repainted) == changed


@pytest.mark.parametrize("theme", ["forage", "forage-colour-blind"])
@sync
async def test_the_woodland_and_status_lines_are_those_textuals_styles_would_draw(
    theme: str,
) -> None:
    """The woodland and the status bar give the compositor their lines without Textual's
    styles cache and without its filter from ANSI colours to RGB: every colour they draw
    is RGB, and for any crop their lines are what the styles cache draws, filters and all,
    over four turns of a recipe challenge, peeking and not."""
    app = ForageApp(seed=2, recipes=True)
    async with app.run_test(size=(90, 30)) as pilot:
        app.theme = theme
        view = app.screen.query_one(WoodlandView)
        bar = app.screen.query_one(StatusBar)
        rng = random.Random(3)
        for _ in range(4):
            await place_quickly(pilot, app)
            for keys in (("left", "up", "r"), ("p",), ("p",)):
                await pilot.press(*keys)
                await pilot.pause()
                assert_drawn_as_textual_would(view, rng)
                assert_drawn_as_textual_would(bar, rng, crops=3)
