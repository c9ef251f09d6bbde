"""Issue 12, part 4: does the review's sampling make a stronger expert? (an experiment)

The *rollout expert* takes the expert's best ``K`` placements, plays each out over ``N``
sampled draw orders of the unseen cards with the review's rollout policy
(``forage.ai.review.play_out``) and keeps the expert's choice unless another candidate's
mean beats it by more than ``MARGIN`` points. It is compared with the expert, game by game,
on the deals of a range of seeds.

    uv run python benchmarks/rollout_expert.py [K N FIRST LAST]    (default 3 24 2000 2060)
"""

from __future__ import annotations

import statistics
import sys
import time

from forage.ai.bots import Expert, bot_game, expert_ranking, unseen_cards
from forage.ai.review import draw_orders, play_out
from forage.ai.sim import Move, Simulator, State, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game

MARGIN = 1.0
"""Points a rival must gain on average over the expert's choice to be played instead."""


def rollout_move(sim: Simulator, state: State, cards: tuple[int, ...], k: int, n: int) -> Move:
    """The rollout expert's placement (``cards``: the deal; only the cards drawn are read)."""
    expert = Expert()
    known = cards[: state.next_draw]
    pool = unseen_cards(sim.deck.numbers, known, ())
    draw_pile = len(cards) - state.next_draw
    candidates = [c.move for c in expert_ranking(sim, state, pool, draw_pile, expert)[:k]]
    if len(candidates) < 2 or len(state.hand) - 1 + draw_pile == 0:
        return candidates[0]
    orders, _ = draw_orders(pool, draw_pile, n, 100 * len(known) + state.next_draw)
    totals = [0] * len(candidates)
    for order in orders:
        drawn = (*known, *order)
        for i, move in enumerate(candidates):
            totals[i] += play_out(sim, sim.apply(state, move, drawn), drawn, expert)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best] if totals[best] > totals[0] + MARGIN * len(orders) else candidates[0]


def rollout_game(seed: int, k: int, n: int) -> int:
    """The rollout expert's final score on the deal of a seed (standard game)."""
    deck = standard_deck()
    deal = Deal.from_seed(seed)
    sim = Simulator(deck)
    state = state_of(Game(deal, deck))
    while state.hand:
        state = sim.apply(state, rollout_move(sim, state, deal.cards, k, n), deal.cards)
    return sim.final(state)


def main(argv: list[str]) -> None:
    """Print each seed's scores, then the mean difference and its standard error."""
    k, n, first, last = (int(a) for a in argv) if argv else (3, 24, 2000, 2060)
    began = time.perf_counter()
    diffs = []
    for seed in range(first, last):
        mine, base = rollout_game(seed, k, n), bot_game(seed, "expert")
        diffs.append(mine - base)
        print(seed, mine, base, flush=True)
    error = statistics.stdev(diffs) / len(diffs) ** 0.5
    seconds = time.perf_counter() - began
    print(
        f"mean {statistics.mean(diffs):+.2f} ± {error:.2f} over {len(diffs)} deals, {seconds:.0f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
