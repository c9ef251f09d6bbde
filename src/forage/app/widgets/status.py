"""The status bar under the woodland: the live preview of the card being placed."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class StatusBar(Widget):
    """Two lines: what the placement would do (or why not), then the details."""

    DEFAULT_CSS = """
    StatusBar { height: 2; }
    """

    headline: reactive[str] = reactive("")
    details: reactive[str] = reactive("")
    legal: reactive[bool] = reactive(True)

    def render(self) -> Text:
        """The preview in words."""
        text = Text(no_wrap=True, overflow="ellipsis")
        style = "bold #80ff80" if self.legal else "bold #ff5050"
        text.append(self.headline, style)
        text.append("\n")
        text.append(self.details)
        return text
