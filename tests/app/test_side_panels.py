"""The side panels of the game screen: the hand (each card drawn as it will land, named by
its back, the game over, the panel as tall as its lines), the score panel (the recipe
preview, a negative bonus, names that wrap) and the whole side fitting or scrolling."""

from __future__ import annotations

import pytest
from app_helpers import (
    SIZES,
    app_on,
    drive_to,
    game_screen,
    moves,
    place_quickly,
    screen_text,
    session_of,
    status,
    sync,
)

from forage.app.app import ForageApp
from forage.app.session import Session
from forage.app.widgets import HandView, ScorePanel
from forage.app.widgets.hand import mini_card
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement, Rotation

RECIPE_MOVES = moves("14r90@-1,1", "7@-1,1", "12@-1,0", "9r90@-2,0")
"""Seed 1's recipe challenge after four moves; then 13@0,1 loses a recipe's bonus."""


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_recipe_preview_shows_the_final_score_and_flips_the_tick(
    size: tuple[int, int],
) -> None:
    app = app_on(1, RECIPE_MOVES, recipes=True)
    drop = Placement.from_notation("13@0,1")
    fresh = Game(Deal.from_seed(1, recipes=True), standard_deck())
    fresh.replay(RECIPE_MOVES)
    now = fresh.result()
    assert fresh.push(drop).legal
    then = fresh.result()
    flipped = [
        (r.name, s.met) for r, s in zip(now.recipes, then.recipes, strict=True) if r.met != s.met
    ]
    assert flipped
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await drive_to(pilot, app, drop)
        await pilot.pause()
        headline = status(app).state.headline
        assert f"final {now.score.final} → {then.score.final}" in headline
        panel = game_screen(app).query_one(ScorePanel)
        rendered = panel.render()
        plain = rendered.plain
        assert plain.startswith(f"Final {now.score.final} → {then.score.final}")
        for name, met in flipped:  # each tick as it is, and as the drop would leave it
            line = next(x for x in plain.splitlines() if name in x)
            assert line.lstrip().startswith("✗→✓" if met else "✓→✗")
        assert "…" not in plain  # conditions wrap, never cut


def test_a_doubling_recipe_with_a_negative_bonus_reads_minus() -> None:
    from forage.app.widgets.score import recipes_text

    game = Session.start(seed=3, recipes=True).game
    doubled = [r for r in game.recipes if r.doubles]
    assert doubled  # seed 3's challenge has Pickled Mushrooms (x2)
    worst = min(
        (o for o in game.outcomes() if o.legal),
        key=lambda o: game.result_after(o).score.final,
    )
    after = game.result_after(worst)
    assert any(r.met and r.bonus < 0 for r in after.recipes)
    text = str(recipes_text(after, game.recipes, conditions=False))
    assert "+-" not in text and " -" in text


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_score_panel_grows_when_a_recipe_bonus_wraps_its_name(
    size: tuple[int, int],
) -> None:
    """Seed 3's challenge, card 5 shown at 5@0,-3 on turn 5: the bonus "+11" wraps "Pickled
    Mushrooms (x2)" onto a second line at 80x24. The panel's height follows its lines, so
    the base score, its last line, stays in sight."""
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
async def test_the_hand_draws_the_card_as_it_will_land_and_names_it() -> None:
    app = ForageApp(seed=5, recipes=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await pilot.press("r")
        await pilot.pause()
        assert session.cursor is not None and session.cursor.rotation is Rotation.R90
        card = session.game.card(session.cursor.card)
        plain = app.screen.query_one(HandView).render().plain
        turned = [line.plain for line in mini_card(card, Rotation.R90)]
        assert len(turned) == 2 and len(turned[0]) == 9  # three areas wide, two high
        assert turned[0] in plain and turned[1] in plain
        assert f"card {card.number}" not in plain and "#" not in plain  # named by its back
        assert card.recipe is not None and card.recipe.name in plain


@sync
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("recipes", [False, True], ids=["standard", "challenge"])
async def test_hand_cards_are_named_by_their_backs_and_the_side_panel_is_whole(
    size: tuple[int, int], recipes: bool
) -> None:
    """The hand names its cards by their backs (the recipe's name, as the status bar and the
    hint do), never "card 7"; the side panel, a challenge's too, fits whole at 80x24: every
    recipe's condition and the base score above the fold, the dice not cut by a scroll
    bar."""
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


@sync
@pytest.mark.parametrize("size", SIZES)
async def test_the_hand_panel_says_the_game_is_over_once_it_is(size: tuple[int, int]) -> None:
    """On the finished woodland the hand panel says the game is over, not the turn; after
    an undo it says the turn again."""
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
async def test_the_hand_panel_is_as_tall_as_its_lines_from_first_turn_to_last_and_back(
    size: tuple[int, int],
) -> None:
    """The hand panel is as tall as its lines: six for two cards, five for the last card,
    two once the game is over (no blank lines above the supply); undone from there it grows
    again, back to six for two cards, without cutting the second card's name."""
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


@sync
async def test_the_side_panel_scrolls_at_80x24_and_leaves_the_keys_to_the_card() -> None:
    """A side panel taller than the screen scrolls rather than being cut, and the arrow keys
    still move the card. Seed 60's panel fits whole at 80x24, so the score panel is made
    taller here."""
    from textual.containers import VerticalScroll

    from forage.app.widgets import ScorePanel

    app = ForageApp(seed=60, recipes=True, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        side = app.screen.query_one("#side", VerticalScroll)
        assert side.max_scroll_y == 0  # seed 60's panel fits whole
        app.screen.query_one(ScorePanel).styles.min_height = 30
        await pilot.pause()
        assert side.max_scroll_y > 0  # the panel scrolls, not cut
        before = session_of(app).cursor
        await pilot.press("down")
        await pilot.pause()
        assert side.scroll_y == 0 and session_of(app).cursor != before
        side.scroll_end(animate=False)
        await pilot.pause()
        assert side.scroll_y == side.max_scroll_y


@sync
@pytest.mark.parametrize("seed", [4, 13, 33, 37, 60, 152, 158])
@pytest.mark.parametrize("size", SIZES)
async def test_a_challenges_side_panel_fits_whole_with_what_is_left_to_go(
    size: tuple[int, int], seed: int
) -> None:
    """These deals' challenge panels are among the tallest at 80x24: each fits whole (every
    condition in sight, the dice not cut to "M:5…" by a scroll bar). The compact panel says
    what is left to go only beside the target, where it fits, and gives its recipes the
    margin column (their names and conditions wrap less); a taller one says it always."""
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
