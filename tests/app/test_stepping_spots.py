"""f and F step the card through its legal spots, what each gives at once first; the
puzzle and the lessons, where that would give the answer away, have no such keys."""

from __future__ import annotations

from datetime import date

import pytest
from app_helpers import session_of, sync

from forage.app.app import ForageApp
from forage.app.learn_app import LearnApp
from forage.app.puzzle_app import PuzzleApp
from forage.app.session import Session
from forage.app.widgets import StatusBar
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement
from forage.puzzle import daily_puzzle

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def spot(placement: Placement) -> tuple[int, int, int, int]:
    """A placement's card, rotation and spot (not its mouse colours)."""
    return (placement.card, int(placement.rotation), placement.x, placement.y)


@pytest.mark.parametrize("recipes", [False, True], ids=["standard", "challenge"])
def test_the_spots_are_every_legal_placement_of_the_card_best_first(recipes: bool) -> None:
    from forage.app.view import spot_order

    for seed in (3, 8, 13):
        game = Game(Deal.from_seed(seed, recipes=recipes), standard_deck())
        for _ in range(4):
            now = game.result().score.final
            for card in game.hand:
                spots = spot_order(game, card)
                engine = {spot(o.placement): o for o in game.outcomes(card)}
                assert sorted(spot(s.placement) for s in spots) == sorted(engine)
                gains = [s.gain for s in spots]
                assert gains == sorted(gains, reverse=True)
                for s in spots:
                    outcome = engine[spot(s.placement)]
                    after = game.result_after(outcome).score.final - now
                    assert s.gain == (after if recipes else outcome.score_change)
            game.push(max(game.outcomes(), key=lambda o: o.score_change))


def test_stepping_goes_round_and_starts_at_either_end() -> None:
    from forage.app.view import spot_index, spot_order

    game = Game(Deal.from_seed(5), standard_deck())
    spots = spot_order(game, game.hand[0])
    first, last = spots[0].placement, spots[-1].placement
    assert spot_index(spots, None, 1) == 0 and spot_index(spots, None, -1) == len(spots) - 1
    assert spot_index(spots, first, -1) == len(spots) - 1
    assert spot_index(spots, last, 1) == 0
    assert spot_index(spots, first, 1) == 1


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_f_and_f_back_step_the_card_through_its_spots(size: tuple[int, int]) -> None:
    app = ForageApp(seed=9, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        game = session.game
        card = game.hand[0]
        outcomes = list(game.outcomes(card))
        best = max(o.score_change for o in outcomes)
        bar = app.screen.query_one(StatusBar)
        seen = []
        for number in range(1, 4):
            await pilot.press("f")
            await pilot.pause()
            here = session.cursor
            assert here is not None and here.card == card
            seen.append(game.outcome(here).score_change)
            assert f"Spot {number} of {len(outcomes)}" in bar.state.note
        assert seen[0] == best and seen == sorted(seen, reverse=True)
        assert bar.state.headline.startswith("✓ Enter places it")
        await pilot.press("F", "F", "F")
        await pilot.pause()
        assert f"Spot {len(outcomes)} of {len(outcomes)}" in bar.state.note
        here = session.cursor
        assert here is not None
        assert game.outcome(here).score_change == min(o.score_change for o in outcomes)


@pytest.mark.parametrize("back", [False, True], ids=["f", "F"])
@sync
async def test_a_card_just_chosen_starts_at_its_first_spot_wherever_it_lies(back: bool) -> None:
    from forage.app.view import spot_order

    app = ForageApp(seed=9, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        game = session.game
        bar = app.screen.query_one(StatusBar)
        other = game.hand[1]
        spots = spot_order(game, other)
        for _ in range(3):  # the first card to its third spot: the other card lies there
            await pilot.press("f")
        await pilot.press("tab")
        await pilot.pause()
        here = session.cursor
        assert here is not None and here.card == other
        assert spot(here) in {spot(s.placement) for s in spots[1:-1]}
        await pilot.press("F" if back else "f")
        await pilot.pause()
        number = len(spots) if back else 1
        expected = spots[number - 1].placement
        assert session.cursor is not None and spot(session.cursor) == spot(expected)
        assert f"Spot {number} of {len(spots)} " in bar.state.note
        await pilot.press("f")  # then on from there
        await pilot.pause()
        following = spots[number % len(spots)].placement
        assert session.cursor is not None and spot(session.cursor) == spot(following)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_puzzle_and_the_lessons_do_not_step_through_spots(
    size: tuple[int, int],
) -> None:
    day = date(2026, 12, 3)
    for app in (PuzzleApp(daily_puzzle(day), day), LearnApp(step=2)):
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            session: Session = screen.session  # type: ignore[attr-defined]
            before = session.cursor
            await pilot.press("f", "F")
            await pilot.pause()
            assert session.cursor == before and session.waiting
            assert screen.check_action("spot", (1,)) is False
