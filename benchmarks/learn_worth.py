"""Learn the expert's worth model from its own games; writes data/expert-worth.json.

Each round plays the expert's look ahead (with the model of the round before, and by
default without its played-out candidates) on a range of seeds and records, after every
placement, the woodland's features (``forage.ai.worth.features``: per kind of square, how
many and how many food areas of their colours are expected to come) and the points the
game still went on to gain. A ridge least-squares fit per number of placements left gives
the next model: on those points (``--target mc``), or by fitted value iteration on the
next placement's points plus the model's value of the woodland after it (``--target td``,
:func:`worth_fit.fit_td`, beside this script). Round 1 starts from ``--start`` or from the hand-set
worth the expert used before (food dice by face, split +0.5, mice -1, fading in over the
last 4 placements). Deterministic: the same seeds give the same file on any machine.

    uv run python benchmarks/learn_worth.py [--start FILE] [--rounds 2] [--games 800]
        [--target mc|td] [--candidates 1] [--out FILE]

The shipped model is what the defaults make, to the last weight (two rounds of 800
games from the hand-set worth). Value iteration from it tied with it on held-out deals
and is not shipped (docs/performance.md); it is made with

    uv run python benchmarks/learn_worth.py --start data/expert-worth.json --rounds 1 \
        --games 2400 --target td --out td.json

Seeds 10000 and up are used, so the seeds the bots are measured on (0-999, 1000-5399)
are never trained on. The defaults take about 10 minutes on two cores, the second about 15.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

from worth_fit import RIDGE, Row, fit, fit_td

from forage.ai.bots import Expert, expert_move, unseen_cards
from forage.ai.sim import Simulator, state_of
from forage.ai.worth import (
    KIND_NAMES,
    MOST_LEFT,
    WorthModel,
    features,
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


def self_play(task: tuple[int, WorthModel, int]) -> tuple[list[Row], int]:
    """One expert game on a seed's deal (with this many candidates played out): its rows,
    in play order, and its final score."""
    seed, model, candidates = task
    deck = standard_deck()
    sim = Simulator(deck)
    deal = Deal.from_seed(seed)
    expert = replace(Expert(model=model), candidates=candidates)
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
    parser.add_argument("--start", type=Path, help="the model round 1 plays with (JSON)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--target", choices=("mc", "td"), default="mc")
    parser.add_argument("--candidates", type=int, default=1, help="the expert's (1: none)")
    parser.add_argument("--games", type=int, default=800, help="games a round")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("data/expert-worth.json"))
    args = parser.parse_args()
    model = hand_set()
    rounds: list[dict[str, object]] = []  # the start model's rounds, then this run's
    if args.start:
        start = json.loads(args.start.read_text(encoding="utf-8"))
        model = WorthModel.from_json(start)
        rounds = list(start.get("rounds", []))
    games_rows: list[list[Row]] = []
    seed = FIRST_SEED
    with Pool(args.workers) as pool:
        for number in range(1, args.rounds + 1):
            began = time.perf_counter()
            seeds = range(seed, seed + args.games)
            tasks = [(s, model, args.candidates) for s in seeds]
            games = pool.map(self_play, tasks, chunksize=4)
            games_rows += [found for found, _ in games]
            mean = statistics.mean(final for _, final in games)
            if args.target == "td":
                model = fit_td(games_rows)
            else:
                model = fit([row for found in games_rows for row in found])
            rounds.append(
                {
                    "seeds": f"{seeds[0]}-{seeds[-1]}",
                    "mean_final": round(mean, 2),
                    "target": args.target,
                    "candidates": args.candidates,
                }
            )
            print(
                f"round {number}: seeds {seeds[0]}-{seeds[-1]}, mean final {mean:.2f}, "
                f"{sum(map(len, games_rows))} rows, {time.perf_counter() - began:.0f} s",
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
