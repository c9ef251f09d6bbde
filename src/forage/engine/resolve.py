"""Resolving a placement: what each covered area does, in R9's order (RULINGS R5-R11)."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict

from forage.engine.areas import AREA_MASKS, COLOURS, MOUSE_FACE, Area, Colour, raised
from forage.engine.cards import Cell
from forage.engine.placement import Placement
from forage.engine.woodland import Die, Pos, Square, Supply, die


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


REASON_TEXT: Final = {
    Reason.GAME_OVER: "the game is over",
    Reason.NOT_IN_HAND: "that card is not in your hand",
    Reason.NO_OVERLAP: "the card must cover at least one area of the woodland",
    Reason.COVERS_EDWOOD: "Edwood's area can never be covered",
    Reason.COVERS_MOUSE: "a mouse die can only be covered by an area of its colour, using Edwood",
    Reason.EDWOOD_USED: "covering a mouse die needs Edwood, and he is already used",
    Reason.NO_MOUSE_DIE: "a mouse die is needed but none of its colour is left and Edwood is used",
    Reason.BAD_MOUSE_COLOUR: "that mouse colour cannot be chosen there",
}


class Effect(StrEnum):
    """What happens at one area of a placed card (R8)."""

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


class AreaEffect(BaseModel):
    """The outcome at one area of a placed card."""

    model_config = ConfigDict(frozen=True)

    x: int
    y: int
    area: Area
    effect: Effect
    below: Square | None
    """The area covered, or None on empty table."""
    die: Die | None
    """The die on the new area afterwards."""
    returned: Die | None = None
    """The die sent back to the supply from the area below, if any."""


class Outcome(BaseModel):
    """The full result of a placement, computed before (or without) making it."""

    model_config = ConfigDict(frozen=True)

    placement: Placement
    reason: Reason | None = None
    effects: tuple[AreaEffect, ...] = ()
    supply: Supply | None = None
    """The supply afterwards."""
    score_change: int = 0
    """How the base score changes (R15)."""
    gathered: tuple[Colour, ...] = ()
    """Colours of the dice placed or raised under R8a, for the first-turn recipes (R18)."""
    mouse_choice_possible: tuple[Pos, ...] = ()
    """Split areas whose mouse die could take either colour (the ``c`` key)."""

    @property
    def legal(self) -> bool:
        """Whether the placement may be made."""
        return self.reason is None

    @property
    def message(self) -> str:
        """The refusal reason in plain words, or an empty string."""
        return REASON_TEXT[self.reason] if self.reason is not None else ""

    @property
    def uses_edwood(self) -> bool:
        """Whether the placement puts Edwood in the woodland."""
        return any(e.effect is Effect.EDWOOD for e in self.effects)

    def squares(self, card: int) -> dict[Pos, Square]:
        """The new top areas this placement lays, keyed by square."""
        from forage.engine.woodland import square

        return {
            (e.x, e.y): square(e.area, e.die, e.effect is Effect.EDWOOD, card) for e in self.effects
        }


_BIT_COLOUR: Final = {1: Colour.B, 2: Colour.C, 4: Colour.M}
_COLOUR_INDEX: Final = {Colour.B: 0, Colour.C: 1, Colour.M: 2}


def resolve(
    squares: dict[Pos, Square],
    supply: Supply,
    footprint: tuple[Cell, ...],
    placement: Placement,
    *,
    detail: bool = True,
) -> Outcome:
    """Work out everything a placement does to the woodland and supply (R5-R11).

    ``footprint`` is the card's areas at the placement's rotation in R9's order. The
    placement's card is not checked against the hand here (see ``Game``).
    """
    px, py = placement.x, placement.y
    cells = [(px + dx, py + dy, area) for dx, dy, area in footprint]
    below = [squares.get((x, y)) for x, y, _ in cells]
    if all(sq is None for sq in below):
        return Outcome(placement=placement, reason=Reason.NO_OVERLAP)
    # R11: the covered areas in area order, the first that may not be covered.
    for (_, _, area), sq in zip(cells, below, strict=True):
        if sq is None:
            continue
        if sq.edwood:
            return Outcome(placement=placement, reason=Reason.COVERS_EDWOOD)
        if (
            sq.die is not None
            and sq.die.value == MOUSE_FACE
            and not AREA_MASKS[area] & sq.die.colour.bit
        ):
            return Outcome(placement=placement, reason=Reason.COVERS_MOUSE)

    counts = supply.counts()
    edwood_free = supply.edwood
    choices = placement.choices() if placement.mouse else {}
    # Per area: [effect, die after, returned die]
    plan: list[list[object]] = []
    gathered: list[Colour] = []
    # R9 step 1: matches (a, b) in area order; new food dice come from the supply as it was.
    for (_, _, area), sq in zip(cells, below, strict=True):
        if sq is None:
            plan.append([Effect.NEW, None, None])
            continue
        under = sq.die
        if under is not None and under.value == MOUSE_FACE:
            plan.append([Effect.EDWOOD, None, under])  # R8d, Edwood placed in step 3
            continue
        under_mask = under.colour.bit if under is not None else AREA_MASKS[sq.area]
        mask = AREA_MASKS[area]
        if not mask & under_mask:
            plan.append([Effect.MOUSE, None, under])  # R8c, mouse placed in step 3
            continue
        if len(area) == 1:  # food area, R8a
            food = Colour(area)
            if under is not None:
                plan.append([Effect.RAISED, die(under.colour, raised(under.value)), None])
                gathered.append(under.colour)
            elif counts[_COLOUR_INDEX[food]] > 0:
                counts[_COLOUR_INDEX[food]] -= 1
                plan.append([Effect.PLACED, die(food, 1), None])
                gathered.append(food)
            else:
                plan.append([Effect.NO_DIE_LEFT, None, None])
        elif under is not None:  # split area, R8b
            plan.append([Effect.MOVED, under, None])
        else:
            plan.append([Effect.NOTHING, None, None])
    # R9 step 2: every displaced die goes back to the supply.
    for step in plan:
        returned = step[2]
        if isinstance(returned, Die):
            counts[_COLOUR_INDEX[returned.colour]] += 1
    # R9 step 3: mouse dice and Edwood, in area order.
    choosable: list[Pos] = []
    for (x, y, area), step in zip(cells, plan, strict=True):
        if step[0] is Effect.EDWOOD:
            if not edwood_free:
                return Outcome(placement=placement, reason=Reason.EDWOOD_USED)
            edwood_free = False
            continue
        if step[0] is not Effect.MOUSE:
            continue
        chosen = choices.pop((x, y), None)
        colours = [c for c in COLOURS if AREA_MASKS[area] & c.bit]
        available = [c for c in colours if counts[_COLOUR_INDEX[c]] > 0]
        if len(available) > 1:
            choosable.append((x, y))
        if chosen is not None:
            if chosen not in available:
                return Outcome(placement=placement, reason=Reason.BAD_MOUSE_COLOUR)
            colour: Colour | None = chosen
        elif available:
            # Default: the colour with more dice left, ties to B before C before M.
            colour = max(available, key=lambda c: (counts[_COLOUR_INDEX[c]], -_COLOUR_INDEX[c]))
        else:
            colour = None
        if colour is not None:
            counts[_COLOUR_INDEX[colour]] -= 1
            step[1] = die(colour, MOUSE_FACE)
        elif edwood_free:
            edwood_free = False
            step[0] = Effect.EDWOOD
        else:
            return Outcome(placement=placement, reason=Reason.NO_MOUSE_DIE)
    if choices:
        return Outcome(placement=placement, reason=Reason.BAD_MOUSE_COLOUR)

    change = 0
    effects: list[AreaEffect] = []
    for (x, y, area), sq, step in zip(cells, below, plan, strict=True):
        effect, after = step[0], step[1]
        assert isinstance(effect, Effect)
        assert after is None or isinstance(after, Die)
        if sq is not None:
            change -= sq.points
        if after is not None:
            change += after.value - (0 if len(area) == 1 else 1)
        if effect is Effect.EDWOOD:
            change -= 5
        if detail:
            returned = step[2]
            effects.append(
                AreaEffect(
                    x=x,
                    y=y,
                    area=area,
                    effect=effect,
                    below=sq,
                    die=after,
                    returned=returned if isinstance(returned, Die) else None,
                )
            )
    return Outcome(
        placement=placement,
        effects=tuple(effects),
        supply=Supply.of(counts, edwood_free),
        score_change=change,
        gathered=tuple(dict.fromkeys(gathered)),
        mouse_choice_possible=tuple(choosable),
    )
