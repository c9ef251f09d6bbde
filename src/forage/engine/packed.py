"""The hot path of the rules on packed ints: legality and outcomes without models.

The woodland is a ``dict`` from a packed square index to a packed square code (area mask,
die colour and face, Edwood); a rotated card is a tuple of (packed offset, area mask, food
colour) in R9's order, with per-area transition tables precomputed for every code below.
:func:`resolve_packed` mirrors :func:`forage.engine.resolve.resolve` (RULINGS R5-R11) and is
checked against it by the tests; ``Game.outcomes`` and the AI's simulator are built on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple, TypeVar

from pydantic import BaseModel

from forage.engine.areas import AREA_MASKS, FOOD_FACES, MOUSE_FACE, ROTATIONS, Area, Colour
from forage.engine.cards import Card
from forage.engine.placement import Placement
from forage.engine.resolve import AreaEffect, Effect, Outcome
from forage.engine.woodland import Die, Square, Supply, die

_M = TypeVar("_M", bound=BaseModel)

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


Resolved = tuple[
    int, tuple[int, ...], tuple[int, int, int], bool, int, tuple[int, ...], tuple[int, ...]
]
"""A legal resolution: gain, new codes, counts afterwards, Edwood still free, gathered colour
mask, the split cells that got a mouse die, and those whose mouse could take either colour."""

REFUSED: Final = -1
"""Refused, and no choice of mouse colours could help."""
NEEDS_CHOICE: Final = 1
"""Refused with the default mouse colours; a choice of colours might help."""


def resolve_packed(
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
            return gain, tuple(new), counts, edwood, gathered, (), ()
        return gain, tuple(new), (supply[0], supply[1], supply[2]), edwood, gathered, (), ()
    assert back is not None
    if supply is None:
        supply = [counts[0], counts[1], counts[2]]
    splits: list[int] = []
    choosable: list[int] = []
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
                if len(options) > 1:
                    choosable.append(i)
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
    return (
        gain,
        tuple(new),
        (supply[0], supply[1], supply[2]),
        edwood,
        gathered,
        tuple(splits),
        tuple(choosable),
    )


def split_mice(unders: Sequence[int], cells: Cells) -> list[tuple[int, int]]:
    """The cells of a placement that are split areas getting a mouse die (R8c), with masks."""
    found = []
    for i, ((_, mask, food), u) in enumerate(zip(cells, unders, strict=True)):
        if food < 0 and u and not C_MOUSE[u] and not mask & C_MATCH[u]:
            found.append((i, mask))
    return found


def spots(board: dict[int, int], offsets: tuple[int, ...]) -> list[int]:
    """Every top-left square at which a rotated card covers the woodland, sorted by y, x."""
    return sorted({p - d for p in board for d in offsets})


def scan(
    board: dict[int, int], counts: tuple[int, int, int], edwood: bool, shape: CardShape
) -> Iterator[tuple[int, int, tuple[int, ...], Resolved | int]]:
    """Resolve a card at every rotation and spot that covers the woodland, in the engine's
    order (rotation, then y, x), with the default mouse colours.

    Yields (rotation, spot, codes below, result) for all but the spots no choice of mouse
    colours could make legal: the result is a legal resolution or ``NEEDS_CHOICE``.
    """
    get = board.get
    for rotation in range(4):
        cells = shape.cells[rotation]
        tables = shape.tables[rotation]
        offsets = shape.offsets[rotation]
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
            result = resolve_packed(unders, counts, edwood, cells, tables, None)
            if result != REFUSED:
                yield rotation, spot, unders, result


def square_code(area: Area, colour: Colour | None, value: int, edwood: bool) -> int:
    """The code of a square with this area, die and Edwood."""
    if colour is None:
        return code_of(AREA_MASKS[area], edwood=edwood)
    return code_of(AREA_MASKS[area], COLOUR_INDEX[colour], FACES.index(value), edwood)


# -- back to models: outcomes for Game.outcomes -------------------------------------------------

CACHE_LIMIT: Final = 200_000
"""Interned effects and placements are forgotten past this many."""

_DIE_OF: list[Die | None] = [
    die(COLOUR_LIST[C_DCOL[code]], C_VALUE[code]) if C_DCOL[code] >= 0 else None
    for code in range(_N)
]
_EFFECTS: dict[int, tuple[AreaEffect, Colour | None]] = {}
_PLACEMENTS: dict[tuple[int, int, int], Placement] = {}
_SUPPLIES: dict[tuple[tuple[int, int, int], bool], Supply] = {}
_OUTCOME_FIELDS: Final = frozenset(
    {"placement", "effects", "supply", "score_change", "gathered", "mouse_choice_possible"}
)
_PLACEMENT_FIELDS: Final = frozenset({"card", "rotation", "x", "y"})
_new = object.__new__
_set = object.__setattr__


def _built(cls: type[_M], values: dict[str, object], fields: frozenset[str]) -> _M:
    """A model from values already known to be valid, as ``model_construct`` but cheaper."""
    model = _new(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", set(fields))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


def packed_square(sq: Square) -> int:
    """The packed code of a woodland square."""
    d = sq.die
    return square_code(sq.area, d.colour if d else None, d.value if d else 0, sq.edwood)


def placement_at(card: int, rotation: int, spot: int) -> Placement:
    """The (shared) placement of a card at a rotation index and packed spot, default mice."""
    key = (card, rotation, spot)
    found = _PLACEMENTS.get(key)
    if found is None:
        if len(_PLACEMENTS) > CACHE_LIMIT:
            _PLACEMENTS.clear()
        x, y = unpack_pos(spot)
        found = _PLACEMENTS[key] = _built(
            Placement,
            {"card": card, "rotation": ROTATIONS[rotation], "x": x, "y": y, "mouse": ()},
            _PLACEMENT_FIELDS,
        )
    return found


def _effect(
    pos: int, mask: int, food: int, below: Square | None, code: int
) -> tuple[AreaEffect, Colour | None]:
    """What happened at one area, as the engine's resolve describes it (R8)."""
    x, y = unpack_pos(pos)
    after = _DIE_OF[code]
    returned = None
    gathered = None
    if below is None:
        effect = Effect.NEW
    elif C_EDWOOD[code]:
        effect, returned = Effect.EDWOOD, below.die
    elif C_MOUSE[code]:
        effect, returned = Effect.MOUSE, below.die
    elif food >= 0:
        if below.die is not None:
            effect = Effect.RAISED
        elif after is not None:
            effect = Effect.PLACED
        else:
            effect = Effect.NO_DIE_LEFT
        gathered = COLOUR_LIST[food] if after is not None else None
    elif below.die is not None:
        effect, after = Effect.MOVED, below.die
    else:
        effect = Effect.NOTHING
    area = MASK_AREA[mask]
    return (
        AreaEffect(x=x, y=y, area=area, effect=effect, below=below, die=after, returned=returned),
        gathered,
    )


def _shared_effect(
    pos: int, food: int, below: Square | None, code: int
) -> tuple[AreaEffect, Colour | None]:
    """The (shared) effect of a new area with this code on ``below``."""
    # The new code holds the new area's mask, so these fix the effect; the cache keeps
    # ``below`` alive, so its id is not reused while the entry stands.
    key = (id(below) << 26) | (code << 17) | pos
    found = _EFFECTS.get(key)
    if found is None:
        if len(_EFFECTS) > CACHE_LIMIT:
            _EFFECTS.clear()
        found = _EFFECTS[key] = _effect(pos, code & 7, food, below, code)
    return found


def outcome_of(
    placement: Placement,
    spot: int,
    cells: Cells,
    tops: dict[int, Square],
    resolved: Resolved,
    memo: dict[int, tuple[AreaEffect, Colour | None]],
) -> Outcome:
    """The engine's Outcome of a placement resolved by :func:`resolve_packed`.

    ``memo`` caches effects for the woodland ``tops`` (keyed by square and new code).
    """
    gain, new, counts, edwood, _, _, choosable = resolved
    effects: list[AreaEffect] = []
    append = effects.append
    gathered: list[Colour] = []
    get = memo.get
    for (d, _, food), code in zip(cells, new):  # noqa: B905 (hot loop)
        pos = spot + d
        found = get((pos << 9) | code)
        if found is None:
            found = memo[(pos << 9) | code] = _shared_effect(pos, food, tops.get(pos), code)
        append(found[0])
        colour = found[1]
        if colour is not None and colour not in gathered:
            gathered.append(colour)
    supply = _SUPPLIES.get((counts, edwood))
    if supply is None:
        supply = _SUPPLIES[(counts, edwood)] = Supply.of(list(counts), edwood)
    return _built(
        Outcome,
        {
            "placement": placement,
            "reason": None,
            "effects": tuple(effects),
            "supply": supply,
            "score_change": gain,
            "gathered": tuple(gathered),
            "mouse_choice_possible": tuple(unpack_pos(spot + cells[i][0]) for i in choosable)
            if choosable
            else (),
        },
        _OUTCOME_FIELDS,
    )
