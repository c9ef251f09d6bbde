"""Widgets that draw whole lines themselves, handed to Textual's compositor as they are,
the regions that repaint some of their lines, and widgets as tall as their lines."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.filter import ANSIToTruecolor
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


def line_regions(lines: Iterable[int], width: int) -> list[Region]:
    """Regions ``width`` wide covering the given lines of a widget, one for each run of
    lines next to each other (a refresh of fewer regions costs Textual less)."""
    regions: list[Region] = []
    for y in sorted(lines):
        if regions and regions[-1].bottom == y:
            last = regions[-1]
            regions[-1] = Region(0, last.y, width, last.height + 1)
        else:
            regions.append(Region(0, y, width, 1))
    return regions


class WholeLines(Widget):
    """A widget whose :meth:`render_line` draws each line whole: as wide as the widget,
    on its own background, with every colour RGB, and with no border, padding, tint or
    opacity in its styles. Its lines go to the compositor without Textual's styles cache
    and without the filter from ANSI colours to RGB, which would only copy them (a test
    of each such widget holds its lines equal to what the styles cache draws)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines of ``crop`` from :meth:`render_line`, through the app's other filters
        (``NO_COLOR``'s)."""
        render = self.render_line
        strips = [render(y) for y in crop.line_range]
        filters = [f for f in self.get_line_filters() if not isinstance(f, ANSIToTruecolor)]
        if filters:
            background = self.background_colors[1]
            for line_filter in filters:
                strips = [strip.apply_filter(line_filter, background) for strip in strips]
        left, right = crop.column_span
        if (left, right) != (0, self.outer_size.width):
            strips = [strip.crop(left, right) for strip in strips]
        return strips


class FitsItsLines(Widget):
    """A widget as tall as the lines it renders (``height: auto``). Textual measures that
    height only when it lays the screen out; :meth:`fit_lines`, called when the state
    changes, lays it out again where the number of lines has changed."""

    def __init__(self, *, id: str | None = None) -> None:
        """A widget not yet measured."""
        super().__init__(id=id)
        self._lines = 0
        """The number of lines the widget was last laid out for."""

    def fit_lines(self, text: Text) -> None:
        """Lay the screen out again if ``text`` (what the widget now renders) has another
        number of lines than the last."""
        lines = text.plain.count("\n") + 1
        if lines != self._lines:
            self._lines = lines
            self.refresh(layout=True)
