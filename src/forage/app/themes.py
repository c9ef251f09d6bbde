"""The game's looks: two palettes of terrain colours, each a Textual theme.

``forage`` (the default) draws bramble green, fallen leaves orange and soil brown;
``forage-colour-blind`` uses Okabe and Ito's colours, told apart with any common
colour-vision deficiency. Both are Textual's dark theme otherwise, so either can be chosen
with Textual's own theme switch (``App.theme``), with ``v`` in the game, or at start with
``FORAGE_THEME=colour-blind``. Letters and glyphs carry every meaning, so ``NO_COLOR``
still works with either.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Final, NamedTuple

from rich.style import Style
from textual.app import App
from textual.theme import BUILTIN_THEMES

from forage.engine import Colour


class Palette(NamedTuple):
    """The colours of one look."""

    terrain: dict[Colour, str]
    """Each food type's colour in the woodland (the darker shades)."""
    card: dict[Colour, str]
    """Each food type's colour on the card being placed and on dice badges."""
    mouse: Style
    """The face of a mouse die."""
    marks: dict[str, Style]
    """The styles of the woodland's letters and marks, and of the words the screens say,
    by what they mean (see :data:`MARKS`)."""


MARKS: Final = {
    "text": "the letters of an area in the woodland",
    "text-card": "the letters of an area of the card being placed, and of a die's face",
    "basket": "a basket in the woodland",
    "edwood": "Edwood Mouse",
    "empty": "the empty table",
    "cause": "the area of the card that causes a refusal",
    "change": "the area of the woodland a drop would change",
    "peek": "the mark of a square that is peeked under",
    "gain": "a drop that gains points; a win; a recipe met",
    "level": "a drop that keeps the score",
    "loss": "a drop that loses points; a warning",
    "refused": "a refused drop; a die used up",
    "idle": "the status bar before the card is moved",
    "note": "the status bar's note (what the last drop did, a hint)",
    "bad": "a recipe not met; a game not won",
    "score": "a score, and the woodland's rating",
    "good": "a good move in the review",
}
"""What each named mark means; every palette gives each one a style."""

_WORDS: Final = {
    "text": Style.parse("#f2f2f2"),
    "text-card": Style.parse("#000000"),
    "basket": Style.parse("#ffff66"),
    "edwood": Style.parse("bold #ffffff on #7b2fbf"),
    "empty": Style.parse("#4a4a4a"),
    "cause": Style.parse("bold #ffffff on #c41616"),
    "change": Style.parse("bold #000000 on #ffff66"),
    "peek": Style.parse("bold #ffff00"),
    "level": Style.parse("bold"),
    "idle": Style.parse("bold"),
    "note": Style.parse("#ffff99"),
    "score": Style.parse("bold #ffff66"),
}


PALETTES: Final = {
    "standard": Palette(
        {Colour.B: "#2f6f2f", Colour.C: "#a85c12", Colour.M: "#62432a"},
        {Colour.B: "#62c462", Colour.C: "#f4a640", Colour.M: "#b08458"},
        Style.parse("bold #ffffff on #c41616"),
        {
            **_WORDS,
            "gain": Style.parse("bold #80ff80"),
            "good": Style.parse("bold #c0ffc0"),
            "loss": Style.parse("bold #ffb040"),
            "refused": Style.parse("bold #ff5050"),
            "bad": Style.parse("#ff8080"),
        },
    ),
    # Okabe and Ito's colours: sky blue, orange, reddish purple; a mouse in black. Gains are
    # sky blue and losses vermilion, told apart from each other and from the plain text.
    "colour-blind": Palette(
        {Colour.B: "#1f5f8f", Colour.C: "#9a6200", Colour.M: "#7a3f66"},
        {Colour.B: "#56b4e9", Colour.C: "#e69f00", Colour.M: "#cc79a7"},
        Style.parse("bold #ffffff on #000000"),
        {
            **_WORDS,
            "cause": Style.parse("bold #ffffff on #d55e00"),
            "gain": Style.parse("bold #56b4e9"),
            "good": Style.parse("bold #a6d8f5"),
            "loss": Style.parse("bold #e69f00"),
            "refused": Style.parse("bold #d55e00"),
            "bad": Style.parse("#d55e00"),
        },
    ),
}
"""The palettes by name."""
DEFAULT_MARKS: Final = PALETTES["standard"].marks
"""The standard palette's marks (pure text functions draw with them unless given others)."""
THEMES: Final = {"forage": "standard", "forage-colour-blind": "colour-blind"}
"""The game's Textual themes and the palette each draws with."""
START_PALETTE: Final = os.environ.get("FORAGE_THEME", "standard")
"""The palette chosen with ``FORAGE_THEME`` (``standard`` or ``colour-blind``)."""
DEFAULT_PALETTE: Final = START_PALETTE if START_PALETTE in PALETTES else "standard"
"""The palette drawn when the app's theme is not one of :data:`THEMES`."""


def register_themes(app: App[Any]) -> None:
    """Register the game's themes with an app and start it on the ``FORAGE_THEME`` one."""
    base = BUILTIN_THEMES["textual-dark"]
    for name in THEMES:
        app.register_theme(replace(base, name=name))
    start = next(name for name, palette in THEMES.items() if palette == DEFAULT_PALETTE)
    app.set_reactive(App.theme, start)


def palette_name(app: object) -> str:
    """The name of the palette an app draws with, from its theme."""
    return THEMES.get(getattr(app, "theme", ""), DEFAULT_PALETTE)


def next_theme(theme: str) -> str:
    """The game's theme after this one (``v`` goes round them)."""
    names = list(THEMES)
    return names[(names.index(theme) + 1) % len(names)] if theme in THEMES else names[0]


def marks_of(app: object) -> dict[str, Style]:
    """The named styles (:data:`MARKS`) of the palette an app draws with."""
    return PALETTES[palette_name(app)].marks
