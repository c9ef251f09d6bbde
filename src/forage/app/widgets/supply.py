"""The supply: dice left per colour and whether Edwood is still available."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from forage.app.themes import PALETTES, marks_of, palette_name
from forage.engine import COLOURS, Supply


class SupplyView(Widget):
    """Dice left in the supply per colour, and Edwood."""

    DEFAULT_CSS = """
    SupplyView { height: 2; }
    """

    supply: reactive[Supply] = reactive(Supply, always_update=True)

    def render(self) -> Text:
        """Two lines: the dice left and Edwood."""
        text = Text(no_wrap=True, overflow="crop")
        text.append("Dice left ", "bold")
        bg = PALETTES[palette_name(self.app)].terrain
        for n, colour in enumerate(COLOURS):
            if n:
                text.append(" ")
            text.append(f" {colour.value}:{self.supply[colour]} ", Style(bgcolor=bg[colour]))
        text.append("\nEdwood ", "bold")
        if self.supply.edwood:
            text.append("available (once)")
        else:
            text.append("used", marks_of(self.app)["refused"])
        return text
