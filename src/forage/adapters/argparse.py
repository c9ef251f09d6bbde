"""argparse in the player's language: its own words (``usage:``, ``options``, its errors),
and help wrapped as a language without spaces needs.

argparse translates its words through the module-level names ``_`` and ``ngettext`` it
imports from gettext, and offers no public way to give it others; :func:`install` points
those two names at forage's. It wraps help text with :mod:`textwrap`, which breaks lines
only at spaces and counts characters, not the columns they take; :class:`WideTextFormatter`
overrides its private ``_split_lines`` and ``_fill_text`` for text holding double-width
characters. ``tests/test_adapters.py`` fails, naming the name, when a Python release stops
using any of these. :data:`MESSAGES` lists argparse's words of Python 3.11, 3.12 and 3.13 so
that the catalogue holds them, translated.
"""

from __future__ import annotations

import argparse
import unicodedata
from collections.abc import Callable
from typing import Final

PRIVATE_NAMES: Final = ("_", "ngettext")
"""The names of the argparse module through which it translates its words."""
PRIVATE_METHODS: Final = ("_split_lines", "_fill_text")
"""The methods of argparse's HelpFormatter that :class:`WideTextFormatter` overrides."""
NO_LINE_START: Final = "、。，．：；！？）」』）]}ー…・ぁぃぅぇぉっゃゅょァィゥェォッャュョ"
"""Characters a Japanese line does not begin with (they stay with the one before)."""
NO_LINE_END: Final = "（「『([{"
"""Characters a Japanese line does not end with (they stay with the one after)."""


def columns(text: str) -> int:
    """How many terminal columns text takes (a wide character two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _is_wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in "WF"


def _pieces(text: str) -> list[str]:
    """Text cut where a line may break: spaces alone, a word of narrow characters whole,
    each wide character apart (with the punctuation that may not start or end a line)."""
    found: list[str] = []
    for character in text:
        last = found[-1] if found and found[-1] != " " else None
        if character == " ":
            found.append(" ")
        elif last is not None and (
            character in NO_LINE_START
            or last[-1] in NO_LINE_END
            or not (_is_wide(character) or _is_wide(last[-1]))
        ):
            found[-1] = last + character
        else:
            found.append(character)
    return found


def wrapped(text: str, width: int) -> list[str]:
    """Text on lines of at most ``width`` columns (a piece wider than that alone on its
    line), broken at spaces or between wide characters, its runs of whitespace one space."""
    lines: list[str] = []
    line = ""
    for piece in _pieces(" ".join(text.split())):
        if piece == " ":
            line += " " if line else ""
        elif line and columns(line + piece) > width:
            lines.append(line.rstrip())
            line = piece
        else:
            line += piece
    if line:
        lines.append(line.rstrip())
    return lines


def _has_wide(text: str) -> bool:
    return any(_is_wide(character) for character in text)


class WideTextFormatter(argparse.HelpFormatter):
    """argparse's help formatter; text holding wide characters (Japanese) wrapped by the
    columns it takes and between its characters. Text without them is wrapped as argparse
    wraps it."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not _has_wide(text):
            return super()._split_lines(text, width)
        return wrapped(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not _has_wide(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrapped(text, width - len(indent)))


def N_(message: str) -> str:
    """``message``, marked for the catalogue (argparse translates it where it shows it)."""
    return message


def install(translate: Callable[[str], str], plural: Callable[[str, str, int], str]) -> None:
    """Have argparse translate its words with ``translate`` and ``plural`` (gettext's
    ``gettext`` and ``ngettext``, or forage's own) from now on."""

    def translated(message: str | None) -> str | None:
        # argparse 3.11 and 3.12 hand it a subparsers' description, which may be None.
        return None if message is None else translate(message)

    setattr(argparse, "_", translated)  # noqa: B010 - a private name, set by name
    setattr(argparse, "ngettext", plural)  # noqa: B010


# Translators: argparse's own words, shown by every command's --help and usage errors.
# Keep every %s and %(name)s exactly; "usage: " ends with a space.
MESSAGES: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("%(heading)s:"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_(" (default: %(default)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("unexpected option string: %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_('argument "-" with mode %r'),
    N_("%r is not callable"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
    N_("conflicting subparser: %s"),
    N_("conflicting subparser alias: %s"),
    N_("cannot have multiple subparser arguments"),
    N_("cannot merge actions - two groups are named %r"),
    N_("invalid option string %(option)r: must start with a character %(prefix_chars)r"),
    N_("dest= is required for options like %r"),
    N_("invalid conflict_resolution value: %r"),
    N_("mutually exclusive arguments must be optional"),
    N_("'required' is an invalid argument for positionals"),
    N_(".__call__() not defined"),
)
"""argparse's words in Python 3.11, 3.12 and 3.13, for the catalogue."""


def ngettext(singular: str, plural: str, count: int = 2) -> tuple[str, str]:
    """A message that takes a number, marked for the catalogue: its two English forms."""
    return singular, plural


PLURAL_MESSAGES: Final = (
    ngettext("expected %s argument", "expected %s arguments"),
    ngettext("conflicting option string: %s", "conflicting option strings: %s"),
)
"""argparse's words that take a number (``ngettext``), for the catalogue."""
