"""The par score of a deal: the best score knowing the draw order (issue 4).

Small deals (up to three placements left, so every deal of up to four cards) are solved
exactly by depth-first search with a transposition table and pruning by an upper bound that
can never be too low; the answer is then proven. Larger deals get the expert bot's line, a
beam search of growing width and, while time remains, the same exact search; the answer is
proven only if that exact search finishes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Final

from forage.ai.bots import Expert, board_worth, expert_move, greedy_move, unseen_cards
from forage.ai.sim import (
    C_DCOL,
    C_FACE,
    C_MOUSE,
    C_SPLIT,
    Move,
    Scored,
    Simulator,
    State,
    placement_of,
    simulator_for,
    state_of,
)
from forage.engine import Game, Placement

TIME_LIMIT: Final = 7.0
"""Seconds par may spend on a deal (the issue allows 10)."""
EXACT_PLACEMENTS: Final = 3
"""Up to this many placements left, par always searches exhaustively."""

TRY_EXACT_PLACEMENTS: Final = 5
"""Up to this many placements left, par tries the exact search within part of its time."""
EXACT_SHARE: Final = 0.6
"""The share of the time limit that attempt may take."""
MIN_EXPERT_TIME: Final = 2.0
"""With less time than this, par skips the expert bot's line (benchmark smoke tests)."""

_INCREMENTS: Final = (1, 2, 3, 4, 5)
"""What each step of a food die adds: 0 -> 1 -> 3 -> 6 -> 10 -> 15."""


class OutOfTime(Exception):
    """The search ran out of time."""


@dataclass
class ParResult:
    """The best score found, whether it is proven optimal, the time taken and the moves."""

    score: int
    proven: bool
    seconds: float
    placements: list[Placement] = field(default_factory=list)
    method: str = ""


def _recipe_ceiling(sim: Simulator) -> int:
    """More than the recipes of a game can ever add."""
    total = 0
    for recipe in sim.recipes:
        total += 4 * 75 if recipe.bonus == "x2" else int(recipe.bonus)
    return total


def _food_by_colour(game: Game, number: int) -> tuple[int, int, int]:
    """How many food areas of each colour (B, C, M) a card has."""
    areas = [a.value for a in game.deck[number].areas]
    return areas.count("B"), areas.count("C"), areas.count("M")


class Searcher:
    """Par search on one game's deal."""

    def __init__(self, game: Game, time_limit: float = TIME_LIMIT) -> None:
        """Prepare the search from the game's current position."""
        self.game = game
        self.sim = simulator_for(game)
        self.deal = game.deal.cards
        self.start = state_of(game)
        self.time_limit = time_limit
        self.began = time.perf_counter()
        self.deadline = self.began + time_limit
        self.table: dict[object, tuple[int, Move | None, bool]] = {}
        self.nodes = 0
        self.ceiling = _recipe_ceiling(self.sim)
        self.food = {n: _food_by_colour(game, n) for n in self.sim.shapes}
        self.expert = Expert()

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
        available = [[0] * 5 for _ in range(3)]
        on_board = [0, 0, 0]
        split = [0, 0, 0]
        for code in state.board.values():
            col = C_DCOL[code]
            if col < 0 or C_MOUSE[code]:
                continue
            on_board[col] += 1
            face = C_FACE[code]
            if C_SPLIT[code]:
                split[col] += 1
            row = available[col]
            for step in range(face, min(face + k, 5)):
                row[step] += 1
        bound = 0
        top = min(k, 5)
        for col in range(3):
            row = available[col]
            for _ in range(5 - on_board[col]):
                for step in range(top):
                    row[step] += 1
            left = areas[col]
            bound += min(left, split[col])
            for step in range(4, -1, -1):
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

        Raises OutOfTime past the deadline. Values that beat ``alpha`` are exact.
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
        if not self.nodes & 63 and time.perf_counter() > self.deadline:
            raise OutOfTime
        moves = self.sim.all_moves(state, variants=True)
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

    def expert_line(self) -> tuple[int, list[Move]]:
        """The expert bot's line on this deal (it never sees the draw pile)."""
        numbers = self.game.deck.numbers
        recipes = self.game.deal.recipes or ()
        state = self.start
        moves: list[Move] = []
        while state.hand:
            pool = unseen_cards(numbers, self.deal[: state.next_draw], recipes)
            choice = expert_move(
                self.sim, state, pool, len(self.deal) - state.next_draw, self.expert
            )
            if choice is None:
                break
            moves.append(choice[0])
            state = self.sim.apply(state, choice[0], self.deal)
        return self.sim.final(state), moves

    def greedy_line(self) -> tuple[int, list[Move]]:
        """The greedy bot's line on this deal."""
        state = self.start
        moves: list[Move] = []
        while state.hand:
            move = greedy_move(self.sim, state)
            if move is None:
                break
            moves.append(move)
            state = self.sim.apply(state, move, self.deal)
        return self.sim.final(state), moves

    def beam(self, width: int) -> tuple[int, list[Move]]:
        """Beam search keeping the ``width`` most promising states at each turn.

        States are ranked by their score plus the expert's worth of the woodland left.
        """
        sim = self.sim
        deal = self.deal
        recipes = bool(sim.recipes)
        beam: list[tuple[State, tuple[Move, ...]]] = [(self.start, ())]
        best: tuple[int, list[Move]] = (sim.final(self.start), [])
        while beam:
            left = len(beam[0][0].hand) - 1 + len(deal) - beam[0][0].next_draw
            worth = self.expert.worth(left)
            candidates: list[tuple[float, int, Scored]] = []
            for index, (state, line) in enumerate(beam):
                if time.perf_counter() > self.deadline:
                    raise OutOfTime
                base = state.base + board_worth(state.board, worth)
                found = False
                for card in dict.fromkeys(state.hand):
                    for scored in sim.scored(state.board, state.counts, state.edwood, card, worth):
                        candidates.append((base + scored[0], index, scored))
                        found = True
                if not found and sim.final(state) > best[0]:
                    # No legal placement: the game ends where it stands (R13).
                    best = (sim.final(state), list(line))
            if not candidates:
                break
            candidates.sort(key=lambda t: -t[0])
            chosen: list[tuple[float, State, tuple[Move, ...]]] = []
            seen: set[object] = set()
            for value, index, (_, _, card, rot, spot, r) in candidates:
                if len(chosen) >= (2 * width if recipes else width):
                    break
                state, line = beam[index]
                move = Move(card, rot, spot, (), r[0], r[1], r[2], r[3], r[4])
                child = sim.apply(state, move, deal)
                key = (frozenset(child.board.items()), child.hand)
                if key in seen:
                    continue
                seen.add(key)
                path = (*line, move)
                if not child.hand:
                    final = sim.final(child)
                    if final > best[0]:
                        best = (final, list(path))
                    continue
                if recipes:
                    value += sim.final(child) - child.base
                chosen.append((value, child, path))
            if recipes:
                chosen.sort(key=lambda t: -t[0])
            beam = [(state, path) for _, state, path in chosen[:width]]
        return best

    # -- driver -----------------------------------------------------------------------------

    def run(self) -> ParResult:
        """Search within the time limit and return the best line found."""
        start = self.start
        remaining = len(start.hand) + len(self.deal) - start.next_draw
        if not start.hand or (self.game.is_over()):
            return self._result(self.sim.final(start), True, [], "over")
        if remaining <= EXACT_PLACEMENTS:
            self.deadline = float("inf")
            value = self.exact(start)
            return self._result(value, True, self.exact_line(start), "exact")
        best_value, best_line = self.greedy_line()
        method = "greedy"
        if self.time_limit >= MIN_EXPERT_TIME:
            value, line = self.expert_line()
            if value > best_value:
                best_value, best_line, method = value, line, "expert"
        if remaining <= TRY_EXACT_PLACEMENTS:
            # Small enough to hope for a proof: exact search, to beat the line found so far.
            deadline = self.deadline
            self.deadline = min(deadline, time.perf_counter() + EXACT_SHARE * self.time_limit)
            try:
                value = self.exact(start, best_value)
            except OutOfTime:
                pass
            else:
                if value > best_value:
                    return self._result(value, True, self.exact_line(start), "exact")
                return self._result(best_value, True, best_line, f"{method}, proven")
            finally:
                self.deadline = deadline
        width = 8
        try:
            while True:
                began = time.perf_counter()
                value, line = self.beam(width)
                if value > best_value:
                    best_value, best_line, method = value, line, f"beam {width}"
                took = max(time.perf_counter() - began, 1e-3)
                # A beam's time grows about linearly with its width: take the widest that fits.
                fits = int(width * 0.85 * (self.deadline - time.perf_counter()) / took)
                if fits <= width:
                    break
                width = min(width * 3, fits)
        except OutOfTime:
            pass
        return self._result(best_value, False, best_line, method)

    def _result(self, value: int, proven: bool, line: list[Move], method: str) -> ParResult:
        return ParResult(
            score=value,
            proven=proven,
            seconds=time.perf_counter() - self.began,
            placements=[placement_of(m) for m in line],
            method=method,
        )


def par(game: Game, time_limit: float = TIME_LIMIT) -> ParResult:
    """The best score for the rest of a game's deal, knowing the draw order."""
    return Searcher(game, time_limit).run()
