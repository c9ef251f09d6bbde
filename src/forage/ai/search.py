"""The search tools the bots, par, the review and puzzles share, none of them a policy.

- :func:`draw_orders` and :func:`orders_seed`: the draw orders a search averages over, the
  same for one position on every machine (common random numbers for the candidates);
- :func:`beam_line`: a beam search that knows the draw order, ranking by a worth function;
- :class:`ExactSearch`: the exhaustive search with a transposition table and an upper
  bound that is never too low, for the positions near the end.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, cached_property
from itertools import permutations
from typing import Final, NamedTuple

from forage.ai.sim import (
    EPSILON,
    NO_BOUND,
    NO_WORTH,
    OUTCOMES,
    Move,
    Simulator,
    State,
    Worth,
    simulator_for,
    state_of,
)
from forage.ai.worth import Outlook, food_areas, outlook
from forage.engine import Area, Game
from forage.engine.areas import DICE_PER_COLOUR, FOOD_FACES
from forage.engine.board import DIE_COLOUR, FACE_INDEX, IS_MOUSE, IS_SPLIT, PackedWoodland
from forage.engine.deal import SplitMix64
from forage.engine.rules import CardShape, Resolution, laid, mouse_variants, scan

SLACK: Final = 2
"""A pruned beam step resolves what can reach the best values of this many times its width
(then the rare step whose best are not enough new states is worked out again in full)."""
BEAM_KEEP: Final = 40
"""A beam takes at most this many placements from each of its states (its best by value)."""

WorthOf = Callable[[int, Outlook], Worth]
"""A worth of the woodland, given the placements still to come and the cards to come."""


class Line(NamedTuple):
    """A game played out: the final state and the moves that led there."""

    state: State
    moves: list[Move]


def board_worth(board: PackedWoodland, worth: Worth) -> float:
    """The total worth of a woodland's squares."""
    values = worth.values
    return sum(values[code] for code in board.values())


def draw_orders(
    pool: Sequence[int], draws: int, samples: int, seed: int
) -> tuple[list[tuple[int, ...]], bool]:
    """The draw orders to average over, and whether they are all there are.

    Every ordered choice of ``draws`` cards from ``pool`` when there are at most
    ``samples`` of them; otherwise ``samples`` drawn with SplitMix64 from ``seed``.
    """
    draws = min(draws, len(pool))
    if math.perm(len(pool), draws) <= samples:
        return list(permutations(sorted(pool), draws)), True
    rng = SplitMix64(seed)
    orders: list[tuple[int, ...]] = []
    for _ in range(samples):
        cards = sorted(pool)
        for k in range(draws):
            j = k + rng.below(len(cards) - k)
            cards[k], cards[j] = cards[j], cards[k]
        orders.append(tuple(cards[:draws]))
    return orders, False


def orders_seed(state: State, pool: Sequence[int]) -> int:
    """The seed of a position's sampled draw orders: from its cards and woodland alone."""
    value = state.next_draw * 1_000_003 + state.base
    for number in sorted(pool):
        value = (value * 131 + number) % (1 << 61)
    for spot, code in sorted(state.board.items()):
        value = (value * 131 + spot * 512 + code) % (1 << 61)
    return value


def beam_line(
    sim: Simulator,
    start: State,
    cards: Sequence[int],
    width: int,
    worth_of: WorthOf,
    keep: int | None = None,
    prune: bool = True,
) -> Line:
    """The best line a beam search of ``width`` finds from ``start``, drawing ``cards``.

    The search knows the draw order. It keeps the ``width`` most promising states at each
    turn (twice that in a recipe challenge, then the best by value with the recipes' bonus),
    ranked by their score plus ``worth_of``'s worth of the woodland left (given the
    placements left and the cards to come, which the search knows). A state gives at most
    its ``keep`` best placements (by default twice the width, at most ``BEAM_KEEP``). A
    state with no legal placement ends its game there (R13). ``prune`` False resolves every
    state's ``keep`` best placements (the same line, slower).
    """
    recipes = bool(sim.recipes)
    beam: list[tuple[State, tuple[Move, ...]]] = [(start, ())]
    best: tuple[int, Line] | None = None if start.hand else (sim.final(start), Line(start, []))
    keep = min(BEAM_KEEP, 2 * width) if keep is None else keep
    wanted = 2 * width if recipes else width
    while beam:
        first = beam[0][0]
        left = len(first.hand) - 1 + len(cards) - first.next_draw
        # The draw order is known: the worth looks at the cards to come (less one hand card).
        worth = worth_of(left, outlook(sim.deck, cards[first.next_draw :]))
        # With pruning, a state's placements are resolved only if they can reach the
        # ``wanted`` best values of the states before it; without (the rare step whose best
        # do not give ``wanted`` new states), every state's ``keep`` best are.
        for pruned in (True, False) if prune else (False,):
            candidates, stuck, floor = _beam_candidates(sim, beam, worth, keep, wanted, pruned)
            chosen, ended, short = _beam_step(sim, beam, candidates, cards, wanted, floor)
            if not short:
                break
        for i, sure in stuck:
            state, line = beam[i]
            final = sim.final(state)
            if (best is None or final > best[0]) and (sure or not sim.can_move(state)):
                best = (final, Line(state, list(line)))
        for state, line in ended:
            final = sim.final(state)
            if best is None or final > best[0]:
                best = (final, Line(state, list(line)))
        if not candidates:
            break
        if recipes:
            chosen.sort(key=lambda t: -t[0])
        beam = [(state, path) for _, state, path in chosen[:width]]
    return best[1] if best is not None else Line(start, [])


def _beam_candidates(
    sim: Simulator,
    beam: Sequence[tuple[State, tuple[Move, ...]]],
    worth: Worth,
    keep: int,
    wanted: int,
    pruned: bool,
) -> tuple[list[tuple[float, int, Move]], list[tuple[int, bool]], float]:
    """One beam step's candidates (value, state index, move), best first and in the beam's
    order on ties; the states that gave none (index, and whether it surely has no legal
    placement rather than none good enough); and the least value the best reach (with
    ``pruned``, a placement that cannot reach the best values of the states before it,
    :data:`SLACK` times ``wanted`` of them, is not resolved)."""
    candidates: list[tuple[float, int, Move]] = []
    stuck: list[tuple[int, bool]] = []
    wanted = SLACK * wanted
    top_values: list[float] = []  # a min-heap of the ``wanted`` best values so far
    for index, (state, _) in enumerate(beam):
        base = state.base + board_worth(state.board, worth)
        at_least = top_values[0] - base if pruned and len(top_values) == wanted else NO_BOUND
        top = sim.best_over_hand(state, worth, keep, at_least=at_least)
        if not top:
            stuck.append((index, at_least == NO_BOUND))
        for value, move in top:
            total = base + value
            candidates.append((total, index, move))
            if len(top_values) < wanted:
                heapq.heappush(top_values, total)
            elif total > top_values[0]:
                heapq.heapreplace(top_values, total)
    candidates.sort(key=lambda t: -t[0])
    floor = top_values[0] if pruned and len(top_values) == wanted else NO_BOUND
    return candidates, stuck, floor


def _beam_step(
    sim: Simulator,
    beam: Sequence[tuple[State, tuple[Move, ...]]],
    candidates: Sequence[tuple[float, int, Move]],
    cards: Sequence[int],
    wanted: int,
    floor: float,
) -> tuple[list[tuple[float, State, tuple[Move, ...]]], list[tuple[State, tuple[Move, ...]]], bool]:
    """The next beam: up to ``wanted`` new states from the best candidates, each woodland and
    hand once (value, state, line; in a recipe challenge the value counts the recipes); the
    games that ended; and whether candidates below ``floor`` were or may have been needed
    (a pruned step must then be worked out again in full)."""
    recipes = bool(sim.recipes)
    chosen: list[tuple[float, State, tuple[Move, ...]]] = []
    ended: list[tuple[State, tuple[Move, ...]]] = []
    seen: set[object] = set()
    for value, index, move in candidates:
        if len(chosen) >= wanted:
            break
        if value < floor - EPSILON:
            return chosen, ended, True
        state, line = beam[index]
        child = sim.apply(state, move, cards)
        key = (frozenset(child.board.items()), child.hand)
        if key in seen:
            continue
        seen.add(key)
        path = (*line, move)
        if not child.hand:
            ended.append((child, path))
            continue
        if recipes:
            value += sim.final(child) - child.base
        chosen.append((value, child, path))
    # Too few new states: the candidates a pruned step left out may have given more.
    return chosen, ended, len(chosen) < wanted and floor > NO_BOUND


_INCREMENTS: Final = tuple(b - a for a, b in zip((0, *FOOD_FACES[:-1]), FOOD_FACES, strict=True))
"""What each step of a food die adds: 0 -> 1 -> 3 -> 6 -> 10 -> 15."""
_STEPS: Final = len(_INCREMENTS)


class Proven(NamedTuple):
    """A position's best final score, proven, and a first placement reaching it (None when
    no placement is legal: the game ends as it stands)."""

    value: int
    move: Move | None


class Expectation(NamedTuple):
    """A first placement's exact expected final score: the mean, over the cards that can
    still come, of the best final score after it with that card drawn (``move`` None when
    no placement is legal: the game ends as it stands)."""

    value: float
    move: Move | None


class ExpectedBest(NamedTuple):
    """The best first placement an expectation search found (None if it found none before
    its budget ran out), and whether it is proven the best."""

    best: Expectation | None
    proven: bool


class OutOfBudget(Exception):
    """The exact search used up its nodes."""


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


GAIN_BOUNDS: Final = NO_WORTH.bounds
"""For each area type, the most a cell of that type can add to the base score on each code
below it (every supply and mouse colour: a placement's gain is at most its cells' sum)."""
UNBOUNDED: Final = 10**6
"""A rise past any score: a cell the first card could open to the second (never found)."""


Tables = Mapping[Area, Sequence[float]]
"""A bound of each area type's cells on each code below them (:data:`GAIN_BOUNDS`, or a
:class:`Lift`'s ``bounds``)."""


def most_gain(
    board: PackedWoodland,
    shape: CardShape,
    bounds: Tables = GAIN_BOUNDS,
    around: Iterable[int] | None = None,
) -> float:
    """The largest sum of ``bounds`` over the cells of any spot of a card that covers a
    square of the woodland (or of ``around``), legal or not (:data:`NO_BOUND` with no such
    spot)."""
    get = board.get
    most = NO_BOUND
    squares = list(board if around is None else around)
    for turned in shape.turns:
        d0, d1, d2, d3, d4, d5 = turned.offsets
        b0, b1, b2, b3, b4, b5 = (bounds[c.area] for c in turned.cells)
        for spot in {p - d for p in squares for d in turned.offsets}:
            total = (
                b0[get(spot + d0, 0)]
                + b1[get(spot + d1, 0)]
                + b2[get(spot + d2, 0)]
                + b3[get(spot + d3, 0)]
                + b4[get(spot + d4, 0)]
                + b5[get(spot + d5, 0)]
            )
            if total > most:
                most = total
    return most


def _rise(areas: Sequence[Area], under: int, new: int, tables: Tables = GAIN_BOUNDS) -> float:
    """How much more a cell of one of these area types can gain (by ``tables``) on the code
    ``new`` than on the code ``under`` it replaced (0 when none gains more)."""
    most = 0.0
    for area in areas:
        table = tables[area]
        if table[new] <= NO_BOUND:
            continue
        if table[under] <= NO_BOUND:
            return UNBOUNDED
        most = max(most, table[new] - table[under])
    return most


class Lift:
    """How much one card's placement can raise what a second card placed after it can gain.

    After the first card, a spot of the second gains at most its :data:`GAIN_BOUNDS` sum on
    the woodland before (at most :func:`most_gain`, or 0 for a spot on new squares alone)
    plus, on each square the first card covered, how much more a cell can gain on the new
    code than on the old (:meth:`rise`). ``bounds`` add the most that rise can be to each
    cell of the first card, so that a scan of the first card skips what cannot help. A lift
    depends on the two cards' area types alone (:func:`lift_of`). The second card's cells
    may be valued by other ``tables`` than :data:`GAIN_BOUNDS` (the lifted bounds of a card
    that a third then lifts).
    """

    __slots__ = ("areas", "bounds", "rises", "tables")

    def __init__(
        self, first: Sequence[Area], second: Sequence[Area], tables: Tables = GAIN_BOUNDS
    ) -> None:
        """The lift of a card with the area types ``first`` under one with ``second``."""
        self.areas = tuple(second)
        self.tables = tables
        self.rises: dict[tuple[int, int], float] = {}
        self.bounds: dict[Area, list[float]] = {}
        for area in first:
            table = list(GAIN_BOUNDS[area])
            for under, outcomes in OUTCOMES[area]:
                table[under] += max(_rise(self.areas, under, code, tables) for _, code in outcomes)
            self.bounds[area] = table

    def rise(self, unders: Sequence[int], new: Sequence[int]) -> float:
        """How much more the second card's cells can gain on these squares once the first
        card's codes ``new`` lie where ``unders`` were."""
        rises = self.rises
        total = 0.0
        for pair in zip(unders, new, strict=True):
            found = rises.get(pair)
            if found is None:
                found = rises[pair] = _rise(self.areas, *pair, self.tables)
            total += found
        return total


@cache
def lift_of(first: tuple[Area, ...], second: tuple[Area, ...], then: tuple[Area, ...] = ()) -> Lift:
    """The :class:`Lift` of a card with the area types ``first`` under one with ``second``;
    with ``then``, the second's cells valued by their lift under a card with those area
    types (``lift_of(second, then).bounds``)."""
    if not then:
        return Lift(first, second)
    return Lift(first, second, lift_of(second, then).bounds)


def area_types(shape: CardShape) -> tuple[Area, ...]:
    """A card's area types, each once."""
    return tuple(sorted(dict.fromkeys(c.area for c in shape.turns[0].cells)))


class ChanceBounds:
    """Bounds of the final score with three placements left and one card to draw: for a
    first placement and a card drawn, the best final score of the two placements after it.

    The two cards left, in either order, gain at most the first's lifted bounds
    (:class:`Lift`: its gain plus how much it can raise the second's) and the second's
    :data:`GAIN_BOUNDS` (:func:`most_gain`, worked out once on the woodland before the
    first placement), each raised by what the first placement can add on the squares it
    covers (``lift_of(first, card, then)``); plus what the recipes can add.
    """

    def __init__(self, sim: Simulator, state: State, pool: Sequence[int], ceiling: int) -> None:
        """The bounds of a position whose hand and unseen ``pool`` are known."""
        self.sim = sim
        self.state = state
        self.ceiling = ceiling
        board = state.board
        shapes = sim.shapes
        # Every square a placement of a hand card covering the woodland can reach: a later
        # card covers one of these or of the woodland.
        reach = {
            p - d + e
            for card in set(state.hand)
            for turned in shapes[card].turns
            for p in board
            for d in turned.offsets
            for e in turned.offsets
        }
        around = reach | set(board)
        cards = set(state.hand) | set(pool)
        self.areas = {n: area_types(shapes[n]) for n in cards}
        self.most = {n: max(0.0, most_gain(board, shapes[n], around=around)) for n in cards}
        self.lifted: dict[tuple[int, int], float] = {}
        for first in set(state.hand):
            for card in pool:
                for x, y in ((first, card), (card, first)):
                    if (x, y) not in self.lifted:
                        bounds = lift_of(self.areas[x], self.areas[y]).bounds
                        self.lifted[x, y] = max(0.0, most_gain(board, shapes[x], bounds, around))

    def of(self, move: Move, card: int) -> int:
        """A final score no line beats after ``move`` with ``card`` drawn."""
        state, areas = self.state, self.areas
        turned = self.sim.shapes[move.card].turns[move.rotation]
        get = state.board.get
        unders = [get(move.spot + d, 0) for d in turned.offsets]
        new = move.result.new
        first = areas[move.card]
        other = next(iter(c for c in state.hand if c != move.card), move.card)
        if len(state.hand) < 2:
            return UNBOUNDED
        most = 0.0
        for x, y in ((other, card), (card, other)):
            lift = lift_of(first, areas[x], areas[y]).rise(unders, new)
            total = self.lifted[x, y] + lift + self.most[y]
            total += lift_of(first, areas[y]).rise(unders, new)
            most = max(most, total)
        return state.base + move.gain + math.floor(most + EPSILON) + self.ceiling

    def after(self, move: Move, pool: Sequence[int]) -> dict[int, int]:
        """For each card of ``pool`` drawn, a final score no line beats after ``move``: the
        two cards left bounded as in :meth:`of` but on the woodland after ``move`` itself
        (tighter, and dearer: the woodland is scanned again), and never above :meth:`of`."""
        state, areas, shapes = self.state, self.areas, self.sim.shapes
        if len(state.hand) < 2:
            return {card: self.of(move, card) for card in pool}
        board = self.sim.board_after(state.board, move)
        other = next(iter(c for c in state.hand if c != move.card), move.card)
        most = {n: max(0.0, most_gain(board, shapes[n])) for n in (other, *pool)}
        found: dict[int, int] = {}
        for card in pool:
            top = 0.0
            for x, y in ((other, card), (card, other)):
                lifted = most_gain(board, shapes[x], lift_of(areas[x], areas[y]).bounds)
                top = max(top, max(0.0, lifted) + most[y])
            bound = state.base + move.gain + math.floor(top + EPSILON) + self.ceiling
            found[card] = min(bound, self.of(move, card))
        return found


class ExactSearch:
    """The exhaustive search of the rest of one game's deal, knowing its draw order: the
    best final score from a position, proven."""

    def __init__(
        self, sim: Simulator, start: State, deal: Sequence[int], variants: bool = True
    ) -> None:
        """Prepare the search from a position of a deal (``deal``: its cards in draw order,
        of which only those from ``start.next_draw`` on are read); with ``variants`` false,
        placements take only their default mouse colours (R8c)."""
        self.variants = variants
        self.sim = sim
        self.deal = tuple(deal)
        self.start = start
        self.table: dict[object, tuple[int, Move | None, bool]] = {}
        self.nodes = 0
        self.node_limit: int | None = None
        """Raise :class:`OutOfBudget` past this many nodes (None: no limit)."""
        self.ceiling = _recipe_ceiling(self.sim)
        self.chances: dict[object, ChanceBounds] = {}

    @classmethod
    def of_game(cls, game: Game, variants: bool = True) -> ExactSearch:
        """The search from a game's current position, knowing its deal's draw order."""
        return cls(simulator_for(game), state_of(game), game.deal.cards, variants)

    # -- bounds -----------------------------------------------------------------------------

    @cached_property
    def food(self) -> dict[int, tuple[int, int, int]]:
        """Each card's food areas of each colour."""
        return {n: food_areas(self.sim.deck, n) for n in self.sim.shapes}

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
        drawn = state.next_draw >= len(self.deal)
        if drawn and len(state.hand) <= 2 and not self.sim.recipes:
            value, best = self.last_two(state, alpha)
            self.table[key] = (value, best, value > alpha)
            return value
        moves = self.sim.all_moves(state, variants=self.variants)
        if not moves:
            value = self.sim.final(state)
            self.table[key] = (value, None, True)
            return value
        best_value: int | None = None
        best_move: Move | None = None
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

    def best(self, state: State) -> Proven:
        """The best final score from a state and a first placement that reaches it."""
        value = self.exact(state)
        found = self.table.get(self._key(state)) if state.hand else None
        return Proven(value, found[1] if found is not None else None)

    # -- the last two placements of a standard game -------------------------------------------

    def best_last(
        self,
        board: PackedWoodland,
        counts: tuple[int, int, int],
        edwood: bool,
        card: int,
        floor: float = NO_BOUND,
    ) -> Move | None:
        """The placement of a card with the best gain (every mouse colour choice tried, the
        first found on ties) if that gain reaches ``floor``; None if none does, or if the
        card has no legal placement. Spots whose :data:`GAIN_BOUNDS` cannot reach the
        floor, or beat the best so far, are not resolved."""
        shape = self.sim.shapes[card]
        bar = [floor - EPSILON]
        best: Move | None = None
        for rot, spot, unders, found in scan(
            board, counts, edwood, shape, bounds=GAIN_BOUNDS, floor=bar
        ):
            results: Sequence[Resolution] = (found,)
            if self.variants and (found.choosable or found.choice):
                results = list(mouse_variants(unders, counts, edwood, shape.turns[rot]))
            for result in results:
                if result.gain >= bar[0] and (best is None or result.gain > best.gain):
                    best = Move(card, rot, spot, result)
                    bar[0] = result.gain + 1 - EPSILON
        return best

    def then_gain(self, board: PackedWoodland, move: Move, card: int, need: int) -> int | None:
        """What the last card adds after ``move`` (0 when it then has no legal placement,
        R13) if that reaches ``need``; else None."""
        turned = self.sim.shapes[move.card].turns[move.rotation]
        after = laid(board, turned, move.spot, move.result.new)
        result = move.result
        last = self.best_last(after, result.counts, result.edwood, card, need)
        if last is not None:
            return last.gain
        shape = self.sim.shapes[card]
        if need <= 0 and next(scan(after, result.counts, result.edwood, shape), None) is None:
            return 0
        return None

    def lift(self, first: int, second: int) -> Lift:
        """The :class:`Lift` of one card under another."""
        shapes = self.sim.shapes
        return lift_of(area_types(shapes[first]), area_types(shapes[second]))

    def last_two(self, state: State, alpha: int) -> tuple[int, Move | None]:
        """The best final score of a standard game with one or two cards in hand and nothing
        left to draw, and a first placement that reaches it, if it beats ``alpha``; else
        (``alpha``, None). (The score with no legal placement left, and no placement.)

        Every placement of each card first, with every mouse colour choice, is bounded by
        its gain, the most the other card can gain on the woodland before
        (:func:`most_gain`) and how much the first can raise that (:class:`Lift`); those
        bounds are worked out exactly from the highest down, each last placement by
        :meth:`best_last`, until no bound beats the best found.
        """
        sim, base = self.sim, state.base
        board, counts, edwood = state.board, state.counts, state.edwood
        best, best_move = alpha, None
        if len(state.hand) == 1:
            last = self.best_last(board, counts, edwood, state.hand[0], alpha + 1 - base)
            if last is not None:
                return base + last.gain, last
            if base > alpha and not sim.can_move(state):
                return base, None
            return alpha, None
        pairs = ((state.hand[0], state.hand[1]), (state.hand[1], state.hand[0]))
        # A line to beat at once: each card's placement of best gain, then the other's best.
        for first, second in pairs:
            top = sim.best_scored(board, counts, edwood, first, None, 1)
            if top:
                move = top[0].move
                more = self.then_gain(board, move, second, best + 1 - base - move.gain)
                if more is not None and base + move.gain + more > best:
                    best, best_move = base + move.gain + more, move
        # Every first placement whose bound beats it, highest bound first.
        bounded: list[tuple[float, int, Move, int]] = []
        for first, second in pairs:
            lift = self.lift(first, second)
            top_second = max(0.0, most_gain(board, sim.shapes[second]))
            floor = [best + 1 - base - top_second - EPSILON]
            shape = sim.shapes[first]
            for rot, spot, unders, found in scan(
                board, counts, edwood, shape, ordered=True, bounds=lift.bounds, floor=floor
            ):
                results: Sequence[Resolution] = (found,)
                if self.variants and (found.choosable or found.choice):
                    results = list(mouse_variants(unders, counts, edwood, shape.turns[rot]))
                for result in results:
                    bound = base + result.gain + top_second + lift.rise(unders, result.new)
                    if bound > best:
                        move = Move(first, rot, spot, result)
                        bounded.append((bound, len(bounded), move, second))
        bounded.sort(key=lambda t: (-t[0], t[1]))
        for bound, _, move, second in bounded:
            if bound <= best:
                break
            more = self.then_gain(board, move, second, best + 1 - base - move.gain)
            if more is not None and base + move.gain + more > best:
                best, best_move = base + move.gain + more, move
        if best_move is None and base > alpha and not sim.can_move(state):
            return base, None  # no legal placement: the game ends as it stands (R13)
        return best, best_move

    # -- three placements left: one card to draw --------------------------------------------

    def chance_bounds(self, state: State, pool: Sequence[int]) -> ChanceBounds:
        """The :class:`ChanceBounds` of a position with these unseen cards."""
        key = (self._key(state), tuple(sorted(pool)))
        found = self.chances.get(key)
        if found is None:
            found = self.chances[key] = ChanceBounds(self.sim, state, pool, self.ceiling)
        return found

    def _drawing(self, state: State, card: int) -> tuple[int, ...]:
        """The deal with ``card`` as the last card drawn after this state."""
        return (*self.deal[: state.next_draw], card)

    def _total(
        self,
        state: State,
        move: Move,
        pool: Sequence[int],
        beat: int | None = None,
        bounds: Mapping[int, int] | None = None,
    ) -> int | None:
        """The sum over ``pool`` of the best final score after ``move`` with that card drawn,
        if it beats ``beat``; else None (proven not to, by the cards' ``bounds``)."""
        if beat is None:
            return sum(
                self.exact(self.sim.apply(state, move, self._drawing(state, c))) for c in pool
            )
        if bounds is None:
            bounds = self.chance_bounds(state, pool).after(move, pool)
        tops = sorted(((bounds[c], c) for c in pool), reverse=True)
        rest = sum(top for top, _ in tops)
        total = 0
        for top, card in tops:
            rest -= top
            alpha = beat - total - rest  # this card must beat it for the move to beat ``beat``
            value = self.exact(self.sim.apply(state, move, self._drawing(state, card)), alpha)
            if value <= alpha:
                return None
            total += value
        return total

    def expected(self, state: State, move: Move, pool: Sequence[int]) -> float:
        """A first placement's exact expected final score with one card left to draw, each
        of ``pool`` equally likely to be it."""
        total = self._total(state, move, pool)
        assert total is not None
        return total / len(pool)

    def best_expected(
        self, state: State, pool: Sequence[int], first: Sequence[Move] = ()
    ) -> ExpectedBest:
        """The first placement of best exact expectation with one card left to draw (each
        of ``pool`` equally likely), proven unless the node limit ran out first; ``first``
        are worked out before the rest (the earliest of them wins ties).

        Every legal placement (every mouse colour choice) is bounded by the mean of its
        :class:`ChanceBounds` over the cards; they are worked out from the highest bound
        down until none beats the best: each bounded again on the woodland it leaves
        (:meth:`ChanceBounds.after`), then each card's search cut off as soon as the cards
        worked out and the others' bounds show the placement cannot beat the best.
        """
        moves = self.sim.all_moves(state, variants=self.variants)
        if not moves:
            return ExpectedBest(Expectation(float(self.sim.final(state)), None), True)
        bounds = self.chance_bounds(state, pool)
        best_total: int | None = None
        best_move: Move | None = None
        try:
            for move in first:
                total = self._total(state, move, pool)
                if total is not None and (best_total is None or total > best_total):
                    best_total, best_move = total, move
            ranked = sorted(
                ((sum(bounds.of(m, c) for c in pool), i) for i, m in enumerate(moves)),
                key=lambda t: (-t[0], t[1]),
            )
            for top, i in ranked:
                if best_total is not None and top <= best_total:
                    break
                tight = bounds.after(moves[i], pool)
                if best_total is not None and sum(tight.values()) <= best_total:
                    continue
                total = self._total(state, moves[i], pool, best_total, tight)
                if total is not None and (best_total is None or total > best_total):
                    best_total, best_move = total, moves[i]
        except OutOfBudget:
            found = None if best_total is None else Expectation(best_total / len(pool), best_move)
            return ExpectedBest(found, False)
        assert best_total is not None
        return ExpectedBest(Expectation(best_total / len(pool), best_move), True)

    def exact_line(self, state: State) -> list[Move]:
        """The moves of the best line found by :meth:`exact` (the last placements, which it
        may not keep, worked out again)."""
        line: list[Move] = []
        limit, self.node_limit = self.node_limit, None
        try:
            while state.hand:
                found = self.table.get(self._key(state))
                if found is None:
                    self.exact(state)
                    found = self.table.get(self._key(state))
                if found is None or found[1] is None or not found[2]:
                    break
                line.append(found[1])
                state = self.sim.apply(state, found[1], self.deal)
        finally:
            self.node_limit = limit
        return line
