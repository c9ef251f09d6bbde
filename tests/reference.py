"""A plain second reading of RULINGS R1-R15 and R18-R19, written for clarity, not speed: the
tests' one model of the rules.

The property tests compare the engine and the AI's simulator against it on random positions,
and the command line's answers against whole games of its own (:class:`ReferenceGame`), so
that an optimisation of either cannot quietly change a rule. It takes nothing but the
model types from the engine: geometry, resolution and scoring are its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
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


def footprint(
    areas: Sequence[Area], rotation: int, x: int = 0, y: int = 0
) -> list[tuple[int, int, Area]]:
    """A card's areas turned ``rotation`` degrees with its top-left at (x, y), as (x, y, area),
    in R9's order: top row first, left to right."""
    cells = []
    for (c, r), area in zip(UPRIGHT, areas, strict=True):
        dx, dy = rotate_cell(c, r, rotation)
        cells.append((x + dx, y + dy, area))
    return sorted(cells, key=lambda cell: (cell[1], cell[0]))


def resolve(game: Game, placement: Placement) -> Result:
    """Apply R5-R11 to the game's position, step by step as the rulings word them."""
    if game.is_over():
        return Result(reason="game-over")
    if placement.card not in game.hand:
        return Result(reason="not-in-hand")
    return lay(
        tops_of(game),
        {c.value: game.supply[c] for c in Colour},
        game.supply.edwood,
        game.deck[placement.card].areas,
        placement.rotation,
        placement.x,
        placement.y,
        {(m.x, m.y): m.colour.value for m in placement.mouse},
    )


def lay(
    woodland: Mapping[tuple[int, int], Top],
    supply_before: Mapping[str, int],
    edwood_free: bool,
    areas: Sequence[Area],
    rotation: int,
    x: int,
    y: int,
    mouse: Mapping[tuple[int, int], str],
) -> Result:
    """R5-R11 for a card of ``areas`` laid on a woodland of ``woodland``'s tops, with the
    supply and Edwood as given and ``mouse`` the colours chosen for mice at (x, y)."""
    tops = dict(woodland)
    supply = dict(supply_before)
    cells = footprint(areas, rotation, x, y)
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
    choices = dict(mouse)
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


@dataclass
class ReferenceGame:
    """A game as the rulings describe it, on the reference's own state: the first card
    upright at (0, 0), the next two in hand, one drawn after each placement (R12, R13)."""

    cards: dict[int, tuple[Area, ...]]
    deal: list[int]
    tops: dict[tuple[int, int], Top] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ORDER, 5))
    edwood_free: bool = True
    hand: list[int] = field(default_factory=list)
    next_draw: int = 0
    first_gathered: set[str] | None = None
    """Colours the first card played gathered under R8a (R18), once it is played."""

    def __post_init__(self) -> None:
        for x, y, area in footprint(self.cards[self.deal[0]], 0):
            self.tops[(x, y)] = (area, None, False)
        self.hand = self.deal[1:3]
        self.next_draw = min(3, len(self.deal))

    def resolve(
        self, card: int, rotation: int, x: int, y: int, mouse: Mapping[tuple[int, int], str]
    ) -> Result:
        """What a placement of a card in hand would do (R5-R11)."""
        if not self.hand:
            return Result(reason="game-over")
        if card not in self.hand:
            return Result(reason="not-in-hand")
        return lay(
            self.tops, self.supply, self.edwood_free, self.cards[card], rotation, x, y, mouse
        )

    def push(
        self, card: int, rotation: int, x: int, y: int, mouse: Mapping[tuple[int, int], str]
    ) -> Result:
        """Make a placement if it is legal (then draw a card); the result either way."""
        if self.stuck():
            return Result(reason="game-over")
        result = self.resolve(card, rotation, x, y, mouse)
        if result.reason is not None:
            return result
        if self.first_gathered is None:
            self.first_gathered = result.gathered
        self.tops, self.supply, self.edwood_free = result.tops, result.supply, result.edwood_free
        self.hand = [n for n in self.hand if n != card]
        if self.next_draw < len(self.deal):
            self.hand.append(self.deal[self.next_draw])
            self.next_draw += 1
        return result

    def candidates(self) -> list[tuple[int, int, int, int]]:
        """Every (card, rotation, x, y) of a hand card touching the woodland."""
        spots = set()
        for card in self.hand:
            for rotation in (0, 90, 180, 270):
                for sx, sy in self.tops:
                    for dx, dy, _ in footprint(self.cards[card], rotation):
                        spots.add((card, rotation, sx - dx, sy - dy))
        return sorted(spots)

    def legal(self, card: int, rotation: int, x: int, y: int) -> dict[tuple[int, int], str] | None:
        """The mouse colours making a placement legal ({} for the defaults), or None."""
        reason = self.resolve(card, rotation, x, y, {}).reason
        if reason is None:
            return {}
        if reason not in ("edwood-used", "no-mouse-die"):
            return None
        splits = [
            ((sx, sy), area)
            for sx, sy, area in footprint(self.cards[card], rotation, x, y)
            if not area.is_food and (sx, sy) in self.tops
        ]
        options = [[None, *area.value] for _, area in splits]
        for combo in itertools.product(*options):
            chosen = {pos: c for (pos, _), c in zip(splits, combo, strict=True) if c}
            if chosen and self.resolve(card, rotation, x, y, chosen).reason is None:
                return chosen
        return None

    def legal_moves(self) -> dict[tuple[int, int, int, int], dict[tuple[int, int], str]]:
        """Every legal placement with the mouse colours that make it legal."""
        found = {}
        for key in self.candidates():
            chosen = self.legal(*key)
            if chosen is not None:
                found[key] = chosen
        return found

    def stuck(self) -> bool:
        """Cards in hand, and none can be placed (R13)."""
        return bool(self.hand) and not any(
            self.legal(*key) is not None for key in self.candidates()
        )


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
