"""A player's name: the rule every part of forage holds names to, and the name of whoever
logged in."""

from __future__ import annotations

import getpass
from typing import Final

MAX_PLAYER: Final = 40
"""The longest player name, in characters."""


def check_player(name: str) -> str:
    """A player name, trimmed; raises ValueError if it is empty, too long or unprintable."""
    trimmed = name.strip()
    if not trimmed:
        raise ValueError("a player name cannot be empty")
    if len(trimmed) > MAX_PLAYER:
        raise ValueError(f"a player name has at most {MAX_PLAYER} characters")
    if not trimmed.isprintable():
        raise ValueError("a player name cannot hold control characters")
    return trimmed


def login_name() -> str:
    """The name the player logged in with, or ``player`` where there is none."""
    try:
        return check_player(getpass.getuser())
    except Exception:  # getpass raises OSError, KeyError or ImportError, by platform
        return "player"
