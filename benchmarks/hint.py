"""How long a hint takes: every hint of whole games played by hints, the shipped expert's
settings against the rollout expert (``forage.ai.par.PAR_EXPERT``: every candidate played out
by the rollout policy, not by beams).

Each position is timed with both settings one after the other, so a busy machine slows
both alike; printed: the slowest and mean hint of each, by placement, and their ratio, and
for the shipped settings how soon the first suggestion (the look ahead's choice, which
the game screen shows at once) is there. The games follow the shipped expert's hints.
CPU seconds (``time.process_time``).

    uv run python benchmarks/hint.py [FIRST LAST]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from dataclasses import replace

from forage.ai.bots import Expert, expert_move, unseen_cards
from forage.ai.sim import simulator_for, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game


def main() -> None:
    """Time every hint of the games of the seeds in the range, with both settings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int, nargs="?", default=2100)
    parser.add_argument("last", type=int, nargs="?", default=2109, help="inclusive")
    args = parser.parse_args()
    shipped = Expert()
    settings = {"shipped": shipped, "rollout": replace(shipped, beam=0, narrow=False)}
    times: dict[str, dict[int, list[float]]] = {name: defaultdict(list) for name in settings}
    firsts: list[float] = []
    deck = standard_deck()
    for seed in range(args.first, args.last + 1):
        game = Game(Deal.from_seed(seed), deck)
        sim = simulator_for(game)
        state = state_of(game)
        cards = game.deal.cards
        turn = 0
        while state.hand:
            turn += 1
            pool = unseen_cards(deck.numbers, cards[: state.next_draw], ())
            chosen = None
            for name, expert in settings.items():
                began = time.process_time()

                def so_far(_: object, began: float = began) -> None:
                    firsts.append(time.process_time() - began)

                early = so_far if name == "shipped" else None
                left = len(cards) - state.next_draw
                choice = expert_move(sim, state, pool, left, expert, early=early)
                times[name][turn].append(time.process_time() - began)
                if name == "shipped":
                    chosen = choice
            if chosen is None:
                break
            state = sim.apply(state, chosen.move, cards)
    print(f"seeds {args.first}-{args.last}, CPU seconds a hint")
    print("placement | " + " | ".join(f"{n} max, mean" for n in settings))
    for turn in sorted(times["shipped"]):
        row = [f"{max(t[turn]):.2f}, {statistics.mean(t[turn]):.2f}" for t in times.values()]
        print(f"{turn} | " + " | ".join(row))
    every = {n: [t for ts in times[n].values() for t in ts] for n in settings}
    slowest = {n: max(v) for n, v in every.items()}
    print(
        f"slowest: {slowest['shipped']:.2f} s shipped, {slowest['rollout']:.2f} s rollout; "
        f"mean ratio {statistics.mean(every['shipped']) / statistics.mean(every['rollout']):.2f}"
    )
    print(f"first suggestion: {max(firsts):.3f} s at most, {statistics.mean(firsts):.3f} s mean")


if __name__ == "__main__":
    main()
