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

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from forage.ai.bots import POLICIES, Expert
from forage.ai.games import play
from forage.ai.memory import Memory, analysis_key, kept
from forage.ai.search import ExactSearch, OutOfBudget, beam_line
from forage.ai.sim import Move, simulator_for, state_of
from forage.ai.workers import Task
from forage.engine import Game, Placement
from forage.engine.deal import MOST_CARDS
from forage.engine.scoring import SCORE_LIMIT


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
PAR_EXPERT: Final = Expert(candidates=4, samples=32, beam=0, narrow=False)
"""The expert whose line par starts from: four candidates played out on 32 draw orders each
by the rollout policy, not by beams, so par stays within its effort."""
EXACT_PLACEMENTS: Final = 3
"""Up to this many placements left, par always searches exhaustively."""
TRY_EXACT_PLACEMENTS: Final = 5
"""Up to this many placements left, par tries the exact search within its node budget."""

PAR_VERSION: Final = 1
"""Par's analysis version: a par kept from another version is worked out again. Change it
whenever what par finds for a deal could change."""
MEMORY_KIND: Final = "par"
"""The kind of analysis a par is kept as (:mod:`forage.ai.memory`)."""


class ScoredLine(NamedTuple):
    """A line found: its final score and its moves."""

    score: int
    moves: list[Move]


@dataclass
class ParResult:
    """The best score found, whether it is proven optimal, the time taken and the moves."""

    score: int
    proven: bool
    seconds: float
    placements: list[Placement] = field(default_factory=list)
    method: str = ""


class Searcher(ExactSearch):
    """Par search on one game's deal: the exact search where it can finish, bot lines and
    beams where it cannot."""

    def __init__(self, game: Game, effort: Effort = FULL, variants: bool = True) -> None:
        """Prepare the search from the game's current position (``variants``: as
        :class:`~forage.ai.search.ExactSearch`)."""
        super().__init__(simulator_for(game), state_of(game), game.deal.cards, variants)
        self.game = game
        self.effort = effort
        self.began = time.perf_counter()
        self.expert = PAR_EXPERT

    # -- heuristic search -------------------------------------------------------------------

    def bot_line(self, policy: str) -> ScoredLine:
        """A bot's line on this deal (the bots never see the draw pile)."""
        line = play(
            self.sim, self.game.deal, policy, self.start, self.game.deck.numbers, self.expert
        )
        return ScoredLine(self.sim.final(line.state), line.moves)

    def beam(self, width: int) -> ScoredLine:
        """Beam search keeping the ``width`` most promising states at each turn
        (:func:`~forage.ai.search.beam_line`, knowing the deal's draw order)."""
        line = beam_line(self.sim, self.start, self.deal, width, self.expert.worth)
        return ScoredLine(self.sim.final(line.state), line.moves)

    # -- driver -----------------------------------------------------------------------------

    def run(self) -> ParResult:
        """Search with the effort given and return the best line found."""
        start = self.start
        remaining = len(start.hand) + len(self.deal) - start.next_draw
        if not start.hand or self.game.is_over():
            return self._result(ScoredLine(self.sim.final(start), []), True, "over")
        if remaining <= EXACT_PLACEMENTS:
            value = self.exact(start)
            return self._result(ScoredLine(value, self.exact_line(start)), True, "exact")
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
                    return self._result(ScoredLine(value, self.exact_line(start)), True, "exact")
                return self._result(best, True, f"{method}, proven")
            finally:
                self.node_limit = None
        for width in self.effort.beams:
            found = self.beam(width)
            if found.score > best.score:
                best, method = found, f"beam {width}"
        return self._result(best, False, method)

    def _result(self, found: ScoredLine, proven: bool, method: str) -> ParResult:
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


METHOD_LENGTH: Final = 40
"""The longest name of a par's method (``expert, proven``, ``beam 300``) kept."""


class KeptPar(BaseModel):
    """A par as kept (:func:`par_text`), each value checked as it is read back: a score the
    rules can give, at most a deal's placements."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    score: StrictInt = Field(ge=-SCORE_LIMIT, le=SCORE_LIMIT)
    proven: StrictBool
    placements: list[str] = Field(max_length=MOST_CARDS)
    method: str = Field(max_length=METHOD_LENGTH)


def par_from_text(text: str) -> ParResult:
    """A kept par (its ``seconds`` 0); ValueError if the text does not read as one."""
    found = KeptPar.model_validate_json(text)  # a ValidationError is a ValueError
    placements = [Placement.from_notation(p) for p in found.placements]
    return ParResult(found.score, found.proven, 0.0, placements, found.method)


def kept_par(game: Game, memory: Memory, effort: Effort = FULL) -> ParResult | None:
    """The par of a game's position kept in ``memory``, if there is one that reads as a
    par and whose line the game can play."""
    found = kept(memory, MEMORY_KIND, par_key(game, effort), par_from_text)
    if found is None or game.copy().replay(found.placements).refusal is not None:
        return None
    return found


def keep_par(game: Game, found: ParResult, memory: Memory, effort: Effort = FULL) -> None:
    """Keep a par found for a game's position in ``memory``."""
    memory.remember(MEMORY_KIND, par_key(game, effort), par_text(found))


def par(game: Game, effort: Effort = FULL, memory: Memory | None = None) -> ParResult:
    """The best score for the rest of a game's deal, knowing the draw order.

    The same deal and moves give the same answer on every machine (``seconds`` aside).
    With a ``memory``, a par kept there is read back at once, and one worked out is kept.
    """
    if memory is not None:
        known = kept_par(game, memory, effort)
        if known is not None:
            return known
    found = Searcher(game, effort).run()
    if memory is not None:
        keep_par(game, found, memory, effort)
    return found


def par_task(game: Game, effort: Effort = FULL) -> Task:
    """The search of a game's par as a task for a worker process (keyed by :func:`par_key`)."""
    return Task(par_key(game, effort), par, (game.copy(), effort))
