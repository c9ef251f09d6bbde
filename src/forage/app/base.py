"""What every forage Textual app shares: the styles, the size classes, no command palette."""

from __future__ import annotations

from textual.app import App

from forage.app.screens.base import COLUMN_CLASSES, ROW_CLASSES


class ForageBaseApp(App[int]):
    """A Textual app styled as forage (``app.tcss``), its screens classed by size."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    HORIZONTAL_BREAKPOINTS = list(COLUMN_CLASSES)  # noqa: RUF012
    VERTICAL_BREAKPOINTS = list(ROW_CLASSES)  # noqa: RUF012
