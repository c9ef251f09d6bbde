"""Bots: deterministic for a seed, legal, greedy as the engine sees it; the bot command."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest
from helpers import EXPERT_GOLDEN

from forage.ai.bots import Expert, expert_move, expert_ranking, unseen_cards
from forage.ai.commands import bot_summary
from forage.ai.games import bot_game, bot_played, play
from forage.ai.hint import hint
from forage.ai.par import PAR_EXPERT
from forage.ai.sim import Simulator, state_of
from forage.carddata import standard_deck
from forage.cli import main
from forage.cli.ai_commands import bot_command
from forage.engine import Deal, Game

T = TypeVar("T")


def engine_greedy(seed: int) -> int:
    game = Game(Deal.from_seed(seed), standard_deck())
    while not game.is_over():
        game.push(max(game.outcomes(), key=lambda o: o.score_change).placement)
    return game.result().score.final


def test_greedy_plays_like_the_engine_greedy() -> None:
    for seed in range(3):
        assert bot_game(seed, "greedy") == engine_greedy(seed)


def test_bots_score_their_golden_values() -> None:
    # Worked out once: a change of the bots' play, or of the rules under them, shows here.
    # Each expert game takes seconds, so it plays the fewest deals that still pin it down.
    assert [bot_game(s, "greedy") for s in range(8)] == [39, 47, 43, 66, 50, 48, 41, 34]
    # the expert's game as the engine's game, which a record is written from, scores its
    # golden value (bot_game's own path is the recipe challenge's, below)
    played = bot_played(3, "expert")
    assert played.is_over() and played.score().final == EXPERT_GOLDEN[3]
    assert [bot_game(s, "greedy", recipes=True) for s in range(4)] == [49, 52, 43, 70]
    assert bot_game(0, "expert", recipes=True) == 56


def test_the_expert_that_par_plays_keeps_its_golden_values() -> None:
    # Par's expert line: every candidate played out by the rollout policy, not by beams;
    # these are that expert's golden values.
    # ``bot_game`` hands its settings to the expert (the benchmarks' ``--set``).
    assert [bot_game(s, "expert", settings=PAR_EXPERT) for s in (0, 3)] == [41, 70]


@pytest.mark.parametrize("recipes", [False, True])
def test_expert_moves_replay_legally_to_its_score(recipes: bool) -> None:
    deck = standard_deck()
    full = Deal.from_seed(30, recipes=recipes)
    deal = Deal(cards=full.cards[:5], recipes=full.recipes)  # five cards: four placements
    game = Game(deal, deck)
    sim = Simulator(deck, game.recipes)
    final, moves = play(sim, deal, "expert", state_of(game), deck.numbers)
    assert game.replay([sim.placement(move) for move in moves]).refusal is None
    assert game.is_over()
    assert game.result().score.final == sim.final(final)


def _position(seed: int, turns: int) -> tuple[Simulator, Game]:
    """A simulator and the game of a seed after the greedy bot's first ``turns`` placements."""
    deck = standard_deck()
    game = Game(Deal.from_seed(seed), deck)
    sim = Simulator(deck)
    for _ in range(turns):
        move = sim.greedy(state_of(game))
        assert move is not None
        game.push(sim.placement(move))
    return sim, game


@pytest.mark.parametrize(("seed", "turns"), [(4, 0), (12, 3), (21, 5)])
def test_expert_rollouts_choose_among_the_looks_best_few(seed: int, turns: int) -> None:
    sim, game = _position(seed, turns)
    state = state_of(game)
    pool = unseen_cards(game.deck.numbers, game.deal.cards[: state.next_draw], ())
    look = Expert(samples=0)
    ranking = expert_ranking(sim, state, pool, game.draw_pile, look)
    plain = expert_move(sim, state, pool, game.draw_pile, look)
    assert plain is not None and plain == ranking[0]
    # A margin no mean can beat keeps the look's choice; any gain at all lets the best
    # played-out candidate through, which is always one of the look's best few.
    stubborn = expert_move(sim, state, pool, game.draw_pile, replace(look, samples=8, margin=99))
    assert stubborn == ranking[0]
    eager = replace(look, samples=8, margin=-99)
    chosen = expert_move(sim, state, pool, game.draw_pile, eager)
    assert chosen in ranking[: eager.candidates]
    assert chosen == expert_move(sim, state, pool, game.draw_pile, eager)  # deterministic


class InlineExecutor(Executor):
    """Runs each task at once in this process, counting them."""

    def __init__(self) -> None:
        self.tasks = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.tasks += 1
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.mark.parametrize(("seed", "turns"), [(4, 0), (12, 3), (2109, 0)])
def test_expert_play_outs_split_among_workers_choose_the_same(seed: int, turns: int) -> None:
    sim, game = _position(seed, turns)
    state = state_of(game)
    pool = unseen_cards(game.deck.numbers, game.deal.cards[: state.next_draw], ())
    split = InlineExecutor()
    alone = expert_move(sim, state, pool, game.draw_pile)
    assert expert_move(sim, state, pool, game.draw_pile, executor=split) == alone
    assert split.tasks >= 2  # the orders were split, at least for the first half


def test_hint_with_two_worker_processes_is_the_hint() -> None:
    game = Game(Deal.from_seed(2109), standard_deck())
    assert hint(game, 2) == hint(game, 1)


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        bot_game(1, "random")


def test_bot_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_command(4, 100, "greedy", False, as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "policy",
        "games",
        "mean",
        "median",
        "min",
        "max",
        "games_per_second",
        "scores",
    }
    assert data["policy"] == "greedy" and data["games"] == 4 and len(data["scores"]) == 4
    assert data["scores"] == [bot_game(100 + i, "greedy") for i in range(4)]
    assert data["min"] <= data["median"] <= data["max"]


def test_bot_command_human(capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_command(2, 0, "greedy", True, as_json=False) == 0
    out = capsys.readouterr().out
    assert "mean" in out and "games/s" in out


def test_expert_bot_games_shared_among_workers_score_the_same() -> None:
    shared = bot_summary(2, 2, "expert", False, workers=2)["scores"]
    assert shared == [EXPERT_GOLDEN[2], EXPERT_GOLDEN[3]]  # as played in this process


@pytest.mark.parametrize(("policy", "recipes"), [("greedy", False), ("greedy", True)])
def test_bot_record_replays_to_the_bots_score(
    policy: str, recipes: bool, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bot.json"
    assert bot_command(1, 7, policy, recipes, as_json=True, record=str(path)) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["scores"] == [bot_game(7, policy, recipes)]
    assert main(["replay", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["score"]["final"] == summary["scores"][0]
    assert result["moves_applied"] == 8 and result["finished"]


def test_bot_record_needs_one_game_and_a_writable_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["bot", "--games", "2", "--record", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--games 1" in err
    assert main(["bot", "--games", "1", "--record", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "folder" in err
    assert not list(tmp_path.iterdir())


def test_bot_record_to_a_symlink_writes_its_target(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "records" / "greedy.json"
    target.parent.mkdir()
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main(["bot", "--games", "1", "--seed", "2", "--record", str(link)]) == 0
    assert link.is_symlink() and link.readlink() == target
    assert json.loads(target.read_text())["seed"] == 2


def test_bot_record_is_named_in_the_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games" / "greedy.json"
    assert main(["bot", "--games", "1", "--seed", "2", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Record written to {path}; watch it with: forage review {path}" in out
    assert "1 standard game from seed 2" in out and path.is_file()
