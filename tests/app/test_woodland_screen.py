"""The woodland on the game screen: what a drop covers and does in each area, the one area
that causes a refusal, peeking under the card, the next card waiting beside the woodland,
the view keeping the woodland in sight, and the mouse on it."""

from __future__ import annotations

import pytest
from app_helpers import (
    MOUSE_FIRST,
    ONTO_THE_MOUSE,
    SIZES,
    app_on,
    drive_to,
    game_screen,
    greedy,
    moves,
    place_by_action,
    place_greedy,
    session_of,
    status,
    sync,
)

from forage.app.app import ForageApp
from forage.app.describe import card_name
from forage.app.widgets import WoodlandView
from forage.engine import Effect, Placement, Reason, Rotation


def woodland(app: ForageApp) -> WoodlandView:
    """The game screen's woodland view."""
    return app.screen.query_one(WoodlandView)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_a_refusal_marks_only_the_area_that_causes_it(size: tuple[int, int]) -> None:
    app = app_on(1, moves(MOUSE_FIRST))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        target = Placement.from_notation(ONTO_THE_MOUSE)
        await drive_to(pilot, app, target)
        await pilot.pause()
        outcome = session.preview()
        assert outcome is not None and outcome.reason is Reason.COVERS_MOUSE
        cause = session.game.woodland[outcome.cause]  # type: ignore[index]
        assert cause.die is not None and cause.die.mouse
        text = app.screen.query_one(WoodlandView).plain_text()
        assert text.count("✗") == 1  # one area of six is marked
        assert "M-2" in text.split("✗")[1].split("\n")[0] or "on M-2" in text
        assert "the red area" in status(app).state.headline


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_each_covered_area_shows_what_the_drop_does_there(size: tuple[int, int]) -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        outcome = greedy(session)
        await drive_to(pilot, app, outcome.placement)
        await pilot.pause()
        text = app.screen.query_one(WoodlandView).plain_text()
        placed = [e for e in outcome.effects if e.effect is Effect.PLACED]
        assert placed, "the greedy first drop of seed 1 places a die"
        for effect in placed:  # each new die is named in its area: +B1, +C1, +M1
            assert f"+{effect.area.value}1" in text


@sync
async def test_peek_shows_the_woodland_under_the_card() -> None:
    app = app_on(1, moves(MOUSE_FIRST))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await drive_to(pilot, app, Placement.from_notation(ONTO_THE_MOUSE))
        view = app.screen.query_one(WoodlandView)
        covering = view.plain_text()
        await pilot.press("p")
        await pilot.pause()
        under = view.plain_text()
        assert "✗" not in under and "┃" in under
        assert "M-2" in under  # the mouse under the card is in sight
        await pilot.press("left")  # moving the card shows it again
        await pilot.pause()
        assert "┃" not in view.plain_text() and covering != under


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_next_card_starts_beside_the_woodland(size: tuple[int, int]) -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        first = await place_greedy(pilot, app)
        assert len(session.game.moves) == 1
        cursor = session.cursor
        assert cursor is not None
        squares = session.game.woodland.squares
        cells = session.game.card(cursor.card).footprint(cursor.rotation)
        assert not any((cursor.x + dx, cursor.y + dy) in squares for dx, dy, _ in cells)
        bar = status(app).state
        assert bar.tone == "idle" and "✗" not in bar.headline  # not refused: not yet moved
        assert "Move it onto the woodland" in bar.headline
        name = card_name(session.game.card(first.placement.card))
        assert bar.note == f"Placed {name}: {first.score_change:+d} " + (
            f"(score now {session.game.base})."
        )
        assert not woodland(app).state.previews  # no red mark on the woodland either
        await pilot.press("enter")  # a second enter places nothing, and says so calmly
        await pilot.pause()
        assert len(session.game.moves) == 1
        bar = status(app).state
        assert bar.tone == "idle" and bar.note.startswith("Move the card onto the woodland")
        await pilot.press("left")  # once the player moves it, a refusal is a refusal
        await pilot.pause()
        outcome = session.preview()
        assert outcome is not None
        if not outcome.legal:
            assert status(app).state.tone == "refused"


@sync
@pytest.mark.parametrize(
    ("seed", "size"), [(5, (80, 24)), (5, (120, 40))], ids=["seed5-80x24", "seed5-120x40"]
)
async def test_a_key_that_does_not_move_the_waiting_card_does_not_move_the_view(
    seed: int, size: tuple[int, int]
) -> None:
    """After a drop the next card waits beside the woodland, perhaps out of sight; the view
    keeps its place until the player moves the card: a key that leaves the card where it is
    (``c`` with no mouse to colour) does not pan the woodland."""
    app = ForageApp(seed=seed, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        view = screen.query_one(WoodlandView)
        moved = 0
        while not session.game.is_over():
            session.go_to(greedy(session).placement)
            screen.changed()
            await pilot.pause()
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
            if session.game.is_over():
                break
            assert session.waiting
            held = view.drawn_layout
            await pilot.press("c")  # no mouse colour to choose: the card stays where it is
            assert view.drawn_layout == held
            await pilot.press("left")  # the card moves: now the view may follow it
            moved += view.drawn_layout != held
        assert moved  # the view does follow a card the player moves


@sync
async def test_the_view_keeps_every_placed_card_in_sight_at_120x40() -> None:
    app = ForageApp(seed=6)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        view = screen.query_one(WoodlandView)
        while not session.game.is_over():
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
            for key in ("up", "up", "left", "left", "down", "right"):
                await pilot.press(key)
                size, ox, oy = view.layout_for(view.size.width, view.size.height)
                cols = (view.size.width - 1) // (size.width + 1)
                rows = view.size.height // size.height
                x0, y0, x1, y1 = session.game.woodland.bounds()
                assert ox <= x0 and x1 < ox + cols and oy <= y0 and y1 < oy + rows
            if len(session.game.moves) >= 5:
                break


@sync
@pytest.mark.parametrize(
    ("seed", "size"), [(3, (80, 24)), (6, (120, 40))], ids=["seed3-80x24", "seed6-120x40"]
)
async def test_the_view_is_steady_and_never_cuts_the_woodland(
    seed: int, size: tuple[int, int]
) -> None:
    from forage.app.widgets.woodland import SIZES, _fits

    app = ForageApp(seed=seed, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        view = screen.query_one(WoodlandView)
        cells: list[object] = []
        while not session.game.is_over():
            session.go_to(greedy(session).placement)
            screen.changed()
            await pilot.pause()
            before = view.drawn_layout
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
            now = view.drawn_layout
            assert before is not None and now is not None
            cell, ox, oy = now
            cells.append(cell)
            state = view.state
            if cell == before[0] and (ox, oy) != before[1:]:
                # the view moved after a drop only to keep the whole woodland in sight
                x0, y0, x1, y1 = session.game.woodland.bounds()
                bx, by = before[1:]
                cols = (view.size.width - 1) // (cell.width + 1)
                rows = view.size.height // cell.height
                assert not (bx <= x0 and x1 < bx + cols and by <= y0 and y1 < by + rows)
            if len(cells) > 1 and cells[-1] != cells[-2]:  # it shrank because it had to
                assert SIZES.index(cells[-1]) > SIZES.index(cells[-2])
                assert not _fits(state, cells[-2], view.size.width, view.size.height, 1)
            for key in ("left", "left", "left", "up", "up", "right", "right", "down"):
                await pilot.press(key)
                drawn = view.drawn_layout
                assert drawn is not None
                cell, ox, oy = drawn
                cols = (view.size.width - 1) // (cell.width + 1)
                rows = view.size.height // cell.height
                x0, y0, x1, y1 = session.game.woodland.bounds()
                if x1 - x0 < cols and y1 - y0 < rows:  # it fits: all of it is in view
                    assert ox <= x0 and x1 < ox + cols and oy <= y0 and y1 < oy + rows


@sync
async def test_mouse_right_click_and_wheel_rotate_and_double_click_places() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        assert session.cursor is not None and session.cursor.rotation is Rotation.R0
        await pilot.click(WoodlandView, offset=(2, 1), button=3)
        assert session.cursor.rotation is Rotation.R90
        view = app.screen.query_one(WoodlandView)
        view.post_message(WoodlandView.Turned(False))  # what the wheel sends, turning back
        await pilot.pause()
        assert session.cursor.rotation is Rotation.R0
        best = greedy(session).placement
        session.go_to(best)
        game_screen(app).changed()
        await pilot.pause()
        size, ox, oy = view.layout_for(view.size.width, view.size.height)
        spot = (1 + (best.x - ox) * (size.width + 1), (best.y - oy) * size.height)
        await pilot.click(WoodlandView, offset=spot, times=2)
        await pilot.pause()
        assert session.game.moves == [best]
