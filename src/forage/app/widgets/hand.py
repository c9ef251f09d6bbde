"""The hand: both cards drawn small, the chosen one marked; turn and draw pile."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from forage.app.widgets.woodland import BG
from forage.engine import Card

MINI_WIDTH = 3
"""Characters per area in the small hand cards."""


@dataclass(frozen=True)
class HandState:
    """What the hand view shows."""

    cards: tuple[Card, ...] = ()
    selected: int = 0
    turn: int = 1
    turns: int = 8
    draw_pile: int = 0


def mini_card(card: Card) -> list[Text]:
    """A card upright as three lines of two small areas (letters on their colours)."""
    lines: list[Text] = []
    for row in range(3):
        line = Text()
        for column in range(2):
            area = card.areas[row * 2 + column]
            colours = area.colours
            if len(colours) == 1:
                line.append(f" {colours[0].value.lower()} ", Style(bgcolor=BG[colours[0]]))
            else:
                a, b = colours
                line.append(a.value.lower(), Style(bgcolor=BG[a]))
                line.append("╱", Style(color=BG[b], bgcolor=BG[a]))
                line.append(b.value.lower(), Style(bgcolor=BG[b]))
        lines.append(line)
    return lines


class HandView(Widget):
    """The two hand cards; clicking one chooses it."""

    DEFAULT_CSS = """
    HandView { height: 5; }
    """

    state: reactive[HandState] = reactive(HandState)

    class Chosen(Message):
        """The player clicked hand card ``index``."""

        def __init__(self, index: int) -> None:
            """Remember which card."""
            self.index = index
            super().__init__()

    def render(self) -> Text:
        """The heading, the card labels and the small cards side by side."""
        st = self.state
        text = Text(no_wrap=True, overflow="crop")
        pile = f"{st.draw_pile} to draw" if st.draw_pile else "pile empty"
        text.append(f"Turn {min(st.turn, st.turns)} of {st.turns}", "bold")
        text.append(f" · {pile}\n")
        if not st.cards:
            text.append("Hand empty")
            return text
        minis = [mini_card(card) for card in st.cards]
        labels = Text()
        for index, card in enumerate(st.cards):
            chosen = index == st.selected
            label = f"{'▶' if chosen else ' '}{index + 1}:#{card.number:<2}"
            labels.append(label.ljust(8), "bold reverse" if chosen else "")
            labels.append("  ")
        text.append_text(labels)
        for row in range(3):
            text.append("\n")
            for index, mini in enumerate(minis):
                text.append(" " if index != st.selected else "▐", "bold")
                text.append_text(mini[row])
                text.append(" " if index != st.selected else "▌", "bold")
                text.append("  ")
        return text

    def on_click(self, event: events.Click) -> None:
        """Choose the card under the pointer."""
        index = event.x // 10
        if 0 <= index < len(self.state.cards):
            self.post_message(self.Chosen(index))
