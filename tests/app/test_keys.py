"""The keys bar and the status bar: what they show, and a click on a key."""

from __future__ import annotations

import pytest
from app_helpers import (
    SIZES,
    game_screen,
    place_quickly,
    play_out_quickly,
    screen_text,
    session_of,
    sync,
)
from textual.binding import Binding

from forage.app.app import ForageApp
from forage.app.screens import GameScreen, HelpScreen
from forage.app.widgets import StatusBar, StatusState
from forage.app.widgets.keys import KeyBar
from forage.engine import Rotation


def bar_text(app: ForageApp) -> str:
    """The keys bar of the current screen as plain text."""
    bar = app.screen.query_one(KeyBar)
    return "".join(str(strip.text) for strip in bar.render_lines(bar.region.reset_offset))


@sync
async def test_keys_bar_shows_every_shown_game_key_once_in_80_columns() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = bar_text(app)
        shown = [b for b in GameScreen.BINDINGS if isinstance(b, Binding) and b.show]
        shown = [b for b in shown if b.action != "mouse_colour"]  # only where it chooses
        for binding in shown:
            assert text.count(f" {binding.description}") == 1, binding.description
        assert text.count("Move") == 1  # four arrow bindings, one entry
        assert "Right" not in text and "…" not in text


@sync
async def test_clicking_a_key_runs_its_action() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        before = session.cursor.rotation
        text = bar_text(app)
        column = text.index("Rotate")
        await pilot.click(KeyBar, offset=(column, 0))
        await pilot.pause()
        assert session.cursor.rotation == Rotation((before + 90) % 360)


@sync
async def test_keys_bar_follows_the_screen_it_is_on() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Close help" in bar_text(app) and "Rotate" not in bar_text(app)


@sync
async def test_status_bar_says_each_thing_on_one_line() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(StatusBar)
        headline = "Can't place here: " + "the card must cover at least one area " * 3
        bar.state = StatusState(headline, "details here", tone="refused", note="a note")
        lines = bar.lines(bar.text_width)
        # too long for one line: the headline goes on over the details, each line whole
        # words, the second cut if need be; the note keeps the last line
        assert len(lines) == 3 and lines[2][0] == "a note"
        assert lines[0][0].startswith("Can't place here: the card must")
        assert not lines[0][0].endswith("…") and len(lines[0][0]) <= bar.text_width
        assert lines[1][0].endswith("…") and len(lines[1][0]) == bar.text_width
        assert lines[0][1] == lines[1][1]  # both in the headline's style
        bar.state = StatusState("Short enough.", "details here", tone="refused", note="a note")
        assert [text for text, _ in bar.lines(bar.text_width)] == [
            "Short enough.",
            "details here",
            "a note",
        ]


@sync
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_footer_drops_the_placing_keys_once_the_game_is_over(
    size: tuple[int, int],
) -> None:

    app = ForageApp(seed=4, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert "Rotate" in bar_text(app)
        await play_out_quickly(pilot, app)
        await pilot.press("escape")  # from the summary to the finished woodland
        await pilot.pause()
        shown = bar_text(app)
        assert "Rotate" not in shown and "Hint" not in shown and "Move" not in shown
        assert "Undo" in shown and "Quit" in shown
        await pilot.press("u")  # undone: placing again, its keys back
        await pilot.pause()
        assert "Rotate" in bar_text(app)


@sync
async def test_help_lines_fit_the_help_box_at_80x24() -> None:
    import re

    from forage.app.screens.help import KEYS, READING, RULES

    app = ForageApp(seed=1, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        box = app.screen.query_one("#help-text").content_region.width
    lines = [re.sub(r"\[/?b\]", "", line) for line in (KEYS + READING + RULES).splitlines()]
    too_long = [line for line in lines if len(line) > box]
    assert box >= 60 and too_long == []


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@sync
async def test_the_mouse_colour_key_is_named_where_the_card_has_a_choice(
    size: tuple[int, int],
) -> None:
    from app_helpers import choice_spot, drive_to

    seed, spot = choice_spot()
    app = ForageApp(seed=seed, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert "Mouse" not in bar_text(app)  # no choice where the card is dealt
        await pilot.press("c")  # the key still answers
        await pilot.pause()
        assert "No mouse colour" in app.screen.query_one(StatusBar).state.note
        await drive_to(pilot, app, spot)
        await pilot.pause()
        assert " c Mouse colour" in bar_text(app) and "…" not in bar_text(app)
        await pilot.press("h", "h", "h")
        await pilot.pause()
        assert "Mouse" not in bar_text(app)


def footer(app: ForageApp) -> str:
    """The key bar of the screen on top, as shown."""
    from forage.app.widgets.keys import KeyBar

    return app.screen.query_one(KeyBar).render().plain


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_footer_names_only_keys_that_work_on_the_last_turn_and_after(
    size: tuple[int, int],
) -> None:
    """On the last turn one card is left and tab does nothing: neither the footer nor the
    status bar names it. Once the game is over enter shows the summary, and the footer
    names it so, not "Place"; after an undo it is "Place" again."""
    app = ForageApp(seed=5, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        assert "Card" in footer(app)
        while len(session.game.hand) > 1:
            await place_quickly(pilot, app)
        assert session.waiting  # the last card, dealt beside the woodland
        assert "Card" not in footer(app) and "tab" not in footer(app)
        assert "tab" not in " ".join(screen_text(app).split())
        assert "Place" in footer(app)
        await place_quickly(pilot, app)
        await pilot.pause()
        await pilot.press("escape")  # from the summary to the finished woodland
        await pilot.pause()
        assert session.game.is_over() and app.screen is screen
        assert "Place" not in footer(app) and "Summary" in footer(app)
        await pilot.press("enter")  # the key the footer names does show the summary
        await pilot.pause()
        assert app.screen is not screen
        await pilot.press("escape")
        await pilot.press("u")  # undone: the last card back in hand, placing again
        await pilot.pause()
        assert "Place" in footer(app) and "Card" not in footer(app)
