"""Statistics on hand-made histories: counts, rates, streaks, recipes beaten, distribution."""

from __future__ import annotations

import pytest
from history_helpers import STATS_KEYS, stored

from forage.history.achievements import all_achievements
from forage.history.report import mode_cell, stats_json
from forage.history.stats import (
    daily_run,
    distribution,
    recipes_beaten,
    statistics,
    streaks,
)


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ("", (0, 0)),
        ("L", (0, 0)),
        ("W", (1, 1)),
        ("WWLWWWL", (0, 3)),
        ("WWWLWW", (2, 3)),
        ("LWWWWW", (5, 5)),
    ],
)
def test_streaks_count_runs_of_wins(results: str, expected: tuple[int, int]) -> None:
    assert streaks([r == "W" for r in results]) == expected


def test_statistics_of_a_mixed_history() -> None:
    games = [
        stored(1, final=30, won=False),
        stored(2, final=41, won=True),
        stored(3, final=12, won=None, status="abandoned"),
        stored(4, mode="recipe", recipes=(4, 11), final=55, won=True),
        stored(5, mode="recipe", recipes=(2, 4), final=20, won=False),
        stored(6, final=36, won=True),
    ]
    stats = statistics("ann", games, abandoned=1)
    assert stats.games == 5  # the abandoned game does not count
    assert stats.wins == 3
    assert stats.win_rate == 0.6
    assert stats.best == 55
    assert stats.mean == (30 + 41 + 55 + 20 + 36) / 5
    assert (stats.streak_current, stats.streak_best) == (1, 2)
    assert (stats.recipe_played, stats.recipe_won) == (2, 1)
    assert stats.recipes_beaten == [4, 11]  # recipe 4 lost in game 5 but won in game 4
    assert stats.recent == [30, 41, 55, 20, 36]
    assert stats.distribution == [(20, 1), (30, 2), (40, 1), (50, 1)]
    shown = stats_json(stats, all_achievements(), {"first-win": "2026-03-01"})
    assert set(shown) >= STATS_KEYS
    assert shown["streak"] == {"current": 1, "best": 2}
    assert shown["recipe_challenges"] == {"played": 2, "won": 1}
    first = next(a for a in shown["achievements"] if a["id"] == "first-win")
    assert first["unlocked"] is True and first["date"] == "2026-03-01"
    assert all(set(a) >= {"id", "name", "unlocked", "date"} for a in shown["achievements"])
    others = [a for a in shown["achievements"] if a["id"] != "first-win"]
    assert all(a["unlocked"] is False and a["date"] is None for a in others)


def test_no_games_gives_nulls_not_zeros() -> None:
    stats = statistics("nobody", [stored(1, status="abandoned", won=None)])
    assert (stats.games, stats.wins, stats.win_rate, stats.best, stats.mean) == (
        0,
        0,
        None,
        None,
        None,
    )
    assert stats.distribution == [] and stats.recipes_beaten == []


def test_a_lost_challenge_beats_no_recipe() -> None:
    games = [stored(1, mode="recipe", recipes=(7, 8), won=False)]
    assert recipes_beaten(games) == []


def test_distribution_has_empty_buckets_between() -> None:
    assert distribution([3, 27, 29], width=10) == [(0, 1), (10, 0), (20, 2)]
    assert distribution([-4, 5], width=5) == [(-5, 1), (0, 0), (5, 1)]


def test_daily_run_counts_days_running() -> None:
    days = ["2026-03-01", "2026-03-02", "2026-03-04", "2026-03-05", "2026-03-06"]
    games = [stored(i, daily=d) for i, d in enumerate(days)]
    games.append(stored(9, daily="2026-03-03", status="abandoned", won=None))
    assert daily_run(games, "2026-03-06") == 3
    assert daily_run(games, "2026-03-02") == 2
    assert daily_run(games, "2026-03-03") == 0  # abandoned does not count


def test_the_statistics_table_names_the_recipes_beaten() -> None:
    from rich.console import Console

    from forage.app.history_report import figures_table
    from forage.carddata import standard_deck

    games = [stored(4, mode="recipe", recipes=(4, 11), final=55, won=True)]
    out = Console(width=120, record=True, color_system=None)
    out.print(figures_table(statistics("ann", games, abandoned=0)))
    text = out.export_text()
    names = [standard_deck().recipes()[n].name for n in (4, 11)]
    assert f"2 of 18: {names[0]}, {names[1]}" in " ".join(text.split())


def test_room_games_count_as_games_and_recipe_challenges_and_have_figures_of_their_own() -> None:
    games = [
        stored(1, final=30, won=False),
        stored(2, mode="room", room="K7MX3QPA", placing=1, players=3, final=44, won=True),
        stored(
            3,
            mode="room",
            room="ABCD2345",
            placing=2,
            players=2,
            recipes=(4, 11),
            deal="4.11:5.12.3.1.9.17.2.8.14",
            final=60,
            won=True,
        ),
        stored(4, mode="room", room="ABCD2346", players=4, status="abandoned", won=None),
    ]
    stats = statistics("ann", games, abandoned=1)
    assert (stats.games, stats.wins, stats.best) == (3, 2, 60)
    assert (stats.recipe_played, stats.recipe_won, stats.recipes_beaten) == (1, 1, [4, 11])
    assert (stats.rooms_played, stats.rooms_first) == (2, 1)
    shown = stats_json(stats, all_achievements(), {})
    assert set(shown) >= STATS_KEYS
    assert shown["rooms"] == {"played": 2, "first": 1}
    cells = [mode_cell(game) for game in games]
    assert cells == ["standard", "room 1/3", "room r 2/2", "room"]
