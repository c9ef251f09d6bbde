"""How the command line reports bad input: one line on stderr, exit code 2.

Imported before any command runs, so it imports nothing heavy (``forage --version`` and
``--help`` stay quick).
"""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from forage.engine import Deal

from forage import __version__
from forage.exits import (
    EXIT_BAD_INPUT,
    EXIT_CRASH,
    EXIT_ILLEGAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PIPE_CLOSED,
)
from forage.i18n import _

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_CRASH",
    "EXIT_ILLEGAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PIPE_CLOSED",
    "BadInput",
    "deal_option",
    "fail",
    "one_line",
    "program_line",
    "read_text",
    "report_crash",
    "shortened",
    "writable_file",
]


PROGRAM: Final = "forage"
"""The command's name, as each line it says of itself begins (the same in every language:
it is what the player types)."""


def program_line(message: str) -> str:
    """A line the command says of itself: ``forage: message``."""
    return f"{PROGRAM}: {message}"


class BadInput(Exception):
    """Input the command cannot use; the message names the file and the field."""


def shortened(text: str, limit: int = 40) -> str:
    """Text as an error message echoes it: at most ``limit`` characters, cut with ``...``."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


LONGEST_WORD = 100
"""The most characters of one word (a number, a file name) an error line shows."""


def one_line(message: str) -> str:
    """A message as an error line shows it: on one line, any word longer than
    :data:`LONGEST_WORD` shortened (input echoed whole may be thousands of characters)."""
    return " ".join(shortened(word, LONGEST_WORD) for word in message.split())


def report_crash(error: BaseException, what: str | None = None) -> int:
    """Log an unexpected error's traceback in the data folder and say in one line what
    stopped (a worker process that ended is named as such) and where the log is; the exit
    code (``EXIT_CRASH``); ``what`` stopped (by default, the game)."""
    # Loaded only once a crash happens: ``--help`` imports nothing beyond argparse.
    import traceback
    from concurrent.futures import BrokenExecutor

    from forage.app.saves import write_crash_log

    what = _("the game") if what is None else what
    details = "".join(traceback.format_exception(error))
    header = f"forage {__version__}, Python {sys.version.split()[0]}, {time.ctime()}\n{sys.argv}\n"
    try:
        where = _("; details in {path}").format(path=write_crash_log(header + details))
    except OSError:
        where = f": {error!r}"
    if isinstance(error, BrokenExecutor):  # the machine's doing, not a bug
        said = _(
            "{what} stopped: one of its worker processes ended (killed, or out of memory?)"
        ).format(what=what)
    else:
        said = _("{what} stopped on an unexpected error").format(what=what)
    print(program_line(said + where), file=sys.stderr)
    return EXIT_CRASH


def fail(message: str, code: int = EXIT_BAD_INPUT) -> int:
    """Print ``forage: message`` on one line of stderr and return the exit code."""
    print(program_line(one_line(message)), file=sys.stderr)
    return code


MAX_READ = 1_000_000
"""The largest file a command reads, in bytes: a record of 18 moves is a few hundred."""


def read_text(path: str, limit: int = MAX_READ) -> str:
    """The text of a file of at most ``limit`` bytes, or BadInput naming the file and what
    went wrong (a FIFO, a device or a socket is refused before it is opened)."""
    try:
        found = os.stat(path)
        if stat.S_ISDIR(found.st_mode):
            raise BadInput(_("{path}: is a folder, not a file").format(path=path))
        if not stat.S_ISREG(found.st_mode):
            raise BadInput(
                _("{path}: not a regular file (a device, pipe or socket)").format(path=path)
            )
        if found.st_size > limit:
            raise BadInput(
                _("{path}: too large ({size}; at most {limit})").format(
                    path=path, size=_size(found.st_size), limit=_size(limit)
                )
            )
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
        if len(data) > limit:
            raise BadInput(
                _("{path}: too large (more than {limit})").format(path=path, limit=_size(limit))
            )
        return data.decode("utf-8-sig")
    except FileNotFoundError:
        raise BadInput(_("{path}: no such file").format(path=path)) from None
    except IsADirectoryError:
        raise BadInput(_("{path}: is a folder, not a file").format(path=path)) from None
    except UnicodeDecodeError:
        raise BadInput(_("{path}: not a text file (not UTF-8)").format(path=path)) from None
    except OSError as exc:
        raise BadInput(
            _("{path}: cannot read ({reason})").format(path=path, reason=exc.strerror)
        ) from None
    except ValueError:  # a name holding a NUL byte
        raise BadInput(_("{name}: not a file name").format(name=repr(shortened(path)))) from None


def _size(count: int) -> str:
    """A number of bytes for a person: ``1 MB``, ``52.4 MB``, ``900 bytes``."""
    if count < 1000:
        return _("{count} bytes").format(count=count)
    if count < 1_000_000:
        return f"{count / 1000:.3g} kB"
    return f"{count / 1_000_000:.3g} MB"


def deal_option(code: str, option: str = "--deal") -> Deal:
    """The deal of a deal code given on the command line, or BadInput naming the problem."""
    from forage.record import deal_from_code  # pydantic and the engine, for a deal code only
    from forage.wording import shown

    try:
        return deal_from_code(code)
    except ValueError as exc:
        raise BadInput(f"{option}: {shown(exc)}") from None


def writable_file(path: str, option: str = "--record") -> Path:
    """A file the command will write, checked before it starts; BadInput if it cannot be."""
    from forage.files import write_problem  # tempfile, not for --help
    from forage.wording import shown

    if not path.strip():
        raise BadInput(_("{option}: no file name given").format(option=option))
    problem = write_problem(Path(path))
    if problem is not None:
        raise BadInput(f"{option} {path}: {shown(problem)}")
    return Path(path)
