"""The status bar under the woodland: the live preview of the card being placed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.segment import Segment
from rich.style import Style
from textual.reactive import var
from textual.strip import Strip
from textual.widget import Widget

from forage.app.describe import ELLIPSIS

TONE_STYLES: Final = {
    "gain": Style.parse("bold #80ff80"),
    "level": Style.parse("bold"),
    "loss": Style.parse("bold #ffb040"),
    "refused": Style.parse("bold #ff5050"),
    "idle": Style.parse("bold"),
}
"""The headline's style by its tone: a gain, no change, a loss, a refusal, or nothing yet."""
NOTE_STYLE: Final = Style.parse("#ffff99")


@dataclass(frozen=True)
class StatusState:
    """What the status bar says: a headline (coloured by its tone), details, and a note on
    the last line (what the last drop did, a hint, or the answer to a key)."""

    headline: str = ""
    details: str = ""
    tone: str = "idle"
    """``gain``, ``level``, ``loss``, ``refused`` or ``idle`` (see :data:`TONE_STYLES`)."""
    note: str = ""

    @property
    def refused(self) -> bool:
        """Whether the headline is a refusal."""
        return self.tone == "refused"


def one_line(text: str, width: int) -> str:
    """Text on one line of ``width`` cells, cut with an ellipsis if it is longer."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    return text[: max(0, width - 1)].rstrip() + ELLIPSIS


class StatusBar(Widget):
    """What the placement would do (or why not), the details, and a note: a line each."""

    DEFAULT_CSS = """
    StatusBar { height: 3; }
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
        """Cut the words again at the new width."""
        self._strips = None

    def lines(self, width: int) -> list[tuple[str, Style]]:
        """The bar's lines at this width: the headline, the details and the note, each cut
        to one line."""
        state = self.state
        out = [(one_line(state.headline, width), TONE_STYLES.get(state.tone, Style()))]
        out.append((one_line(state.details, width), Style()))
        if state.note:
            out.append((one_line(state.note, width), NOTE_STYLE))
        return out

    def render_line(self, y: int) -> Strip:
        """One line of the bar on its background."""
        width = self.size.width
        if self._strips is None:
            base = self.rich_style
            self._strips = [
                Strip([Segment(text, base + style)]).adjust_cell_length(width, base)
                for text, style in self.lines(max(1, width))
            ]
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self.rich_style)
