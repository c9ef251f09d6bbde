"""The status bar at 80x24 and 120x40: a refusal's whole reason, a losing drop's preview
and note, and details too long for their line said in fewer words."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import NamedTuple

import pytest
from app_helpers import (
    SIZES,
    drive_to,
    game_screen,
    greedy,
    place_by_action,
    press_place,
    screen_text,
    sync,
)
from textual.pilot import Pilot

from forage.app.app import ForageApp
from forage.app.describe import ELLIPSIS
from forage.app.session import Session
from forage.app.widgets import StatusBar
from forage.engine import Deal, Effect, Placement, Reason


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_a_refusal_says_its_whole_reason(size: tuple[int, int]) -> None:
    """The whole reason a mouse cannot be covered is said, once, with no ellipsis: at 80
    columns the headline goes on over the details line."""
    deal = Deal.from_seed(1)
    session = Session.deal_up(deal, 1, 1, None, [Placement.from_notation("5r90@-1,0")])
    app = ForageApp(session=session, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await drive_to(pilot, app, Placement.from_notation("8@1,-2"))  # onto a B mouse
        await pilot.pause()
        outcome = session.preview()
        assert outcome is not None and outcome.reason is Reason.COVERS_MOUSE
        shown = screen_text(app)
        said = " ".join(shown.split())
        assert outcome.message in said  # the whole reason, on one or two lines
        assert said.count(outcome.message) == 1  # said once
        assert ELLIPSIS not in shown.split("Can't place here")[1].split(outcome.message)[0]


class Scene(NamedTuple):
    """A game on screen, its pilot, its session and its status bar."""

    app: ForageApp
    pilot: Pilot[int]
    session: Session
    bar: StatusBar


@asynccontextmanager
async def before_the_garlic_mushrooms(size: tuple[int, int]) -> AsyncIterator[Scene]:
    """Seed 5 on screen after two placements, its Garlic Mushrooms card in hand: placed at
    3r90@1,1 two mice move in and two food dice go back to the supply (-11)."""
    made = [Placement.from_notation(n) for n in ("7@0,1", "6r90@-1,1")]
    session = Session.deal_up(Deal.from_seed(5), 5, 1, None, made)
    app = ForageApp(session=session, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield Scene(app, pilot, session, game_screen(app).query_one(StatusBar))


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_note_after_a_losing_drop_reads_as_a_loss_and_says_what_went_back(
    size: tuple[int, int],
) -> None:
    """Seed 5's Garlic Mushrooms card sends two dice back to the supply for -11: the note
    after it is drawn in the loss colour, not the gain's, and says the dice went back; a
    later drop that calls on Edwood says Edwood is used up."""
    from forage.app.themes import marks_of

    async with before_the_garlic_mushrooms(size) as (app, pilot, session, bar):
        await drive_to(pilot, app, Placement.from_notation("3r90@1,1"))
        await pilot.press("enter", "enter")  # a costly drop: enter twice
        await pilot.pause()
        assert len(session.game.moves) == 3
        note = bar.state.note
        assert note.startswith("Placed the Garlic Mushrooms card: -11")
        assert "2 dice to the supply" in note and note in screen_text(app)
        marks = marks_of(app)
        text, style = bar.lines(bar.text_width)[-1]
        assert text == note and style == marks["loss"] and style != marks["gain"]
        for _ in range(8):  # on to a drop that calls on Edwood
            edwood = [
                o
                for o in session.game.outcomes()
                if any(e.effect is Effect.EDWOOD for e in o.effects)
            ]
            if edwood:
                break
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
        assert edwood
        await drive_to(pilot, app, edwood[0].placement)
        await press_place(pilot, app)
        assert "Edwood used up" in bar.state.note


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_a_losing_preview_is_not_ticked(size: tuple[int, int]) -> None:
    """The preview of seed 5's Garlic Mushrooms card (-11) is marked as a loss, without the
    tick that reads as a good move; a gaining drop keeps its tick."""
    from forage.app.describe import LOSS, TICK

    async with before_the_garlic_mushrooms(size) as (app, pilot, session, bar):
        await drive_to(pilot, app, Placement.from_notation("3r90@1,1"))
        assert bar.state.tone == "loss"
        headline = bar.lines(bar.text_width)[0][0]
        assert headline.startswith(f"{LOSS} Enter places it") and TICK not in headline
        assert headline in screen_text(app)
        await drive_to(pilot, app, greedy(session).placement)
        assert bar.state.tone == "gain"
        assert bar.lines(bar.text_width)[0][0].startswith(f"{TICK} Enter places it")


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_details_too_long_for_their_line_are_said_in_fewer_words(
    size: tuple[int, int],
) -> None:
    """Seed 5's Garlic Mushrooms card, where two mice move in: at 80x24 its details are too
    long for the line and are counted instead, what the drop costs first, never cut; where
    they fit (120 columns) they are said in full."""

    async with before_the_garlic_mushrooms(size) as (app, pilot, _, bar):
        width = bar.text_width
        await drive_to(pilot, app, Placement.from_notation("3r90@1,1"))
        details = bar.lines(width)[1][0]
        full = "mouse C-2 (B3 to the supply) · mouse C-2 (M3 to the supply) · 4 on empty table"
        if width < len(bar.state.details):
            assert details == "2 mice · 2 dice back · 4 on empty table · c: mouse colour"
        else:
            assert details.startswith(full)
        assert ELLIPSIS not in details and details in screen_text(app)
        await drive_to(pilot, app, Placement.from_notation("3r180@0,1"))  # four mice
        details = bar.lines(width)[1][0]
        assert details == "4 mice · 3 dice back · 2 new dice · c: mouse colour"
    assert (size == (80, 24)) == (width < 96)


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_a_brief_too_long_for_its_line_drops_whole_counts_and_keeps_the_key_hint(
    size: tuple[int, int],
) -> None:
    """Seed 2's card 14 at 14@-1,2 after two placements brings three mice, Edwood, a die
    back, a new die, a raise, two areas on empty table and a choice of mouse colour: even
    counted, that is longer than 80 columns. Whole counts go from the end, an ellipsis in
    their place, no word is cut, and the c key's hint stays."""
    from forage.app.describe import DOT, MOUSE_HINT

    made = [Placement.from_notation(n) for n in ("1r270@0,2", "12@-1,3")]
    session = Session.deal_up(Deal.from_seed(2), 2, 1, None, made)
    app = ForageApp(session=session, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        bar = game_screen(app).query_one(StatusBar)
        await drive_to(pilot, app, Placement.from_notation("14@-1,2"))
        await pilot.pause()
        width = bar.text_width
        details = bar.lines(width)[1][0]
        brief = bar.state.brief
        assert len(" ".join(bar.state.details.split())) > width  # the brief is said
        assert details.endswith(f" {DOT} {MOUSE_HINT}") and details in screen_text(app)
        parts = details.split(f" {DOT} ")
        whole = brief.split(f" {DOT} ")
        assert all(part in whole or part == ELLIPSIS for part in parts)  # no word cut short
        assert (ELLIPSIS in parts) == (len(brief) > width)
    assert (size == (80, 24)) == (len(brief) > width)
