"""A plain second reading of RULINGS R1-R11, R15 and R18-R19, written for clarity, not speed.

The property tests compare the engine and the AI's simulator against it on random positions,
so that an optimisation of either cannot quietly change a rule. It takes nothing but the
model types from the engine: geometry, resolution and scoring are its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from forage.engine import Area, Colour, Game, Placement

MOUSE = -2
NEXT = {1: 3, 3: 6, 6: 10, 10: 15, 15: 15}
ORDER = "BCM"

Top = tuple[Area, str | None, bool]
"""A top area as (area, die like ``B3`` or ``Bm`` or None, Edwood)."""

# R1: an upright card's six areas, row by row, left to right, as (column, row).
UPRIGHT = [(column, row) for row in range(3) for column in range(2)]


@cache
def rotate_cell(column: int, row: int, rotation: int) -> tuple[int, int]:
    """Where the upright area at (column, row) lands on a card turned ``rotation`` degrees
    clockwise, counted from the turned card's top-left area (R3, R4).

    Turned as R3 words it: each quarter turn clockwise, with x right and y down, takes a
    point (x, y) to (-y, x); the turned card is then moved back so its top-left is (0, 0).
    Remembered, as the same few cells are asked for again and again.
    """
    assert rotation in (0, 90, 180, 270), rotation
    points = {cell: cell for cell in UPRIGHT}
    for _ in range(rotation // 90):
        points = {cell: (-y, x) for cell, (x, y) in points.items()}
    left = min(x for x, _ in points.values())
    top = min(y for _, y in points.values())
    x, y = points[(column, row)]
    return x - left, y - top


def base_score(tops: dict[tuple[int, int], Top]) -> int:
    """R15 as worded: the dice faces (a mouse -2), less 1 per die on a split area, less 5
    for Edwood in the woodland."""
    total = 0
    for area, d, edwood in tops.values():
        if d is not None:
            total += MOUSE if d.endswith("m") else int(d[1:])
            total -= 1 if len(area.value) == 2 else 0
        total -= 5 if edwood else 0
    return total


@dataclass
class Result:
    """What the rulings say a placement does: a refusal, or the new tops and supply."""

    reason: str | None = None
    tops: dict[tuple[int, int], Top] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=dict)
    edwood_free: bool = True
    gathered: set[str] = field(default_factory=set)
    """The colours of the food dice the placement placed or raised under R8a (R18)."""


def die_text(colour: str, value: int) -> str:
    return f"{colour}{'m' if value == MOUSE else value}"


def tops_of(game: Game) -> dict[tuple[int, int], Top]:
    """The game's woodland in the reference's terms."""
    result: dict[tuple[int, int], Top] = {}
    for pos, sq in game.woodland.squares.items():
        d = None if sq.die is None else die_text(sq.die.colour.value, sq.die.value)
        result[pos] = (sq.area, d, sq.edwood)
    return result


def resolve(game: Game, placement: Placement) -> Result:
    """Apply R5-R11 to the game's position, step by step as the rulings word them."""
    if game.is_over():
        return Result(reason="game-over")
    if placement.card not in game.hand:
        return Result(reason="not-in-hand")
    tops = tops_of(game)
    supply = {c.value: game.supply[c] for c in Colour}
    edwood_free = game.supply.edwood
    card = game.deck[placement.card]
    cells = []
    for (c, r), area in zip(UPRIGHT, card.areas, strict=True):
        dx, dy = rotate_cell(c, r, placement.rotation)
        cells.append((placement.x + dx, placement.y + dy, area))
    cells.sort(key=lambda cell: (cell[1], cell[0]))  # R9: top row first, left to right
    if not any((x, y) in tops for x, y, _ in cells):
        return Result(reason="no-overlap")
    # R8e, R8d: areas that may not be covered, in area order.
    for x, y, area in cells:
        if (x, y) not in tops:
            continue
        _, d, edwood = tops[(x, y)]
        if edwood:
            return Result(reason="covers-edwood")
        if d is not None and d.endswith("m") and d[0] not in area.value:
            return Result(reason="covers-mouse")
    choices = {(m.x, m.y): m.colour.value for m in placement.mouse}
    new: dict[tuple[int, int], Top] = {}
    returned: list[str] = []
    later: list[tuple[int, int, Area, str]] = []  # (x, y, area, "mouse" | "edwood")
    gathered: set[str] = set()
    # R9 step 1: matches.
    for x, y, area in cells:
        if (x, y) not in tops:
            new[(x, y)] = (area, None, False)  # R5
            continue
        below_area, d, _ = tops[(x, y)]
        if d is not None and d.endswith("m"):  # R8d
            returned.append(d[0])
            later.append((x, y, area, "edwood"))
            continue
        counts_as = set(d[0]) if d is not None else set(below_area.value)  # R7
        if not counts_as & set(area.value):  # R8c
            if d is not None:
                returned.append(d[0])
            later.append((x, y, area, "mouse"))
            continue
        if area.is_food:  # R8a
            if d is not None:
                new[(x, y)] = (area, die_text(d[0], NEXT[int(d[1:])]), False)
                gathered.add(d[0])
            elif supply[area.value] > 0:
                supply[area.value] -= 1
                new[(x, y)] = (area, f"{area.value}1", False)
                gathered.add(area.value)
            else:
                new[(x, y)] = (area, None, False)
        else:  # R8b
            new[(x, y)] = (area, d, False)
    # R9 step 2: displaced dice go back.
    for colour in returned:
        supply[colour] += 1
    # R9 step 3: mice and Edwood, in area order.
    for x, y, area, what in later:
        if what == "edwood":
            if not edwood_free:
                return Result(reason="edwood-used")
            edwood_free = False
            new[(x, y)] = (area, None, True)
            continue
        options = [c for c in area.value if supply[c] > 0]
        chosen = choices.pop((x, y), None)
        if chosen is not None:
            if chosen not in options:
                return Result(reason="bad-mouse-colour")
            colour: str | None = chosen
        elif options:
            colour = max(options, key=lambda c: (supply[c], -ORDER.index(c)))
        else:
            colour = None
        if colour is not None:
            supply[colour] -= 1
            new[(x, y)] = (area, die_text(colour, MOUSE), False)
        elif edwood_free:
            edwood_free = False
            new[(x, y)] = (area, None, True)
        else:
            return Result(reason="no-mouse-die")
    if choices:
        return Result(reason="bad-mouse-colour")
    tops.update(new)
    return Result(tops=tops, supply=supply, edwood_free=edwood_free, gathered=gathered)


# -- deals (R12, R14) -----------------------------------------------------------------------------


def deal_order(seed: int) -> list[int]:
    """Cards 1-18 shuffled as R14 and docs/record-format.md describe it, written out here:
    SplitMix64 from the seed, Fisher-Yates from the last card down, each index drawn by
    rejection below 2**64 - (2**64 % n)."""
    mask = 2**64 - 1
    state = seed & mask

    def next_word() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    order = list(range(1, 19))
    for i in range(17, 0, -1):
        n = i + 1
        word = next_word()
        while word >= 2**64 - 2**64 % n:
            word = next_word()
        j = word % n
        order[i], order[j] = order[j], order[i]
    return order


# -- recipes (R18, R19) -------------------------------------------------------------------------

# The rulebook's recipes by number: (condition, colour, bonus), bonus "x2" for doublings.
RECIPES: dict[int, tuple[str, str | None, int | str]] = {
    1: ("ten", "B", 6),
    2: ("ten", "C", 6),
    3: ("ten", "M", 6),
    4: ("double", "B", "x2"),
    5: ("double", "C", "x2"),
    6: ("double", "M", "x2"),
    7: ("five", "M", 5),
    8: ("five", "B", 5),
    9: ("five", "C", 5),
    10: ("homemade", None, "x2"),
    11: ("basket", None, 2),
    12: ("grandma", None, 5),
    13: ("first", "C", 1),
    14: ("first", "M", 1),
    15: ("first", "B", 1),
    16: ("mouse-free", None, 2),
    17: ("award", None, 4),
    18: ("extra", None, 3),
}


def _connected_three(food: dict[tuple[int, int], str]) -> bool:
    for start, colour in food.items():
        group = {start}
        frontier = [start]
        while frontier:
            x, y = frontier.pop()
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if food.get(near) == colour and near not in group:
                    group.add(near)
                    frontier.append(near)
        if len(group) >= 3:
            return True
    return False


def recipe_bonus(
    numbers: list[int], tops: dict[tuple[int, int], Top], first: set[str]
) -> tuple[list[bool], int]:
    """Which recipes are met and their total bonus, from R18 and R19 as worded."""
    dice = {pos: d for pos, (_, d, _) in tops.items() if d is not None}
    food = {pos: d[0] for pos, d in dice.items() if not d.endswith("m")}
    totals = {c: 0 for c in ORDER}
    for d in dice.values():
        totals[d[0]] += MOUSE if d.endswith("m") else int(d[1:])
    lowest = min(totals.values())
    factor = {c: 1 for c in ORDER}
    points = 0
    met_flags = []
    for number in numbers:
        kind, colour, bonus = RECIPES[number]
        if kind == "ten":
            met = any(d == f"{colour}10" for d in dice.values())
        elif kind == "five":
            met = sum(1 for c in food.values() if c == colour) == 5
        elif kind == "grandma":
            met = len(dice) == 15
        elif kind == "basket":
            met = any(d[1:] == "15" for d in dice.values())
        elif kind == "first":
            met = colour in first
        elif kind == "extra":
            met = _connected_three(food)
        elif kind == "award":
            met = all(sum(1 for c in food.values() if c == k) >= 4 for k in ORDER)
        elif kind == "mouse-free":
            met = len(food) == len(dice) and not any(e for _, _, e in tops.values())
        else:  # doublings always apply
            met = True
        met_flags.append(met)
        if not met:
            continue
        if kind == "double":
            assert colour is not None
            factor[colour] *= 2
        elif kind == "homemade":
            factor[next(c for c in ORDER if totals[c] == lowest)] *= 2
        else:
            assert isinstance(bonus, int)
            points += bonus
    return met_flags, points + sum((factor[c] - 1) * totals[c] for c in ORDER)
