"""How the command line reports bad input: one line on stderr, exit code 2."""

from __future__ import annotations

import sys
from pathlib import Path

from forage.record import RecordError

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Input the command cannot use; the message names the file and the field."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> int:
    """Print ``forage: message`` on one line of stderr and return the exit code."""
    print(f"forage: {' '.join(message.split())}", file=sys.stderr)
    return code


def read_text(path: str) -> str:
    """The text of a file, or BadInput naming the file and what went wrong."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: is a folder, not a file") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not a text file (not UTF-8)") from None
    except OSError as exc:
        raise BadInput(f"{path}: cannot read ({exc.strerror})") from None


def record_problem(path: str, error: RecordError) -> str:
    """The one-line message for a record that cannot be read."""
    return f"{path}: {error}"
