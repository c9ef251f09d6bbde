"""The status bar under the woodland: the live preview of the card being placed."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class StatusBar(Widget):
    """What the placement would do (or why not), then the details; wraps on narrow screens."""

    DEFAULT_CSS = """
    StatusBar { height: 3; }
    """

    headline: reactive[str] = reactive("")
    details: reactive[str] = reactive("")
    legal: reactive[bool] = reactive(True)

    def render(self) -> Text:
        """The preview in words."""
        text = Text(overflow="fold")
        style = "bold #80ff80" if self.legal else "bold #ff5050"
        text.append(self.headline, style)
        text.append("\n")
        text.append(self.details)
        return text
