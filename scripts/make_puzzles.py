"""Make the shipped puzzles: writes data/puzzles.json (docs/puzzles.md).

Each candidate is a real game: the greedy bot's game on a seeded deal (deck 1 or 2 in
turn), stopped two placements before its end. The position's first placements are searched
exhaustively (:func:`forage.ai.puzzle.prove`) twice: once with every choice of mouse colour
(R8c), once with the default colours only; a position is kept only if both readings agree
on the best score, the second-best and the answer, so that any engine's reading of R8c
proves the same puzzle, if exactly one first placement reaches the best score, and if that
placement is not the one with the best immediate gain (the greedy bot's choice). The best
line is replayed on the engine's ``Game`` and must score ``best``.

    uv run python scripts/make_puzzles.py [--seed 1] [--count 200] [--out data/puzzles.json]

Deterministic: the same seed gives the same file on any machine (about ten minutes on two
cores for the defaults).
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path
from typing import NamedTuple

from forage.ai.games import play
from forage.ai.puzzle import Proof, prove
from forage.ai.sim import Simulator, state_of
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.engine.deal import SEED_LIMIT, SplitMix64
from forage.puzzle import FORMAT, Puzzle, parse_puzzles
from forage.record import record_from_game, write_atomic

LEFT = 2
"""Placements left in a puzzle's position."""
TRIES = 8
"""Candidates tried for each puzzle wanted, at most."""


class Candidate(NamedTuple):
    """A position tried as a puzzle: the deal's seed and deck."""

    seed: int
    deck: int


def rating(proof: Proof) -> int:
    """How hard a puzzle is: 900, plus 80 for each first placement that gains more at once
    than the answer (at most ten), plus 100 when the second best is only one point behind."""
    return 900 + 80 * min(proof.tempting, 10) + (100 if proof.best - proof.second == 1 else 0)


def position(candidate: Candidate) -> Game | None:
    """The greedy game on the candidate's deal, stopped ``LEFT`` placements before its end."""
    deck = standard_deck()
    deal = Deal.from_seed(candidate.seed, deck=candidate.deck)
    game = Game(deal, deck)
    sim = Simulator(deck)
    line = play(sim, deal, "greedy", state_of(game), deck.numbers)
    if len(line.moves) != len(deal.cards) - 1:
        return None  # stuck before the end: not a real game's last placements
    game.replay([sim.placement(move) for move in line.moves[:-LEFT]])
    return game


def puzzle_of(candidate: Candidate) -> Puzzle | None:
    """The candidate's puzzle (id 0) if both readings prove one answer; else None."""
    game = position(candidate)
    if game is None:
        return None
    every = prove(game, variants=True)
    default = prove(game, variants=False)
    if every is None or default is None or not default.unique or default.greedy_right:
        return None
    if (every.best, every.second) != (default.best, default.second):
        return None
    first, again = every.solution[0], default.solution[0]
    if first.model_copy(update={"mouse": ()}) != again.model_copy(update={"mouse": ()}):
        return None
    check = game.copy()
    if check.replay(default.solution).refusal is not None:
        raise RuntimeError(f"seed {candidate.seed}: the best line is refused")
    if check.result().score.final != default.best:
        raise RuntimeError(f"seed {candidate.seed}: the best line does not score best")
    record = record_from_game(game)
    return Puzzle(
        id=1,
        record=record,
        left=LEFT,
        solution=record_from_game(check).moves[len(game.moves) :],
        best=default.best,
        second=default.second,
        rating=rating(default),
    )


def candidates(seed: int, count: int) -> list[Candidate]:
    """``count`` candidate deals drawn from ``seed``, deck 1 and 2 in turn."""
    rng = SplitMix64(seed)
    return [Candidate(rng.next() % SEED_LIMIT, 1 + i % 2) for i in range(count)]


def main() -> None:
    """Make the puzzles and write the file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("data/puzzles.json"))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    began = time.perf_counter()
    tried = candidates(args.seed, args.count * TRIES)
    made: list[Puzzle] = []
    with Pool(args.workers) as pool:
        for found in pool.imap(puzzle_of, tried, chunksize=4):
            if found is not None:
                made.append(found.model_copy(update={"id": len(made) + 1}))
                if len(made) == args.count:
                    break
    if len(made) < args.count:
        raise SystemExit(f"only {len(made)} puzzles from {len(tried)} candidates")
    lines = ",\n".join(json.dumps(p.to_data(), separators=(",", ":")) for p in made)
    text = f'{{"format": "{FORMAT}", "seed": {args.seed}, "puzzles": [\n{lines}\n]}}\n'
    if parse_puzzles(text).puzzles != made:
        raise RuntimeError("the puzzle file does not read back as written")
    write_atomic(args.out, text)
    print(f"{len(made)} puzzles in {args.out} in {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
