"""A player's name: the rule every part of forage holds names to, and the name of whoever
logged in."""

from __future__ import annotations

import getpass
from typing import Final

from forage.i18n import N_
from forage.wording import SaidError, said

MAX_PLAYER: Final = 40
"""The longest player name, in characters."""


def check_player(name: str) -> str:
    """A player name, trimmed; raises ValueError (a :class:`~forage.wording.SaidError`) if
    it is empty, too long or unprintable."""
    trimmed = name.strip()
    if not trimmed:
        raise SaidError(said(N_("a player name cannot be empty")))
    if len(trimmed) > MAX_PLAYER:
        raise SaidError(said(N_("a player name has at most {count} characters"), count=MAX_PLAYER))
    if not trimmed.isprintable():
        raise SaidError(said(N_("a player name cannot hold control characters")))
    return trimmed


def login_name() -> str:
    """The name the player logged in with, or ``player`` where there is none."""
    try:
        return check_player(getpass.getuser())
    except Exception:  # getpass raises OSError, KeyError or ImportError, by platform
        return "player"
