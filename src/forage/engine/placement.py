"""Placements: a card at a rotation and position, with optional mouse colours (R4, R8c)."""

from __future__ import annotations

import re
from typing import Final

from pydantic import BaseModel, ConfigDict

from forage.engine.areas import Colour, Rotation


class MouseChoice(BaseModel):
    """The colour chosen for the mouse die on a split area at (x, y) of the woodland (R8c)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    x: int
    y: int
    colour: Colour


class Placement(BaseModel):
    """A move: play card ``card`` at ``rotation`` with its top-left area at (x, y) (R4)."""

    model_config = ConfigDict(frozen=True)

    card: int
    rotation: Rotation = Rotation.R0
    x: int
    y: int
    mouse: tuple[MouseChoice, ...] = ()

    def notation(self) -> str:
        """The compact text form, for example ``12r90@1,-1`` or ``3@0,2[0,3=B]``."""
        text = str(self.card)
        if self.rotation:
            text += f"r{int(self.rotation)}"
        text += f"@{self.x},{self.y}"
        if self.mouse:
            text += "[" + ";".join(f"{m.x},{m.y}={m.colour.value}" for m in self.mouse) + "]"
        return text

    def __str__(self) -> str:
        """The compact text form."""
        return self.notation()

    @classmethod
    def from_notation(cls, text: str) -> Placement:
        """Parse the compact text form written by :meth:`notation`."""
        match = re.fullmatch(NOTATION, text.strip())
        if match is None:
            raise ValueError(f"not a placement: {text!r} (expected like 12r90@1,-1)")
        mouse: list[MouseChoice] = []
        if match["mouse"]:
            for part in match["mouse"].split(";"):
                where, _, colour = part.partition("=")
                mx, _, my = where.partition(",")
                mouse.append(MouseChoice(x=int(mx), y=int(my), colour=Colour(colour)))
        return cls(
            card=int(match["card"]),
            rotation=Rotation(int(match["rot"] or 0)),
            x=int(match["x"]),
            y=int(match["y"]),
            mouse=tuple(mouse),
        )


NOTATION: Final = (
    r"(?P<card>\d+)(?:r(?P<rot>0|90|180|270))?@(?P<x>-?\d+),(?P<y>-?\d+)"
    r"(?:\[(?P<mouse>-?\d+,-?\d+=[BCM](?:;-?\d+,-?\d+=[BCM])*)\])?"
)
"""The pattern of a placement's text form (compiled on first use: ``re`` keeps it)."""
