"""The game's looks as Textual themes: each palette of :mod:`forage.palette` a theme.

``forage`` (the default) and ``forage-colour-blind`` are Textual's dark theme with the
palette's surface colours as CSS variables of their own (``$forage-table``...), which the
``.tcss`` files use, so no style names a colour. Either can be chosen with Textual's own
theme switch (``App.theme``), with ``v`` in the game, or at start with
``FORAGE_THEME=colour-blind``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from rich.style import Style
from textual.app import App
from textual.theme import BUILTIN_THEMES

from forage.palette import (
    DEFAULT_MARKS,
    DEFAULT_PALETTE,
    MARKS,
    PALETTES,
    START_PALETTE,
    Palette,
    css_variables,
)

__all__ = [
    "DEFAULT_MARKS",
    "DEFAULT_PALETTE",
    "MARKS",
    "PALETTES",
    "START_PALETTE",
    "THEMES",
    "Palette",
    "marks_of",
    "next_theme",
    "palette_name",
    "register_themes",
]

THEMES: Final = {"forage": "standard", "forage-colour-blind": "colour-blind"}
"""The game's Textual themes and the palette each draws with."""


def register_themes(app: App[Any]) -> None:
    """Register the game's themes with an app and start it on the ``FORAGE_THEME`` one."""
    base = BUILTIN_THEMES["textual-dark"]
    for name, palette in THEMES.items():
        variables = {**base.variables, **css_variables(palette)}
        app.register_theme(replace(base, name=name, variables=variables))
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
