"""benchmarks/first_frame.py: each program it counts reaches its first frame and stops."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import load_benchmark

FIRST_FRAME = load_benchmark("first_frame.py")
returning_player = load_benchmark("screen.py").returning_player


@pytest.mark.parametrize("leave", ["STOP", "QUIT"])
@pytest.mark.parametrize("program", ["GAME", "MINIMAL_APP", "FLOOR_APP"])
def test_each_program_stops_at_its_first_frame(leave: str, program: str, tmp_path: Path) -> None:
    """Run without callgrind, each program the benchmark counts ends by itself, at once
    and cleanly: a Textual without the hook it stops in would hang the benchmark instead."""
    code = getattr(FIRST_FRAME, leave) + getattr(FIRST_FRAME, program)
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), "TERM": "xterm-256color"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_stopping_at_the_first_frame_skips_the_way_out(tmp_path: Path) -> None:
    """STOP ends the process where the first frame is drawn: nothing registered to run at
    exit runs (QUIT, the measure with the way out, runs it)."""
    probe = "import atexit\natexit.register(lambda: print('left'))\n"
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), "TERM": "xterm-256color"}
    said = {}
    for leave in ("STOP", "QUIT"):
        code = probe + getattr(FIRST_FRAME, leave) + FIRST_FRAME.MINIMAL_APP
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
        )
        said[leave] = done.stdout
    assert "left" not in said["STOP"] and "left" in said["QUIT"]


@pytest.mark.parametrize("leave", ["STOP", "QUIT"])
def test_the_hook_leaves_textual_to_be_imported_where_the_program_imports_it(
    leave: str, tmp_path: Path
) -> None:
    """The hook imports no Textual itself (the game imports it after pausing the garbage
    collector, and the count must see the game's own order), yet still stops the program."""
    probe = "import sys\nprint('textual' in sys.modules, flush=True)\n"
    code = getattr(FIRST_FRAME, leave) + probe + FIRST_FRAME.MINIMAL_APP
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), "TERM": "xterm-256color"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "False"


WRITE_MODULES = """
import os
import sys


def patch(app):
    _display = app._display
    _run = app.run

    def _list_when_drawn(self, screen, renderable):
        _display(self, screen, renderable)
        if renderable is not None:
            print(*sorted(sys.modules), flush=True)
            os._exit(0)

    app._display = _list_when_drawn
    app.run = lambda self, *args, **kwargs: _run(self, headless=True, size=(80, 24))
"""


def test_the_game_starts_no_worker_machinery_before_its_first_frame(tmp_path: Path) -> None:
    """The worker processes' modules (multiprocessing, the process pool) are imported when
    the first analysis is asked for, not on the way to the first frame."""
    returning_player(str(tmp_path))
    code = WRITE_MODULES + FIRST_FRAME.ON_IMPORT + FIRST_FRAME.GAME
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), "TERM": "xterm-256color"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    imported = set(done.stdout.split())
    assert "forage.app.screens.game" in imported  # the board was drawn
    assert not imported & {"multiprocessing", "concurrent.futures.process", "forage.ai.workers"}
