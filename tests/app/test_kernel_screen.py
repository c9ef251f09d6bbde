"""The game screen places what the engine lists: the R8c colour choice by keys, and the
session's preview agreeing with ``Game.outcomes`` everywhere."""

from __future__ import annotations

from app_helpers import drive_to, press_place, sync
from helpers import place
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kernel import position

from forage.app.app import ForageApp
from forage.app.screens import GameScreen
from forage.app.session import Session
from forage.engine import ROTATIONS, Deal, Placement


@sync
async def test_r8c_legal_only_with_a_chosen_colour_placed_by_keys() -> None:
    app = ForageApp(seed=1, offer_resume=False)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        game = position("legal-only-by-a-chosen-colour")
        screen.load(Session(game))
        await pilot.pause()
        await drive_to(pilot, app, place(2, 0, 0))
        preview = screen.session.preview()
        assert preview is not None and preview.legal
        await press_place(pilot, app)
        assert [p.notation() for p in game.moves] == ["2@0,0[1,0=C]"]


SEEDS = st.integers(0, 10_000)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, turns=st.integers(0, 7), recipes=st.booleans())
def test_session_previews_exactly_the_listed_placements(
    seed: int, turns: int, recipes: bool
) -> None:
    """Every placement the engine lists previews as legal with the cursor moved there (and
    `c` pressed where needed); every legal preview is one the engine lists."""
    session = Session.deal_up(Deal.from_seed(seed, recipes=recipes))
    game = session.game
    while len(game.moves) < turns and not game.is_over():
        game.push(max(game.outcomes(), key=lambda o: o.score_change))
    listed = {o.placement: o for o in game.outcomes()}
    for placement, outcome in listed.items():
        bare = placement.model_copy(update={"mouse": ()})
        assert session.go_to(bare)
        preview = session.preview()
        assert preview is not None and preview.legal
        for _ in range(4):
            if preview == outcome:
                break
            assert session.cycle_mouse()
            preview = session.preview()
        assert preview == outcome
    for number in game.hand:
        xs = [x for x, _ in game.woodland.squares]
        ys = [y for _, y in game.woodland.squares]
        for rotation in ROTATIONS:
            for y in range(min(ys) - 3, max(ys) + 2):
                for x in range(min(xs) - 3, max(xs) + 2):
                    session.go_to(Placement(card=number, rotation=rotation, x=x, y=y))
                    preview = session.preview()
                    if preview is not None and preview.legal:
                        assert preview.placement in listed
