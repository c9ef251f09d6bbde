"""The last placements: how long the expert's ranking and the exact search take there.

The expert plays the standard deals of the seeds in the range (5001-5020 by default; its
lines are worked out once by this checkout, pinned by seed). At each game's two positions
before its last placements, three placements left (move 6) and two (move 7), a fresh
process of this checkout and, with ``--against DIR``, of another checkout times in CPU
seconds (``time.process_time``): the expert's move (``forage.ai.bots.expert_move``: its
ranking and play-outs) and, with two left, the exact search (``ExactSearch.best``) and the
hint; with ``--exact6``, with three left, the proven best by expectation
(``ExactSearch.best_expected``, which ``forage review --exact`` runs at move 6). The two
checkouts take turns so that a busy machine slows both alike.

    uv run python benchmarks/endgame.py [FIRST LAST] [--against DIR] [--exact6]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

LINES = """
import json, sys
from forage.ai.games import bot_played
print(json.dumps({s: " ".join(p.notation() for p in bot_played(s, "expert").moves)
                  for s in range(int(sys.argv[1]), int(sys.argv[2]) + 1)}))
"""
"""The expert's games on the seeds, as notations (worked out once, by this checkout)."""

CHILD = """
import json, sys, time
from forage.ai.bots import expert_move, unseen_cards
from forage.ai.sim import simulator_for, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement
lines = json.loads(sys.stdin.read())
found = {"move6": [], "move7": [], "exact7": [], "hint7": [], "value7": [], "exact6": [],
         "value6": []}
for seed, line in lines.items():
    for made, name in ((5, "move6"), (6, "move7")):
        game = Game(Deal.from_seed(int(seed)), standard_deck())
        game.replay([Placement.from_notation(n) for n in line.split()[:made]])
        sim, state = simulator_for(game), state_of(game)
        pool = unseen_cards(game.deck.numbers, game.deal.cards[: state.next_draw], ())
        began = time.process_time()
        choice = expert_move(sim, state, pool, game.draw_pile)
        found[name].append(time.process_time() - began)
        if made == 5 and "--exact6" in sys.argv:
            from forage.ai.search import ExactSearch
            began = time.process_time()
            proven = ExactSearch(sim, state, game.deal.cards).best_expected(state, pool)
            found["exact6"].append(time.process_time() - began)
            found["value6"].append(proven.best.value)
    try:
        from forage.ai.search import ExactSearch
        began = time.process_time()
        best = ExactSearch(sim, state, game.deal.cards).best(state)
        found["exact7"].append(time.process_time() - began)
        found["value7"].append(best.value)
    except TypeError:  # a checkout whose search is built from a game
        began = time.process_time()
        search = ExactSearch(game)
        found["value7"].append(search.exact(search.start))
        found["exact7"].append(time.process_time() - began)
    from forage.ai.hint import hint
    began = time.process_time()
    hint(game)
    found["hint7"].append(time.process_time() - began)
print(json.dumps(found))
"""
"""Times the expert, the exact search and the hint at each game's moves 6 and 7."""


def run(tree: Path, code: str, *args: str, given: str = "") -> str:
    """Run ``code`` in a fresh process of the checkout ``tree``; its last line of output."""
    done = subprocess.run(
        ["uv", "run", "--quiet", "--project", str(tree), "python", "-c", code, *args],
        input=given,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return done.stdout.strip().splitlines()[-1]


def main() -> None:
    """Time the last placements of the expert's games on the seeds, here and against a tree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int, nargs="?", default=5001)
    parser.add_argument("last", type=int, nargs="?", default=5020, help="inclusive")
    parser.add_argument("--against", type=Path, metavar="DIR", help="another checkout")
    parser.add_argument(
        "--exact6", action="store_true", help="also time the proven best with three left"
    )
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    lines = run(here, LINES, str(args.first), str(args.last))
    trees = {"this": here} | ({"against": args.against.resolve()} if args.against else {})
    for name, tree in trees.items():
        found = json.loads(run(tree, CHILD, *(("--exact6",) if args.exact6 else ()), given=lines))
        ms = {k: statistics.mean(v) * 1000 for k, v in found.items() if v and "value" not in k}
        print(
            f"{name}: expert move 6 {ms['move6']:.1f} ms, move 7 {ms['move7']:.1f} ms; "
            f"exact search at move 7 {ms['exact7']:.1f} ms (max "
            f"{max(found['exact7']) * 1000:.1f}); hint at move 7 {ms['hint7']:.1f} ms; "
            f"best finals {found['value7']}",
            flush=True,
        )
        if args.exact6:
            print(
                f"{name}: proven best at move 6 {ms['exact6'] / 1000:.2f} s CPU (median "
                f"{statistics.median(found['exact6']):.2f}, max {max(found['exact6']):.2f}); "
                f"best expectations {found['value6']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
