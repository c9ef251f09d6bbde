"""Reading and writing files for records and saves: one-line messages for what went wrong,
whether a file can be written, and writing atomically (a temporary file, then a rename).
Part of the root layer: it imports nothing of forage's."""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import tempfile
from pathlib import Path


def number_problem(error: ValueError, otherwise: str | None = None) -> str:
    """What a ValueError from reading a number says, without Python's advice to programmers.

    Python's limit on the digits of a whole number is named; any other error is told as
    ``otherwise`` (by default, its own message).
    """
    if "int_max_str_digits" in str(error):
        return f"a number has more than {sys.get_int_max_str_digits()} digits"
    return str(error) if otherwise is None else otherwise


def json_problem(error: json.JSONDecodeError) -> str:
    """A few words on where JSON text stops making sense: ``not valid JSON (... at line 1)``."""
    return f"not valid JSON ({error.msg.removesuffix(' at')} at line {error.lineno})"


def os_problem(error: OSError) -> str:
    """A few words on why a file could not be read or written."""
    if isinstance(error, NotADirectoryError | FileExistsError):
        return f"a file is in the way of the folder {error.filename}"
    if isinstance(error, IsADirectoryError):  # a rename names the target second
        return f"{error.filename2 or error.filename} is a folder, not a file"
    if isinstance(error, PermissionError):
        return "not allowed to write there (permission denied)"
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    if error.errno == errno.EROFS:
        return "the file system is read-only"
    return error.strerror or str(error)


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
    if path.is_dir():
        return "is a folder, not a file"
    if path.exists() and not _writable(path):
        return "the file is read-only"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        return os_problem(exc)
    return None


def write_atomic(path: Path, text: str) -> None:
    """Write text to a file through a temporary file and a rename, so it is never half written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
