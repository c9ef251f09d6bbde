"""Guards around faults of Textual's that a player could otherwise trip over.

Textual's input parser turns a key sequence naming a code point above 0x10FFFF
(``ESC[1114112~``, ``ESC[999999999;1H``, from a terminal or a browser tab) into a
``ValueError`` (or ``OverflowError``) that stops its input thread. :func:`guard_input`
makes the parser take such a sequence as one ignored key instead; it is applied once,
when the app module is imported.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from textual import events
from textual._xterm_parser import XTermParser
from textual.keys import Keys

MAX_CODE_POINT = 0x10FFFF
"""The highest code point Unicode has."""


def guard_input() -> None:
    """Make Textual's input parser ignore key sequences it cannot read (idempotent)."""
    parse: Callable[..., Any] = XTermParser._parse_extended_key
    if getattr(parse, "forage_guarded", False):
        return

    @functools.wraps(parse)
    def guarded(self: XTermParser, sequence: str) -> list[events.Key] | None:
        try:
            found: list[events.Key] | None = parse(self, sequence)
        except (ValueError, OverflowError):  # a code point above MAX_CODE_POINT
            return [events.Key(Keys.Ignore, sequence)]
        return found

    guarded.forage_guarded = True  # type: ignore[attr-defined]
    XTermParser._parse_extended_key = guarded  # type: ignore[method-assign, assignment]
