"""A sentence for the player that machines read too: kept in English, translated where a
player reads it.

An error that reaches both a player's screen and a ``--json`` output (a record's problem
in ``forage replay``) carries its sentence as :class:`Said`, a gettext message and its
fields: ``str()`` is the English (the same bytes in every language, as the JSON needs),
:meth:`Said.translated` the player's language. The root layer's file problems
(:class:`forage.files.Problem`, English strings that keep their message) are shown
translated by :func:`shown` too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from forage.files import Problem
from forage.i18n import _


@dataclass(frozen=True)
class Said:
    """A message (marked with ``N_``) and the values of its named fields."""

    message: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        """The sentence in English."""
        return self.message.format(**self.values)

    def translated(self) -> str:
        """The sentence in the player's language (fields that are sentences too, as well)."""
        return _(self.message).format(**{name: shown(v) for name, v in self.values.items()})


def said(message: str, **values: object) -> Said:
    """The sentence ``message`` (marked with ``N_``) with its fields' values."""
    return Said(message, values)


class SaidError(ValueError):
    """A ValueError whose message is a :class:`Said`: ``str()`` English, :func:`shown`
    translated."""

    def __init__(self, message: Said) -> None:
        """An error saying ``message``."""
        super().__init__(str(message))
        self.said = message

    def translated(self) -> str:
        """The error's message in the player's language."""
        return self.said.translated()


def listed(items: Sequence[str], message: str) -> Said | str:
    """Items joined two by two by ``message`` (marked ``N_``, with the fields ``{item}`` and
    ``{rest}``: ``"{item} or {rest}"``), so that each language joins them its own way."""
    if len(items) <= 1:
        return "".join(items)
    return said(message, item=items[0], rest=listed(items[1:], message))


def shown(value: object) -> str:
    """A value as the player reads it: one that can say itself translated (a :class:`Said`,
    a :class:`SaidError`, a record's error, a file's :class:`~forage.files.Problem`, an
    exception whose one argument is one of those) so, anything else as ``str()`` gives it."""
    translated = getattr(value, "translated", None)
    if callable(translated):
        return str(translated())
    if isinstance(value, Problem):
        return Said(value.message, value.values).translated()
    if isinstance(value, BaseException) and len(value.args) == 1:
        (argument,) = value.args
        if isinstance(argument, Problem | Said):
            return shown(argument)
    return str(value)
