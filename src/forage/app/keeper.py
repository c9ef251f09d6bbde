"""Keeping the game being played on disk: the save file, the ``--record`` file, and a
finished game kept for the history until it has it.

The app owns one :class:`Keeper`; the game screen calls it after each change its
:class:`~forage.app.session.Session` reports (a placement, an undo, a redo, a new game,
quitting). The session itself writes nothing. Problems are kept as news the game screen
tells once (``saves.slot().news()``), never raised.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from forage.app import saves
from forage.app.session import Session


class Keeper:
    """Writes a session's game where it is kept, atomically."""

    def __init__(self) -> None:
        """A keeper that has said nothing yet."""
        self.farewell: str | None = None
        """What quitting kept, and where, in one line for the terminal once forage has
        stopped (None: nothing to say, or the save's news says why it could not)."""

    def quit(self, session: Session, in_history: bool) -> None:
        """Note what quitting leaves of the session (saved already) for :attr:`farewell`;
        ``in_history``: its finished game is stored in the history."""
        game, slot = session.game, saves.slot()
        record = f"; its record is in {session.record_path}" if session.record_path else ""
        if game.is_over() and not session.keeps_history:
            self.farewell = f"The game is over: nothing to save{record}."
        elif game.is_over():  # not kept (the player chose to lose it): the dialog said so
            kept = in_history or session.finished_file is not None
            said = f"The game is over and in your history (forage history lists it){record}."
            self.farewell = said if kept else None
        elif not game.moves:
            self.farewell = f"No card placed, so nothing saved{record}."
        elif slot.saving and slot.problem() is None:
            self.farewell = f"Game saved in {slot.path}: forage offers it next time{record}."
        else:
            self.farewell = None

    def keep(self, session: Session) -> None:
        """After a change to the game: the ``--record`` file, if one is asked for, and the
        save."""
        if session.record_path is not None:
            from forage.record import record_from_game

            record = record_from_game(session.game, session.seed, session.deck_number)
            saves.slot().write_record(session.record_path, record.to_json())
        self.save(session)

    def save(self, session: Session) -> None:
        """Write the save file; a finished game or an untouched one leaves none.

        A game the history is waiting for is, the first time it ends, kept in a file of its
        own until the history has it (``session.finished_file``), and the save removed only
        then.
        """
        slot = saves.slot()
        over = session.game.is_over()
        if over and session.keeps_history and session.finished_file is None:
            data = self._finished_data(session)
            session.finished_file = slot.keep_finished(data)
            if session.finished_file is None:  # kept in the save instead, recorded at next start
                session.finished_in_save = slot.store(data)
            return
        keep = bool(session.game.moves) and not over
        slot.store(session.save_data() if keep else None)

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
        slot = saves.slot()
        session.finished_file = slot.keep_finished(self._finished_data(session))
        if session.finished_file is None and session.finished_in_save:
            session.finished_file = slot.set_finished()
        if session.finished_file is not None:
            return None
        return slot.problem() or "it could not be written"

    def load(self, record_path: Path | None = None) -> Session | None:
        """The saved game in progress, or None if there is none (an unreadable one is set
        aside; a finished one, left by a forage stopped as it ended, is removed: its own
        file keeps it)."""
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
        saves.slot().store(None)


class Forgetful(Keeper):
    """Keeps nothing: for a game that is not the player's own (a tutorial's lesson), so the
    game in progress keeps its save."""

    def keep(self, session: Session) -> None:
        """Write nothing."""

    def save(self, session: Session) -> None:
        """Write nothing."""


def keeper_of(app: object) -> Keeper:
    """The app's keeper (a plain one for an app that has none)."""
    keeper = getattr(app, "keeper", None)
    return keeper if isinstance(keeper, Keeper) else Keeper()
