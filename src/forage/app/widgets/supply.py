"""The supply: dice left per colour and whether Edwood is still available."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from forage.app.themes import PALETTES, marks_of, palette_name
from forage.engine import COLOURS, Supply
from forage.i18n import _


class SupplyView(Widget):
    """Dice left in the supply per colour, and Edwood."""

    DEFAULT_CSS = """
    SupplyView { height: 2; }
    """

    supply: reactive[Supply] = reactive(Supply, always_update=True)

    def render(self) -> Text:
        """Two lines: the dice left and Edwood."""
        text = Text(no_wrap=True, overflow="crop")
        # Translators: the supply panel's label, before three 5-column counts (28 columns).
        text.append(_("Dice left "), "bold")
        bg = PALETTES[palette_name(self.app)].terrain
        for n, colour in enumerate(COLOURS):
            if n:
                text.append(" ")
            text.append(f" {colour.value}:{self.supply[colour]} ", Style(bgcolor=bg[colour]))
        text.append("\n")
        # Translators: the supply panel: whether Edwood is left (28 columns with the next).
        text.append(_("Edwood "), "bold")
        if self.supply.edwood:
            text.append(_("available (once)"))
        else:
            text.append(_("used"), marks_of(self.app)["refused"])
        return text
