"""The app's link to the history: records each game once, finished or abandoned.

Pure Python, no Textual. The app holds one :class:`Recorder` (when history is on); the end
screen asks it to record the finished game and shows what comes back (achievements, the
deal's scoreboard, the daily share line); the game screen asks it to record a game left
unfinished (new game, quit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the history (SQLite) is imported when first used, not at start-up
    from forage.app.session import Session
    from forage.history.achievements import Achievement
    from forage.history.stats import Statistics
    from forage.history.store import (
        HistoryStore,
        PlayInfo,
        Recorded,
        Scoreboard,
        StoredGame,
    )


@dataclass
class Recorder:
    """Records the games of one run of the app for one player."""

    player_name: str | None = None
    """The ``--player`` name, or None for the last name used (else the login name)."""
    daily: date | None = None
    """The date of the daily deal being played, if ``forage daily`` started the app."""
    store: HistoryStore | None = None
    tell: Callable[[str], None] | None = None
    """Shows the player a one-line message about the history (the app sets it)."""

    def __post_init__(self) -> None:
        """Nothing recorded yet."""
        self._recorded: dict[int, tuple[Session, Recorded | None]] = {}

    def history(self) -> HistoryStore:
        """The history store, opened on first use (not at start-up, to start quickly)."""
        if self.store is None:
            from forage.history.store import HistoryStore

            self.store = HistoryStore.open()
            if self.player_name is not None:
                self.store.set_last_player(self.player_name)
        return self.store

    def _told(self) -> None:
        """Pass on the store's message (file moved aside, history off, an error), once."""
        store = self.store
        if store is not None and store.notice and self.tell is not None:
            notice, store.notice = store.notice, None
            self.tell(notice[0].upper() + notice[1:] + ".")

    @property
    def player(self) -> str:
        """Who is playing."""
        if self.player_name is None:
            self.player_name = self.history().default_player()
        return self.player_name

    def is_daily(self, session: Session) -> bool:
        """Whether a session plays the daily deal this app was started for."""
        if self.daily is None:
            return False
        from forage.history.daily import daily_deal

        return session.deal == daily_deal(self.daily, session.is_challenge)

    def _info(self, session: Session) -> PlayInfo:
        from forage.history.store import PlayInfo, now_utc

        return PlayInfo(
            player=self.player,
            started=session.started,
            ended=now_utc(),
            seed=session.seed,
            deck=session.deck_number,
            hints=session.hints,
            undos=session.undos,
            daily=self.daily if self.is_daily(session) else None,
        )

    def finished(self, session: Session) -> Recorded | None:
        """Record a finished game (only the first time it ends); what was stored.

        A game that ends again after an undo is not stored again, and announces nothing new.
        """
        key = id(session)
        if key in self._recorded:
            done = self._recorded[key][1]
            return None if done is None else replace(done, achievements=[])
        done = self.history().record(session.game, self._info(session))
        self._recorded[key] = (session, done)
        self._told()
        return done

    def abandoned(self, session: Session) -> None:
        """Record a game left before its end, if it was begun and not recorded already."""
        game = session.game
        if id(session) in self._recorded or not game.moves or game.is_over():
            return
        self._recorded[id(session)] = (session, self.history().record(game, self._info(session)))
        self._told()

    def set_par(self, recorded: Recorded, par: int, proven: bool) -> list[Achievement]:
        """Note the par found for a recorded game; the achievements that unlocks."""
        found = self.history().set_par(recorded.game.id, par, proven)
        self._told()
        return found

    def scoreboard(self, session: Session) -> Scoreboard:
        """The deal's scoreboard: everyone's best (for the daily deal, everyone's first)."""
        return self.history().scoreboard(session.deal.code, first_only=self.is_daily(session))

    def share(self, session: Session, par: int | None = None) -> str | None:
        """The daily share line of the attempt that counts, or None outside the daily deal."""
        if self.daily is None or not self.is_daily(session):
            return None
        first = self.history().daily_result(self.player, self.daily, session.is_challenge)
        if first is None:
            return None
        from forage.history.daily import share_line

        met = len(first.recipes_met) if first.mode == "recipe" else None
        return share_line(self.daily, first.final, first.rating, par or first.par, met)

    def statistics(self) -> tuple[Statistics | None, dict[str, str]]:
        """The player's statistics (None when history is off) and achievements unlocked."""
        store = self.history()
        self._told()
        if not store.enabled:
            return None, {}
        return store.statistics(self.player), store.unlocked(self.player)

    def games(self, limit: int) -> list[StoredGame] | None:
        """Everyone's stored games, newest first, at most ``limit`` (None when history is off)."""
        store = self.history()
        self._told()
        if not store.enabled:
            return None
        return store.games(limit=limit)

    def close(self) -> None:
        """Close the history file."""
        if self.store is not None:
            self.store.close()


def recorder_of(app: object) -> Recorder | None:
    """The app's history recorder, or None when the app keeps no history."""
    recorder = getattr(app, "recorder", None)
    return recorder if isinstance(recorder, Recorder) else None
