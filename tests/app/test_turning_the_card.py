"""Turning or swapping the card never moves the view nor brings a refusal the player did not
ask for: a card waiting where it was dealt stays there, and one on the woodland stays on it."""

from __future__ import annotations

import pytest
from app_helpers import greedy, session_of, sync

from forage.app.app import ForageApp
from forage.app.session import Session
from forage.app.widgets import StatusBar, WoodlandView
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement, Reason, Rotation

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [("r",), ("R",), ("tab",), ("2",), ("r", "tab", "r")])
@sync
async def test_turning_or_swapping_the_waiting_card_keeps_the_view_and_refuses_nothing(
    size: tuple[int, int], keys: tuple[str, ...]
) -> None:
    app = ForageApp(seed=9, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        session.game.push(greedy(session))  # a turn later, the card dealt beside it
        session.reset_cursor()
        app.screen.changed()  # type: ignore[attr-defined]
        await pilot.pause()
        view = app.screen.query_one(WoodlandView)
        bar = app.screen.query_one(StatusBar)
        layout = view.drawn_layout
        await pilot.press(*keys)
        await pilot.pause()
        assert view.drawn_layout == layout
        assert session.waiting and session.cursor is not None
        assert bar.state.tone == "idle" and "Can't place" not in bar.state.headline
        assert not any(text.startswith("✗") for text, _ in bar.lines(bar.text_width))


def covers(game: Game, placement: Placement) -> bool:
    """Whether the engine finds that a placement covers some of the woodland."""
    return game.outcome(placement).reason is not Reason.NO_OVERLAP


def test_a_card_on_the_woodland_stays_on_it_when_turned_or_swapped() -> None:
    checked = 0
    for seed in range(1, 13):
        game = Game(Deal.from_seed(seed), standard_deck())
        for _ in range(3):
            x0, y0, x1, y1 = game.woodland.bounds()
            for card in game.hand:
                for rotation in Rotation:
                    width, height = game.card(card).size(rotation)
                    for x in range(x0 - width, x1 + 2):
                        for y in range(y0 - height, y1 + 2):
                            spot = Placement(card=card, rotation=rotation, x=x, y=y)
                            if not covers(game, spot):
                                continue
                            for turn in ("r", "R", "swap"):
                                session = Session(game.copy())
                                assert session.go_to(spot)
                                if turn == "swap":
                                    session.next_card()
                                else:
                                    session.rotate(turn == "r")
                                assert session.cursor is not None
                                assert covers(session.game, session.cursor), (spot, turn)
                                checked += 1
            game.push(max(game.outcomes(), key=lambda o: o.score_change))
    assert checked > 1000
