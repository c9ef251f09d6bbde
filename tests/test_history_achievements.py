"""Achievements: the data file, and each achievement shown to unlock and not to unlock."""

from __future__ import annotations

import json

import pytest
from history_helpers import played, stored

from forage.history.achievements import (
    CHECKS,
    PUZZLE_CHECKS,
    Achievement,
    achieved,
    all_achievements,
    newly_unlocked,
    parse_achievements,
)
from forage.history.games import StoredGame
from forage.record import record_from_game


def by_id(name: str) -> Achievement:
    return next(a for a in all_achievements() if a.id == name)


def test_the_data_file_loads_and_every_check_exists() -> None:
    achievements = all_achievements()
    assert len(achievements) >= 9
    assert len({a.id for a in achievements}) == len(achievements)
    assert {a.check for a in achievements} <= set(CHECKS) | set(PUZZLE_CHECKS)
    assert {a.check for a in achievements} & set(PUZZLE_CHECKS)


def test_an_unknown_check_or_a_repeated_id_is_refused() -> None:
    one = {"id": "x", "name": "X", "description": "x", "check": "games", "value": 1}
    with pytest.raises(ValueError, match="unknown check"):
        parse_achievements(
            json.dumps(
                {"format": "forage-achievements/1", "achievements": [{**one, "check": "nope"}]}
            )
        )
    with pytest.raises(ValueError, match="twice"):
        parse_achievements(
            json.dumps({"format": "forage-achievements/1", "achievements": [one, one]})
        )


def _as_stored(game_seed: int, moves: int | None) -> tuple[StoredGame, int]:
    game = played(game_seed, moves=moves)
    top = max((sq.die.value for sq in game.woodland.squares.values() if sq.die), default=0)
    record = record_from_game(game).to_json()
    return stored(1, record=record, final=game.result().score.final), top


def test_the_basket_unlocks_exactly_when_a_die_shows_15() -> None:
    outcomes = {}
    for seed, moves in [(0, None), (1, None), (2, 2), (3, 4), (4, 6), (5, None)]:
        game, top = _as_stored(seed, moves)
        outcomes[top >= 15] = achieved(by_id("basket"), game, [game])
        assert outcomes[top >= 15] is (top >= 15), seed
    assert set(outcomes) == {True, False}  # both cases were seen


@pytest.mark.parametrize(
    ("name", "yes", "no"),
    [
        ("mouse-free", {"mice": 0}, {"mice": 1}),
        ("mouse-free", {"mice": 0}, {"mice": 0, "stuck": True}),
        ("edwood-kept", {"edwood": False}, {"edwood": True}),
        ("edwood-kept", {"edwood": False}, {"edwood": False, "stuck": True}),
        ("fifty", {"final": 50}, {"final": 49}),
        ("par-matched", {"final": 44, "par": 44}, {"final": 43, "par": 44}),
        ("par-matched", {"final": 44, "par": 40}, {"final": 44, "par": None}),
        ("par-unaided", {"final": 44, "par": 44}, {"final": 44, "par": 44, "hints": 1}),
        ("par-unaided", {"final": 44, "par": 44}, {"final": 44, "par": 44, "undos": 1}),
        ("first-win", {"won": True}, {"won": False}),
        (
            "recipe-win",
            {"won": True, "mode": "recipe", "recipes": (1, 2)},
            {"won": True, "mode": "standard"},
        ),
    ],
)
def test_a_game_achievement_unlocks_and_not(
    name: str, yes: dict[str, object], no: dict[str, object]
) -> None:
    good, bad = stored(1, **yes), stored(1, **no)  # type: ignore[arg-type]
    assert achieved(by_id(name), good, [good])
    assert not achieved(by_id(name), bad, [bad])


def test_an_abandoned_game_unlocks_nothing() -> None:
    game = stored(1, status="abandoned", won=None, mice=0, final=60, par=10)
    assert newly_unlocked(game, [game], set()) == []


def test_five_wins_in_a_row() -> None:
    wins = [stored(i, won=True) for i in range(5)]
    assert achieved(by_id("five-in-a-row"), wins[-1], wins)
    broken = [*wins[:2], stored(2, won=False), *wins[3:]]
    assert not achieved(by_id("five-in-a-row"), broken[-1], broken)
    assert not achieved(by_id("five-in-a-row"), wins[3], wins[:4])


def test_every_recipe_beaten() -> None:
    def challenge(i: int, recipes: tuple[int, int], won: bool) -> StoredGame:
        return stored(i, mode="recipe", recipes=recipes, won=won)

    games = [challenge(n, (2 * n + 1, 2 * n + 2), True) for n in range(9)]
    assert achieved(by_id("all-recipes"), games[-1], games)
    games[4] = challenge(4, (9, 10), False)  # recipes 9 and 10 never beaten
    assert not achieved(by_id("all-recipes"), games[-1], games)


def test_a_daily_deal_each_day_for_a_week() -> None:
    week = [stored(i, daily=f"2026-03-{i + 1:02d}") for i in range(7)]
    assert achieved(by_id("daily-week"), week[-1], week)
    gap = [g for g in week if g.daily != "2026-03-04"]
    assert not achieved(by_id("daily-week"), gap[-1], gap)
    assert not achieved(by_id("daily-week"), stored(8), week)  # not itself a daily game


def test_a_hundred_games() -> None:
    games = [stored(i) for i in range(100)]
    assert achieved(by_id("hundred-games"), games[-1], games)
    assert not achieved(by_id("hundred-games"), games[98], games[:99])


def test_newly_unlocked_leaves_out_what_was_already_unlocked() -> None:
    game = stored(1, won=True, final=52, mice=0)
    fresh = {a.id for a in newly_unlocked(game, [game], set())}
    assert {"first-win", "fifty", "mouse-free"} <= fresh
    again = {a.id for a in newly_unlocked(game, [game], {"first-win", "fifty"})}
    assert again == fresh - {"first-win", "fifty"}
