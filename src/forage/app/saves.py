"""The saved game on disk: where it lives, reading, writing, moving aside, locking, clean-up.

The data folder is ``$FORAGE_HOME`` or the platform's user data folder. It holds:

- ``current-game.json``: the game in progress (``forage-save/1``), written atomically
  after every placement and removed when the game ends;
- ``current-game.lock``: locked (``flock``) for as long as a forage plays with this save,
  so a second forage on the same folder neither overwrites nor deletes it;
- ``current-game.unreadable-<date>.json``: a save that could not be read, kept aside;
- ``crash-<date>.log``: the traceback of a crash.

Nothing here ever raises for a folder that cannot be used: a :class:`SaveSlot` notes the
problem, tells it once (:meth:`SaveSlot.news`) and tries again on the next save.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, Any, Final, NamedTuple, TypeVar

from forage.engine import Deal
from forage.files import json_problem, number_problem, os_problem, write_atomic
from forage.i18n import N_, _
from forage.paths import data_dir
from forage.wording import said, shown

SAVE_FORMAT: Final = "forage-save/1"
SAVE_NAME: Final = "current-game.json"
LOCK_NAME: Final = "current-game.lock"
TEMP_PATTERN: Final = f".{SAVE_NAME}.*.tmp"
"""The temporary files of :func:`forage.files.write_atomic` writing the save."""
FINISHED_PATTERN: Final = "finished-game-*.json"
"""A finished game kept until the history has it (:meth:`SaveSlot.keep_finished`)."""
MAX_PLAYER_TEXT: Final = 200
"""The longest player name a save may carry (the history checks names itself)."""
STALE_SECONDS: Final = 60.0
"""A temporary save file this old is left over from a killed forage."""

T = TypeVar("T")


def save_path() -> Path:
    """Where the game in progress is saved."""
    return data_dir() / SAVE_NAME


class UnreadableSave(ValueError):
    """A save file that cannot be used; the message says why."""


class SaveData(NamedTuple):
    """What a save file holds, checked: the deal, the seed and deck it came from, the moves,
    and what the history stores with the game (who played, when it began and ended, hints,
    undos, the daily deal's date); those last are left out when missing or not understood."""

    deal: Deal
    seed: int | None
    deck: int
    moves: tuple[str, ...]
    player: str | None = None
    started: datetime | None = None
    ended: datetime | None = None
    hints: int = 0
    undos: int = 0
    daily: date | None = None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_save(data: object) -> SaveData:
    """The fields of a save file's JSON; raises UnreadableSave naming the first bad one."""
    from forage.record import deal_from_code

    if not isinstance(data, dict):
        raise UnreadableSave(said(N_("not a forage save file")))
    found = data.get("format")
    if found != SAVE_FORMAT:
        if isinstance(found, str) and found.startswith("forage-save/"):
            raise UnreadableSave(
                said(N_("written by another version of forage ({found})"), found=found)
            )
        raise UnreadableSave(said(N_("not a forage save file")))
    code, seed, deck, moves = (data.get(k) for k in ("deal", "seed", "deck", "moves"))
    if not isinstance(code, str):
        raise UnreadableSave(said(N_("deal: not a deal code")))
    try:
        deal = deal_from_code(code)
    except ValueError as exc:
        raise UnreadableSave(said(N_("deal: {problem}"), problem=exc)) from None
    if seed is not None and not _whole(seed):
        raise UnreadableSave(
            said(N_("seed: not a whole number ({seed})"), seed=json.dumps(seed)[:20])
        )
    deck = 1 if deck is None else deck
    if not _whole(deck) or deck not in (1, 2):
        raise UnreadableSave(
            said(N_("deck: should be 1 or 2 ({deck})"), deck=json.dumps(deck)[:20])
        )
    challenge = deal.recipes is not None
    if seed is not None and Deal.from_seed(seed, recipes=challenge, deck=deck) != deal:
        raise UnreadableSave(said(N_("seed: its deal differs from deal")))
    moves = [] if moves is None else moves
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise UnreadableSave(said(N_("moves: not a list of placements")))
    return SaveData(deal, seed, deck, tuple(moves), **_about(data))


def _about(data: dict[str, Any]) -> dict[str, Any]:
    """The fields of a save that say who played and how; any that cannot be read is left out
    (they are not needed to go on playing)."""
    found: dict[str, Any] = {}
    player = data.get("player")
    if isinstance(player, str) and 0 < len(player) <= MAX_PLAYER_TEXT:
        found["player"] = player
    for name in ("hints", "undos"):
        count = data.get(name)
        if isinstance(count, int) and _whole(count) and 0 <= count < 10_000:
            found[name] = count
    for name in ("started", "ended"):
        with contextlib.suppress(TypeError, ValueError, KeyError):
            moment = datetime.fromisoformat(data[name])
            found[name] = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    with contextlib.suppress(TypeError, ValueError, KeyError):
        found["daily"] = date.fromisoformat(data["daily"])
    return found


def _try_lock(handle: IO[str]) -> bool:
    """Lock an open file for this process; False if another process holds it.

    Where there is no ``flock`` (Windows) or the file system refuses it, nothing is locked
    and two forages on one folder are not kept apart.
    """
    if sys.platform == "win32":
        return True
    import fcntl  # POSIX only: not on Windows

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True


def clean_temp_files(folder: Path, locked: bool) -> list[Path]:
    """Remove temporary save files left by a killed forage; returns those removed.

    Only files named like :data:`TEMP_PATTERN` go: all of them while this process holds
    the lock (no one else writes the save), else those older than a minute.
    """
    removed = []
    now = time.time()
    for path in folder.glob(TEMP_PATTERN):
        try:
            if locked or now - path.stat().st_mtime > STALE_SECONDS:
                path.unlink()
                removed.append(path)
        except OSError:
            continue
    return removed


def _stamp() -> str:
    return time.strftime("%Y-%m-%d-%H%M%S")


class SaveSlot:
    """The save file of one data folder, as this process uses it."""

    def __init__(self, folder: Path) -> None:
        """The slot for the save in ``folder`` (nothing is touched yet)."""
        self.folder = folder
        self.path = folder / SAVE_NAME
        self.taken = False
        """Another forage holds the lock: this process never writes nor removes the save."""
        self.guarding = False
        """An unreadable save could not be moved aside: it is left alone, never overwritten."""
        self._lock: IO[str] | None = None
        self._writing = threading.Lock()
        """Held while the save is written or removed: the history's thread removes it too."""
        self._problems: dict[str, str] = {}
        self._reasons: dict[str, str] = {}
        self._news: list[str] = []
        self._telling = threading.Lock()
        """Held while news is added or taken: the saves are written on a thread of their own."""

    # -- telling -------------------------------------------------------------------------------

    def news(self) -> list[str]:
        """What the player should be told about saving since last asked (each thing once)."""
        with self._telling:
            told, self._news = self._news, []
        return told

    def _tell(self, message: str) -> None:
        with self._telling:
            self._news.append(message)

    def _failed(self, what: str, problem: str, reason: str | None = None) -> None:
        if self._problems.get(what) != problem:
            self._tell(problem)
        self._problems[what] = problem
        if reason is not None:
            self._reasons[what] = reason

    def _worked(self, what: str, message: str) -> None:
        if self._problems.pop(what, None) is not None:
            self._tell(message)

    def problem(self) -> str | None:
        """Why the save (or a finished game) could not be written last time, in a few
        words (``the disk is full``), or None if it could."""
        return self._reasons.get("save") if "save" in self._problems else None

    @property
    def saving(self) -> bool:
        """Whether this process may write the save (it may still fail for the folder)."""
        return not (self.taken or self.guarding)

    # -- the lock ------------------------------------------------------------------------------

    def acquire(self) -> bool:
        """Hold the lock on this folder's save; False if another forage has it or it failed."""
        if self._lock is not None:
            return True
        if self.taken:
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle = (self.folder / LOCK_NAME).open("a+", encoding="utf-8")
        except OSError as exc:
            reason = shown(os_problem(exc))
            self._failed(
                "save",
                _("The game cannot be saved in {folder}: {reason}.").format(
                    folder=self.folder, reason=reason
                ),
                reason,
            )
            return False
        if not _try_lock(handle):
            handle.close()
            self.taken = True
            self._tell(
                _("Another forage has a game open in {folder}: this game is not saved.").format(
                    folder=self.folder
                )
            )
            return False
        self._lock = handle
        with contextlib.suppress(OSError):  # the pid is for people; a full disk can go without
            os.ftruncate(handle.fileno(), 0)
            os.write(handle.fileno(), f"{os.getpid()}\n".encode())
        clean_temp_files(self.folder, locked=sys.platform != "win32")
        return True

    def release(self) -> None:
        """Let go of the lock (the process ending does the same); never raises."""
        if self._lock is not None:
            handle, self._lock = self._lock, None
            with contextlib.suppress(OSError):
                handle.close()

    # -- reading -------------------------------------------------------------------------------

    def load(self, build: Callable[[dict[str, Any]], T]) -> T | None:
        """The saved game, built from the save's JSON; None if there is none to resume.

        A save that cannot be read or built (``build`` raising ValueError) is moved aside,
        kept with the date in its name, and the player is told; it is never deleted.
        """
        if not self.acquire() and self.taken:
            return None
        try:
            raw = self.path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return None
        except IsADirectoryError:
            return None  # a folder in the save's place: saving will say so
        except OSError as exc:
            self.guarding = True
            self._tell(
                _(
                    "The saved game in {folder} cannot be read ({problem}): it is left as it "
                    "is, and this game is not saved."
                ).format(folder=self.folder, problem=shown(os_problem(exc)))
            )
            return None
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict):
                raise UnreadableSave(said(N_("not a forage save file")))
            return build(data)
        except UnicodeDecodeError:
            self.set_aside(_("not a text file"))
        except RecursionError:
            self.set_aside(_("JSON nested too deeply"))
        except json.JSONDecodeError as exc:
            self.set_aside(shown(json_problem(exc)))
        except UnreadableSave as exc:
            self.set_aside(shown(exc))
        except (ValueError, KeyError, TypeError) as exc:
            self.set_aside(shown(number_problem(exc)) if isinstance(exc, ValueError) else str(exc))
        return None

    def set_aside(self, reason: str) -> Path | None:
        """Rename an unreadable save to ``current-game.unreadable-<date>.json``, and say so.

        If it cannot be renamed it stays where it is and this process never writes over it.
        """
        stamp = _stamp()
        target = self.folder / f"current-game.unreadable-{stamp}.json"
        number = 1
        while target.exists():
            number += 1
            target = self.folder / f"current-game.unreadable-{stamp}-{number}.json"
        try:
            self.path.rename(target)
        except OSError as exc:
            self.guarding = True
            self._tell(
                _(
                    "The saved game could not be read ({reason}) nor moved aside ({problem}): "
                    "it is left as it is, and this game is not saved."
                ).format(reason=reason, problem=shown(os_problem(exc)))
            )
            return None
        self._tell(
            _(
                "The saved game could not be read ({reason}): it was kept as {name} in {folder}."
            ).format(reason=reason, name=target.name, folder=self.folder)
        )
        return target

    # -- writing -------------------------------------------------------------------------------

    def store(self, data: dict[str, Any] | None) -> bool:
        """Write the save atomically (None: remove it); returns whether that worked.

        A failure is told once and tried again on the next call.
        """
        if not self.saving or not self.acquire():
            return False
        try:
            with self._writing:
                if data is None:
                    self.path.unlink(missing_ok=True)
                else:
                    write_atomic(self.path, json.dumps(data, indent=1) + "\n")
        except OSError as exc:
            reason = shown(os_problem(exc))
            self._failed(
                "save", _("The game cannot be saved: {reason}.").format(reason=reason), reason
            )
            return False
        if data is None:  # nothing to save: no longer failing, but nothing saved either
            self._problems.pop("save", None)
        else:
            self._worked("save", _("The game is saved again."))
        return True

    def keep_finished(self, data: dict[str, Any]) -> Path | None:
        """Keep a finished game until the history has it: written to its own file
        (``finished-game-<date>-<n>.json``), and only then is the save removed. Returns that
        file, or None if it could not be written (the save then stays as it was)."""
        if not self.saving or not self.acquire():
            return None
        target = self._finished_name()
        try:
            with self._writing:
                write_atomic(target, json.dumps(data, indent=1) + "\n")
                self.path.unlink(missing_ok=True)
        except OSError as exc:
            reason = shown(os_problem(exc))
            self._failed(
                "save",
                _("The finished game cannot be kept: {reason}.").format(reason=reason),
                reason,
            )
            return None
        self._worked("save", _("The finished game is kept now."))
        return target

    def set_finished(self) -> Path | None:
        """Turn a save holding a finished game into a kept finished game (for the history);
        the file it became, or None if it could not be renamed."""
        if not self.saving or not self.acquire():
            return None
        target = self._finished_name()
        try:
            with self._writing:
                self.path.rename(target)
        except OSError:
            return None
        return target

    def _finished_name(self) -> Path:
        stamp = f"{_stamp()}-{os.getpid()}"
        target = self.folder / f"finished-game-{stamp}.json"
        number = 1
        while target.exists():
            number += 1
            target = self.folder / f"finished-game-{stamp}-{number}.json"
        return target

    def finished_games(self) -> list[Path]:
        """The finished games kept for the history (oldest first) while this process holds
        the lock; none when another forage does (it records them itself)."""
        if not self.acquire():
            return []
        return sorted(self.folder.glob(FINISHED_PATTERN))

    def forget_finished(self, path: Path) -> None:
        """Remove a finished game's file once the history has it; never raises."""
        with self._writing, contextlib.suppress(OSError):
            path.unlink(missing_ok=True)

    def write_record(self, path: Path, text: str) -> bool:
        """Write the ``--record`` file; a failure is told once, like the save's."""
        try:
            write_atomic(path, text)
        except OSError as exc:
            self._failed(
                "record",
                _("The record {path} cannot be written: {problem}.").format(
                    path=path, problem=shown(os_problem(exc))
                ),
            )
            return False
        self._worked("record", _("The record {path} is written again.").format(path=path))
        return True


_SLOTS: dict[Path, SaveSlot] = {}


def slot() -> SaveSlot:
    """The save slot of the current data folder (one per folder for the process's life)."""
    folder = data_dir()
    found = _SLOTS.get(folder)
    if found is None:
        found = _SLOTS[folder] = SaveSlot(folder)
    return found


def write_crash_log(text: str) -> Path:
    """Write a crash's traceback to ``crash-<date>.log`` in the data folder (else a temp one)."""
    name = f"crash-{_stamp()}.log"
    for folder in (data_dir(), Path(tempfile.gettempdir())):
        try:
            write_atomic(folder / name, text)
        except OSError:
            continue
        return folder / name
    raise OSError("no folder to write the crash log in")
