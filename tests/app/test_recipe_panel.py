"""The score panel of a recipe challenge: how far each counted recipe has got (as the drop
shown would leave it), and the recipes' numbers the target adds up."""

from __future__ import annotations

import re

import pytest
from app_helpers import drive_to, place_by_action, session_of, sync
from textual.widgets import Static

from forage.app.app import ForageApp
from forage.app.session import Session
from forage.app.widgets import ScorePanel
from forage.engine import Deal, Outcome

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def panel_text(app: ForageApp) -> str:
    """The score panel's words, on one line (its wrapping undone)."""
    return " ".join(str(app.screen.query_one(ScorePanel).render()).split())


def challenge(recipes: tuple[int, int] = (9, 12)) -> ForageApp:
    """Seed 3's cards as a challenge of Chestnut Flour (all five C) and Grandma's (all 15)."""
    deal = Deal(cards=Deal.from_seed(3).cards[:9], recipes=recipes)
    return ForageApp(session=Session.deal_up(deal), offer_resume=False)


def counts(app: ForageApp, outcome: Outcome | None = None) -> list[tuple[int, int]]:
    """The engine's count of each recipe, now or after a drop."""
    found = session_of(app).game.recipe_progress(outcome)
    return [(p.have, p.need) for p in found if p is not None]


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_each_counted_recipe_says_how_far_it_has_got(size: tuple[int, int]) -> None:
    app = challenge()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        for have, need in counts(app):
            assert f"Now {have} of {need}." in panel_text(app)
        for _ in range(3):
            game = session.game
            outcome = max(game.outcomes(), key=lambda o: (o.score_change, o.placement.x))
            await drive_to(pilot, app, outcome.placement)
            shown = panel_text(app)
            for have, need in counts(app, outcome):  # as the drop shown leaves them
                assert f"Now {have} of {need}." in shown
            place_by_action(app, outcome.placement)
            await pilot.pause()
        found = [tuple(map(int, m)) for m in re.findall(r"Now (\d+) of (\d+)\.", panel_text(app))]
        assert found == counts(app) and any(have > 0 for have, _ in found)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_target_shows_the_recipes_numbers_it_adds_up(size: tuple[int, int]) -> None:
    app = challenge()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        recipes = session_of(app).game.recipes
        target = sum(r.target for r in recipes)
        sums = "+".join(str(r.target) for r in recipes)
        panel = panel_text(app)
        assert f"target {target} ({sums})" in panel
        for recipe in recipes:  # its number as beside the target; its bonus apart
            assert f"{recipe.name} ({recipe.target})" in panel
            assert f"+{recipe.bonus_text}:" in panel or recipe.doubles
        await pilot.press("question_mark")
        await pilot.pause()
        help_text = str(app.screen.query_one("#help-text", Static).render())
    assert f"target {sums.replace('+', ' + ')} = {target}" in help_text
    for recipe in recipes:
        labelled = f"target {recipe.target}, bonus {recipe.bonus_text}"
        assert f"{recipe.name} ({labelled})" in help_text
