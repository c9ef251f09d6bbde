"""The woodland: a grid of top areas, with the card being placed drawn over it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Final, NamedTuple

from rich.cells import cell_len
from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.reactive import var
from textual.strip import Strip

from forage.app.describe import (
    BAR,
    BASKET,
    EMPTY,
    MARK_EMPTY,
    MARK_IN,
    PEEK,
    SLASH,
    TERRAIN,
    CellPreview,
    face,
)
from forage.app.themes import DEFAULT_PALETTE, PALETTES, Palette, palette_name
from forage.app.widgets.lines import WholeLines, line_regions
from forage.engine import Area, Colour, Die, Outcome, Square
from forage.engine.areas import EDWOOD_POINTS
from forage.engine.woodland import Pos
from forage.i18n import _

UNDERLINE: Final = Style(underline=True)
NO_STYLE: Final = Style()


class CellSize(NamedTuple):
    """The size of one woodland area on screen (a separator column follows each)."""

    width: int
    height: int


SIZES: Final = (CellSize(9, 4), CellSize(7, 3), CellSize(5, 2), CellSize(3, 1))
"""Cell sizes from largest to the compact one used at 80x24 when the woodland grows."""


class WoodlandState(NamedTuple):
    """Everything the woodland view draws: the top areas and the card being placed."""

    squares: Mapping[Pos, Square] = MappingProxyType({})
    card: tuple[tuple[int, int, Area], ...] = ()
    """The card being placed as (x, y, area) in woodland coordinates."""
    outcome: Outcome | None = None
    """The engine's outcome of the card where it is shown."""
    previews: Mapping[Pos, CellPreview] = MappingProxyType({})
    """What each area of the card covers and what the drop does there."""
    peek: bool = False
    """Show the woodland under the card, the card only outlined."""
    game: int = 0
    """Which game of the screen this is: a new one sizes and places the view afresh."""
    marked: frozenset[Pos] = frozenset()
    """Squares marked as the place to go (a lesson's spot), pointed at from either side."""
    follow: bool = True
    """Whether the view moves to show the card; False while it waits where it was dealt,
    beside the woodland, not yet moved: the view then keeps its place."""


Chunk = tuple[str, Style]


def _split_bg(area: Area, column: int, width: int, palette: dict[Colour, str]) -> str:
    colours = area.colours
    if len(colours) == 1:
        return palette[colours[0]]
    return palette[colours[0]] if column < (width + 1) // 2 else palette[colours[1]]


def _fit(text: str, width: int) -> str:
    """A label in ``width`` cells, padded: where it is longer, its last words are left out
    (all of them if need be), never a word or a number cut short."""
    words = text.split(" ")
    while cell_len(" ".join(words)) > width:
        words.pop()
    fitted = " ".join(words)
    return fitted + " " * (width - cell_len(fitted))


def edwood_words(height: int) -> tuple[str, ...]:
    """Edwood's mark as an area ``height`` lines tall draws it, a word a line."""
    cost = f"  {EDWOOD_POINTS}"
    words = {1: ("EDW",), 2: ("Edw", "mouse"), 3: ("EDWOOD", " mouse", cost)}
    return words.get(height, ("EDWOOD", " mouse", cost, ""))


def edwood_mark(height: int) -> str:
    """Edwood's mark as an area ``height`` lines tall draws it, on one line (the help's)."""
    return " ".join(word.strip() for word in edwood_words(height) if word.strip())


def area_lines(
    area: Area,
    die: Die | None,
    edwood: bool,
    size: CellSize,
    on_card: bool = False,
    no_color: bool = False,
    palette: str = DEFAULT_PALETTE,
) -> tuple[tuple[Chunk, ...], ...]:
    """The lines of one area: its type letter(s), its die or Edwood, in its colours."""
    w, h = size.width, size.height
    look = PALETTES[palette]
    fg = look.marks["text-card" if on_card else "text"].color
    letters = [c.value.lower() for c in area.colours]
    split = len(letters) == 2
    slash = SLASH
    if edwood:
        return tuple(((_fit(word, w), look.marks["edwood"]),) for word in edwood_words(h))
    # the terrain line(s)
    badge = (-1, 0, 0)  # (row, first column, last column + 1) of the die's label
    if h == 1:
        if die is None:
            text = f"{letters[0]}{slash}{letters[1]}" if split else f"{letters[0]}  "
        else:
            text = f"{die.colour.value}{face(die.value):>2}"
            badge = (0, 0, 3)
        rows = [text]
    else:
        if split:
            top = (
                f"{letters[0]}{slash}{letters[1]}"
                if w <= 5
                else f"{letters[0]}  {slash}  {letters[1]}"
            )
        else:
            top = letters[0] if w <= 5 else _(TERRAIN[area.colours[0]])
        rows = [_fit(top, w)]
        if die is None:
            rows += [" " * w] * (h - 1)
        else:
            label = f"{die.colour.value}{face(die.value):>2}"
            indent = 0 if w <= 5 else 2
            rows.append(_fit(" " * indent + label, w))
            badge = (1, indent, indent + len(label))
            if h >= 3:
                extra = _("mouse") if die.mouse else (_("basket") if die.value == 15 else "")
                rows.append(_fit("  " + extra if cell_len(extra) + 2 <= w else extra, w))
            rows += [" " * w] * (h - len(rows))
    return _paint(rows, area, die, badge, look, fg, on_card, no_color)


def _paint(
    rows: list[str],
    area: Area,
    die: Die | None,
    badge: tuple[int, int, int],
    look: Palette,
    fg: Color | None,
    on_card: bool,
    no_color: bool,
    highlight: int = -1,
) -> tuple[tuple[Chunk, ...], ...]:
    """Rows of text on the area's colours; the die's label as a badge of its colour (a
    mouse's face on red); row ``highlight`` marks a change the drop makes."""
    palette = look.card if on_card else look.terrain
    ink, basket = look.marks["text-card"].color, look.marks["basket"].color
    w = cell_len(rows[0]) if rows else 0
    row_b, start_b, end_b = badge
    lines: list[tuple[Chunk, ...]] = []
    for row, text in enumerate(rows):
        line: list[Chunk] = []
        stripped = cell_len(text.rstrip())
        column = 0  # the cell each character starts at (a Japanese one takes two)
        for char in _fit(text, w):
            if die is not None and row == row_b and start_b <= column < end_b:
                if die.mouse and column > start_b:
                    style = look.mouse
                else:
                    style = Style(color=ink, bgcolor=look.card[die.colour], bold=True)
            elif row == highlight and column < max(stripped, 1):
                style = look.marks["change"]
            else:
                bg = _split_bg(area, column, w, palette)
                bold = die is not None or on_card
                colour = basket if char == BASKET and not on_card else fg
                style = Style(color=colour, bgcolor=bg, bold=bold)
            if on_card and no_color:
                style += Style(reverse=True)
            line.append((char, style))
            column += cell_len(char)
        lines.append(tuple(line))
    return tuple(lines)


def card_lines(
    area: Area,
    preview: CellPreview | None,
    size: CellSize,
    no_color: bool = False,
    palette: str = DEFAULT_PALETTE,
) -> tuple[tuple[Chunk, ...], ...]:
    """The lines of one area of the card being placed: its type, what the drop does there
    and what it covers (the cause of a refusal in red)."""
    w, h = size.width, size.height
    letters = "".join(c.value.lower() for c in area.colours)
    name = letters if len(letters) == 1 else SLASH.join(letters)
    if w > 5 and len(area.colours) == 1:
        name = _(TERRAIN[area.colours[0]])
    elif w > 5:
        name = f"{letters[0]}  {SLASH}  {letters[1]}"
    p = preview if preview is not None else CellPreview("", "", "", "", "", False, None)

    def pick(long: str, short: str) -> str:
        return long if cell_len(long) <= w else short

    if h == 1:
        rows = [p.short if 0 < cell_len(p.short) <= w else name]
    elif h == 2:
        rows = [name, p.short or p.short_below]
    elif h == 3:
        rows = [name, pick(p.change, p.short), pick(p.below, p.short_below)]
    else:
        rows = [name, pick(p.change, p.short), p.word, pick(p.below, p.short_below)]
        rows += [""] * (h - len(rows))
    rows = [_fit(r, w) for r in rows]
    look = PALETTES[palette]
    if p.cause:
        return tuple(tuple((ch, look.marks["cause"]) for ch in row) for row in rows)
    changed = 0 if h == 1 else 1
    highlight = changed if (p.change or p.short) and rows[changed].strip() else -1
    ink = look.marks["text-card"].color
    return _paint(rows, area, None, (-1, 0, 0), look, ink, True, no_color, highlight)


@lru_cache(maxsize=4096)
def _area_segments(
    area: Area,
    die: Die | None,
    edwood: bool,
    size: CellSize,
    on_card: bool,
    no_color: bool,
    underline: bool,
    base: Style,
    palette: str = DEFAULT_PALETTE,
) -> tuple[tuple[Segment, ...], ...]:
    """An area's lines as segments over ``base``, runs of one style joined.

    With ``underline`` the last line is underlined (a card edge below).
    """
    lines = area_lines(area, die, edwood, size, on_card, no_color, palette)
    out = []
    for i, line in enumerate(lines):
        last = underline and i == len(lines) - 1
        segments = [Segment(ch, base + (st + UNDERLINE if last else st)) for ch, st in line]
        out.append(tuple(Segment.simplify(segments)))
    return tuple(out)


@lru_cache(maxsize=1024)
def _card_segments(
    area: Area,
    preview: CellPreview | None,
    size: CellSize,
    no_color: bool,
    base: Style,
    palette: str = DEFAULT_PALETTE,
) -> tuple[tuple[Segment, ...], ...]:
    """An area of the card being placed as segments over ``base``."""
    lines = card_lines(area, preview, size, no_color, palette)
    return tuple(
        tuple(Segment.simplify([Segment(ch, base + st) for ch, st in line])) for line in lines
    )


@lru_cache(maxsize=16)
def _empty_segments(
    size: CellSize, base: Style, palette: str = DEFAULT_PALETTE, marked: bool = False
) -> tuple[tuple[Segment, ...], ...]:
    """An area of empty table: a faint dot in the middle, for counting squares (a marked
    one: the mark of the place to go)."""
    lines = [(Segment(" " * size.width, base),) for _ in range(size.height)]
    marks = PALETTES[palette].marks
    dot, style = (MARK_EMPTY, marks["peek"]) if marked else (EMPTY, marks["empty"])
    lines[size.height // 2] = (Segment(dot.center(size.width), base + style),)
    return tuple(lines)


@lru_cache(maxsize=64)
def _style(color: Color | None, bgcolor: str | None, bold: bool | None = None) -> Style:
    """A shared style object for separator columns."""
    return Style(color=color, bgcolor=bgcolor, bold=bold)


REACH: Final = 3
"""How far beyond the woodland the card being placed can reach (one card length)."""


def _bounds(state: WoodlandState) -> tuple[int, int, int, int]:
    """The woodland's bounding box (or the card's, on an empty table)."""
    xs = [x for x, _ in state.squares] or [x for x, _, _ in state.card] or [0]
    ys = [y for _, y in state.squares] or [y for _, y, _ in state.card] or [0]
    return min(xs), min(ys), max(xs), max(ys)


def _fits(state: WoodlandState, size: CellSize, width: int, height: int, margin: int) -> bool:
    """Whether the woodland with ``margin`` areas around it fits at this cell size."""
    x0, y0, x1, y1 = _bounds(state)
    cols = (width - 1) // (size.width + 1)
    rows = height // size.height
    return x1 - x0 + 1 + 2 * margin <= cols and y1 - y0 + 1 + 2 * margin <= rows


def choose_size(
    state: WoodlandState, width: int, height: int, previous: CellSize | None = None
) -> CellSize:
    """The cell size to draw at: with a ``previous`` size that still fits the woodland and
    one area around it, that size (the view shrinks only when it must); else the largest
    at which the woodland and a card's reach around it fit (a card that covers the
    woodland reaches two areas beyond it), else the woodland and one area around it, else
    the woodland alone, else the compact one.

    The size depends on the woodland only, so it changes when a card is placed, never
    while the card being placed moves.
    """
    if previous is not None and previous in SIZES[:-1] and _fits(state, previous, width, height, 1):
        return previous
    for margin in (REACH - 1, 1, 0):
        for size in SIZES[:-1]:
            if _fits(state, size, width, height, margin):
                return size
    return SIZES[-1]


def _axis_origin(
    lo: int,
    hi: int,
    card_lo: int,
    card_hi: int,
    span: int,
    previous: int | None,
) -> int:
    """The first visible coordinate on one axis, ``[lo, hi]`` being the woodland.

    While the woodland fits, all of it stays in view: the view keeps its place (centred
    at first) and moves only as far as it can without cutting the woodland to show more
    of the card being placed, which is clipped instead. A woodland larger than the view
    is followed with the card, within the woodland.
    """
    extent = hi - lo + 1
    if extent <= span:
        first, last = hi - span + 1, lo  # the origins that show the whole woodland
        origin = lo - (span - extent) // 2 if previous is None else previous
        origin = min(max(origin, first), last)
        if card_lo < origin:
            origin = max(first, card_lo)
        elif card_hi >= origin + span:
            origin = min(last, card_hi - span + 1)
        return origin
    origin = (lo + hi + 1 - span) // 2 if previous is None else previous
    origin = max(card_hi - span + 1, min(origin, card_lo))
    return max(lo - REACH, min(origin, hi + REACH - span + 1))


class WoodlandView(WholeLines):
    """The woodland grid; the card being placed is drawn over it with its live preview."""

    DEFAULT_CSS = """
    WoodlandView { width: 1fr; height: 1fr; }
    """

    state: var[WoodlandState] = var(WoodlandState, always_update=True)
    """What to draw; setting it repaints only the lines that change."""

    class SpotClicked(Message):
        """The player clicked an area of the grid: move the card there."""

        def __init__(self, x: int, y: int) -> None:
            """Remember the clicked square."""
            self.x = x
            self.y = y
            super().__init__()

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """A woodland view with no origin yet."""
        super().__init__(id=id, classes=classes)
        self._origin: tuple[int, int] | None = None
        self._layout_key: tuple[object, ...] = ()
        self._origin_squares: object = None
        """The woodland the view's place was worked out for (a new one holds the place)."""
        self._cell = SIZES[-1]
        self._lines: list[list[Segment]] | None = None
        self._strips: dict[int, tuple[list[Segment] | None, Strip]] = {}
        """Each screen line's strip and the drawn line it was made from."""
        self._drawn_for: tuple[object, ...] = ()
        """The widget's outer size and the palette the lines were drawn for."""
        self._width = 0
        """The width the lines were drawn for."""
        self._base_style = Style()
        self._rows: RowCache = {}
        self._rows_for: tuple[object, ...] = ()

    @property
    def drawn_layout(self) -> tuple[CellSize, int, int] | None:
        """The cell size and top-left square the view was last drawn at (None before)."""
        if self._origin is None:
            return None
        return self._cell, self._origin[0], self._origin[1]

    def layout_for(self, width: int, height: int) -> tuple[CellSize, int, int]:
        """The cell size and the woodland square at the view's top-left, for the state now
        and the view as last drawn (a query: it changes nothing)."""
        state = self.state
        same_view = self._layout_key[1:] == (width, height, state.game)
        kept = self._cell if self._layout_key and same_view else None
        size = choose_size(state, width, height, kept)
        cols = max(1, (width - 1) // (size.width + 1))
        rows = max(1, height // size.height)
        x0, y0, x1, y1 = _bounds(state)
        dropped = state.squares is not self._origin_squares  # a drop or undo: hold the view
        if state.card and state.follow and not dropped:
            cx0 = min(x for x, _, _ in state.card)
            cx1 = max(x for x, _, _ in state.card)
            cy0 = min(y for _, y, _ in state.card)
            cy1 = max(y for _, y, _ in state.card)
        else:
            cx0, cy0, cx1, cy1 = x0, y0, x1, y1
        # The view keeps its place while the cell size and the view's size stay (a drop
        # does not re-centre it); a new size starts it afresh, centred.
        key = (size, width, height, state.game)
        prev = self._origin if key == self._layout_key else None
        ox = _axis_origin(x0, x1, cx0, cx1, cols, prev[0] if prev else None)
        oy = _axis_origin(y0, y1, cy0, cy1, rows, prev[1] if prev else None)
        return size, ox, oy

    def watch_state(self) -> None:
        """Draw the new state and repaint just the lines that differ from the last one."""
        before, cell, origin = self._lines, self._cell, self._origin
        self._lines = None
        if before is None or not self.is_mounted:
            self.refresh()
            return
        after = self.grid_lines()
        if len(before) != len(after) or (cell, origin) != (self._cell, self._origin):
            self.refresh()
            return
        # A changed line is repainted whole: Textual writes a widget's line whole anyway.
        changed = [y for y, line in enumerate(after) if line is not before[y] and line != before[y]]
        if changed:
            self.refresh(*line_regions(changed, self._width))

    def on_resize(self) -> None:
        """Draw again at the new size."""
        self._lines = None
        self._strips = {}
        self._rows = {}

    def grid_lines(self) -> list[list[Segment]]:
        """The grid's lines as segments, drawn once per state and size."""
        palette = palette_name(self.app)
        drawn_for = (self.outer_size, palette)
        if self._lines is not None and self._drawn_for == drawn_for:
            return self._lines
        width, height = self.size.width, self.size.height
        if self._drawn_for != drawn_for:
            self._base_style = self.rich_style  # the theme's background, per size
            self._strips = {}
        self._width = width
        if width < 4 or height < 1:
            self._lines = []
            self._strips = {}
        else:
            size, ox, oy = self.layout_for(width, height)
            self._origin = (ox, oy)
            self._cell = size
            self._layout_key = (size, width, height, self.state.game)
            self._origin_squares = self.state.squares
            base = self._base_style
            # Rows away from the card are kept while the woodland and layout stay.
            rows_for = (
                self.state.squares,
                self.state.marked,
                self.state.peek,
                size,
                ox,
                width,
                self.app.no_color,
                base,
                palette,
            )
            if self._rows_for != rows_for:
                self._rows = {}
                self._rows_for = rows_for
            no_color = self.app.no_color
            self._lines = grid_segments(
                self.state, size, ox, oy, width, height, no_color, self._rows, base, palette
            )
        self._drawn_for = drawn_for
        return self._lines

    def render_line(self, y: int) -> Strip:
        """One line of the grid on the widget's own background (a line drawn before is
        not made into a strip again)."""
        lines = self.grid_lines()
        line = lines[y] if y < len(lines) else None
        kept = self._strips.get(y)
        if kept is not None and kept[0] is line:
            return kept[1]
        base, width = self._base_style, self._width
        if line is None:
            strip = Strip.blank(width, base)
        else:
            strip = Strip(line).adjust_cell_length(width, base)
        self._strips[y] = (line, strip)
        return strip

    def plain_text(self) -> str:
        """The grid as plain text (for tests and debugging)."""
        return "\n".join("".join(seg.text for seg in line) for line in self.grid_lines())

    class Turned(Message):
        """The player turned the wheel or right-clicked: rotate the card."""

        def __init__(self, clockwise: bool) -> None:
            """Remember which way."""
            self.clockwise = clockwise
            super().__init__()

    class DoubleClicked(Message):
        """The player double-clicked: place the card."""

    def on_click(self, event: events.Click) -> None:
        """A click moves the card to the square clicked; a right click rotates it, a
        double click places it."""
        if event.button == 3:
            self.post_message(self.Turned(True))
            return
        if event.chain >= 2:
            self.post_message(self.DoubleClicked())
            return
        if self._origin is None:
            return
        size = self._cell
        column = (event.x - 1) // (size.width + 1)
        row = event.y // size.height
        self.post_message(self.SpotClicked(self._origin[0] + column, self._origin[1] + row))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        """The wheel turns the card clockwise."""
        event.stop()
        self.post_message(self.Turned(True))

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """The wheel turns the card counter-clockwise."""
        event.stop()
        self.post_message(self.Turned(False))


CellLines = tuple[tuple[Segment, ...], ...]
"""One area's segments, a tuple for each of its screen lines."""


class DrawnRow(NamedTuple):
    """One woodland row on screen: its areas, the separator columns around them, and the
    screen lines they make."""

    cells: list[CellLines]
    seps: list[Segment]
    """The separator left of the first area, then the one right of each area."""
    lines: list[list[Segment]]


RowCache = dict[int, DrawnRow]
"""Drawn rows of the woodland without the card, by woodland y, for one woodland and layout."""


def grid_segments(
    state: WoodlandState,
    size: CellSize,
    ox: int,
    oy: int,
    width: int,
    height: int,
    no_color: bool = False,
    rows_cache: RowCache | None = None,
    base: Style = NO_STYLE,
    palette: str = DEFAULT_PALETTE,
) -> list[list[Segment]]:
    """The grid's lines over ``base``: woodland areas, card edges, and the card being placed.

    With ``rows_cache`` each row is drawn once without the card (and kept there), and the
    card's rows are that drawing with the areas and separators the card changes drawn
    again; the caller keeps one cache per woodland, cell size, left column and width.
    """
    cols = max(1, (width - 1) // (size.width + 1))
    rows = max(1, height // size.height)
    card = {(cx, cy): area for cx, cy, area in state.card}
    # The card changes its own rows and the underlines of the row above it.
    touched = {cy for _, cy in card} | {cy - 1 for _, cy in card}
    out: list[list[Segment]] = []
    for y in range(oy, oy + rows):
        if rows_cache is None:
            out.extend(_row_lines(state, card, size, ox, y, cols, no_color, base, palette).lines)
            continue
        row = rows_cache.get(y)
        if row is None:
            row = _row_lines(state, {}, size, ox, y, cols, no_color, base, palette)
            rows_cache[y] = row
        if y in touched:
            row = _with_card(row, state, card, size, ox, y, no_color, base, palette)
        out.extend(row.lines)
    return out


def _row_lines(
    state: WoodlandState,
    card: dict[Pos, Area],
    size: CellSize,
    ox: int,
    y: int,
    cols: int,
    no_color: bool,
    base: Style,
    palette: str = DEFAULT_PALETTE,
) -> DrawnRow:
    """One woodland row over ``base``, in a palette, with ``card`` drawn over it."""
    cells = [
        _cell(state, card, (x, y), size, no_color, base, palette) for x in range(ox, ox + cols)
    ]
    seps = [
        _on(base, *_separator(state, state.squares, card, x, y, palette))
        for x in range(ox - 1, ox + cols)
    ]
    return DrawnRow(cells, seps, _joined(cells, seps, size.height))


def _with_card(
    row: DrawnRow,
    state: WoodlandState,
    card: dict[Pos, Area],
    size: CellSize,
    ox: int,
    y: int,
    no_color: bool,
    base: Style,
    palette: str,
) -> DrawnRow:
    """A row drawn without the card, with the areas and separators the card changes drawn
    again: its own areas, the areas above it (their underline), the columns beside it."""
    cells, seps = list(row.cells), list(row.seps)
    for cx, cy in card:
        if cy != y and cy != y + 1:
            continue
        if 0 <= cx - ox < len(cells):
            cells[cx - ox] = _cell(state, card, (cx, y), size, no_color, base, palette)
        if cy == y:
            for x in (cx - 1, cx):
                if 0 <= x - ox + 1 < len(seps):
                    seps[x - ox + 1] = _on(
                        base, *_separator(state, state.squares, card, x, y, palette)
                    )
    return DrawnRow(cells, seps, _joined(cells, seps, size.height))


def _joined(cells: list[CellLines], seps: list[Segment], height: int) -> list[list[Segment]]:
    """The screen lines of a row's areas with a separator column around each."""
    out: list[list[Segment]] = []
    for i in range(height):
        line: list[Segment] = [seps[0]]
        for cell, sep in zip(cells, seps[1:], strict=True):
            line.extend(cell[i])
            line.append(sep)
        out.append(line)
    return out


def _cell(
    state: WoodlandState,
    card: dict[Pos, Area],
    pos: Pos,
    size: CellSize,
    no_color: bool,
    base: Style,
    palette: str,
) -> CellLines:
    """One area of the grid: the card's over the woodland (unless peeking under it), else
    the woodland's top area (underlined above another card's), else empty."""
    if pos in card and not state.peek:
        preview = state.previews.get(pos)
        return _card_segments(card[pos], preview, size, no_color, base, palette)
    sq = state.squares.get(pos)
    if sq is None:
        return _empty_segments(size, base, palette, pos in state.marked)
    x, y = pos
    below = state.squares.get((x, y + 1))
    edge = below is not None and below.card != sq.card and (x, y + 1) not in card
    return _area_segments(sq.area, sq.die, sq.edwood, size, False, False, edge, base, palette)


@lru_cache(maxsize=256)
def _on(base: Style, text: str, style: Style) -> Segment:
    """A separator's segment over ``base`` (a few are drawn again and again)."""
    return Segment(text, base + style)


def _separator(
    state: WoodlandState,
    squares: Mapping[Pos, Square],
    card: dict[Pos, Area],
    x: int,
    y: int,
    palette: str = DEFAULT_PALETTE,
) -> Chunk:
    """The column between (x, y) and (x + 1, y): a card edge, blank beside the card being
    placed, or its outline while peeking under it."""
    here, right = (x, y), (x + 1, y)
    marked = state.marked
    if not state.peek and (here in marked) != (right in marked):
        return (MARK_IN[0] if right in marked else MARK_IN[1], PALETTES[palette].marks["peek"])
    if here in card or right in card:
        if state.peek and (here in card) != (right in card):
            return (PEEK, PALETTES[palette].marks["peek"])
        return (" ", NO_STYLE)
    left_sq, right_sq = squares.get(here), squares.get(right)
    if left_sq is not None and right_sq is not None:
        look = PALETTES[palette]
        bg = _split_bg(left_sq.area, 99, 1, look.terrain)
        if left_sq.card != right_sq.card:
            return (BAR, _style(look.marks["text-card"].color, bg, bold=True))
        return (" ", _style(None, bg))
    return (" ", NO_STYLE)
