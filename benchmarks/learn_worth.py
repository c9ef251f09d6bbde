"""Learn the expert's worth model from its own games; writes data/expert-worth.json.

Each round plays the expert (with the model of the round before) on a range of seeds and
records, after every placement, the woodland's features (``forage.ai.worth.features``: per
kind of square, how many and how many food areas of their colours are expected to come)
and the points the game still went on to gain. A ridge least-squares fit per number of
placements left gives the next model. Round 1 starts from the hand-set worth the expert
used before (food dice by face, split +0.5, mice -1, fading in over the last 4
placements). Deterministic: the same seeds give the same file on any machine.

    uv run python benchmarks/learn_worth.py [--rounds 2] [--games 800] [--out FILE]

Seeds 10000 and up are used, so the seeds the bots are measured on (0-999, 1000-1199,
2000-2199) are never trained on. About 15 minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from multiprocessing import Pool
from pathlib import Path

from forage.ai.bots import Expert, expert_move, unseen_cards
from forage.ai.sim import Simulator, state_of
from forage.ai.worth import (
    KIND_NAMES,
    MOST_LEFT,
    RIDGE,
    Row,
    WorthModel,
    features,
    fit,
    food_areas,
    outlook,
)
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.engine.areas import FOOD_FACES

FIRST_SEED = 10_000


def hand_set() -> WorthModel:
    """The expert's hand-set worth before it was learnt, as a model (round 1's player)."""
    faces = (0.6, 1.0, 1.4, 1.8, 0.0)
    base = []
    for left in range(1, MOST_LEFT + 1):
        scale = min(1.0, left / 4)
        row = [0.0] * len(KIND_NAMES)
        for i, face in enumerate(FOOD_FACES):
            row[KIND_NAMES.index(f"die {face}")] = faces[i] * scale
            row[KIND_NAMES.index(f"die {face} split")] = (faces[i] + 0.5) * scale
        row[KIND_NAMES.index("mouse")] = -1.0 * scale
        base.append(tuple(row))
    zero = tuple(0.0 for _ in KIND_NAMES)
    return WorthModel(tuple(base), tuple(zero for _ in base))


def self_play(task: tuple[int, WorthModel]) -> tuple[list[Row], int]:
    """One expert game on a seed's deal: its rows and its final score."""
    seed, model = task
    deck = standard_deck()
    sim = Simulator(deck)
    deal = Deal.from_seed(seed)
    expert = Expert(model=model)
    state = state_of(Game(deal, deck))
    cards = deal.cards
    rows: list[tuple[int, list[float], int]] = []
    while state.hand:
        pool = unseen_cards(deck.numbers, cards[: state.next_draw], ())
        draw_pile = len(cards) - state.next_draw
        choice = expert_move(sim, state, pool, draw_pile, expert)
        if choice is None:
            break
        move = choice.move
        left = len(state.hand) - 1 + draw_pile
        if left > 0:
            kept = [n for n in state.hand if n != move.card][:1]
            mean = outlook(deck, pool)
            areas = [(left - len(kept)) * share for share in mean]
            for number in kept:
                areas = [a + f for a, f in zip(areas, food_areas(deck, number), strict=True)]
            board = sim.board_after(state.board, move)
            rows.append((left, features(board, areas), state.base + move.gain))
        state = sim.apply(state, move, cards)
    final = sim.final(state)
    return [(left, x, final - base) for left, x, base in rows], final


def main() -> None:
    """Run the rounds and write the model."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=800, help="games a round")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("data/expert-worth.json"))
    args = parser.parse_args()
    model = hand_set()
    rows: list[Row] = []
    rounds = []
    seed = FIRST_SEED
    with Pool(args.workers) as pool:
        for number in range(1, args.rounds + 1):
            began = time.perf_counter()
            seeds = range(seed, seed + args.games)
            games = pool.map(self_play, [(s, model) for s in seeds], chunksize=4)
            rows += [row for found, _ in games for row in found]
            mean = statistics.mean(final for _, final in games)
            model = fit(rows)
            rounds.append({"seeds": f"{seeds[0]}-{seeds[-1]}", "mean_final": round(mean, 2)})
            print(
                f"round {number}: seeds {seeds[0]}-{seeds[-1]}, mean final {mean:.2f}, "
                f"{len(rows)} rows, {time.perf_counter() - began:.0f} s",
                flush=True,
            )
            seed += args.games
    data = {
        "about": "The expert's worth of a woodland, learnt by benchmarks/learn_worth.py "
        "(see forage/ai/worth.py).",
        "ridge": RIDGE,
        "rounds": rounds,
        **model.to_json(),
    }
    text = json.dumps(data, indent=1) + "\n"
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
