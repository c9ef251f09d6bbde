"""The player's name, one for every command of a data folder: the one given (``--name``,
``--player``), else the one this data folder played under last (kept in its history), else
the login name.

A name given to play under is remembered as the data folder's from then on: by the
commands that play with others at once (``room``, ``daily --online``), before they
connect, so that a program killed in a room still leaves it remembered; by the game's own
history otherwise, once it is opened (``play``, ``daily``, after start-up). Reading the
history (``history``, ``stats``) never changes it.
"""

from __future__ import annotations

from collections.abc import Callable

from forage.cli.errors import BadInput, shortened
from forage.i18n import _
from forage.players import check_player, login_name
from forage.wording import shown


def last_player() -> str:
    """The name this data folder played under last, else the login name."""
    # The history (SQLite) loads when asked: the game opens it after its first frame.
    from forage.history.database import HistoryUnreadable
    from forage.history.store import HistoryStore

    try:
        with HistoryStore.read() as store:
            return store.default_player()
    except HistoryUnreadable:
        return login_name()


def remember_player(name: str) -> None:
    """Keep ``name`` as the one this data folder plays under (where its history can be
    written: a history that cannot be is said when a game is kept in it)."""
    from forage.history.store import HistoryStore  # as in last_player

    with HistoryStore.open() as store:
        store.set_last_player(name)


def player_name(
    given: str | None,
    option: str = "--player",
    rule: Callable[[str], str] = check_player,
    remember: bool = False,
) -> str:
    """The name to play under: ``given``, else the last one used, else the login name,
    checked by ``rule`` (BadInput naming ``option`` where it refuses it); with
    ``remember``, a name given becomes the data folder's."""
    name = given if given is not None else last_player()
    try:
        checked = rule(name)
    except ValueError as exc:
        got = repr(shortened(name))
        if given is not None:
            problem = _("{problem} (got {name})").format(problem=shown(exc), name=got)
        else:
            problem = _("{problem} (got {name}; give another with {option})").format(
                problem=shown(exc), name=got, option=option
            )
        raise BadInput(f"{option}: {problem}") from None
    if remember and given is not None:
        remember_player(checked)
    return checked
