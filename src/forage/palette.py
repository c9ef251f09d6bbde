"""The game's colours, in one place: the two palettes, each the terrain and card shades, the
styles of the marks and words by what they mean, and the colours of the screens' surfaces.

``standard`` draws bramble green, fallen leaves orange and soil brown; ``colour-blind``
uses Okabe and Ito's colours, told apart with any common colour-vision deficiency. The game
screen draws with them (``forage.app.themes`` makes each a Textual theme, its surfaces CSS
variables the ``.tcss`` files use), and so do the headless commands' Rich output
(``forage.render``, ``forage.app.history_report``), with ``FORAGE_THEME`` choosing for both.
Letters and glyphs carry every meaning, so ``NO_COLOR`` still works with either.
"""

from __future__ import annotations

import os
from typing import Final, NamedTuple

from rich.style import Style

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
    surfaces: dict[str, str]
    """The colours of the screens' surfaces by role (see :data:`SURFACES`)."""


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

SURFACES: Final = {
    "table": "the screen behind everything (the table the woodland lies on)",
    "title": "the title bar",
    "title-text": "the title bar's words",
    "panel": "the side panel",
    "bar": "the status bar, and the review's panels",
    "warning": "the notice that the terminal is too small",
    "shade": "what is behind a dialog, shaded",
    "dialog": "a dialog",
    "dialog-edge": "a dialog's border",
    "dialog-title": "a dialog's title",
}
"""What each surface colour is for; every palette gives each one a colour (CSS colours,
used in the ``.tcss`` files as ``$forage-<name>``)."""

_SURFACES: Final = {
    "table": "#101010",
    "title": "#1f3f1f",
    "title-text": "#f0f0f0",
    "panel": "#181818",
    "bar": "#202020",
    "warning": "#ffb040",
    "shade": "#000000 60%",
    "dialog": "#141a14",
    "dialog-edge": "#7fbf7f",
    "dialog-title": "#ffff66",
}

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
        _SURFACES,
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
        _SURFACES,
    ),
}
"""The palettes by name."""
DEFAULT_MARKS: Final = PALETTES["standard"].marks
"""The standard palette's marks (pure text functions draw with them unless given others)."""
START_PALETTE: Final = os.environ.get("FORAGE_THEME", "standard")
"""The palette chosen with ``FORAGE_THEME`` (``standard`` or ``colour-blind``)."""
DEFAULT_PALETTE: Final = START_PALETTE if START_PALETTE in PALETTES else "standard"
"""The palette drawn unless another is chosen (the game's theme, ``v``)."""


def css_variables(palette: str = DEFAULT_PALETTE) -> dict[str, str]:
    """A palette's surface colours as CSS variables (``forage-table``...)."""
    return {f"forage-{name}": colour for name, colour in PALETTES[palette].surfaces.items()}


def area_style(colour: Colour, palette: str = DEFAULT_PALETTE) -> Style:
    """How the headless commands draw an area of a food type: dark letters on its card
    shade."""
    return Style(color="black", bgcolor=PALETTES[palette].card[colour])


def mark(name: str, palette: str = DEFAULT_PALETTE) -> Style:
    """The style of a named mark (:data:`MARKS`) in a palette."""
    return PALETTES[palette].marks[name]
