"""The rules of a placement, each written once (RULINGS R5-R11).

:func:`cover` says what one new area does on what lies below it (R5-R8), in plain terms on
the models. The tables the fast path reads (:data:`STEPS`) are generated from it when this
module loads. :func:`resolve` applies R9's order, R10 and R11 to a whole card; the R8c choice
of mouse colours is :func:`mouse_variants` (and :func:`first_legal`); :func:`scan` tries a
card at every spot that covers the woodland; :func:`lay` puts a resolved card on a position.
Everything here is on the board's codes (:mod:`forage.engine.board`); the engine's models
(:class:`~forage.engine.outcome.Outcome`) are built from its results.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import IntEnum, StrEnum
from itertools import product
from typing import Final, NamedTuple

from forage.engine.areas import COLOURS, MOUSE_FACE, ROTATIONS, Area, Colour, raised
from forage.engine.board import (
    CODES,
    COLOUR_INDEX,
    POINTS,
    SQUARES,
    PackedWoodland,
    Position,
    encode,
    step,
)
from forage.engine.cards import Card
from forage.engine.woodland import Die, Square, die, square
from forage.i18n import N_


class Reason(StrEnum):
    """Why a placement is refused (R11), in the order they are checked."""

    GAME_OVER = "game-over"
    NOT_IN_HAND = "not-in-hand"
    NO_OVERLAP = "no-overlap"
    COVERS_EDWOOD = "covers-edwood"
    COVERS_MOUSE = "covers-mouse"
    EDWOOD_USED = "edwood-used"
    NO_MOUSE_DIE = "no-mouse-die"
    BAD_MOUSE_COLOUR = "bad-mouse-colour"


# Translators: why a placement is refused, after "moves[3] (12r90@1,-1): no-overlap: ".
REASON_TEXT: Final = {
    Reason.GAME_OVER: N_("the game is over"),
    Reason.NOT_IN_HAND: N_("that card is not in your hand"),
    Reason.NO_OVERLAP: N_("the card must cover at least one area of the woodland"),
    Reason.COVERS_EDWOOD: N_("Edwood's area can never be covered"),
    Reason.COVERS_MOUSE: N_(
        "a mouse die can only be covered by an area of its colour, using Edwood"
    ),
    Reason.EDWOOD_USED: N_("covering a mouse die needs Edwood, and he is already used"),
    Reason.NO_MOUSE_DIE: N_(
        "a mouse die is needed but none of its colour is left and Edwood is used"
    ),
    Reason.BAD_MOUSE_COLOUR: N_("that mouse colour cannot be chosen there"),
}


class Effect(StrEnum):
    """What happens at one area of a placed card (R5, R8)."""

    NEW = "new"
    """The area lies on empty table and joins the woodland without a die (R5)."""
    PLACED = "placed"
    """A food area on a matching empty area: a new die showing 1 (R8a)."""
    RAISED = "raised"
    """A food area on a matching die: the die moves up and goes up one step (R8a)."""
    NO_DIE_LEFT = "no-die-left"
    """A food area on a matching empty area, but the supply has no die of its colour (R8a)."""
    MOVED = "moved"
    """A split area on a matching die: the die moves up unchanged (R8b)."""
    NOTHING = "nothing"
    """A split area on a matching empty area: nothing happens (R8b)."""
    MOUSE = "mouse"
    """No match: any die below returns to the supply and a mouse die is placed (R8c)."""
    EDWOOD = "edwood"
    """Edwood is placed, covering a mouse die (R8d) or standing in for one (R8c)."""


# -- one area: R5-R8 ---------------------------------------------------------------------


def counts_as(below: Square) -> tuple[Colour, ...]:
    """The types an area below counts as: its die's colour only, else its own types (R7)."""
    return (below.die.colour,) if below.die is not None else below.area.colours


def cover(area: Area, below: Square | None) -> Effect | Reason:
    """What a new area does on the area below it, before the supply is asked (R5-R8)."""
    if below is None:
        return Effect.NEW
    if below.edwood:
        return Reason.COVERS_EDWOOD  # R8e
    if below.die is not None and below.die.mouse:
        # R8d: only an area sharing the mouse die's colour may cover it, using Edwood.
        return Effect.EDWOOD if below.die.colour in area.colours else Reason.COVERS_MOUSE
    if not set(area.colours) & set(counts_as(below)):
        return Effect.MOUSE  # R8c
    if area.is_food:
        return Effect.RAISED if below.die is not None else Effect.PLACED  # R8a
    return Effect.MOVED if below.die is not None else Effect.NOTHING  # R8b


def covered_square(area: Area, below: Square | None, effect: Effect) -> Square:
    """The new top square where the effect fixes it: no die, a raised die or a carried one."""
    if effect is Effect.RAISED and below is not None and below.die is not None:
        return square(area, die(below.die.colour, raised(below.die.value)))
    if effect is Effect.MOVED and below is not None:
        return square(area, below.die)
    if effect is Effect.PLACED:
        return square(area, die(Colour(area.value), 1))
    if effect is Effect.EDWOOD:
        return square(area, edwood=True)
    return square(area)


def sent_back(effect: Effect | Reason, below: Square | None) -> Die | None:
    """The die an area sends back to the supply from the area below: a die it covers with
    no match (R8c), or the mouse die Edwood covers (R8d)."""
    if effect in (Effect.MOUSE, Effect.EDWOOD) and below is not None:
        return below.die
    return None


def first_colours(first: int, gathered: int) -> int:
    """The first-turn colour mask after a placement (R18): what this placement gathered if
    no card was played before it (``first`` is -1), else what the first card gathered."""
    return gathered if first < 0 else first


def default_mouse_colour(options: Sequence[int], supply: Sequence[int]) -> int:
    """The mouse colour given no choice: most dice left, ties to B, then C, then M (R8c)."""
    best = options[0]
    for colour in options[1:]:
        if supply[colour] > supply[best]:
            best = colour
    return best


# -- the tables of the fast path, generated from cover() ----------------------------------


class Need(IntEnum):
    """What a new area still needs from the supply once its match is known (R9)."""

    NOTHING = 0
    """Its result is fixed: it joins, raises, carries or stays empty."""
    FOOD_DIE = 1
    """A new die of its colour, if the supply still has one (R8a)."""
    MOUSE_DIE = 2
    """A mouse die, or Edwood in its place (R8c), in R9's third step."""
    EDWOOD = 3
    """Edwood, to cover a mouse die (R8d)."""
    REFUSED = 4
    """Nothing: the area below may not be covered (R11)."""


class Step(NamedTuple):
    """A new area on one code below: what it needs and what it makes."""

    need: int
    """A :class:`Need`, as a plain int for the hot loop."""
    effect: Effect | Reason
    """What :func:`cover` says."""
    code: int
    """The new area's code when its need is met (for a mouse die: the bare area)."""
    gain: int
    """The base-score change when its need is met (for a mouse die: without the die)."""
    gathered: int
    """The bit of the colour gathered under R8a, else 0."""
    colour: int
    """The colour index drawn (a food die) or sent back to the supply (a mouse die or
    Edwood), else -1."""


_NEEDS: Final = {
    Effect.NEW: Need.NOTHING,
    Effect.RAISED: Need.NOTHING,
    Effect.MOVED: Need.NOTHING,
    Effect.NOTHING: Need.NOTHING,
    Effect.PLACED: Need.FOOD_DIE,
    Effect.MOUSE: Need.MOUSE_DIE,
    Effect.EDWOOD: Need.EDWOOD,
}
NOTHING: Final = int(Need.NOTHING)
FOOD_DIE: Final = int(Need.FOOD_DIE)
MOUSE_DIE: Final = int(Need.MOUSE_DIE)
EDWOOD: Final = int(Need.EDWOOD)
REFUSED: Final = int(Need.REFUSED)


def _step(area: Area, below: Square | None) -> Step:
    """The table entry of a new area on one square below, from :func:`cover`."""
    effect = cover(area, below)
    if isinstance(effect, Reason):
        return Step(REFUSED, effect, 0, 0, 0, -1)
    lost = below.points if below is not None else 0
    made = covered_square(area, below, effect)
    code = encode(made.area, made.die, made.edwood)
    colour = gathered = 0
    if effect in (Effect.RAISED, Effect.PLACED) and made.die is not None:
        gathered = 1 << COLOUR_INDEX[made.die.colour]
    back = sent_back(effect, below)
    if effect is Effect.PLACED and made.die is not None:
        colour = COLOUR_INDEX[made.die.colour]  # drawn from the supply
    elif back is not None:
        colour = COLOUR_INDEX[back.colour]  # sent back to the supply
    else:
        colour = -1
    return Step(int(_NEEDS[effect]), effect, code, made.points - lost, gathered, colour)


def _steps(area: Area) -> tuple[Step, ...]:
    """The steps of a new area on every code below (code 0: empty table)."""
    table = [Step(REFUSED, Reason.COVERS_EDWOOD, 0, 0, 0, -1)] * CODES
    table[0] = _step(area, None)
    for code in range(1, CODES):
        below = SQUARES[code]
        if below is not None:
            table[code] = _step(area, below)
    return tuple(table)


class StepTables(dict[Area, tuple[Step, ...]]):
    """The steps of each area type, generated from :func:`cover` the first time that type
    is read (a game's first cards need only some of them, so start-up skips the rest)."""

    def __missing__(self, area: Area) -> tuple[Step, ...]:
        """Generate the steps of an area type not read before."""
        table = self[area] = _steps(area)
        return table


STEPS: Final = StepTables()
"""For each area type, the :class:`Step` of a new area of that type on every code below."""
BARE: Final = tuple(encode(sq.area) if sq is not None else 0 for sq in SQUARES)
"""The code of each code's area alone, without die or Edwood."""


# -- a card at a rotation ------------------------------------------------------------------


class TurnedArea(NamedTuple):
    """One area of a rotated card."""

    dx: int
    dy: int
    offset: int
    """The packed distance from the card's top-left square."""
    area: Area
    colours: tuple[int, ...]
    """The colour indexes a mouse die on this area may take (R8c)."""
    mice: tuple[int, ...]
    """The code of this area with a mouse die of each colour index (0 where it cannot be)."""
    edwood: int
    """The code of this area with Edwood on it."""
    split: bool
    """Whether the area is a split area."""


class Turned(NamedTuple):
    """A card at one rotation: its cells in R9's order and each cell's steps."""

    cells: tuple[TurnedArea, ...]
    offsets: tuple[int, ...]
    tables: tuple[tuple[Step, ...], ...]


class CardShape(NamedTuple):
    """A card at its four rotations, ready for :func:`resolve` and :func:`scan`."""

    number: int
    turns: tuple[Turned, ...]


def _cell(dx: int, dy: int, area: Area) -> TurnedArea:
    colours = tuple(COLOUR_INDEX[c] for c in area.colours)
    mice = tuple(encode(area, die(c, MOUSE_FACE)) if c in area.colours else 0 for c in COLOURS)
    edwood = encode(area, edwood=True)
    return TurnedArea(dx, dy, step(dx, dy), area, colours, mice, edwood, not area.is_food)


def shape_of(card: Card) -> CardShape:
    """A card's areas at each rotation, with their steps (R3, R9's area order)."""
    turns = []
    for rotation in ROTATIONS:
        cells = tuple(_cell(dx, dy, area) for dx, dy, area in card.footprint(rotation))
        turns.append(
            Turned(cells, tuple(c.offset for c in cells), tuple(STEPS[c.area] for c in cells))
        )
    return CardShape(card.number, tuple(turns))


# -- a whole card: R9-R11 ------------------------------------------------------------------


class Resolution(NamedTuple):
    """What a legal placement does."""

    gain: int
    """The change of the base score (R15)."""
    new: tuple[int, ...]
    """The codes of the card's areas afterwards, in R9's order."""
    counts: tuple[int, int, int]
    """The supply afterwards, in B, C, M order."""
    edwood: bool
    """Whether Edwood is still to hand afterwards."""
    gathered: int
    """The mask of the colours placed or raised under R8a (R18's first-turn recipes)."""
    choosable: tuple[int, ...]
    """The cells whose mouse die could take either colour (R8c)."""
    choice: tuple[tuple[int, int], ...]
    """The mouse colours chosen, as (cell, colour index); empty for the defaults."""


class Refusal(NamedTuple):
    """Why a placement is refused, whether another choice of mouse colours might help, and
    the index of the card's cell that causes it (-1 when no one cell does)."""

    reason: Reason
    choice_may_help: bool
    cell: int = -1


_REFUSALS: Final = {
    (r, helps, cell): Refusal(r, helps, cell)
    for r in Reason
    for helps in (False, True)
    for cell in range(-1, 6)
}
"""Every refusal, built once: the hot path only looks one up."""
_new_resolution = tuple.__new__


def resolve(
    unders: Sequence[int],
    counts: tuple[int, int, int],
    edwood: bool,
    turned: Turned,
    choice: Mapping[int, int] | None = None,
    *,
    stray: bool = False,
) -> Resolution | Refusal:
    """A card's placement on these codes below, in R9's order (R8-R11).

    ``unders`` are the codes below the card's cells (0 on empty table), of which at least
    one is covered (R5 is the caller's: see :func:`covers`); ``choice`` maps cells to mouse
    colour indexes (R8c). A choice for a cell that gets no mouse die, or ``stray`` (a
    colour named for a square the card does not cover), is refused last (R11).
    """
    gain = 0
    gathered = 0
    new: list[int] = []
    pending: list[tuple[int, int]] | None = None  # (cell, need) waiting for step 3
    drawn: list[int] | None = None  # the supply as step 1 draws food dice from it
    back: list[int] | None = None  # dice sent back to the supply (step 2)
    # R9 step 1: the matches, in area order; new food dice come from the supply as it was.
    append = new.append
    for table, under in zip(turned.tables, unders):  # noqa: B905 (hot loop)
        need, effect, code, change, bit, colour = table[under]
        if need == NOTHING:
            append(code)
            gain += change
            gathered |= bit
        elif need == FOOD_DIE:
            if drawn is None:
                drawn = [counts[0], counts[1], counts[2]]
            if drawn[colour]:
                drawn[colour] -= 1
                append(code)
                gain += change
                gathered |= bit
            else:
                append(BARE[code])
                gain += change - POINTS[code]
        elif need == REFUSED:
            return _REFUSALS[effect, False, len(new)]  # type: ignore[index]
        else:
            if pending is None:
                pending = []
                back = [0, 0, 0]
            pending.append((len(new), need))
            append(code)
            gain += change
            if colour >= 0:
                back[colour] += 1  # type: ignore[index]
    if pending is None:
        if choice or stray:
            return _REFUSALS[Reason.BAD_MOUSE_COLOUR, False, -1]
        after = counts if drawn is None else (drawn[0], drawn[1], drawn[2])
        return _new_resolution(Resolution, (gain, tuple(new), after, edwood, gathered, (), ()))
    assert back is not None
    supply = drawn if drawn is not None else [counts[0], counts[1], counts[2]]
    found = _mice_and_edwood(turned, gain, new, pending, supply, back, edwood, gathered, choice)
    if stray and isinstance(found, Resolution):
        return _REFUSALS[Reason.BAD_MOUSE_COLOUR, False, -1]
    return found


def _mice_and_edwood(
    turned: Turned,
    gain: int,
    new: list[int],
    pending: list[tuple[int, int]],
    supply: list[int],
    back: list[int],
    edwood: bool,
    gathered: int,
    choice: Mapping[int, int] | None,
) -> Resolution | Refusal:
    """R9 steps 2 and 3 of a placement with mice: the displaced dice go back to the supply,
    then each pending cell (``(cell, need)`` in area order) gets its mouse die or Edwood
    (R8c, R8d, R10); ``gain`` and ``new`` are step 1's."""
    # R9 step 2: every displaced die goes back to the supply.
    supply[0] += back[0]
    supply[1] += back[1]
    supply[2] += back[2]
    # R9 step 3: mouse dice and Edwood, in area order.
    cells = turned.cells
    choosable: list[int] = []
    split_seen = False
    used = 0
    for i, need in pending:
        _, _, _, _, colours, mice, edwood_code, split = cells[i]
        if need == EDWOOD:  # R8d: covering a mouse die needs Edwood
            if not edwood:
                return _REFUSALS[Reason.EDWOOD_USED, split_seen, i]
            edwood = False
            continue
        chosen = choice.get(i) if choice else None
        if split:
            split_seen = True
            options = [c for c in colours if supply[c]]
            if len(options) > 1:
                choosable.append(i)
        elif chosen is None:  # a food area: its own colour or nothing
            colour = colours[0] if supply[colours[0]] else -1
        else:
            options = [c for c in colours if supply[c]]
        if chosen is not None:
            used += 1
            if chosen not in options:
                return _REFUSALS[Reason.BAD_MOUSE_COLOUR, False, i]
            colour = chosen
        elif split:
            colour = default_mouse_colour(options, supply) if options else -1
        if colour >= 0:
            supply[colour] -= 1
            new[i] = mice[colour]
        elif edwood:  # R10: Edwood stands in for the mouse die the supply cannot give
            edwood = False
            new[i] = edwood_code
        else:
            return _REFUSALS[Reason.NO_MOUSE_DIE, split_seen, i]
        gain += POINTS[new[i]]
    if choice and used != len(choice):
        return _REFUSALS[Reason.BAD_MOUSE_COLOUR, False, -1]
    return _new_resolution(
        Resolution,
        (
            gain,
            tuple(new),
            (supply[0], supply[1], supply[2]),
            edwood,
            gathered,
            tuple(choosable),
            tuple(sorted(choice.items())) if choice else (),
        ),
    )


def split_mice(unders: Sequence[int], turned: Turned) -> list[int]:
    """The split cells of a placement that get a mouse die (or Edwood in its place)."""
    return [
        i
        for i, (cell, table, under) in enumerate(
            zip(turned.cells, turned.tables, unders, strict=True)
        )
        if cell.split and table[under].need == MOUSE_DIE
    ]


def mouse_variants(
    unders: Sequence[int], counts: tuple[int, int, int], edwood: bool, turned: Turned
) -> Iterator[Resolution]:
    """Every legal outcome of a placement over the choices of mouse colours (R8c).

    Choices are tried split area by split area in R9's order, each left to its default
    first, then B, C, M; each distinct outcome comes once, with the first choice that
    makes it (so the defaults first, when they are legal).
    """
    cells = split_mice(unders, turned)
    seen: set[tuple[int, ...]] = set()
    options = [(None, *turned.cells[i].colours) for i in cells]
    for combo in product(*options):
        choice = {i: c for i, c in zip(cells, combo, strict=True) if c is not None}
        result = resolve(unders, counts, edwood, turned, choice)
        if isinstance(result, Resolution) and result.new not in seen:
            seen.add(result.new)
            yield result


def first_legal(
    unders: Sequence[int], counts: tuple[int, int, int], edwood: bool, turned: Turned
) -> Resolution | None:
    """The placement with its default mouse colours, or else the first choice that is legal."""
    return next(mouse_variants(unders, counts, edwood, turned), None)


# -- every spot, and laying a card -----------------------------------------------------------

LegalSpot = tuple[int, int, tuple[int, ...], Resolution]
"""A legal placement found by :func:`scan`: (rotation index, packed spot, codes below,
resolution with the default mouse colours or else the first legal choice)."""


def covers(board: PackedWoodland, spot: int, turned: Turned) -> bool:
    """Whether the card at this spot covers at least one area of the woodland (R5)."""
    return any(spot + d in board for d in turned.offsets)


def _each_once(items: Iterable[int]) -> Iterator[int]:
    """The items, each the first time it comes."""
    seen: set[int] = set()
    for item in items:
        if item not in seen:
            seen.add(item)
            yield item


def scan(
    board: PackedWoodland,
    counts: tuple[int, int, int],
    edwood: bool,
    shape: CardShape,
    *,
    ordered: bool = True,
    bounds: Mapping[Area, Sequence[float]] | None = None,
    floor: list[float] | None = None,
) -> Iterator[LegalSpot]:
    """Every legal placement of a card: each rotation, each spot that covers the woodland.

    ``ordered`` gives the engine's order (rotation, then y, then x); unordered, the spots
    come as the woodland's squares give them, each once, so the first comes at once. With
    ``bounds`` (for each area mask, the most a cell can be worth on each code below) a spot
    whose cells' bounds add up to less than ``floor[0]`` is skipped unresolved; the caller
    may raise the floor as it goes.
    """
    get = board.get
    for rotation, turned in enumerate(shape.turns):
        d0, d1, d2, d3, d4, d5 = turned.offsets
        if ordered:
            spots: Iterable[int] = sorted({p - d for p in board for d in turned.offsets})
        else:
            spots = _each_once(p - d for p in board for d in turned.offsets)
        if bounds is not None:
            b0, b1, b2, b3, b4, b5 = (bounds[c.area] for c in turned.cells)
        for spot in spots:
            u0 = get(spot + d0, 0)
            u1 = get(spot + d1, 0)
            u2 = get(spot + d2, 0)
            u3 = get(spot + d3, 0)
            u4 = get(spot + d4, 0)
            u5 = get(spot + d5, 0)
            if (
                bounds is not None
                and floor is not None
                and b0[u0] + b1[u1] + b2[u2] + b3[u3] + b4[u4] + b5[u5] < floor[0]
            ):
                continue
            unders = (u0, u1, u2, u3, u4, u5)
            result = resolve(unders, counts, edwood, turned)
            if result.__class__ is Refusal:
                if not result.choice_may_help:
                    continue
                chosen = first_legal(unders, counts, edwood, turned)
                if chosen is None:
                    continue
                result = chosen
            yield rotation, spot, unders, result  # type: ignore[misc]


def laid(board: PackedWoodland, turned: Turned, spot: int, new: Sequence[int]) -> PackedWoodland:
    """A copy of a woodland with a card's new codes laid at a spot (R6: only tops are kept)."""
    after = dict(board)
    for d, code in zip(turned.offsets, new, strict=True):
        after[spot + d] = code
    return after


def draw_into(hand: list[int], next_draw: int, deal: Sequence[int]) -> int:
    """Draw the card of ``deal`` at ``next_draw`` into ``hand``, if the deal has it (R12);
    where the next draw is then."""
    if next_draw < len(deal):
        hand.append(deal[next_draw])
        return next_draw + 1
    return next_draw


def lay(
    position: Position,
    card: int,
    turned: Turned,
    spot: int,
    result: Resolution,
    deal: Sequence[int],
) -> Position:
    """The position after a legal placement, the next card drawn from ``deal`` (R12)."""
    hand = list(position.hand)
    hand.remove(card)
    next_draw = draw_into(hand, position.next_draw, deal)
    return Position(
        laid(position.board, turned, spot, result.new),
        result.counts,
        result.edwood,
        tuple(hand),
        next_draw,
        position.base + result.gain,
        first_colours(position.first, result.gathered),
    )
