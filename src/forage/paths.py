"""Where a player's data lives (saved game, history); no Textual, so every command can use it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

HISTORY_FILE: Final = "history.sqlite3"
"""The history's file in the data folder."""
SERVER_FILE: Final = "server.sqlite3"
"""The rooms server's file (``forage serve``) in the data folder."""


def data_dir() -> Path:
    """The folder for a player's data: $FORAGE_HOME, or the platform's user data folder."""
    home = os.environ.get("FORAGE_HOME")
    if home:
        return Path(home)
    from platformdirs import user_data_dir  # only when needed: it costs start-up time

    return Path(user_data_dir("forage", appauthor=False))
