"""Outcomes: what a placement would do, built from the rules' resolution."""

from __future__ import annotations

from typing import Final, NamedTuple

from pydantic import BaseModel, ConfigDict

from forage.engine.areas import COLOURS, Area, Colour
from forage.engine.board import IS_EDWOOD, SQUARES, Position, unpack
from forage.engine.placement import MouseChoice, Placement
from forage.engine.rules import REASON_TEXT, Effect, Reason, Resolution, Turned, sent_back
from forage.engine.woodland import Die, Pos, Square, Supply
from forage.engine.woodland import square as shared_square


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


class Resolved(NamedTuple):
    """The rules' resolution of an outcome, kept to explain it and to make it."""

    position: Position
    turned: Turned
    spot: int
    unders: tuple[int, ...]
    result: Resolution


class Outcome:
    """The full result of a placement, worked out before (or without) making it.

    A slotted class rather than a model: the engine builds hundreds a turn from values the
    rules have already checked, so there is nothing to validate. An outcome is never
    changed once made (its effects are worked out when first asked, then kept).
    """

    __slots__ = (
        "_effects",
        "cause",
        "gathered",
        "mouse_choice_possible",
        "placement",
        "reason",
        "resolved",
        "score_change",
        "supply",
    )

    def __init__(
        self,
        placement: Placement,
        reason: Reason | None = None,
        supply: Supply | None = None,
        score_change: int = 0,
        gathered: tuple[Colour, ...] = (),
        mouse_choice_possible: tuple[Pos, ...] = (),
        cause: Pos | None = None,
        resolved: Resolved | None = None,
    ) -> None:
        """An outcome from what the rules worked out."""
        self.placement = placement
        self.reason = reason
        self.supply = supply
        """The supply afterwards."""
        self.score_change = score_change
        """How the base score changes (R15)."""
        self.gathered = gathered
        """Colours of the dice placed or raised under R8a, for the first-turn recipes (R18)."""
        self.mouse_choice_possible = mouse_choice_possible
        """Split areas whose mouse die could take either colour (the ``c`` key)."""
        self.cause = cause
        """The square (x, y) of the card's area that causes a refusal, where one area does."""
        self.resolved = resolved
        """The rules' resolution behind a legal outcome."""
        self._effects: tuple[AreaEffect, ...] | None = None

    def __repr__(self) -> str:
        """The outcome's fields, as a dataclass shows them."""
        return (
            f"Outcome(placement={self.placement!r}, reason={self.reason!r}, "
            f"supply={self.supply!r}, score_change={self.score_change!r}, "
            f"gathered={self.gathered!r}, mouse_choice_possible={self.mouse_choice_possible!r}, "
            f"cause={self.cause!r})"
        )

    @property
    def legal(self) -> bool:
        """Whether the placement may be made."""
        return self.reason is None

    @property
    def message(self) -> str:
        """The refusal reason in plain words, or an empty string."""
        return REASON_TEXT[self.reason] if self.reason is not None else ""

    @property
    def effects(self) -> tuple[AreaEffect, ...]:
        """What happens at each area of the card, in R9's order (empty when refused)."""
        if self._effects is None:
            self._effects = effects_of(self.resolved) if self.resolved is not None else ()
        return self._effects

    def __eq__(self, other: object) -> bool:
        """Outcomes are equal when they say the same."""
        if not isinstance(other, Outcome):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        """A hash of what the outcome says."""
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (
            self.placement,
            self.reason,
            self.supply,
            self.score_change,
            self.gathered,
            self.mouse_choice_possible,
            self.cause,
            self.effects,
        )


def effects_of(resolved: Resolved) -> tuple[AreaEffect, ...]:
    """Each area's effect, read from the steps that resolved it (R8)."""
    _, turned, spot, unders, result = resolved
    effects = []
    for cell, table, under, code in zip(
        turned.cells, turned.tables, unders, result.new, strict=True
    ):
        effect = table[under].effect
        assert isinstance(effect, Effect)
        below = SQUARES[under] if under else None
        after = SQUARES[code]
        assert after is not None
        if IS_EDWOOD[code]:
            effect = Effect.EDWOOD
        elif effect is Effect.PLACED and after.die is None:
            effect = Effect.NO_DIE_LEFT
        returned = sent_back(effect, below)
        x, y = unpack(spot + cell.offset)
        effects.append(
            AreaEffect(
                x=x,
                y=y,
                area=cell.area,
                effect=effect,
                below=below,
                die=after.die,
                returned=returned,
            )
        )
    return tuple(effects)


# -- building outcomes fast ------------------------------------------------------------------

_GATHERED: Final = tuple(
    tuple(c for i, c in enumerate(COLOURS) if mask >> i & 1) for mask in range(8)
)
_SUPPLIES: dict[tuple[tuple[int, int, int], bool], Supply] = {}


def supply_of(counts: tuple[int, int, int], edwood: bool) -> Supply:
    """The (shared) supply model of these counts."""
    found = _SUPPLIES.get((counts, edwood))
    if found is None:
        found = _SUPPLIES[(counts, edwood)] = Supply(
            B=counts[0], C=counts[1], M=counts[2], edwood=edwood
        )
    return found


def refused(placement: Placement, reason: Reason, cause: Pos | None = None) -> Outcome:
    """The outcome of a refused placement, with the square that causes it if one does."""
    return Outcome(placement=placement, reason=reason, cause=cause)


def legal_outcome(placement: Placement, resolved: Resolved) -> Outcome:
    """The outcome of a legal placement, from its resolution (values already valid)."""
    result = resolved.result
    spot, offsets = resolved.spot, resolved.turned.offsets
    return Outcome(
        placement,
        None,
        supply_of(result.counts, result.edwood),
        result.gain,
        _GATHERED[result.gathered],
        tuple(unpack(spot + offsets[i]) for i in result.choosable) if result.choosable else (),
        None,
        resolved,
    )


def mouse_choices(turned: Turned, spot: int, result: Resolution) -> tuple[MouseChoice, ...]:
    """The mouse colours a resolution chose, as a placement names them."""
    return tuple(
        MouseChoice(x=x, y=y, colour=COLOURS[colour])
        for (x, y), colour in sorted(
            (unpack(spot + turned.offsets[i]), colour) for i, colour in result.choice
        )
    )


def woodland_square(code: int, card: int) -> Square:
    """The shared square model of a code on a card."""
    sq = SQUARES[code]
    assert sq is not None
    return shared_square(sq.area, sq.die, sq.edwood, card)
