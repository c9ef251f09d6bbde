"""The status bar under the woodland: the live preview of the card being placed."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Final

from rich.segment import Segment
from rich.style import Style
from textual.reactive import var
from textual.strip import Strip
from textual.widget import Widget

LEGAL_STYLE: Final = Style.parse("bold #80ff80")
ILLEGAL_STYLE: Final = Style.parse("bold #ff5050")
NOTE_STYLE: Final = Style.parse("#ffff99")


@dataclass(frozen=True)
class StatusState:
    """What the status bar says: a headline (green if legal, red if not), details, and a
    note on the last line (what the last drop did, a hint, or the answer to a key)."""

    headline: str = ""
    details: str = ""
    legal: bool = True
    note: str = ""


class StatusBar(Widget):
    """What the placement would do (or why not), then the details; wraps on narrow screens."""

    DEFAULT_CSS = """
    StatusBar { height: 4; }
    """

    state: var[StatusState] = var(StatusState)
    """What to say; a new value repaints the bar."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """An empty status bar."""
        super().__init__(id=id, classes=classes)
        self._strips: list[Strip] | None = None

    def watch_state(self) -> None:
        """Repaint with the new words."""
        self._strips = None
        self.refresh()

    def on_resize(self) -> None:
        """Wrap the words again at the new width."""
        self._strips = None

    def lines(self, width: int) -> list[tuple[str, Style]]:
        """The bar's lines at this width: the headline's, then the details'."""
        state = self.state
        style = LEGAL_STYLE if state.legal else ILLEGAL_STYLE
        out = [(line, style) for line in textwrap.wrap(state.headline, width) or [""]]
        out += [(line, Style()) for line in textwrap.wrap(state.details, width)]
        if state.note:
            out += [(line, NOTE_STYLE) for line in textwrap.wrap(state.note, width)]
        return out

    def render_line(self, y: int) -> Strip:
        """One line of the bar on its background."""
        width = self.size.width
        if self._strips is None:
            base = self.rich_style
            lines = self.lines(max(1, width))
            note = textwrap.wrap(self.state.note, max(1, width))[:1]
            if len(lines) > self.size.height and note:  # the note keeps the last line
                lines = [*lines[: self.size.height - 1], (note[0], NOTE_STYLE)]
            self._strips = [
                Strip([Segment(text, base + style)]).adjust_cell_length(width, base)
                for text, style in lines
            ]
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self.rich_style)
