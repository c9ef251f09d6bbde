"""The par and bench commands: output shapes, and a quick bench whose figures are checked
against the games it times."""

from __future__ import annotations

import json

import pytest
from helpers import brute_force

from forage.app.describe import par_said
from forage.carddata import standard_deck
from forage.cli.ai_commands import bench_command, par_command, print_bench
from forage.engine import Deal, Game
from forage.record import load_game


def test_par_command_json_record_replays_to_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Deal(cards=Deal.from_seed(6).cards[:3]), standard_deck())
    assert par_command(game, as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"score", "proven", "seconds", "record"}
    assert data["proven"] is True
    replayed, refusal = load_game(json.dumps(data["record"]))
    assert refusal is None
    assert replayed.result().score.final == data["score"]


def test_par_command_human(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Deal(cards=Deal.from_seed(6).cards[:3]), standard_deck())
    assert par_command(game, as_json=False) == 0
    # the end screen and the review say par in the same words (tests/app/test_said_in_place.py)
    said = par_said(brute_force(game), proven=True)
    assert capsys.readouterr().out.startswith(f"{said}; found in ")


def test_bench_quick_figures_agree_with_the_games_they_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_command(as_json=True, quick=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"enumeration", "bots", "par", "machine"} <= set(data)
    assert [row["turn"] for row in data["enumeration"]] == [1, 4, 8]
    first = data["enumeration"][0]
    opening = Game(Deal.from_seed(0), standard_deck())
    assert first["placements"] == len(list(opening.outcomes()))
    for row in data["enumeration"]:
        rate = row["placements"] / row["engine_ms"] * 1000
        assert row["engine_placements_per_s"] == pytest.approx(rate, rel=0.01)
    greedy, expert = data["bots"]
    # seeds 0-2, greedy: the golden scores of test_ai_bots (39, 47, 43)
    assert (greedy["policy"], greedy["games"], greedy["mean"]) == ("greedy", 3, 43.0)
    assert (expert["policy"], expert["cards"]) == ("expert", 4)
    short, full = data["par"]
    three_cards = Game(Deal(cards=Deal.from_seed(0).cards[:3]), standard_deck())
    assert (short["cards"], short["proven"]) == (3, 1)
    assert short["mean_score"] == brute_force(three_cards)
    assert full["cards"] == 9 and full["mean_score"] >= 39  # par is no worse than greedy
    print_bench(data)
    shown = capsys.readouterr().out
    assert "forage bench (quick)" in shown and str(first["placements"]) in shown
