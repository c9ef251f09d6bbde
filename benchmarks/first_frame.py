"""CPU instructions to the first frame: the game against a bare Textual app and the floor.

Each program runs once under ``valgrind --tool=callgrind`` with Textual headless: the game
as a player starts it (``forage play --seed 1``, through the command line), the bare app
of ``benchmarks/screen.py`` and the floor (the bare app with one pydantic model validated
before its first frame). Each stops the moment it hands Textual its first frame
(``os._exit``, hooked into Textual as the program imports it, in the program's own order),
so that neither what a program does on leaving (the interpreter's clean-up,
a game's save) nor what its timers start after the first frame is counted as start-up;
``--with-exit`` waits for the app to be idle, lets it leave as a player's quit does and
counts all of that too (the measure before this one: under callgrind's fiftyfold slowness,
wall-clock timers then fire or not, and a run moves by up to 70 M). Stopped at the first
frame, counts move by a few M between runs (string hashes), so one run of each is enough;
the ratios are what to compare (the interpreter's own start-up is in all three).

    uv run python benchmarks/first_frame.py [--against DIR] [--with-exit] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).parent))

from screen import FLOOR_APP, MINIMAL_APP, returning_player

ON_IMPORT: Final = """
import importlib.machinery
import sys


class _PatchOnImport:
    \"\"\"Patches textual.app as the program itself imports it, not before.\"\"\"

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "textual.app":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run_module = spec.loader.exec_module

        def run_and_patch(module):
            run_module(module)
            patch(module.App)

        spec.loader.exec_module = run_and_patch
        return spec


sys.meta_path.insert(0, _PatchOnImport)
"""
"""Each program's hook is put into Textual's ``App`` when the program imports
``textual.app``, where it would anyway: importing it first to patch it would move that
import before the game's garbage-collector pause (``forage.startup.hold``), and the
collector's walks over Textual's objects (about 30 M instructions) would be counted as the
game's, though a player's start never makes them."""

STOP: Final = (
    """
import os


def patch(app):
    _display = app._display
    _run = app.run

    def _stop_when_drawn(self, screen, renderable):
        _display(self, screen, renderable)
        if renderable is not None:
            os._exit(0)

    app._display = _stop_when_drawn
    app.run = lambda self, *args, **kwargs: _run(self, headless=True, size=(80, 24))
"""
    + ON_IMPORT
)
"""Every app runs headless at 80x24 and stops the moment it hands Textual's driver its first
frame: only the way there is counted (the first frame equals the screen once the app is
idle, checked for the game)."""

QUIT: Final = (
    """
def patch(app):
    _run = app.run

    def _first_frame(self, *args, **kwargs):
        async def leave(pilot):
            await pilot.pause()
            pilot.app.exit(0)

        return _run(self, headless=True, size=(80, 24), auto_pilot=leave)

    app.run = _first_frame
"""
    + ON_IMPORT
)
"""With ``--with-exit``: every app waits for its first frame and idle, then leaves as a
player's quit does, and the way out is counted too."""

TIMEOUT: Final = 600
"""Seconds a program may run under callgrind (a program that never draws stops there)."""

GAME = (
    "\nimport sys\nsys.argv = ['forage', 'play', '--seed', '1']\n"
    "from forage.launch import main\nmain()\n"
)
"""The game as the ``forage`` script starts it."""


def instructions(code: str, env: dict[str, str]) -> int:
    """The instructions a Python program runs, counted by callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                code,
            ],
            env=env,
            check=True,
            capture_output=True,
            timeout=TIMEOUT,
        )
        found = re.search(r"^totals:\s+(\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError("callgrind wrote no totals")
        return int(found.group(1))


def run(against: str | None = None, with_exit: bool = False) -> dict[str, float]:
    """Count the instructions of each program; returns the counts (M) and the ratios."""
    headless = QUIT if with_exit else STOP
    with tempfile.TemporaryDirectory() as home:
        returning_player(home)
        env = {**os.environ, "FORAGE_HOME": home, "TERM": "xterm-256color"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        programs = {
            "game": (headless + GAME, env),
            "minimal": (headless + MINIMAL_APP, env),
            "floor": (headless + FLOOR_APP, env),
        }
        if against is not None:
            programs["before"] = (headless + GAME, {**env, "PYTHONPATH": against})
        for code, program_env in programs.values():  # write the bytecode caches first
            subprocess.run(
                [sys.executable, "-c", code], env=program_env, check=True, timeout=TIMEOUT
            )
        counts = {name: instructions(code, e) / 1e6 for name, (code, e) in programs.items()}
    figures = {f"{name}_minstr": round(count, 1) for name, count in counts.items()}
    figures["game_over_floor"] = round(counts["game"] / counts["floor"], 3)
    figures["floor_over_minimal"] = round(counts["floor"] / counts["minimal"], 3)
    if against is not None:
        figures["before_over_floor"] = round(counts["before"] / counts["floor"], 3)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    """Count and print the instructions to the first frame."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="DIR", help="also count the forage found in DIR")
    parser.add_argument("--with-exit", action="store_true", help="count each program's way out too")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    figures = run(args.against, args.with_exit)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for name, value in figures.items():
        print(f"{name:24}{value:>12}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
