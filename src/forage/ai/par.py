"""The par score of a deal: the best score knowing the draw order.

Small deals (up to three placements left, so every deal of up to four cards) are solved
exactly by depth-first search with a transposition table and pruning by an upper bound that
can never be too low; the answer is then proven. Larger deals get the greedy bot's line and
the expert's (its candidates played out by the rollout policy rather than by beam searches,
for time), the same exact search within a budget of search nodes, and beam searches of fixed
widths; the answer is proven only if the exact search finishes. The budget counts nodes and
widths, never seconds, so a deal has one par on every machine, idle or busy.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from forage.ai.bots import POLICIES, Expert, beam_line, play
from forage.ai.memory import Memory, analysis_key
from forage.ai.sim import Move, Simulator, State, simulator_for, state_of
from forage.ai.worth import food_areas
from forage.engine import Game, Placement
from forage.engine.areas import DICE_PER_COLOUR, FOOD_FACES
from forage.engine.board import DIE_COLOUR, FACE_INDEX, IS_MOUSE, IS_SPLIT


class Effort(NamedTuple):
    """How hard par searches: fixed amounts of work, so that it gives one answer anywhere."""

    exact_nodes: int
    """Search nodes the exact search may visit on a deal of four or five placements left."""
    beams: tuple[int, ...]
    """The widths of the beam searches run on larger deals, in order."""
    expert: bool = True
    """Whether the expert bot's line is tried too."""


FULL: Final = Effort(exact_nodes=1_500, beams=(24, 300))
"""Par's effort everywhere: a few seconds on a full deal here (docs/performance.md)."""
QUICK: Final = Effort(exact_nodes=2_000, beams=(4,), expert=False)
"""A small effort for smoke tests and quick benchmarks (a different, weaker par)."""
PAR_EXPERT: Final = Expert(beam=0, narrow=False)
"""The expert whose line par starts from: its candidates played out by the rollout policy,
not by beams, in under half the shipped expert's time, so par stays within its effort."""
EXACT_PLACEMENTS: Final = 3
"""Up to this many placements left, par always searches exhaustively."""
TRY_EXACT_PLACEMENTS: Final = 5
"""Up to this many placements left, par tries the exact search within its node budget."""

_INCREMENTS: Final = tuple(b - a for a, b in zip((0, *FOOD_FACES[:-1]), FOOD_FACES, strict=True))
"""What each step of a food die adds: 0 -> 1 -> 3 -> 6 -> 10 -> 15."""
_STEPS: Final = len(_INCREMENTS)


PAR_VERSION: Final = 1
"""Par's analysis version: a par kept from another version is worked out again. Change it
whenever what par finds for a deal could change."""
MEMORY_KIND: Final = "par"
"""The kind of analysis a par is kept as (:mod:`forage.ai.memory`)."""


class Found(NamedTuple):
    """A line found: its final score and its moves."""

    score: int
    moves: list[Move]


class OutOfBudget(Exception):
    """The exact search used up its nodes."""


@dataclass
class ParResult:
    """The best score found, whether it is proven optimal, the time taken and the moves."""

    score: int
    proven: bool
    seconds: float
    placements: list[Placement] = field(default_factory=list)
    method: str = ""


def _recipe_ceiling(sim: Simulator) -> int:
    """As much as the recipes of a game can ever add (R19): a point bonus as printed; a
    doubling its colour's total again, at most every die of the colour on a basket, times
    the doublings before it."""
    most = DICE_PER_COLOUR * FOOD_FACES[-1]
    total, times = 0, 1
    for recipe in sim.recipes:
        if recipe.doubles:
            total += times * most
            times *= 2
        else:
            total += max(0, int(recipe.bonus))
    return total


class Searcher:
    """Par search on one game's deal."""

    def __init__(self, game: Game, effort: Effort = FULL, variants: bool = True) -> None:
        """Prepare the search from the game's current position; with ``variants`` false,
        placements take only their default mouse colours (R8c)."""
        self.game = game
        self.variants = variants
        self.sim = simulator_for(game)
        self.deal = game.deal.cards
        self.start = state_of(game)
        self.effort = effort
        self.began = time.perf_counter()
        self.table: dict[object, tuple[int, Move | None, bool]] = {}
        self.nodes = 0
        self.node_limit: int | None = None
        self.ceiling = _recipe_ceiling(self.sim)
        self.food = {n: food_areas(game.deck, n) for n in self.sim.shapes}
        self.expert = PAR_EXPERT

    # -- bounds -----------------------------------------------------------------------------

    def upper_bound(self, state: State) -> int:
        """A score no line from this state can beat.

        Each food area of colour X raises at most one die of colour X by one step (or
        places one), so the remaining cards' food areas of each colour can add at most the
        largest steps that colour's dice can still take, plus 1 for each die that moves
        off a split area; nothing else can raise the base score.
        """
        cards = list(state.hand) + list(self.deal[state.next_draw :])
        k = len(cards)
        if k == 0:
            return self.sim.final(state)
        areas = [0, 0, 0]
        for c in cards:
            fb, fc, fm = self.food[c]
            areas[0] += fb
            areas[1] += fc
            areas[2] += fm
        # available[colour][step]: how many increments of size step+1 that colour can take.
        available = [[0] * _STEPS for _ in range(3)]
        on_board = [0, 0, 0]
        split = [0, 0, 0]
        for code in state.board.values():
            col = DIE_COLOUR[code]
            if col < 0 or IS_MOUSE[code]:
                continue
            on_board[col] += 1
            face = FACE_INDEX[code]
            if IS_SPLIT[code]:
                split[col] += 1
            row = available[col]
            for step in range(face, min(face + k, _STEPS)):
                row[step] += 1
        bound = 0
        top = min(k, _STEPS)
        for col in range(3):
            row = available[col]
            for _ in range(DICE_PER_COLOUR - on_board[col]):  # dice still in the supply
                for step in range(top):
                    row[step] += 1
            left = areas[col]
            bound += min(left, split[col])
            for step in reversed(range(_STEPS)):
                take = min(left, row[step])
                bound += take * _INCREMENTS[step]
                left -= take
                if not left:
                    break
        return state.base + bound + self.ceiling

    # -- exact search -----------------------------------------------------------------------

    def _key(self, state: State) -> object:
        return (
            frozenset(state.board.items()),
            tuple(sorted(state.hand)),
            state.next_draw,
            state.first,
        )

    def exact(self, state: State, alpha: int = -(10**9)) -> int:
        """The best final score from a state if it beats ``alpha``; else at most ``alpha``.

        Raises OutOfBudget past the node limit. Values that beat ``alpha`` are exact.
        """
        if not state.hand:
            return self.sim.final(state)
        key = self._key(state)
        found = self.table.get(key)
        if found is not None:
            value, move, exact = found
            if exact or value <= alpha:
                return value
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OutOfBudget
        moves = self.sim.all_moves(state, variants=self.variants)
        if not moves:
            value = self.sim.final(state)
            self.table[key] = (value, None, True)
            return value
        last = len(state.hand) == 1 and state.next_draw >= len(self.deal)
        best_value: int | None = None
        best_move: Move | None = None
        if last and not self.sim.recipes:
            for move in moves:
                if best_value is None or state.base + move.gain > best_value:
                    best_value, best_move = state.base + move.gain, move
        else:
            order = sorted(range(len(moves)), key=lambda i: (-moves[i].gain, i))
            for i in order:
                move = moves[i]
                child = self.sim.apply(state, move, self.deal)
                floor = alpha if best_value is None else max(alpha, best_value)
                if self.upper_bound(child) <= floor:
                    continue
                value = self.exact(child, floor)
                if value > floor and (best_value is None or value > best_value):
                    best_value, best_move = value, move
        if best_value is None or best_value <= alpha:
            self.table[key] = (alpha, None, False)
            return alpha
        self.table[key] = (best_value, best_move, True)
        return best_value

    def exact_line(self, state: State) -> list[Move]:
        """The moves of the best line found by :meth:`exact`."""
        line: list[Move] = []
        while state.hand:
            found = self.table.get(self._key(state))
            if found is None or found[1] is None or not found[2]:
                break
            line.append(found[1])
            state = self.sim.apply(state, found[1], self.deal)
        return line

    # -- heuristic search -------------------------------------------------------------------

    def bot_line(self, policy: str) -> Found:
        """A bot's line on this deal (the bots never see the draw pile)."""
        line = play(
            self.sim, self.game.deal, policy, self.start, self.game.deck.numbers, self.expert
        )
        return Found(self.sim.final(line.state), line.moves)

    def beam(self, width: int) -> Found:
        """Beam search keeping the ``width`` most promising states at each turn
        (:func:`~forage.ai.bots.beam_line`, knowing the deal's draw order)."""
        line = beam_line(self.sim, self.start, self.deal, width, self.expert)
        return Found(self.sim.final(line.state), line.moves)

    # -- driver -----------------------------------------------------------------------------

    def run(self) -> ParResult:
        """Search with the effort given and return the best line found."""
        start = self.start
        remaining = len(start.hand) + len(self.deal) - start.next_draw
        if not start.hand or self.game.is_over():
            return self._result(Found(self.sim.final(start), []), True, "over")
        if remaining <= EXACT_PLACEMENTS:
            value = self.exact(start)
            return self._result(Found(value, self.exact_line(start)), True, "exact")
        policies = POLICIES if self.effort.expert else ("greedy",)
        best, method = max(
            ((self.bot_line(policy), policy) for policy in policies), key=lambda t: t[0].score
        )
        if remaining <= TRY_EXACT_PLACEMENTS:
            # Small enough to hope for a proof: exact search, to beat the line found so far.
            self.node_limit = self.effort.exact_nodes
            try:
                value = self.exact(start, best.score)
            except OutOfBudget:
                pass
            else:
                if value > best.score:
                    return self._result(Found(value, self.exact_line(start)), True, "exact")
                return self._result(best, True, f"{method}, proven")
            finally:
                self.node_limit = None
        for width in self.effort.beams:
            found = self.beam(width)
            if found.score > best.score:
                best, method = found, f"beam {width}"
        return self._result(best, False, method)

    def _result(self, found: Found, proven: bool, method: str) -> ParResult:
        return ParResult(
            score=found.score,
            proven=proven,
            seconds=time.perf_counter() - self.began,
            placements=[self.sim.placement(m) for m in found.moves],
            method=method,
        )


def par_key(game: Game, effort: Effort = FULL) -> str:
    """What decides a game's par, as one key: par's version, the deal and deck, the moves
    made and the effort."""
    return analysis_key(
        PAR_VERSION,
        game.deal.code,
        game.deck.model_dump_json(),
        [p.notation() for p in game.moves],
        list(effort),
    )


def par_text(found: ParResult) -> str:
    """A par found, as text to keep (:func:`par_from_text` reads it back)."""
    return json.dumps(
        {
            "score": found.score,
            "proven": found.proven,
            "placements": [p.notation() for p in found.placements],
            "method": found.method,
        }
    )


def par_from_text(text: str) -> ParResult | None:
    """A kept par (its ``seconds`` 0), or None if the text does not read as one."""
    try:
        data = json.loads(text)
        return ParResult(
            score=int(data["score"]),
            proven=bool(data["proven"]),
            seconds=0.0,
            placements=[Placement.from_notation(p) for p in data["placements"]],
            method=str(data["method"]),
        )
    except (ValueError, KeyError, TypeError):
        return None


def kept_par(game: Game, memory: Memory, effort: Effort = FULL) -> ParResult | None:
    """The par of a game's position kept in ``memory``, if there is one."""
    text = memory.remembered(MEMORY_KIND, par_key(game, effort))
    return None if text is None else par_from_text(text)


def keep_par(game: Game, found: ParResult, memory: Memory, effort: Effort = FULL) -> None:
    """Keep a par found for a game's position in ``memory``."""
    memory.remember(MEMORY_KIND, par_key(game, effort), par_text(found))


def par(game: Game, effort: Effort = FULL, memory: Memory | None = None) -> ParResult:
    """The best score for the rest of a game's deal, knowing the draw order.

    The same deal and moves give the same answer on every machine (``seconds`` aside).
    With a ``memory``, a par kept there is read back at once, and one worked out is kept.
    """
    if memory is not None:
        kept = kept_par(game, memory, effort)
        if kept is not None:
            return kept
    found = Searcher(game, effort).run()
    if memory is not None:
        keep_par(game, found, memory, effort)
    return found
