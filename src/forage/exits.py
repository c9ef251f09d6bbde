"""The exit codes of every forage command (CONTRACT.md), in one place for the CLI and the app."""

from __future__ import annotations

from typing import Final

EXIT_OK: Final = 0
EXIT_ILLEGAL: Final = 1
"""A move in the record is illegal (``replay``, ``moves``)."""
EXIT_BAD_INPUT: Final = 2
"""Input that cannot be used, stored data that cannot be read; one line on stderr."""
EXIT_CRASH: Final = 70
"""The game stopped on an unexpected error (a bug); the traceback is in a log file."""
EXIT_HANGUP: Final = 129
"""The terminal went away (SIGHUP): 128 + 1; the game is saved first."""
EXIT_INTERRUPTED: Final = 130
"""Ctrl+C or SIGINT: 128 + 2."""
EXIT_PIPE_CLOSED: Final = 141
"""The reader of the output went away (``| head -1``): 128 + SIGPIPE, as the shell reports."""
EXIT_TERMINATED: Final = 143
"""SIGTERM: 128 + 15; the game is saved and the terminal restored first."""
