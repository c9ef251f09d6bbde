"""Reading and writing the files a user names, and forage's own: one-line messages for what
went wrong, whether a file can be written, and writing atomically (a temporary file, then a
rename) through symbolic links, never over a device, a pipe or a socket. Part of the root
layer: it imports nothing of forage's.

Each message is a :class:`Problem`: the English sentence itself (what a log, a JSON output
or a comparison reads) that keeps the message it was made from, so that
:func:`forage.wording.shown` can show it in the player's language.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path


class Problem(str):
    """A problem's sentence in English (the string itself) with the message it was made from
    and its fields' values; ``Problem(...)`` marks the message for translation as ``N_``
    does (scripts/catalogue.py), and :func:`forage.wording.shown` translates it."""

    message: str
    values: Mapping[str, object]

    def __new__(cls, message: str, **values: object) -> Problem:
        """The sentence ``message`` with its named fields filled in."""
        made = super().__new__(cls, message.format(**values))
        made.message, made.values = message, values
        return made


def number_problem(error: ValueError, otherwise: str | None = None) -> str:
    """What a ValueError from reading a number says, without Python's advice to programmers.

    Python's limit on the digits of a whole number is named; any other error is told as
    ``otherwise`` (by default, its own message).
    """
    if "int_max_str_digits" in str(error):
        digits = sys.get_int_max_str_digits()
        return Problem("a number has more than {digits} digits", digits=digits)
    return str(error) if otherwise is None else otherwise


def json_problem(error: json.JSONDecodeError) -> str:
    """A few words on where JSON text stops making sense: ``not valid JSON (... at line 1)``."""
    return Problem(
        "not valid JSON ({problem} at line {line})",
        problem=error.msg.removesuffix(" at"),
        line=error.lineno,
    )


def os_problem(error: OSError) -> str:
    """A few words on why a file could not be read or written."""
    if isinstance(error, NotADirectoryError | FileExistsError):
        return Problem("a file is in the way of the folder {folder}", folder=error.filename)
    if isinstance(error, IsADirectoryError):  # a rename names the target second
        return Problem("{path} is a folder, not a file", path=error.filename2 or error.filename)
    if isinstance(error, PermissionError):
        return Problem("not allowed to write there (permission denied)")
    if error.errno == errno.ENOSPC:
        return Problem("the disk is full")
    if error.errno == errno.EROFS:
        return Problem("the file system is read-only")
    return error.strerror or str(error)


class NotAFileError(OSError):
    """A path to be written names a device, a pipe (FIFO) or a socket, never replaced."""


def _special_kind(mode: int) -> Problem | None:
    """Why a file of this mode is not written when it is a device, a pipe or a socket; else
    None."""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Problem("is a device, not a file")
    if stat.S_ISFIFO(mode):
        return Problem("is a pipe (FIFO), not a file")
    if stat.S_ISSOCK(mode):
        return Problem("is a socket, not a file")
    return None


def write_target(path: Path) -> Path:
    """The file a write to ``path`` replaces: the end of its chain of symbolic links (which
    may not exist yet). Raises :class:`NotAFileError` for a device, a pipe or a socket, and
    OSError for a loop of links or a path that cannot be looked at."""
    target = Path(os.path.realpath(path))
    try:
        mode = os.stat(target).st_mode  # a loop of links stays a link: ELOOP here
    except (FileNotFoundError, NotADirectoryError):  # not there yet, or no folder for it
        return target
    kind = _special_kind(mode)
    if kind is not None:
        raise NotAFileError(errno.EINVAL, kind, str(path))
    return target


def _writable(path: Path) -> bool:
    """Whether an existing file may be written: allowed, and not marked read-only (no write
    bit: a superuser may write anything, but a read-only file is still not to be replaced)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return True
    return os.access(path, os.W_OK) and bool(stat.S_IMODE(mode) & 0o222)


def write_problem(path: Path) -> str | None:
    """Why :func:`write_atomic` could not write this file, or None if it can (tried now)."""
    try:
        target = write_target(path)
        if target.is_dir():
            return Problem("is a folder, not a file")
        if target.exists() and not _writable(target):
            return Problem("the file is read-only")
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        return os_problem(exc)
    return None


def write_atomic(path: Path, text: str) -> None:
    """Write text to a file through a temporary file and a rename, so it is never half
    written; a symbolic link stays a link, its target written. Raises :class:`NotAFileError`
    (checked again just before the rename) rather than replace a device, a pipe or a socket."""
    target = write_target(Path(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        write_target(target)  # the path may have become a device meanwhile
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
