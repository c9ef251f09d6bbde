"""A fast simulator of the rules for search: ints and tuples instead of models.

The woodland is a ``dict`` from a packed square index to a packed square code; a move is a
plain tuple. Everything here mirrors :mod:`forage.engine.resolve` (RULINGS R5-R11) and
:mod:`forage.engine.scoring` (R15, R17-R19) and is cross-checked against them by the tests;
the pydantic models are only built at the edges (:func:`state_of`, :func:`placement_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Final, NamedTuple

from forage.engine import (
    ROTATIONS,
    Area,
    Card,
    Colour,
    Deck,
    Game,
    MouseChoice,
    Placement,
    Recipe,
    RecipeKind,
    Rotation,
)
from forage.engine.areas import AREA_MASKS, FOOD_FACES, MOUSE_FACE

OFFSET: Final = 128
STRIDE: Final = 256
"""Square (x, y) is packed as ``x + OFFSET + (y + OFFSET) * STRIDE``."""

FACES: Final = (MOUSE_FACE, *FOOD_FACES)
"""Die faces by face index: 0 is the mouse, 1-5 are 1, 3, 6, 10, 15."""
COLOUR_LIST: Final = (Colour.B, Colour.C, Colour.M)
COLOUR_INDEX: Final = {Colour.B: 0, Colour.C: 1, Colour.M: 2}
MASK_AREA: Final = {mask: area for area, mask in AREA_MASKS.items()}

EDWOOD_BIT: Final = 256


def pack_pos(x: int, y: int) -> int:
    """The packed index of square (x, y)."""
    return x + OFFSET + (y + OFFSET) * STRIDE


def unpack_pos(pos: int) -> tuple[int, int]:
    """The square (x, y) of a packed index."""
    return pos % STRIDE - OFFSET, pos // STRIDE - OFFSET


def code_of(mask: int, colour: int = -1, face: int = 0, edwood: bool = False) -> int:
    """Pack a square: area mask (1-6), die colour index (-1 none), face index, Edwood."""
    return mask | ((colour + 1) << 3) | (face << 5) | (EDWOOD_BIT if edwood else 0)


# Tables indexed by square code.
_N: Final = 512
C_EDWOOD = [False] * _N
C_MOUSE = [False] * _N
C_DCOL = [-1] * _N
C_FACE = [0] * _N
C_VALUE = [0] * _N
C_MATCH = [0] * _N
"""What the square counts as below a new area (R7): the die's colour bit, else its mask."""
C_POINTS = [0] * _N
C_SPLIT = [False] * _N
C_RAISED = [0] * _N
"""The code after the die moves onto a food area of the same colour and goes up (R8a)."""
for _code in range(_N):
    _mask = _code & 7
    _col = ((_code >> 3) & 3) - 1
    _face = (_code >> 5) & 7
    _edw = bool(_code & EDWOOD_BIT)
    if _mask not in MASK_AREA or _face > 5 or _col > 2 or (_col < 0 and _face):
        continue
    C_EDWOOD[_code] = _edw
    C_DCOL[_code] = _col
    C_FACE[_code] = _face
    C_SPLIT[_code] = _mask not in (1, 2, 4)
    if _col >= 0:
        C_MOUSE[_code] = _face == 0
        C_VALUE[_code] = FACES[_face]
        C_MATCH[_code] = 1 << _col
        C_POINTS[_code] = FACES[_face] - (1 if C_SPLIT[_code] else 0)
        C_RAISED[_code] = code_of(1 << _col, _col, min(_face + 1, 5)) if _face else 0
    else:
        C_MATCH[_code] = _mask
    if _edw:
        C_POINTS[_code] -= 5

# Per-area transition tables: what a new area does on each code below (0 = empty table).
# Entries are (kind, new code, gain, gathered bit, returned colour index or -1).
SIMPLE: Final = 0
"""The new area's code and gain are fixed (R5, R8a raise, R8b)."""
PLACE: Final = 1
"""A food area on a matching area without a die: a new die if the supply has one (R8a)."""
MOUSE: Final = 2
"""No match: a mouse die is needed (R8c)."""
EDWOOD: Final = 3
"""A mouse die is covered: Edwood is needed (R8d)."""
ILLEGAL: Final = 4
"""Covers Edwood, or a mouse die of another colour (R11)."""
Transition = tuple[int, int, int, int, int]


def _transitions(mask: int) -> list[Transition]:
    food = {1: 0, 2: 1, 4: 2}.get(mask, -1)
    table: list[Transition] = [(ILLEGAL, 0, 0, 0, -1)] * _N
    table[0] = (SIMPLE, mask, 0, 0, -1)
    for u in range(1, _N):
        if (u & 7) not in MASK_AREA or (C_DCOL[u] < 0 and (u >> 5) & 7):
            continue
        if (u >> 5) & 7 > 5:
            continue
        col = C_DCOL[u]
        lose = -C_POINTS[u]
        if C_EDWOOD[u] or (C_MOUSE[u] and not mask & C_MATCH[u]):
            continue
        if C_MOUSE[u]:
            table[u] = (EDWOOD, mask, lose, 0, col)
        elif not mask & C_MATCH[u]:
            table[u] = (MOUSE, mask, lose, 0, col)
        elif food >= 0:
            if col >= 0:
                code = C_RAISED[u]
                table[u] = (SIMPLE, code, lose + C_VALUE[code], 1 << food, -1)
            else:
                table[u] = (PLACE, mask, lose, 1 << food, food)
        elif col >= 0:
            code = (u & 0xF8) | mask
            table[u] = (SIMPLE, code, lose + C_VALUE[code] - 1, 0, -1)
        else:
            table[u] = (SIMPLE, mask, lose, 0, -1)
    return table


TRANSITIONS: Final = {mask: _transitions(mask) for mask in MASK_AREA}


Cells = tuple[tuple[int, int, int], ...]
Tables = tuple[list[Transition], ...]
"""A rotated card's areas in R9 order: (packed offset, area mask, food colour index or -1)."""


class CardShape(NamedTuple):
    """A card's areas at each rotation, ready for the simulator."""

    number: int
    cells: tuple[Cells, Cells, Cells, Cells]
    offsets: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    tables: tuple[Tables, Tables, Tables, Tables]
    food: int
    """How many food areas the card has."""


def shape_of(card: Card) -> CardShape:
    """Precompute a card's rotated areas."""
    cells: list[Cells] = []
    offsets: list[tuple[int, ...]] = []
    for rotation in ROTATIONS:
        row = []
        for dx, dy, area in card.footprint(rotation):
            mask = AREA_MASKS[area]
            food = COLOUR_INDEX[Colour(area.value)] if area.is_food else -1
            row.append((dx + dy * STRIDE, mask, food))
        cells.append(tuple(row))
        offsets.append(tuple(d for d, _, _ in row))
    food_count = sum(1 for a in card.areas if a.is_food)
    return CardShape(
        card.number,
        (cells[0], cells[1], cells[2], cells[3]),
        (offsets[0], offsets[1], offsets[2], offsets[3]),
        tuple(tuple(TRANSITIONS[mask] for _, mask, _ in row) for row in cells),  # type: ignore[arg-type]
        food_count,
    )


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


Resolved = tuple[int, tuple[int, ...], tuple[int, int, int], bool, int, tuple[int, ...]]
"""A legal resolution: gain, new codes, counts, Edwood free, gathered, split mouse cells."""

REFUSED: Final = -1
"""Refused, and no choice of mouse colours could help."""
NEEDS_CHOICE: Final = 1
"""Refused with the default mouse colours; a choice of colours might help."""


def _resolve(
    unders: Sequence[int],
    counts: tuple[int, int, int],
    edwood: bool,
    cells: Cells,
    tables: Tables,
    choice: dict[int, int] | None,
) -> Resolved | int:
    """Resolve one placement onto these squares below (R5-R11).

    ``unders`` are the codes below the card's areas in R9 order (0 on empty table), of
    which at least one is covered; ``choice`` maps cell indexes to mouse colour indexes.
    """
    gain = 0
    gathered = 0
    new: list[int] = []
    append = new.append
    pending: list[int] | None = None  # cells needing a mouse die (or Edwood)
    supply: list[int] | None = None
    back: list[int] | None = None
    for table, u in zip(tables, unders):  # noqa: B905 (hot loop)
        kind, code, g, bit, col = table[u]
        if not kind:  # SIMPLE
            append(code)
            gain += g
            gathered |= bit
        elif kind == 1:  # PLACE: R8a from the supply as it was before this placement
            if supply is None:
                supply = [counts[0], counts[1], counts[2]]
            if supply[col]:
                supply[col] -= 1
                append(code | ((col + 1) << 3) | 32)
                gain += g + 1
                gathered |= bit
            else:
                append(code)
                gain += g
        elif kind == 4:  # ILLEGAL
            return REFUSED
        else:  # MOUSE or EDWOOD
            if pending is None:
                pending = []
                back = [0, 0, 0]
            pending.append(len(new))
            append(-kind)
            gain += g
            if col >= 0:
                back[col] += 1  # type: ignore[index]
    if pending is None:
        if choice:
            return REFUSED
        if supply is None:
            return gain, tuple(new), counts, edwood, gathered, ()
        return gain, tuple(new), (supply[0], supply[1], supply[2]), edwood, gathered, ()
    assert back is not None
    if supply is None:
        supply = [counts[0], counts[1], counts[2]]
    splits: list[int] = []
    if pending:
        supply[0] += back[0]
        supply[1] += back[1]
        supply[2] += back[2]
        for i in pending:
            _, mask, food = cells[i]
            if new[i] == -EDWOOD:
                if not edwood:
                    return NEEDS_CHOICE if splits else REFUSED
                edwood = False
                new[i] = mask | EDWOOD_BIT
                gain -= 5
                continue
            if food >= 0:
                colour = food if supply[food] > 0 else -1
            else:
                splits.append(i)
                options = [c for c in range(3) if mask & (1 << c) and supply[c] > 0]
                chosen = choice.get(i) if choice is not None else None
                if chosen is not None:
                    if chosen not in options:
                        return REFUSED
                    colour = chosen
                elif options:
                    colour = options[0]
                    for c in options[1:]:
                        if supply[c] > supply[colour]:
                            colour = c
                else:
                    colour = -1
            if colour >= 0:
                supply[colour] -= 1
                new[i] = mask | ((colour + 1) << 3)
                gain -= 3 if food < 0 else 2
            elif edwood:
                edwood = False
                new[i] = mask | EDWOOD_BIT
                gain -= 5
            else:
                return NEEDS_CHOICE if splits else REFUSED
    if choice is not None and any(i not in splits for i in choice):
        return REFUSED
    return gain, tuple(new), (supply[0], supply[1], supply[2]), edwood, gathered, tuple(splits)


def _split_mice(unders: Sequence[int], cells: Cells) -> list[tuple[int, int]]:
    """The cells of a placement that are split areas getting a mouse die (R8c), with masks."""
    found = []
    for i, ((_, mask, food), u) in enumerate(zip(cells, unders, strict=True)):
        if food < 0 and u and not C_MOUSE[u] and not mask & C_MATCH[u]:
            found.append((i, mask))
    return found


def spots(board: dict[int, int], offsets: tuple[int, ...]) -> list[int]:
    """Every top-left square at which a rotated card covers the woodland, sorted by y, x."""
    return sorted({p - d for p in board for d in offsets})


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
        get = board.get
        for rot in range(4):
            cells = shape.cells[rot]
            tables = shape.tables[rot]
            offsets = shape.offsets[rot]
            d0, d1, d2, d3, d4, d5 = offsets
            for spot in sorted({p - d for p in board for d in offsets}):
                unders = (
                    get(spot + d0, 0),
                    get(spot + d1, 0),
                    get(spot + d2, 0),
                    get(spot + d3, 0),
                    get(spot + d4, 0),
                    get(spot + d5, 0),
                )
                r = _resolve(unders, counts, edwood, cells, tables, None)
                if r.__class__ is tuple:
                    append(Move(card, rot, spot, (), r[0], r[1], r[2], r[3], r[4]))
                    if not variants or not r[5]:
                        continue
                    mice = _split_mice(unders, cells)
                    default = {i: C_DCOL[r[1][i]] for i, _ in mice}
                elif r == NEEDS_CHOICE:
                    mice = _split_mice(unders, cells)
                    default = {}
                else:
                    continue
                for combo in product(*[[c for c in range(3) if m & (1 << c)] for _, m in mice]):
                    chosen = {i: c for (i, _), c in zip(mice, combo, strict=True)}
                    if chosen == default:
                        continue
                    alt = _resolve(unders, counts, edwood, cells, tables, chosen)
                    if isinstance(alt, tuple):
                        where = tuple(sorted((spot + offsets[i], c) for i, c in chosen.items()))
                        append(Move(card, rot, spot, where, alt[0], alt[1], alt[2], alt[3], alt[4]))
                        if not variants:
                            break
        return result

    def best_gain(
        self, board: dict[int, int], counts: tuple[int, int, int], edwood: bool, card: int
    ) -> int | None:
        """The best base-score gain of any legal placement of one card, or None if none."""
        shape = self.shapes[card]
        best: int | None = None
        get = board.get
        for rot in range(4):
            cells = shape.cells[rot]
            tables = shape.tables[rot]
            offsets = shape.offsets[rot]
            d0, d1, d2, d3, d4, d5 = offsets
            for spot in {p - d for p in board for d in offsets}:
                unders = (
                    get(spot + d0, 0),
                    get(spot + d1, 0),
                    get(spot + d2, 0),
                    get(spot + d3, 0),
                    get(spot + d4, 0),
                    get(spot + d5, 0),
                )
                r = _resolve(unders, counts, edwood, cells, tables, None)
                gain: int | None = None
                if isinstance(r, tuple):
                    gain = r[0]
                elif r == NEEDS_CHOICE:
                    mice = _split_mice(unders, cells)
                    for combo in product(*[[c for c in range(3) if m & (1 << c)] for _, m in mice]):
                        chosen = {i: c for (i, _), c in zip(mice, combo, strict=True)}
                        alt = _resolve(unders, counts, edwood, cells, tables, chosen)
                        if isinstance(alt, tuple):
                            gain = alt[0]
                            break
                    if gain is None:
                        continue
                else:
                    continue
                if best is None or gain > best:
                    best = gain
        return best

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


def square_code(area: Area, colour: Colour | None, value: int, edwood: bool) -> int:
    """The code of a square with this area, die and Edwood."""
    if colour is None:
        return code_of(AREA_MASKS[area], edwood=edwood)
    return code_of(AREA_MASKS[area], COLOUR_INDEX[colour], FACES.index(value), edwood)


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
