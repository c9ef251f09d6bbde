"""What a new player met in a play-test at 80x24 and 120x40: the view holding its place
while the next card waits, refusals said in full, the footer naming only keys that work,
plain ASCII everywhere, and the recipe panel whole."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import NamedTuple

import pytest
from app_helpers import (
    ascii_output,
    drive_to,
    game_screen,
    greedy,
    place_by_action,
    place_quickly,
    press_place,
    session_of,
    sync,
)
from textual.pilot import Pilot

from forage.app.app import ForageApp
from forage.app.describe import ELLIPSIS
from forage.app.session import Session
from forage.app.widgets import StatusBar, WoodlandView
from forage.engine import Deal, Effect, Placement, Reason

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@sync
@pytest.mark.parametrize(
    ("seed", "size"), [(5, (80, 24)), (5, (120, 40))], ids=["seed5-80x24", "seed5-120x40"]
)
async def test_a_key_that_does_not_move_the_waiting_card_does_not_move_the_view(
    seed: int, size: tuple[int, int]
) -> None:
    """After a drop the next card waits beside the woodland, perhaps out of sight; the view
    keeps its place until the player moves the card (a refused key, ``c`` with no mouse to
    colour, used to pan the whole woodland)."""
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


def screen_text(app: ForageApp) -> str:
    """The screen as the terminal shows it, in plain text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_a_refusal_says_its_whole_reason(size: tuple[int, int]) -> None:
    """At 80 columns the reason a mouse cannot be covered was cut mid-sentence
    ("... can only be covered by an area…"): the headline goes on over the details line."""
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


def footer(app: ForageApp) -> str:
    """The key bar of the screen on top, as shown."""
    from forage.app.widgets.keys import KeyBar

    return app.screen.query_one(KeyBar).render().plain


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_footer_names_only_keys_that_work_on_the_last_turn_and_after(
    size: tuple[int, int],
) -> None:
    """On the last turn one card is left: tab did nothing, yet the footer showed "tab Card"
    and the status bar said "tab takes the other card"; once the game was over enter
    showed the summary, yet the footer called it "Place"."""
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


ASCII_SCREENS = """
import asyncio, sys
sys.path.insert(0, {helpers!r})
from app_helpers import quick_idle_checks, play_out_quickly
from forage.app.app import ForageApp
from forage.app.recorder import Recorder

def shown(app):
    strips = app.screen._compositor.render_strips()
    return "\\n".join("".join(segment.text for segment in strip) for strip in strips)

async def main():
    app = ForageApp(seed=5, offer_resume=False, recorder=Recorder("ann"))
    async with app.run_test(size=({columns}, {rows})) as pilot:
        await pilot.pause()
        print(shown(app))
        for keys in {keys!r}:
            if keys == ["PLAY"]:
                await play_out_quickly(pilot, app)
            else:
                await pilot.press(*keys)
            await pilot.pause()
            print("=" * 10)
            print(shown(app))

quick_idle_checks()
asyncio.run(main())
"""


def ascii_screens(size: tuple[int, int], tmp_path: Path, keys: list[list[str]]) -> list[str]:
    """The screens as drawn with FORAGE_ASCII=1, at first and after each group of keys."""
    helpers = str(Path(__file__).resolve().parent)
    script = ASCII_SCREENS.format(helpers=helpers, columns=size[0], rows=size[1], keys=keys)
    return ascii_output(script, tmp_path).split("=" * 10 + "\n")


@pytest.mark.parametrize("size", SIZES)
def test_forage_ascii_footer_is_plain_and_whole(size: tuple[int, int], tmp_path: Path) -> None:
    """With FORAGE_ASCII=1 the game's footer ran past 80 columns: Textual cut it with a
    non-ASCII "…" and "t Hint" was lost."""
    (screen,) = ascii_screens(size, tmp_path, [])
    assert screen.isascii(), sorted({c for c in screen if not c.isascii()})
    last = screen.rstrip("\n").splitlines()[-1]
    assert "t Hint" in last and "enter Place" in last


@sync
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("recipes", [False, True], ids=["standard", "challenge"])
async def test_hand_cards_are_named_by_their_backs_and_the_side_panel_is_whole(
    size: tuple[int, int], recipes: bool
) -> None:
    """The hand said "card 7" and "card 2" while the status bar and the hint said "the
    Chestnut Tart card"; at 80x24 a challenge's side panel was cut (the second recipe's
    condition and the base score below the fold, the dice left cut by the scroll bar)."""
    app = ForageApp(seed=7 if recipes else 5, recipes=recipes, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        shown = screen_text(app)
        for number in session.game.hand:
            card = session.game.card(number)
            assert card.recipe is not None and card.recipe.name in shown
            assert f"card {number}" not in shown
        side = app.screen.query_one("#side")
        assert side.virtual_size.height <= side.size.height  # nothing below the fold
        region = side.region
        panel = [line[region.x : region.right] for line in shown.splitlines()]
        panel_said = " ".join(" ".join(panel[region.y : region.bottom]).split())
        assert "M:5" in panel_said and "M:5…" not in panel_said
        for recipe in session.game.recipes:
            assert recipe.name in panel_said and recipe.condition in panel_said
        if recipes:
            assert "Base score" in shown


@pytest.mark.parametrize("size", SIZES)
def test_forage_ascii_draws_dialogs_in_plain_ascii(size: tuple[int, int], tmp_path: Path) -> None:
    """With FORAGE_ASCII=1 the dialogs were drawn with round box corners and lines, block
    scroll bars, and the statistics' tables with box-drawing lines and a star."""
    keys = [["question_mark"], ["escape", "s"], ["escape", "g"], ["escape"], ["PLAY"]]
    screens = ascii_screens(size, tmp_path, keys)
    help_screen, stats, games, _, end = screens[1:]
    assert "Keys" in help_screen and "Statistics of" in stats and "Your games" in games
    assert "Game over" in end
    for screen in screens:
        assert screen.isascii(), sorted({c for c in screen if not c.isascii()})


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
    """Seed 5's Garlic Mushrooms card sent two dice back to the supply for -11; the note
    after it read "Placed the Garlic Mushrooms card: -11 (score now -2)." in the same
    colour as a gain's, and said nothing of the dice."""
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
@pytest.mark.parametrize(("size", "seed"), [((80, 24), 7), ((120, 40), 7)], ids=["80x24", "120x40"])
async def test_the_end_summary_scrolls_to_its_last_line(size: tuple[int, int], seed: int) -> None:
    """A first win at 80x24 unlocks several achievements: the summary ran below the dialog,
    the scoreboard and the choices cut off, and scrolling stopped short of them."""
    from app_helpers import play_out_quickly
    from textual.containers import VerticalScroll

    from forage.app.recorder import Recorder
    from forage.app.screens import EndScreen

    app = ForageApp(seed=seed, recipes=True, offer_resume=False, recorder=Recorder("ann"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        assert "Achievement" in screen_text(app) or "achievement" in screen_text(app)
        for scroll in app.screen.query(VerticalScroll):
            scroll.scroll_end(animate=False)
        await pilot.pause()
        shown = screen_text(app)
        assert "esc see the woodland" in shown and "ann" in shown  # the choices, the board


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_hand_panel_says_the_game_is_over_once_it_is(size: tuple[int, int]) -> None:
    """On the finished woodland the hand panel still said "Turn 8 of 8 · pile empty"."""
    from forage.app.widgets.hand import HandView

    app = ForageApp(seed=5, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        while not session.game.is_over():
            assert "Game over" not in screen.query_one(HandView).render().plain
            await place_quickly(pilot, app)
        await pilot.pause()
        await pilot.press("escape")  # from the summary to the finished woodland
        await pilot.pause()
        heading = screen.query_one(HandView).render().plain.splitlines()[0]
        assert heading.startswith("Game over") and "Turn" not in heading
        await pilot.press("u")  # undone: a turn to play again
        await pilot.pause()
        assert screen.query_one(HandView).render().plain.startswith("Turn 8 of 8")


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_a_losing_preview_is_not_ticked(size: tuple[int, int]) -> None:
    """Before that drop of seed 5's Garlic Mushrooms card (-11), the preview read "✓ Enter
    places it: score 9 → -2 (-11)": a tick, which reads as a good move. A losing drop is
    marked as a loss; a gaining one keeps its tick."""
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
@pytest.mark.parametrize("seed", [4, 13, 33, 37, 60, 152, 158])
@pytest.mark.parametrize("size", SIZES)
async def test_a_challenges_side_panel_fits_whole_with_what_is_left_to_go(
    size: tuple[int, int], seed: int
) -> None:
    """At 80x24 these deals' side panels ran one line below the fold (the last condition
    cut, and the scroll bar cutting the dice to "M:5…"). The compact panel says what is
    left to go only beside the target, where it fits; a taller one says it always. Seeds
    60, 152 and 158 still ran a line over until the compact panel gave its recipes the
    margin column (their names and conditions wrap less)."""
    app = ForageApp(seed=seed, recipes=True, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        side = app.screen.query_one("#side")
        assert side.virtual_size.height <= side.size.height  # nothing below the fold
        region = side.region
        panel = [line[region.x : region.right] for line in screen_text(app).splitlines()]
        said = " ".join(" ".join(panel[region.y : region.bottom]).split())
        assert "M:5" in said and "M:5…" not in said
        for recipe in session.game.recipes:
            assert recipe.name in said and recipe.condition in said
        assert ("to go" in said) == (size == (120, 40))


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_details_too_long_for_their_line_are_said_in_fewer_words(
    size: tuple[int, int],
) -> None:
    """Seed 5's Garlic Mushrooms card, where two mice move in, read "mouse C-2 (B3 to the
    supply) · mouse C-2 (M3 to the supply) · 4 on empty table · c: mou…" at 80x24. Details
    too long for the line are counted instead, what the drop costs first; where they fit
    (120 columns) they are said in full."""

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
    counted, that ran over 80 columns and was cut mid-word ("c: mouse col…"). Now whole
    counts go from the end, an ellipsis in their place, and the c key's hint stays."""
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


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_score_panel_grows_when_a_recipe_bonus_wraps_its_name(
    size: tuple[int, int],
) -> None:
    """Seed 3's challenge at 80x24, card 5 shown at 5@0,-3 on turn 5: the bonus "+11" wrapped
    "Pickled Mushrooms (x2)" onto a second line, but the panel kept its old height and the
    base score, its last line, was cut off. The panel's height follows its lines."""
    from textual.containers import VerticalScroll

    from forage.app.widgets import ScorePanel

    made = [
        Placement.from_notation(n)
        for n in ("16r180@0,-1", "8r180@-1,0", "9r90@0,-1", "12r90@-1,-1")
    ]
    session = Session.deal_up(Deal.from_seed(3, recipes=True), 3, 1, None, made)
    app = ForageApp(session=session, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        panel = game_screen(app).query_one(ScorePanel)
        for spot in ("5@0,-3", "5@1,-3", "5@0,-3"):
            await drive_to(pilot, app, Placement.from_notation(spot))
            await pilot.pause()
            lines = panel.render().plain.splitlines()
            assert panel.size.height == len(lines)
            game_screen(app).query_one("#side", VerticalScroll).scroll_end(animate=False)
            await pilot.pause()
            assert lines[-1] in screen_text(app)  # the base score


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_hand_panel_is_as_tall_as_its_lines_from_first_turn_to_last_and_back(
    size: tuple[int, int],
) -> None:
    """The hand panel kept the six lines of two cards when one was left and when the game
    was over (two lines), leaving blank lines above the supply; after an undo from there it
    must grow back to six without cutting the second card's name."""
    from forage.app.widgets.hand import HandView

    app = ForageApp(seed=5, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        hand = game_screen(app).query_one(HandView)
        heights = []
        while not session.game.is_over():
            heights.append(hand.size.height)
            await place_quickly(pilot, app)
        await pilot.press("escape")  # from the summary to the finished woodland
        await pilot.pause()
        heights.append(hand.size.height)
        await pilot.press("u")
        await pilot.pause()
        heights.append(hand.size.height)
        assert heights == [6] * 7 + [5, 2, 5]
        await pilot.press("u")
        await pilot.pause()
        assert hand.size.height == 6 == len(hand.render().plain.splitlines())
        assert hand.render().plain.splitlines()[-1] in screen_text(app)
