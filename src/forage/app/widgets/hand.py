"""The hand: both cards drawn small and named by the recipes on their backs, the chosen one
marked; turn and draw pile."""

from __future__ import annotations

from typing import Final, NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from forage.app.describe import DOT, FRAME, POINTER, SLASH, recipe_name
from forage.app.themes import DEFAULT_PALETTE, PALETTES, palette_name
from forage.app.widgets.lines import FitsItsLines
from forage.engine import Card, Rotation
from forage.i18n import _


class HandState(NamedTuple):
    """What the hand view shows."""

    cards: tuple[Card, ...] = ()
    selected: int = 0
    turn: int = 1
    turns: int = 8
    draw_pile: int = 0
    rotation: Rotation | None = None
    """The rotation the selected card will be placed with."""
    challenge: bool = False
    """A recipe challenge."""
    over: bool = False
    """Whether the game is over (no turn to name)."""
    waiting: str = ""
    """What the turn waits for (a room's: ``waiting for Cid``), said after the turn in
    place of the draw pile."""


BLOCK = 12
"""Columns of each hand card (a 3-area-wide card, its frame and a gap)."""
NAMES_ROW = 4
"""The line of the first card's name: under the heading and the cards' three rows."""
NAMED: Final = {True: "bold reverse", False: "italic"}
"""The style of a hand card's name: the chosen card's, the other's."""


def mini_card(
    card: Card, rotation: Rotation = Rotation.R0, palette: str = DEFAULT_PALETTE
) -> list[Text]:
    """A card at a rotation as lines of small areas (letters on their colours)."""
    bg = PALETTES[palette].terrain
    width, height = card.size(rotation)
    grid = {(dx, dy): area for dx, dy, area in card.footprint(rotation)}
    lines: list[Text] = []
    for row in range(height):
        line = Text()
        for column in range(width):
            area = grid[column, row]
            colours = area.colours
            if len(colours) == 1:
                line.append(f" {colours[0].value.lower()} ", Style(bgcolor=bg[colours[0]]))
            else:
                a, b = colours
                line.append(a.value.lower(), Style(bgcolor=bg[a]))
                line.append(SLASH, Style(color=bg[b], bgcolor=bg[a]))
                line.append(b.value.lower(), Style(bgcolor=bg[b]))
        lines.append(line)
    return lines


class HandView(FitsItsLines):
    """The two hand cards; clicking one chooses it."""

    DEFAULT_CSS = """
    HandView { height: auto; }
    """

    state: reactive[HandState] = reactive(HandState)

    class Chosen(Message):
        """The player clicked hand card ``index``."""

        def __init__(self, index: int) -> None:
            """Remember which card."""
            self.index = index
            super().__init__()

    def watch_state(self) -> None:
        """Lay the screen out again when the hand's lines grow or shrink (one card left,
        none, or two again after an undo)."""
        self.fit_lines(self.render())

    def render(self) -> Text:
        """The heading, the small cards side by side, and their names (the recipes on their
        backs, as the status bar and hints name them), the chosen one marked."""
        st = self.state
        text = Text(no_wrap=True, overflow="crop")
        # Translators: the hand panel's heading (28 columns with the turn): cards to draw.
        pile = _("{count} to draw").format(count=st.draw_pile) if st.draw_pile else _("pile empty")
        pile = st.waiting or pile
        if st.over:
            text.append(_("Game over"), "bold")
            text.append(f" {DOT} {pile}\n")
        else:
            turn = _("Turn {turn} of {turns}").format(turn=min(st.turn, st.turns), turns=st.turns)
            text.append(turn, "bold")
            text.append(f" {DOT} {pile}\n")
        if not st.cards:
            text.append(_("Hand empty"))
            return text
        palette = palette_name(self.app)
        minis = [
            mini_card(
                card, st.rotation if i == st.selected and st.rotation else Rotation.R0, palette
            )
            for i, card in enumerate(st.cards)
        ]
        for row in range(3):
            if row:
                text.append("\n")
            for index, mini in enumerate(minis):
                frame = index == st.selected and row < len(mini)
                text.append(FRAME[0] if frame else " ", "bold")
                part = mini[row] if row < len(mini) else Text("")
                text.append_text(part)
                text.append(FRAME[1] if frame else " ", "bold")
                text.append(" " * (BLOCK - 2 - part.cell_len))
        for index, card in enumerate(st.cards):  # named by the recipe on their backs
            chosen = index == st.selected
            name = (
                recipe_name(card.recipe)
                if card.recipe is not None
                else _("card {number}").format(number=card.number)
            )
            text.append("\n")
            text.append(f"{POINTER if chosen else ' '}{index + 1} {name}", NAMED[chosen])
        return text

    def on_click(self, event: events.Click) -> None:
        """Choose the card under the pointer: its drawing or its name."""
        index = event.y - NAMES_ROW if event.y >= NAMES_ROW else event.x // BLOCK
        if 0 <= index < len(self.state.cards):
            self.post_message(self.Chosen(index))
