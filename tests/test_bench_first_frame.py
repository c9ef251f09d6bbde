"""benchmarks/first_frame.py: each program it counts reaches its first frame and stops."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
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


def first_frame_modules(home: Path) -> set[str]:
    """The modules a returning player's game has imported when its first frame is drawn."""
    returning_player(str(home))
    code = WRITE_MODULES + FIRST_FRAME.ON_IMPORT + FIRST_FRAME.GAME
    env = {**os.environ, "FORAGE_HOME": str(home), "TERM": "xterm-256color"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    imported = set(done.stdout.split())
    assert "forage.app.screens.game" in imported  # the board was drawn
    return imported


def test_the_game_starts_no_worker_machinery_before_its_first_frame(tmp_path: Path) -> None:
    """The worker processes' modules (multiprocessing, the process pool) are imported when
    the first analysis is asked for, not on the way to the first frame."""
    imported = first_frame_modules(tmp_path)
    assert not imported & {"multiprocessing", "concurrent.futures.process", "forage.ai.workers"}


APP = Path(__file__).resolve().parents[1] / "src" / "forage" / "app"


def deferred_imports(path: Path) -> Iterator[tuple[int, str]]:
    """Each import inside a function of a module: (its line, the module it imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    yield node.lineno, node.module
                elif isinstance(node, ast.Import):
                    yield node.lineno, node.names[0].name


def test_the_app_defers_only_imports_its_first_frame_does_without(tmp_path: Path) -> None:
    """An import inside a function of the app is of a module the game's first frame does
    not load (it loads when first used, off the way to the first frame), or says why it is
    there (a comment on its line or above its run of imports)."""
    loaded = first_frame_modules(tmp_path)
    pointless = []
    for path in sorted(APP.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for line, module in deferred_imports(path):
            above = line - 2  # the first line above this run of imports
            while lines[above].strip().startswith(("from ", "import ")):
                above -= 1
            said = "#" in lines[line - 1] or lines[above].strip().startswith("#")
            same_file = any(
                text.startswith((f"from {module} import", f"import {module}")) for text in lines
            )
            if (module in loaded or same_file) and not said:
                pointless.append(f"{path.relative_to(APP)}:{line} {module}")
    assert pointless == [], "imported at start-up anyway: import at the top, or say why not"
