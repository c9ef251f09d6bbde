"""Screen benchmarks: start-up to the first frame and key-press-to-repaint latency.

Each program runs in a real pseudo-terminal (80x24, or ``--size``), as a player would run
it: the game (``forage play --seed 1``) and, in the same run, a minimal Textual app (one
Static that counts key presses) as the yardstick. Start-up is the time from starting the
process to the end of its first full frame; latency is the time from writing a key to the
end of the repaint it causes (the output burst, closed by 30 ms of quiet). The two
programs take turns; start-up is the median over the runs, latency the median over all
key presses. Python may write its bytecode caches (``PYTHONDONTWRITEBYTECODE`` is
dropped) and each program runs once untimed first, so that start-up is that of a
player's second and later runs, not of compiling every module from source.
``--floor`` also starts the minimal app with one pydantic model, defined and validated
before its first frame: the least that any game built on a pydantic engine must add.
``--startup-only`` skips the key presses (each program is closed after its first frame);
``--runs N`` sets the number of runs; ``--against DIR`` also starts the game from the
forage package found in DIR (e.g. an older checkout's ``src``, with its ``data`` beside
it), taking turns with the other two, so that before and after meet the same machine.

    uv run python benchmarks/screen.py [--quick] [--startup-only] [--runs N] [--against DIR]
        [--floor] [--size 100x32] [--json]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import platform
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

QUIET = 0.03
"""Output is taken as finished after this long without a byte (s)."""

MINIMAL_APP = """
from textual.app import App
from textual.widgets import Static

class Minimal(App[None]):
    def compose(self):
        yield Static("presses: 0", id="count")

    def on_key(self, event):
        self.presses = getattr(self, "presses", 0) + 1
        self.query_one("#count", Static).update(f"presses: {self.presses}")

Minimal().run()
"""

FLOOR_APP = MINIMAL_APP.replace(
    "class Minimal(",
    """from pydantic import BaseModel, ConfigDict, Field

class Die(BaseModel):
    model_config = ConfigDict(frozen=True)
    face: int = Field(ge=1, le=6)
    colours: tuple[str, ...] = ()

Die(face=3, colours=("red",))

class Minimal(""",
)
"""The minimal app with one pydantic model defined and validated before its first frame."""

EXTRA_LABELS = (("before", "before"), ("floor", "+ pyd."), ("analysing", "analysing"))
"""The optional programs, as the printed table names them."""


def returning_player(home: str) -> None:
    """Mark the data folder as a returning player's: the tutorial was offered already, so
    the game opens on its board (a first start opens on the offer)."""
    from forage.app.tutorial import PROGRESS_FORMAT

    text = json.dumps({"format": PROGRESS_FORMAT, "step": 0, "finished": False, "offered": True})
    (Path(home) / "learn.json").write_text(text)


def _read_burst(fd: int, first_timeout: float) -> tuple[bytes, float | None]:
    """Read one burst of output; returns it and the time its last byte arrived."""
    data = b""
    last: float | None = None
    timeout = first_timeout
    while True:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return data, last
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return data, last
        if not chunk:
            return data, last
        data += chunk
        last = time.perf_counter()
        timeout = QUIET


class Terminal:
    """A program running in a pseudo-terminal (80x24 unless told)."""

    def __init__(
        self, argv: Sequence[str], env: dict[str, str], size: tuple[int, int] = (80, 24)
    ) -> None:
        """Start the program and note when."""
        self.master, slave = pty.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)

    def first_frame(self, marker: bytes, limit: float = 30.0) -> float:
        """Seconds from start until the burst that shows ``marker`` has ended."""
        seen = b""
        deadline = self.started + limit
        while time.perf_counter() < deadline:
            data, last = _read_burst(self.master, 1.0)
            seen += data
            if marker in seen and last is not None:
                # Drain the rest of the first frame.
                _, later = _read_burst(self.master, QUIET)
                return (later or last) - self.started
        raise RuntimeError(f"no first frame with {marker!r} within {limit} s")

    def key_latency(self, key: bytes) -> float:
        """Seconds from writing a key to the end of the repaint it causes."""
        _read_burst(self.master, QUIET)  # nothing pending
        sent = time.perf_counter()
        os.write(self.master, key)
        _, last = _read_burst(self.master, 2.0)
        if last is None:
            raise RuntimeError(f"no repaint after key {key!r}")
        return last - sent

    def until(self, key: bytes, marker: bytes, limit: float = 30.0) -> None:
        """Write a key, then read until ``marker`` has been shown (and the burst ended)."""
        os.write(self.master, key)
        seen = b""
        deadline = time.perf_counter() + limit
        while marker not in seen:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"{marker!r} not shown within {limit} s of {key!r}")
            data, _ = _read_burst(self.master, 1.0)
            seen += data
        _read_burst(self.master, QUIET)

    def close(self) -> None:
        """End the program."""
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self.master)


ANALYSING: Final = ((b"t", b"more next turn"), (b"\r", b"Placed"))
"""The keys that start the app's workers analysing (a hint, then the placement it suggests,
which has the move reviewed and the deal's par worked out while the player thinks), each
with what the screen shows once it is done."""


def _measure(
    argv: Sequence[str],
    marker: bytes,
    keys: Sequence[bytes],
    env: dict[str, str],
    size: tuple[int, int] = (80, 24),
    first: Sequence[tuple[bytes, bytes]] = (),
) -> tuple[float, list[float]]:
    """One run: the start-up time and the latency of each key press (s), the keys ``first``
    pressed before them (each waiting for what it shows)."""
    from forage.app.saves import SAVE_NAME

    terminal = Terminal(argv, env, size)
    try:
        startup = terminal.first_frame(marker)
        time.sleep(0.3)  # let start-up work (timers, workers) settle
        for key, shown in first:
            terminal.until(key, shown)
        latencies = [terminal.key_latency(key) for key in keys]
    finally:
        terminal.close()
        # A placement leaves a game in progress, which the next start would offer to resume.
        (Path(env["FORAGE_HOME"]) / SAVE_NAME).unlink(missing_ok=True)
    return startup, latencies


def _p90(values: list[float]) -> float:
    """The 90th percentile of some values."""
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.9) - 1)]


def run(
    quick: bool = False,
    *,
    startup_only: bool = False,
    runs: int | None = None,
    against: str | None = None,
    floor: bool = False,
    size: tuple[int, int] = (80, 24),
    analysing: bool = False,
) -> dict[str, Any]:
    """Measure the game and the minimal app in one run, in a terminal of ``size`` (columns,
    rows); returns the figures.

    The programs take turns, run after run, so that all meet the same machine; start-up
    is the median over the runs and latency the median over every key press. With
    ``against``, the game is also run from the forage package in that folder ("before");
    with ``floor``, the minimal app with one pydantic model too (:data:`FLOOR_APP`); with
    ``analysing``, the game again, its keys pressed while its workers analyse (after
    :data:`ANALYSING`: the review of a move and the deal's par, worked out while the player
    thinks).
    """
    presses = 0 if startup_only else 4 if quick else 40
    repeats = runs if runs is not None else 1 if quick else 7
    # Moving the card left and right takes it from beside the woodland, where it is dealt,
    # onto it and back, for any number of presses.
    game_keys = [b"h", b"l"] * (presses // 2)
    plain_keys = [b"x"] * presses
    game_argv = [sys.executable, "-m", "forage", "play", "--seed", "1"]
    with tempfile.TemporaryDirectory() as home:
        returning_player(home)
        env = {**os.environ, "TERM": "xterm-256color", "FORAGE_HOME": home, "COLUMNS": str(size[0])}
        env.pop("NO_COLOR", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a player's Python keeps its bytecode
        programs = {
            "game": (game_argv, b"Forage", game_keys, env, ()),
            "minimal": ([sys.executable, "-c", MINIMAL_APP], b"presses", plain_keys, env, ()),
        }
        if analysing:
            programs["analysing"] = (game_argv, b"Forage", game_keys, env, ANALYSING)
        if against is not None:
            before_env = {**env, "PYTHONPATH": against}
            programs["before"] = (game_argv, b"Forage", game_keys, before_env, ())
        if floor:
            programs["floor"] = (
                [sys.executable, "-c", FLOOR_APP],
                b"presses",
                plain_keys,
                env,
                (),
            )
        startups: dict[str, list[float]] = {name: [] for name in programs}
        latencies: dict[str, list[float]] = {name: [] for name in programs}
        for argv, marker, _, program_env, _ in programs.values():  # write the bytecode caches
            _measure(argv, marker, [], program_env, size)
        for _ in range(repeats):
            for name, (argv, marker, keys, program_env, first) in programs.items():
                startup, pressed = _measure(argv, marker, keys, program_env, size, first)
                startups[name].append(startup)
                latencies[name].extend(pressed)

    figures: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "presses": presses,
        "repeats": repeats,
        "size": f"{size[0]}x{size[1]}",
    }
    for name in programs:
        figures[f"{name}_startup_ms"] = round(statistics.median(startups[name]) * 1000, 1)
        figures[f"{name}_startup_runs_ms"] = [round(t * 1000, 1) for t in startups[name]]
        if not startup_only:
            latency = latencies[name]
            figures[f"{name}_latency_median_ms"] = round(statistics.median(latency) * 1000, 2)
            figures[f"{name}_latency_p90_ms"] = round(_p90(latency) * 1000, 2)
    others = [name for name in programs if name != "minimal"]
    for name in others:
        prefix = "" if name == "game" else f"{name}_"
        # The ratio of each run's pair (they ran back to back), then their median.
        pairs = [g / m for g, m in zip(startups[name], startups["minimal"], strict=True)]
        figures[f"{prefix}startup_ratio"] = round(
            figures[f"{name}_startup_ms"] / figures["minimal_startup_ms"], 2
        )
        figures[f"{prefix}startup_ratio_runs"] = [round(r, 2) for r in pairs]
        if not startup_only:
            figures[f"{prefix}latency_ratio"] = round(
                figures[f"{name}_latency_median_ms"] / figures["minimal_latency_median_ms"], 2
            )
    return figures


def _size(text: str) -> tuple[int, int]:
    """A terminal size written ``COLSxROWS``."""
    columns, _, rows = text.lower().partition("x")
    try:
        return int(columns), int(rows)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size like 100x32: {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the screen benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--startup-only", action="store_true", help="no key presses")
    parser.add_argument("--runs", type=int, help="runs of each program (default 7, 1 quick)")
    parser.add_argument("--against", metavar="DIR", help="also run the forage found in DIR")
    parser.add_argument(
        "--floor", action="store_true", help="also run the minimal app with one pydantic model"
    )
    parser.add_argument(
        "--size", type=_size, default=(80, 24), metavar="COLSxROWS", help="default 80x24"
    )
    parser.add_argument(
        "--analysing",
        action="store_true",
        help="also the game's keys while its workers analyse (a move's review, par)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    figures = run(
        analysing=args.analysing,
        quick=args.quick,
        startup_only=args.startup_only,
        runs=args.runs,
        against=args.against,
        floor=args.floor,
        size=args.size,
    )
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"Python {figures['python']} on {figures['machine']}, {figures['cpus']} cpus,"
        f" a {figures['size']} terminal"
    )
    print(f"{'':24}{'game':>10}{'minimal':>10}{'ratio':>8}")
    print(
        f"{'start-up (ms)':24}{figures['game_startup_ms']:>10}"
        f"{figures['minimal_startup_ms']:>10}{figures['startup_ratio']:>8}"
    )
    extra = [(name, label) for name, label in EXTRA_LABELS if f"{name}_startup_ms" in figures]
    for name, label in extra:
        print(
            f"{f'start-up {label} (ms)':24}{figures[f'{name}_startup_ms']:>10}"
            f"{figures['minimal_startup_ms']:>10}{figures[f'{name}_startup_ratio']:>8}"
        )
    print(f"{'ratio of each run':24}{figures['startup_ratio_runs']}")
    for name, label in extra:
        print(f"{f'ratio of each run {label}':24}{figures[f'{name}_startup_ratio_runs']}")
    if args.startup_only:
        return 0
    print(
        f"{'key to repaint, median':24}{figures['game_latency_median_ms']:>10}"
        f"{figures['minimal_latency_median_ms']:>10}{figures['latency_ratio']:>8}"
    )
    print(
        f"{'key to repaint, p90':24}{figures['game_latency_p90_ms']:>10}"
        f"{figures['minimal_latency_p90_ms']:>10}"
    )
    for name, label in extra:
        print(
            f"{f'key to repaint {label}':24}{figures[f'{name}_latency_median_ms']:>10}"
            f"{figures['minimal_latency_median_ms']:>10}{figures[f'{name}_latency_ratio']:>8}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
