"""Analyses kept and read back: where they live, and the key that decides each one.

An analysis (a review, a deal's par) is a pure function of what it looks at and of the
code's version, so it is kept under a key made of exactly those; a new version of the
analysis has new keys, and an old one is worked out again rather than shown.
"""

from __future__ import annotations

import hashlib
import json
from typing import Protocol


class Memory(Protocol):
    """Where analyses are kept and read back (the history store is one)."""

    def remembered(self, kind: str, key: str) -> str | None:
        """The analysis kept under this key, or None."""

    def remember(self, kind: str, key: str, value: str) -> None:
        """Keep an analysis under this key."""


def analysis_key(*parts: object) -> str:
    """One key for everything that decides an analysis (JSON values, in order)."""
    return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()
