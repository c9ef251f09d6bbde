"""A fast simulator of the rules for search: ints and tuples instead of models.

The woodland is a ``dict`` from a packed square index to a packed square code; a move is a
plain tuple. Everything here mirrors :mod:`forage.engine.resolve` (RULINGS R5-R11) and
:mod:`forage.engine.scoring` (R15, R17-R19) and is cross-checked against them by the tests;
the pydantic models are only built at the edges (:func:`state_of`, :func:`placement_of`).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import product
from typing import Final, NamedTuple

from forage.engine import (
    Deck,
    Game,
    MouseChoice,
    Placement,
    Recipe,
    RecipeKind,
    Rotation,
)
from forage.engine.packed import (
    C_DCOL,
    C_EDWOOD,
    C_FACE,
    C_MOUSE,
    C_SPLIT,
    C_VALUE,
    COLOUR_INDEX,
    COLOUR_LIST,
    EDWOOD_BIT,
    ILLEGAL,
    MOUSE,
    NEEDS_CHOICE,
    PLACE,
    SIMPLE,
    STRIDE,
    TRANSITIONS,
    CardShape,
    Cells,
    Resolved,
    Tables,
    pack_pos,
    resolve_packed,
    scan,
    shape_of,
    split_mice,
    spots,
    square_code,
    unpack_pos,
)

__all__ = [
    "C_DCOL",
    "C_EDWOOD",
    "C_FACE",
    "C_MOUSE",
    "C_SPLIT",
    "C_VALUE",
    "CardShape",
    "Move",
    "Simulator",
    "State",
    "Worth",
    "pack_pos",
    "placement_of",
    "recipe_bonus",
    "simulator_for",
    "spots",
    "state_of",
    "unpack_pos",
]


class Move(NamedTuple):
    """A legal placement and what it does."""

    card: int
    rotation: int
    """Rotation index 0-3 (0, 90, 180, 270 degrees)."""
    spot: int
    """Packed top-left square."""
    choice: tuple[tuple[int, int], ...]
    """Explicit mouse colours as (packed square, colour index); empty for the defaults."""
    gain: int
    """Change of the base score."""
    new: tuple[int, ...]
    """The codes of the card's new squares, in R9 order."""
    counts: tuple[int, int, int]
    edwood: bool
    """Whether Edwood is still free afterwards."""
    gathered: int
    """Bit mask of the colours gathered under R8a."""


Scored = tuple[float, int, int, int, int, Resolved]
"""A scored placement: (value, gain, card, rotation, packed spot, resolution)."""


def _value(scored: Scored) -> float:
    """The value of a scored placement."""
    return scored[0]


class State(NamedTuple):
    """A position between turns."""

    board: dict[int, int]
    counts: tuple[int, int, int]
    edwood: bool
    """Edwood still free."""
    hand: tuple[int, ...]
    next_draw: int
    base: int
    first: int
    """Colours gathered by the first card played (bit mask), or -1 before it is played."""


EPSILON: Final = 1e-9
"""Slack for rounding when a bound is compared with a value summed in another order."""
NO_BOUND: Final = -1e9
"""The bound of a cell whose area cannot go on the code below (the placement is illegal)."""


def _cell_bound(mask: int, values: Sequence[float]) -> list[float]:
    """For an area of this mask, the most a placement can gain on each code below.

    The gain is the larger of the base-score change and that change plus the change of
    the square's worth; the sum over a card's six cells bounds the placement's value.
    """
    food = {1: 0, 2: 1, 4: 2}.get(mask, -1)
    bound = [NO_BOUND] * 512
    for u, (kind, code, g, _, col) in enumerate(TRANSITIONS[mask]):
        if kind == ILLEGAL:
            continue
        if kind == SIMPLE:
            outcomes = [(g, code)]
        elif kind == PLACE:
            outcomes = [(g + 1, code | ((col + 1) << 3) | 32), (g, code)]
        else:  # a mouse die or Edwood (R8c, R8d)
            outcomes = [(g - 5, mask | EDWOOD_BIT)]
            if kind == MOUSE and food >= 0:
                outcomes.append((g - 2, mask | ((food + 1) << 3)))
            elif kind == MOUSE:
                outcomes += [(g - 3, mask | ((c + 1) << 3)) for c in range(3) if mask & (1 << c)]
        bound[u] = max(max(gain, gain + values[new] - values[u]) for gain, new in outcomes)
    return bound


class Worth:
    """A worth per square code (what a square is expected to add to later placements),
    with the bounds that let a search skip placements that cannot beat the best so far."""

    __slots__ = ("bounds", "values")

    def __init__(self, values: Sequence[float]) -> None:
        """The worth of each of the 512 square codes."""
        self.values: tuple[float, ...] = tuple(values)
        self.bounds: dict[int, list[float]] = {
            mask: _cell_bound(mask, self.values) for mask in TRANSITIONS
        }


NO_WORTH: Final = Worth([0.0] * 512)
"""Every square worth nothing: values are base-score gains."""


class Simulator:
    """The rules on packed states for one deck (and its recipes)."""

    def __init__(self, deck: Deck, recipes: Sequence[Recipe] = ()) -> None:
        """Precompute the deck's card shapes."""
        self.deck = deck
        self.shapes = {n: shape_of(deck[n]) for n in deck.numbers}
        self.recipes = tuple(recipes)

    # -- moves -------------------------------------------------------------------------------

    def moves(
        self,
        board: dict[int, int],
        counts: tuple[int, int, int],
        edwood: bool,
        card: int,
        variants: bool = False,
    ) -> list[Move]:
        """Every legal placement of one card, in the engine's order (rotation, y, x).

        With ``variants`` every choice of split-area mouse colours that changes the
        outcome is listed too; without, only the default (or, where the default is
        refused, the first choice that is legal, as ``Game.outcomes`` does).
        """
        shape = self.shapes[card]
        result: list[Move] = []
        append = result.append
        for rot, spot, unders, r in scan(board, counts, edwood, shape):
            cells = shape.cells[rot]
            if r.__class__ is tuple:
                append(Move(card, rot, spot, (), r[0], r[1], r[2], r[3], r[4]))
                if not variants or not r[5]:
                    continue
                mice = split_mice(unders, cells)
                default = {i: C_DCOL[r[1][i]] for i, _ in mice}
            else:  # NEEDS_CHOICE
                mice = split_mice(unders, cells)
                default = {}
            tables = shape.tables[rot]
            offsets = shape.offsets[rot]
            for combo in product(*[[c for c in range(3) if m & (1 << c)] for _, m in mice]):
                chosen = {i: c for (i, _), c in zip(mice, combo, strict=True)}
                if chosen == default:
                    continue
                alt = resolve_packed(unders, counts, edwood, cells, tables, chosen)
                if isinstance(alt, tuple):
                    where = tuple(sorted((spot + offsets[i], c) for i, c in chosen.items()))
                    append(Move(card, rot, spot, where, alt[0], alt[1], alt[2], alt[3], alt[4]))
                    if not variants:
                        break
        return result

    def scored(
        self,
        board: dict[int, int],
        counts: tuple[int, int, int],
        edwood: bool,
        card: int,
        worth: Worth | None = None,
    ) -> list[Scored]:
        """Every legal placement of one card as (value, gain, card, rotation, spot, result).

        The value is the base-score gain; with ``worth`` it also counts the change of the
        woodland's worth: the new squares' less the covered ones'. Only the default mouse
        colours are tried (or the first choice that is legal).
        """
        return self.best_scored(board, counts, edwood, card, worth, 0)

    def best_scored(
        self,
        board: dict[int, int],
        counts: tuple[int, int, int],
        edwood: bool,
        card: int,
        worth: Worth | None,
        n: int,
        given: Sequence[Scored] = (),
    ) -> list[Scored]:
        """The ``n`` best of ``given`` followed by the card's placements, as :meth:`scored`
        values them (earlier ones first on ties); with ``n`` 0, ``given`` and all of them.

        Placements whose bound shows they cannot make the ``n`` best are not resolved.
        """
        shape = self.shapes[card]
        values = (worth or NO_WORTH).values
        bounds = (worth or NO_WORTH).bounds
        found: list[Scored] = list(given)
        append = found.append
        # The n best values so far (a min-heap): a placement must beat the least of them.
        best = heapq.nlargest(n, (t[0] for t in given)) if n else []
        heapq.heapify(best)
        floor = best[0] - EPSILON if n and len(best) == n else NO_BOUND
        get = board.get
        for rot in range(4):
            cells = shape.cells[rot]
            tables = shape.tables[rot]
            offsets = shape.offsets[rot]
            d0, d1, d2, d3, d4, d5 = offsets
            b0, b1, b2, b3, b4, b5 = (bounds[mask] for _, mask, _ in cells)
            for spot in {p - d for p in board for d in offsets}:
                u0 = get(spot + d0, 0)
                u1 = get(spot + d1, 0)
                u2 = get(spot + d2, 0)
                u3 = get(spot + d3, 0)
                u4 = get(spot + d4, 0)
                u5 = get(spot + d5, 0)
                if b0[u0] + b1[u1] + b2[u2] + b3[u3] + b4[u4] + b5[u5] < floor:
                    continue
                unders = (u0, u1, u2, u3, u4, u5)
                r = resolve_packed(unders, counts, edwood, cells, tables, None)
                if r.__class__ is not tuple:
                    if r != NEEDS_CHOICE:
                        continue
                    chosen = self._first_choice(unders, counts, edwood, cells, tables)
                    if chosen is None:
                        continue
                    r = chosen
                assert isinstance(r, tuple)
                new = r[1]
                value: float = r[0]
                if worth is not None:
                    value += (
                        values[new[0]]
                        + values[new[1]]
                        + values[new[2]]
                        + values[new[3]]
                        + values[new[4]]
                        + values[new[5]]
                        - values[u0]
                        - values[u1]
                        - values[u2]
                        - values[u3]
                        - values[u4]
                        - values[u5]
                    )
                append((value, r[0], card, rot, spot, r))
                if n:
                    if len(best) < n:
                        heapq.heappush(best, value)
                    elif value > best[0]:
                        heapq.heapreplace(best, value)
                    if len(best) == n:
                        floor = best[0] - EPSILON
        if not n:
            return found
        return heapq.nlargest(n, found, key=_value)

    @staticmethod
    def _first_choice(
        unders: tuple[int, ...],
        counts: tuple[int, int, int],
        edwood: bool,
        cells: Cells,
        tables: Tables,
    ) -> Resolved | None:
        """The resolution of the first choice of split-area mouse colours that is legal."""
        mice = split_mice(unders, cells)
        for combo in product(*[[c for c in range(3) if m & (1 << c)] for _, m in mice]):
            chosen = {i: c for (i, _), c in zip(mice, combo, strict=True)}
            r = resolve_packed(unders, counts, edwood, cells, tables, chosen)
            if isinstance(r, tuple):
                return r
        return None

    def greedy(self, state: State) -> Move | None:
        """The legal placement with the best gain, the first in the engine's order on ties."""
        board = state.board
        counts = state.counts
        edwood = state.edwood
        best: Move | None = None
        best_gain = 0
        found: tuple[int, int, int, Resolved] | None = None
        for card in dict.fromkeys(state.hand):
            for rot, spot, _, r in scan(board, counts, edwood, self.shapes[card]):
                if isinstance(r, tuple):
                    if (best is None and found is None) or r[0] > best_gain:
                        found, best, best_gain = (card, rot, spot, r), None, r[0]
                else:  # Rare: only a choice of mouse colours makes it legal.
                    for move in self.moves(board, counts, edwood, card):
                        if move.rotation == rot and move.spot == spot:
                            if (best is None and found is None) or move.gain > best_gain:
                                found, best, best_gain = None, move, move.gain
                            break
        if found is not None:
            card, rot, spot, r = found
            return Move(card, rot, spot, (), r[0], r[1], r[2], r[3], r[4])
        return best

    def best_gain(
        self,
        board: dict[int, int],
        counts: tuple[int, int, int],
        edwood: bool,
        card: int,
        worth: Worth | None = None,
    ) -> tuple[float, int] | None:
        """The best placement of one card as (value, gain), or None if it has none.

        Values as in :meth:`scored` (the first of equal ones).
        """
        best = self.best_scored(board, counts, edwood, card, worth, 1)
        return (best[0][0], best[0][1]) if best else None

    def board_after(
        self, board: dict[int, int], card: int, rotation: int, spot: int, new: tuple[int, ...]
    ) -> dict[int, int]:
        """A copy of a woodland with a card's new squares laid at a spot."""
        after = dict(board)
        for d, code in zip(self.shapes[card].offsets[rotation], new, strict=True):
            after[spot + d] = code
        return after

    def all_moves(self, state: State, variants: bool = False) -> list[Move]:
        """Every legal placement of every hand card."""
        result: list[Move] = []
        for card in dict.fromkeys(state.hand):
            result.extend(self.moves(state.board, state.counts, state.edwood, card, variants))
        return result

    def apply(self, state: State, move: Move, deal: Sequence[int]) -> State:
        """The state after a move, the next card drawn from ``deal``."""
        board = dict(state.board)
        spot = move.spot
        for d, code in zip(self.shapes[move.card].offsets[move.rotation], move.new, strict=True):
            board[spot + d] = code
        hand = list(state.hand)
        hand.remove(move.card)
        next_draw = state.next_draw
        if next_draw < len(deal):
            hand.append(deal[next_draw])
            next_draw += 1
        return State(
            board,
            move.counts,
            move.edwood,
            tuple(hand),
            next_draw,
            state.base + move.gain,
            move.gathered if state.first < 0 else state.first,
        )

    # -- scoring -----------------------------------------------------------------------------

    def final(self, state: State) -> int:
        """The final score of a state: base plus recipe bonuses (R15, R17-R19)."""
        if not self.recipes:
            return state.base
        return state.base + recipe_bonus(state.board, self.recipes, max(state.first, 0))


def recipe_bonus(board: dict[int, int], recipes: Sequence[Recipe], first: int) -> int:
    """The recipes' bonus on a woodland (R18, R19); ``first`` is the first-turn colour mask."""
    totals = [0, 0, 0]
    food = [0, 0, 0]
    dice = [0, 0, 0]
    tens = [False, False, False]
    basket = mice = edwood = False
    food_at: list[set[int]] = [set(), set(), set()]
    for pos, code in board.items():
        col = C_DCOL[code]
        if C_EDWOOD[code]:
            edwood = True
        if col < 0:
            continue
        value = C_VALUE[code]
        totals[col] += value
        dice[col] += 1
        if C_MOUSE[code]:
            mice = True
        else:
            food[col] += 1
            food_at[col].add(pos)
            if value == 10:
                tens[col] = True
            elif value == 15:
                basket = True
    multiplier = [1, 1, 1]
    bonus = 0
    for recipe in recipes:
        kind = recipe.kind
        col = COLOUR_INDEX[recipe.colour] if recipe.colour is not None else -1
        if kind is RecipeKind.EXACT_TEN:
            met = tens[col]
        elif kind is RecipeKind.DOUBLE or kind is RecipeKind.HOMEMADE:
            met = True
        elif kind is RecipeKind.ALL_FIVE:
            met = dice[col] == 5 and food[col] == 5
        elif kind is RecipeKind.ALL_DICE:
            met = sum(dice) == 15
        elif kind is RecipeKind.BASKET:
            met = basket
        elif kind is RecipeKind.FIRST_TURN:
            met = bool(first & (1 << col))
        elif kind is RecipeKind.EXTRA_SPECIAL:
            met = any(_chain_of_three(cells) for cells in food_at)
        elif kind is RecipeKind.AWARD_WINNING:
            met = min(food) >= 4
        elif kind is RecipeKind.MOUSE_FREE:
            met = not mice and not edwood
        else:  # pragma: no cover
            raise ValueError(f"unknown recipe kind {kind}")
        if not met:
            continue
        if recipe.bonus == "x2":
            if kind is RecipeKind.HOMEMADE:
                lowest = min(totals)
                col = totals.index(lowest)
            bonus += multiplier[col] * totals[col]
            multiplier[col] *= 2
        else:
            assert isinstance(recipe.bonus, int)
            bonus += recipe.bonus
    return bonus


_NEIGHBOURS: Final = (1, -1, STRIDE, -STRIDE)


def _chain_of_three(cells: set[int]) -> bool:
    """Whether three of these squares are orthogonally connected."""
    if len(cells) < 3:
        return False
    for pos in cells:
        near = [pos + d for d in _NEIGHBOURS if pos + d in cells]
        if len(near) >= 2:
            return True
        if near and any(near[0] + d in cells and near[0] + d != pos for d in _NEIGHBOURS):
            return True
    return False


# -- the edges: engine models in, engine models out ------------------------------------------


def state_of(game: Game) -> State:
    """The simulator's state of a game's current position."""
    pos = game.position
    board = {}
    for (x, y), sq in pos.woodland.squares.items():
        d = sq.die
        board[pack_pos(x, y)] = square_code(
            sq.area, d.colour if d else None, d.value if d else 0, sq.edwood
        )
    supply = pos.supply
    if game.moves:
        first = 0
        for colour in pos.first_gathered:
            first |= 1 << COLOUR_INDEX[colour]
    else:
        first = -1
    return State(
        board,
        (supply.B, supply.C, supply.M),
        supply.edwood,
        pos.hand,
        pos.next_draw,
        pos.base,
        first,
    )


def placement_of(move: Move) -> Placement:
    """The engine placement of a simulator move."""
    x, y = unpack_pos(move.spot)
    mouse = tuple(
        MouseChoice(x=mx, y=my, colour=COLOUR_LIST[c])
        for (mx, my), c in ((unpack_pos(p), c) for p, c in move.choice)
    )
    return Placement(card=move.card, rotation=Rotation(90 * move.rotation), x=x, y=y, mouse=mouse)


def simulator_for(game: Game) -> Simulator:
    """A simulator for a game's deck and recipes."""
    return Simulator(game.deck, game.recipes)
