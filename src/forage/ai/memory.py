"""Analyses kept and read back: where they live, and the key that decides each one.

An analysis (a review, a deal's par) is a pure function of what it looks at and of the
code's version, so it is kept under a key made of exactly those; a new version of the
analysis has new keys, and an old one is worked out again rather than shown.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Protocol, TypeVar

T = TypeVar("T")


class Memory(Protocol):
    """Where analyses are kept and read back (the history store is one)."""

    def remembered(self, kind: str, key: str) -> str | None:
        """The analysis kept under this key, or None."""

    def remember(self, kind: str, key: str, value: str) -> None:
        """Keep an analysis under this key."""


def kept(memory: Memory, kind: str, key: str, read: Callable[[str], T]) -> T | None:
    """The analysis of ``kind`` kept under ``key``, as ``read`` reads its text back; None
    when none is kept or the text does not read as one (``read`` raises ValueError, as a
    pydantic model's validation does)."""
    text = memory.remembered(kind, key)
    if text is None:
        return None
    try:
        return read(text)
    except ValueError:
        return None


def analysis_key(*parts: object) -> str:
    """One key for everything that decides an analysis (JSON values, in order)."""
    return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()
