"""The woodland view's drawing shortcuts: rows kept away from the card, narrow repaints."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style

from forage.app.describe import cell_previews
from forage.app.session import Session
from forage.app.widgets.woodland import (
    SIZES,
    CellSize,
    RowCache,
    WoodlandState,
    _changed_span,
    grid_segments,
)
from forage.engine import Square
from forage.engine.woodland import Pos

MOVES = st.lists(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1), "rotate", "next"]), max_size=25)


def _state(session: Session, squares: dict[Pos, Square]) -> WoodlandState:
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
    return WoodlandState(squares=squares, card=cells, outcome=outcome, previews=previews)


@settings(max_examples=30, deadline=None)
@given(moves=MOVES, size=st.sampled_from(SIZES), placed=st.integers(0, 4))
def test_cached_rows_draw_the_same_grid_as_drawing_afresh(
    moves: list[object], size: CellSize, placed: int
) -> None:
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
        state = _state(session, squares)
        fresh = grid_segments(state, size, -6, -5, 70, 30)
        kept = grid_segments(state, size, -6, -5, 70, 30, rows_cache=cache)
        assert kept == fresh


def _line(text: str, styles: str) -> list[Segment]:
    """A drawn line: one segment per character, styled bold where ``styles`` has a b."""
    return [Segment(ch, Style(bold=s == "b")) for ch, s in zip(text, styles, strict=True)]


def test_changed_span_covers_exactly_the_differing_columns() -> None:
    before = _line("abcdefgh", "........")
    assert _changed_span(before, before) == (0, 0)
    assert _changed_span(before, _line("abXdeYgh", "........")) == (2, 6)
    assert _changed_span(before, _line("abcdefgh", "...b....")) == (3, 4)
    # the same cells cut into segments differently are no change
    merged = list(Segment.simplify(before))
    assert len(merged) == 1 and _changed_span(before, merged) == (0, 0)
    # a line of another length is repainted whole
    assert _changed_span(before, _line("abc", "...")) == (0, 8)
