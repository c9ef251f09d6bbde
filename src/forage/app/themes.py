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


PALETTES: Final = {
    "standard": Palette(
        {Colour.B: "#2f6f2f", Colour.C: "#a85c12", Colour.M: "#62432a"},
        {Colour.B: "#62c462", Colour.C: "#f4a640", Colour.M: "#b08458"},
        Style.parse("bold #ffffff on #c41616"),
    ),
    # Okabe and Ito's colours: sky blue, orange, reddish purple; a mouse in black.
    "colour-blind": Palette(
        {Colour.B: "#1f5f8f", Colour.C: "#9a6200", Colour.M: "#7a3f66"},
        {Colour.B: "#56b4e9", Colour.C: "#e69f00", Colour.M: "#cc79a7"},
        Style.parse("bold #ffffff on #000000"),
    ),
}
"""The palettes by name."""
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
