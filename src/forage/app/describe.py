"""Plain words and glyphs for what the engine says: dice, areas, and a placement's outcome."""

from __future__ import annotations

from typing import Final

from forage.engine import AreaEffect, Colour, Die, Effect, Outcome, Score
from forage.engine.areas import BASKET_FACE, EDWOOD_POINTS, MOUSE_FACE

BASKET: Final = "⊔"
"""The basket glyph shown for a die's 15 face."""

TERRAIN: Final = {Colour.B: "bramble", Colour.C: "leaves", Colour.M: "soil"}

MARK: Final = {
    Effect.NEW: " ",
    Effect.PLACED: "+",
    Effect.RAISED: "↑",
    Effect.MOVED: "»",
    Effect.NOTHING: " ",
    Effect.NO_DIE_LEFT: "∅",
    Effect.MOUSE: "!",
    Effect.EDWOOD: "E",
}
"""The one-character mark of each effect, drawn beside the area on the card being placed."""

LEGEND: Final = (
    "+ new die  ↑ raised  » carried  ! mouse  ↩ mouse, die back\n  E Edwood  ∅ no die left"
)
RETURN_MARK: Final = "↩"
"""The mark of an area whose die goes back to the supply (a mouse or Edwood replaces it)."""


def mark(effect: AreaEffect) -> str:
    """The one-character mark of what an area of the placed card will do."""
    if effect.returned is not None and effect.effect is Effect.MOUSE:
        return RETURN_MARK
    return MARK[effect.effect]


def face(value: int) -> str:
    """A die face as shown: 1, 3, 6, 10, the basket glyph for 15, -2 for the mouse."""
    if value == BASKET_FACE:
        return BASKET
    return str(value)


def die_text(die: Die) -> str:
    """A die in words-and-glyphs, for example ``B10`` or ``M-2``."""
    return f"{die.colour.value}{face(die.value)}"


def effect_phrase(effect: AreaEffect) -> str:
    """What one area of the placed card will do, in a few words."""
    kind = effect.effect
    after = effect.die
    back = f", {die_text(effect.returned)} back" if effect.returned is not None else ""
    if kind is Effect.PLACED and after is not None:
        return f"new {die_text(after)}"
    if kind is Effect.RAISED and after is not None and effect.below is not None:
        before = effect.below.die
        was = face(before.value) if before is not None else "?"
        return f"{after.colour.value} {was}→{face(after.value)}"
    if kind is Effect.MOVED and after is not None:
        return f"{die_text(after)} carried"
    if kind is Effect.NO_DIE_LEFT:
        return f"no {effect.area.value} die left"
    if kind is Effect.MOUSE and after is not None:
        return f"mouse {after.colour.value}{MOUSE_FACE}{back}"
    if kind is Effect.EDWOOD:
        return f"Edwood {EDWOOD_POINTS}{back}"
    return ""


def score_sum(score: Score) -> str:
    """The base score as points that add up, e.g. ``food 36 · mice -2 · split -1 · Edwood 0
    = 33``."""
    parts = score.parts
    return (
        f"food {parts.food} · mice {parts.mice} · split {parts.split} · "
        f"Edwood {parts.edwood} = {score.base}"
    )


def outcome_lines(outcome: Outcome, base: int) -> tuple[str, str]:
    """The preview of a placement as (headline, details) for the status bar."""
    if not outcome.legal:
        return f"✗ Can't place here: {outcome.message}.", "Move (arrows) or rotate (r) the card."
    change = outcome.score_change
    headline = f"✓ Enter places it: score {base} → {base + change} ({change:+d})."
    phrases = [p for p in (effect_phrase(e) for e in outcome.effects) if p]
    empty = sum(1 for e in outcome.effects if e.effect is Effect.NEW)
    if empty:
        phrases.append(f"{empty} on empty table")
    details = " · ".join(phrases) if phrases else "no dice change"
    if outcome.mouse_choice_possible:
        details += " · c: mouse colour"
    return headline, details
