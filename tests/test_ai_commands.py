"""The par and bench commands: output shapes, and the bench as a quick smoke test."""

from __future__ import annotations

import json

import pytest

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
    assert "Par" in capsys.readouterr().out


def test_bench_quick_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_command(as_json=True, quick=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"enumeration", "bots", "par", "machine"} <= set(data)
    assert [row["turn"] for row in data["enumeration"]] == [1, 4, 8]
    print_bench(data)
    assert "bench" in capsys.readouterr().out
