"""The status bar under the woodland: the live preview of the card being placed."""

from __future__ import annotations

from typing import Final, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.reactive import var
from textual.strip import Strip

from forage.app.describe import ELLIPSIS, brief_within, chars_within
from forage.app.themes import marks_of
from forage.app.widgets.lines import WholeLines, line_regions

NO_STYLE: Final = Style()


class StatusState(NamedTuple):
    """What the status bar says: a headline (coloured by its tone), details, and a note on
    the last line (what the last drop did, a hint, or the answer to a key)."""

    headline: str = ""
    details: str = ""
    tone: str = "idle"
    """``gain``, ``level``, ``loss``, ``refused`` or ``idle``: the headline's style is the
    palette's mark of that name (``forage.app.themes.MARKS``)."""
    note: str = ""
    note_tone: str = "note"
    """The note's style: the palette's mark of that name (``gain``, ``level`` or ``loss``
    for what the last drop did)."""
    brief: str = ""
    """The details in fewer words, said where the details do not fit on their line."""

    @property
    def refused(self) -> bool:
        """Whether the headline is a refusal."""
        return self.tone == "refused"


def one_line(text: str, width: int) -> str:
    """Text on one line of ``width`` cells, cut with an ellipsis if it is longer."""
    text = " ".join(text.split())
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, max(0, width - 1)).rstrip() + ELLIPSIS


def headline_lines(text: str, width: int) -> list[str]:
    """A headline on one line of ``width`` cells, or where it is longer on two (the second
    cut with an ellipsis if need be): the reason a drop is refused is never cut short. A
    line without spaces (Japanese) breaks after its last stop or comma that fits."""
    text = " ".join(text.split())
    if cell_len(text) <= width:
        return [text]
    cut = text.rfind(" ", 0, chars_within(text, width + 1))
    end = chars_within(text, width)
    stop = max((index + 1 for index in range(end) if text[index] in WIDE_BREAKS), default=0)
    if stop > cut + 1:  # after a full-width mark, later than the last space
        return [text[:stop], one_line(text[stop:], width)]
    if cut <= 0:
        return [one_line(text, width)]
    return [text[:cut], one_line(text[cut + 1 :], width)]


WIDE_BREAKS: Final = "、。：）"
"""Full-width marks a line without spaces may break after."""


MARGIN: Final = 1
"""The blank columns the bar leaves on either side of its words."""


class StatusBar(WholeLines):
    """What the placement would do (or why not), the details, and a note: a line each,
    with a margin either side (drawn by the bar: it has no padding)."""

    DEFAULT_CSS = """
    StatusBar { height: 3; }
    """

    state: var[StatusState] = var(StatusState)
    """What to say; a new value repaints the bar."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """An empty status bar."""
        super().__init__(id=id, classes=classes)
        self._strips: list[Strip] | None = None
        self._base: tuple[str, Style] | None = None
        """The theme and the bar's background style in it (worked out once per theme)."""
        self._said: tuple[tuple[StatusState, int, str], list[tuple[str, Style]]] | None = None
        """The last state's lines, for that state, width and theme."""

    @property
    def text_width(self) -> int:
        """The columns the words have: the bar's width less its margins."""
        return max(1, self.outer_size.width - 2 * MARGIN)

    def watch_state(self, before: StatusState, after: StatusState) -> None:
        """Repaint the lines whose words changed."""
        self._strips = None
        width = self.text_width
        if not self.is_mounted or self.outer_size.width <= 2 * MARGIN:
            self.refresh()
            return
        old = self._lines_of(before, width)
        new = self._lines_of(after, width)
        changed = [
            y
            for y in range(max(len(old), len(new)))
            if y >= len(old) or y >= len(new) or old[y] != new[y]
        ]
        if changed:
            self.refresh(*line_regions(changed, self.outer_size.width))

    def on_resize(self) -> None:
        """Cut the words again at the new width."""
        self._strips = None
        self._base = None

    def lines(self, width: int) -> list[tuple[str, Style]]:
        """The bar's lines at this width: the headline (on two lines where it is too long,
        in place of the details), the details and the note, each cut to one line."""
        return self._lines_of(self.state, width)

    def _lines_of(self, state: StatusState, width: int) -> list[tuple[str, Style]]:
        """A state's lines at this width, in the app's palette: a headline too long for
        one line (a refusal's reason at 80 columns) goes on over the details' line (the
        last state's lines are kept: a new state is compared with them)."""
        key = (state, width, self.app.theme)
        if self._said is not None and self._said[0] == key:
            return self._said[1]
        lines = self._worked_out(state, width)
        self._said = (key, lines)
        return lines

    def _worked_out(self, state: StatusState, width: int) -> list[tuple[str, Style]]:
        """A state's lines at this width, in the app's palette."""
        marks = marks_of(self.app)
        style = marks.get(state.tone, NO_STYLE)
        head = headline_lines(state.headline, width)
        out = [(line, style) for line in head]
        if len(head) == 1:
            details = state.details
            if state.brief and cell_len(" ".join(details.split())) > width:
                details = brief_within(state.brief, width)
            out.append((one_line(details, width), NO_STYLE))
        if state.note:
            out.append((one_line(state.note, width), marks.get(state.note_tone, marks["note"])))
        return out

    def render_line(self, y: int) -> Strip:
        """One line of the bar on its background, its margins included."""
        width = self.outer_size.width
        theme = self.app.theme
        if self._strips is None or self._base is None or self._base[0] != theme:
            self._base = (theme, self.rich_style)
            base = self._base[1]
            margin = Segment(" " * MARGIN, base)
            self._strips = [
                Strip([margin, Segment(text, base + style)]).adjust_cell_length(width, base)
                for text, style in self.lines(self.text_width)
            ]
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self._base[1])
