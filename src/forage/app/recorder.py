"""The app's link to the history: records each game once, finished or abandoned.

Pure Python, no Textual. The app holds one :class:`Recorder` (when history is on); the end
screen asks it to record the finished game and shows what comes back (achievements, the
deal's scoreboard, the daily share line); the game screen asks it to record a game left
unfinished when a new game replaces it. A game quit with ``q`` is saved, not abandoned.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

from forage.app import saves
from forage.app.describe import ASCII
from forage.app.saves import parse_save
from forage.app.session import Session
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.i18n import _, ngettext

if TYPE_CHECKING:  # the history (SQLite) is imported when first used, not at start-up
    from forage.ai.par import ParResult
    from forage.history.achievements import Achievement
    from forage.history.games import PlayInfo, StoredGame
    from forage.history.stats import Statistics
    from forage.history.store import HistoryStore, PuzzleRecorded, Recorded, Scoreboard

T = TypeVar("T")


class Recorder:
    """Records the games of one run of the app for one player.

    Writes run on the history's own thread (:meth:`later`), one at a time and in order, so
    that a slow or locked history file never holds up the screen; :meth:`close` waits for
    them. A finished game is given as its save data, taken on the screen's thread.
    """

    def __init__(
        self,
        player_name: str | None = None,
        daily: date | None = None,
        store: HistoryStore | None = None,
        tell: Callable[[str], None] | None = None,
    ) -> None:
        """A recorder for this player (None: the last name used, else the login name), of
        the daily deal of ``daily`` if one is played; nothing recorded yet."""
        self.player_name = player_name
        """The ``--player`` name, or None for the last name used (else the login name)."""
        self.daily = daily
        """The date of the daily deal being played, if ``forage daily`` started the app."""
        self.store = store
        self.tell = tell
        """Shows the player a one-line message about the history (the app sets it; it may
        be called from the history's thread)."""
        self._recorded: dict[object, Recorded | None] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._using = threading.RLock()

    def later(self, work: Callable[[], T]) -> Future[T]:
        """Run history work on the history's thread, after the work given before it."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history")
        return self._pool.submit(self._guarded, work)

    def _guarded(self, work: Callable[[], T]) -> T:
        with self._using:
            return work()

    def history(self) -> HistoryStore:
        """The history store, opened on first use (not at start-up, to start quickly)."""
        with self._using:
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

    def take_name(self, name: str) -> None:
        """Play under ``name`` from now on, and keep it as the data folder's (on the
        history's thread)."""
        self.player_name = name
        self.history().set_last_player(name)

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

    def prepare(self, session: Session) -> Session:
        """Mark a session as one this recorder records: who plays, the daily date, and that
        its finished game is kept until the history has it."""
        session.keeps_history = True
        if session.player is None:
            session.player = self.player_name
        if self.is_daily(session):
            session.daily = self.daily
        return session

    def _game_and_info(self, data: dict[str, Any]) -> tuple[Game, PlayInfo]:
        """The game a save holds and what the history stores with it; ValueError if unreadable."""
        from forage.history.games import PlayInfo, now_utc

        save = parse_save(data)
        session = Session.from_save_data(data)
        return session.game, PlayInfo(
            player=save.player or self.player,
            started=save.started or now_utc(),
            ended=save.ended or now_utc(),
            seed=save.seed,
            deck=save.deck,
            hints=save.hints,
            undos=save.undos,
            daily=save.daily,
        )

    def finished(self, key: object, data: dict[str, Any], kept: Path | None) -> Recorded | None:
        """Record a finished game from its save data, once for each ``key``; what was stored.

        ``kept`` is the file that held the game until now: removed once the history has the
        game. Asked again for the same key (the game ended again after an undo), the same
        game is given back with no achievements, and nothing is stored.
        """
        with self._using:
            if key in self._recorded:
                done = self._recorded[key]
                return None if done is None else replace(done, achievements=[])
            try:
                game, info = self._game_and_info(data)
            except ValueError:
                return None
            return self._store_finished(key, game, info, kept)

    def _store_finished(
        self, key: object, game: Game, info: PlayInfo, kept: Path | None
    ) -> Recorded | None:
        """Record a finished game for ``key`` (none if it is not over); ``kept`` is removed
        once the history has it."""
        done = self.history().record(game, info, once=True) if game.is_over() else None
        if done is not None and kept is not None:
            saves.slot().forget_finished(kept)
        self._recorded[key] = done
        self._told()
        return done

    def _kept_game(self, path: Path) -> tuple[Game, PlayInfo]:
        """The finished game a kept file holds; ValueError (or OSError) if it holds none."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        game, info = self._game_and_info(data)
        if not game.is_over():
            raise ValueError("the game is not over")
        return game, info

    def recorded(self, key: object) -> Recorded | None:
        """What was stored of the game kept under ``key`` (None: nothing, or not yet)."""
        return self._recorded.get(key)

    def has_recorded(self, session: Session) -> bool:
        """Whether the session's finished game is stored in the history."""
        return self._recorded.get(session.key) is not None

    def record_kept(self, kept: Sequence[Path]) -> list[Recorded]:
        """Record the finished games kept from an earlier run (the history could not take
        them then, or forage was stopped as they ended): ``kept``, the files found before
        this run could end a game; the games stored, each once, said once. A kept file
        that holds no finished game is left where it is, and said."""
        stored: dict[int, Recorded] = {}
        unreadable: list[Path] = []
        for path in kept:
            try:
                game, info = self._kept_game(path)
            except (OSError, ValueError):
                unreadable.append(path)
                continue
            with self._using:
                done = self._store_finished(path, game, info, path)
            if done is not None:
                stored.setdefault(done.game.id, done)
        found = list(stored.values())
        if self.tell is not None:
            if found:
                self.tell(kept_line(found))
            if unreadable:
                self.tell(kept_unreadable_line(unreadable))
        return found

    def replaced(self, session: Session) -> None:
        """A new game replaces this one: if it was begun and not finished, record it as
        abandoned, on the history's thread (its moves taken now)."""
        if session.game.moves and not session.game.is_over():
            key, data = session.key, session.save_data()
            self.later(lambda: self.abandoned(key, data))

    def open_history(self, kept: Sequence[Path]) -> None:
        """Open the history and record the finished games an earlier run kept, ``kept``
        (at start, on the history's thread)."""
        self.history()
        self.record_kept(kept)

    def abandoned(self, key: object, data: dict[str, Any]) -> None:
        """Record a game left before its end (a new game replaced it), once for each key."""
        with self._using:
            if key in self._recorded:
                return
            try:
                game, info = self._game_and_info(data)
            except ValueError:
                return
            if not game.moves or game.is_over():
                return
            self._recorded[key] = self.history().record(game, info, once=True)
            self._told()

    def record_room(self, key: object, game: Game, info: PlayInfo) -> Recorded | None:
        """Record a game played in a room (finished, or left before the room's end), once
        for each ``key``; what was stored (None for a game with no placement)."""
        with self._using:
            if key in self._recorded:
                return self._recorded[key]
            done = self.history().record(game, info, once=True) if game.moves else None
            self._recorded[key] = done
            self._told()
            return done

    def set_par(self, recorded: Recorded, par: int, proven: bool) -> list[Achievement]:
        """Note the par found for a recorded game; the achievements that unlocks."""
        found = self.history().set_par(recorded.game.id, par, proven)
        self._told()
        return found

    def proven_par(self, deal: str) -> int | None:
        """The par a stored game proved for this deal code, if one did."""
        found = self.history().proven_par(deal)
        self._told()
        return found

    def known_par(self, deal: str) -> tuple[int, bool] | None:
        """The par of a deal code (built-in deck) as kept by an earlier search, or proven
        by a stored game: (par, proven); None if neither."""
        from forage.ai.par import kept_par

        kept = kept_par(_fresh_game(deal), self.history().analyses)
        self._told()
        if kept is not None:
            return kept.score, kept.proven
        proven = self.proven_par(deal)
        return None if proven is None else (proven, True)

    def keep_par(self, deal: str, found: ParResult) -> None:
        """Keep the par found for a deal code (built-in deck), so it is known next time."""
        from forage.ai.par import keep_par

        keep_par(_fresh_game(deal), found, self.history().analyses)
        self._told()

    def scoreboard(self, session: Session) -> Scoreboard:
        """The deal's scoreboard: everyone's best (for the daily deal, everyone's first)."""
        found = self.history().scoreboard(session.deal.code, first_only=self.is_daily(session))
        self._told()
        return found

    def share(self, session: Session, par: int | None = None) -> str | None:
        """The daily share line of the attempt that counts, or None outside the daily deal."""
        if self.daily is None or not self.is_daily(session):
            return None
        first = self.history().daily_result(self.player, self.daily, session.is_challenge)
        if first is None:
            return None
        from forage.history.daily import share_line

        met = len(first.recipes_met) if first.is_challenge else None
        return share_line(
            self.daily,
            first.final,
            first.rating,
            par or first.par,
            met,
            changes=score_changes(first.record),
            plain=ASCII,
        )

    def statistics(self) -> tuple[Statistics | None, dict[str, str]]:
        """The player's statistics (None when history is off) and achievements unlocked."""
        store = self.history()
        found = (store.statistics(self.player), store.unlocked(self.player))
        self._told()
        return found if store.enabled else (None, {})

    def record_puzzle(
        self, puzzle: int, puzzle_rating: int, day: date, solved: bool
    ) -> PuzzleRecorded | None:
        """Store the player's first try at a puzzle (made today, UTC); the figures after
        it, or None when it was not stored (tried before, or history off)."""
        from forage.history.daily import today

        store = self.history()
        found = store.record_puzzle(self.player, puzzle, puzzle_rating, day, solved, today())
        self._told()
        return found

    def puzzle_tried(self, puzzle: int) -> bool:
        """Whether the history holds the player's first try at a puzzle."""
        store = self.history()
        found = any(t.puzzle == puzzle for t in store.puzzle_tries(self.player))
        self._told()
        return found

    def games(self, limit: int) -> list[StoredGame] | None:
        """Everyone's stored games, newest first, at most ``limit`` (None when history is off)."""
        store = self.history()
        found = store.games(limit=limit)
        self._told()
        return found if store.enabled else None

    def close(self) -> None:
        """Wait for the history's work to finish, then close the file."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        with self._using:
            if self.store is not None:
                self.store.close()


SHOWN_FILES: Final = 3
"""How many kept files that could not be read are named; the rest are counted."""


def kept_line(found: Sequence[Recorded]) -> str:
    """What to say of the kept games the history now has (at least one)."""
    if len(found) == 1:
        return _("The finished game of last time (final {final}) is in your history now.").format(
            final=found[0].game.final
        )
    best = max(r.game.final for r in found)
    return _(
        "The {count} finished games of last time (best final {best}) are in your history now."
    ).format(count=len(found), best=best)


def kept_unreadable_line(paths: Sequence[Path]) -> str:
    """What to say of the kept files that hold no finished game (at least one): they stay."""
    names = ", ".join(p.name for p in paths[:SHOWN_FILES])
    count, folder = len(paths), paths[0].parent
    if count > SHOWN_FILES:
        return ngettext(
            "{count} kept game could not be read: {names} and {more} more left in {folder}.",
            "{count} kept games could not be read: {names} and {more} more left in {folder}.",
            count,
        ).format(count=count, names=names, more=count - SHOWN_FILES, folder=folder)
    return ngettext(
        "{count} kept game could not be read: {names} left in {folder}.",
        "{count} kept games could not be read: {names} left in {folder}.",
        count,
    ).format(count=count, names=names, folder=folder)


def score_changes(record: str) -> list[int]:
    """Each move's change of the base score in a stored game's record (none if unreadable)."""
    from forage.record import load_game

    try:
        game, _ = load_game(record)
    except ValueError:
        return []
    bases = [game.rewound(n).base for n in range(len(game.moves) + 1)]
    return [after - before for before, after in pairwise(bases)]


def _fresh_game(deal: str) -> Game:
    """A new game of a deal code on the built-in deck."""
    return Game(Deal.from_code(deal), standard_deck())
