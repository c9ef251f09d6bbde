"""Keeping the game being played on disk: the save file, the ``--record`` file, and a
finished game kept for the history until it has it.

The app owns one :class:`Keeper`; the game screen calls it after each change its
:class:`~forage.app.session.Session` reports (a placement, an undo, a redo, a new game,
quitting). The session itself writes nothing. After a change the files are written on the
app's writes' thread (:class:`~forage.app.services.Writes`), the latest state last; what
ends or leaves a game (a finished game kept for the history, quitting, a stopping signal)
first waits for those writes and writes at once. Problems are kept as news told once
(:func:`tell_save_news`), never raised.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forage.app import saves
from forage.app.session import Session
from forage.i18n import _

if TYPE_CHECKING:
    from textual.app import App

    from forage.app.services import Writes


class Keeper:
    """Writes a session's game where it is kept, atomically."""

    def __init__(
        self, writes: Writes | None = None, written: Callable[[], object] | None = None
    ) -> None:
        """A keeper that has said nothing yet, writing after a change on ``writes``' thread
        (at once without), and calling ``written`` on that thread after each such write."""
        self._writes = writes
        self._written = written
        self.farewell: str | None = None
        """What quitting kept, and where, in one line for the terminal once forage has
        stopped (None: nothing to say, or the save's news says why it could not)."""

    def quit(self, session: Session, in_history: bool) -> None:
        """Note what quitting leaves of the session (saved already) for :attr:`farewell`;
        ``in_history``: its finished game is stored in the history."""
        game, slot, record = session.game, saves.slot(), session.record_path

        def said(plain: str, recorded: str) -> str:
            return (plain if record is None else recorded).format(path=slot.path, record=record)

        if game.is_over() and not session.keeps_history:
            self.farewell = said(
                _("The game is over: nothing to save."),
                _("The game is over: nothing to save; its record is in {record}."),
            )
        elif game.is_over():  # not kept (the player chose to lose it): the dialog said so
            kept = in_history or session.finished_file is not None
            in_history_said = said(
                _("The game is over and in your history (forage history lists it)."),
                _(
                    "The game is over and in your history (forage history lists it); its "
                    "record is in {record}."
                ),
            )
            self.farewell = in_history_said if kept else None
        elif not game.moves:
            self.farewell = said(
                _("No card placed, so nothing saved."),
                _("No card placed, so nothing saved; its record is in {record}."),
            )
        elif slot.saving and slot.problem() is None:
            self.farewell = said(
                _("Game saved in {path}: forage offers it next time."),
                _("Game saved in {path}: forage offers it next time; its record is in {record}."),
            )
        else:
            self.farewell = None

    def keep(self, session: Session) -> None:
        """After a change to the game: the ``--record`` file, if one is asked for, and the
        save, written on the writes' thread (a finished game the history waits for: at
        once)."""
        slot = saves.slot()
        if session.record_path is not None:
            from forage.record import record_from_game

            path = session.record_path
            text = record_from_game(session.game, session.seed, session.deck_number).to_json()
            self._later(f"record {path}", lambda: slot.write_record(path, text))
        if self._finishing(session):
            self.save(session)
            return
        data = self._save_data(session)
        self._later("save", lambda: slot.store(data))

    def save(self, session: Session) -> None:
        """Write the save file now, after the writes asked before; a finished game or an
        untouched one leaves none.

        A game the history is waiting for is, the first time it ends, kept in a file of its
        own until the history has it (``session.finished_file``), and the save removed only
        then.
        """
        self.settle()
        slot = saves.slot()
        if self._finishing(session):
            data = self._finished_data(session)
            session.finished_file = slot.keep_finished(data)
            if session.finished_file is None:  # kept in the save instead, recorded at next start
                session.finished_in_save = slot.store(data)
            return
        slot.store(self._save_data(session))

    def settle(self) -> None:
        """Wait until every write asked for is made."""
        if self._writes is not None:
            self._writes.wait()

    def _later(self, name: str, write: Callable[[], object]) -> None:
        """Write the file ``name`` on the writes' thread (at once without one)."""
        if self._writes is None:
            write()
            return
        told = self._written

        def then() -> None:
            write()
            if told is not None:
                told()

        self._writes.later(name, then)

    @staticmethod
    def _finishing(session: Session) -> bool:
        """Whether the session's game has ended, for the first time, and the history waits
        for it."""
        return session.game.is_over() and session.keeps_history and session.finished_file is None

    @staticmethod
    def _save_data(session: Session) -> dict[str, Any] | None:
        """What the save holds: the game in progress, or nothing (finished, or untouched)."""
        keep = bool(session.game.moves) and not session.game.is_over()
        return session.save_data() if keep else None

    @staticmethod
    def _finished_data(session: Session) -> dict[str, Any]:
        """A finished game's save data, with the time it ended."""
        data = session.save_data()
        data.setdefault("ended", datetime.now(UTC).isoformat())
        return data

    def secure_finished(self, session: Session, in_history: bool) -> str | None:
        """Before a finished game is left (a new game will replace the save): make sure it
        is kept apart from the save, unless the history has it (``in_history``); why it
        cannot be, or None when it is (or there is nothing to keep).

        Its own file is written once more (the disk may have room again); failing that, a
        save holding the finished game is renamed to be that file, which needs no room.
        """
        if not (session.game.is_over() and session.keeps_history):
            return None
        if in_history or session.finished_file is not None:
            return None
        self.settle()
        slot = saves.slot()
        session.finished_file = slot.keep_finished(self._finished_data(session))
        if session.finished_file is None and session.finished_in_save:
            session.finished_file = slot.set_finished()
        if session.finished_file is not None:
            return None
        return slot.problem() or _("it could not be written")

    def load(self, record_path: Path | None = None) -> Session | None:
        """The saved game in progress, or None if there is none (an unreadable one is set
        aside; a finished one, left by a forage stopped as it ended, is removed: its own
        file keeps it)."""
        self.settle()
        slot = saves.slot()
        session = slot.load(lambda data: Session.from_save_data(data, record_path))
        if session is None:
            return None
        if session.game.is_over():  # the history never had it: keep it for the history
            slot.set_finished()
            return None
        return session

    def forget(self) -> None:
        """Delete the save file (the player chose not to resume it)."""
        self.settle()
        saves.slot().store(None)


class Forgetful(Keeper):
    """Keeps nothing: for a game that is not the player's own (a tutorial's lesson), so the
    game in progress keeps its save."""

    def keep(self, session: Session) -> None:
        """Write nothing."""

    def save(self, session: Session) -> None:
        """Write nothing."""


def tell_save_news(app: App[Any]) -> None:
    """Say once, in the app's notifications, what went wrong (or right again) with saving
    the game."""
    for message in saves.slot().news():
        app.notify(message, title=_("Saving"), severity="warning", timeout=8)


def keeper_of(app: object) -> Keeper:
    """The app's keeper (a plain one for an app that has none)."""
    keeper = getattr(app, "keeper", None)
    return keeper if isinstance(keeper, Keeper) else Keeper()
