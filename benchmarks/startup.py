"""Start-up benchmark of the quick commands: process start to exit, beside a bare interpreter.

Each command runs as a fresh process (``python -m forage ...``, stdout to /dev/null) several
times; the commands take turns, and each one's figure is the median of its wall times. The
yardstick is ``python -c pass`` with the same interpreter. ``--against DIR`` also times the
forage found in DIR (e.g. an older checkout's ``src``, with its ``data`` beside it), taking
turns with this one, so both see the same machine load.

    uv run python benchmarks/startup.py [--runs N] [--against DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

EXAMPLE = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "partial-game.json")

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "forage --version": ["-m", "forage", "--version"],
    "forage --help": ["-m", "forage", "--help"],
    "forage deal --seed 1": ["-m", "forage", "deal", "--seed", "1"],
    "forage replay FILE --json": ["-m", "forage", "replay", EXAMPLE, "--json"],
    "forage replay FILE": ["-m", "forage", "replay", EXAMPLE],
    "forage moves FILE --json": ["-m", "forage", "moves", EXAMPLE, "--json"],
}


def time_once(args: list[str], env: dict[str, str]) -> float:
    """Seconds from starting the process to its exit."""
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        check=True,
    )
    return time.perf_counter() - began


def main() -> None:
    """Run every command in turn and print the medians (ms)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--against", help="also time the forage package found in this folder")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    variants = {"this": dict(os.environ)}
    if options.against:
        variants["against"] = {**os.environ, "PYTHONPATH": options.against}
    times = {(v, name): [] for v in variants for name in COMMANDS}
    for env in variants.values():  # warm the file cache and the bytecode
        for args in COMMANDS.values():
            time_once(args, env)
    for _ in range(options.runs):
        for name, args in COMMANDS.items():
            for variant, env in variants.items():
                times[variant, name].append(time_once(args, env))
    medians = {
        variant: {name: round(1000 * statistics.median(times[variant, name])) for name in COMMANDS}
        for variant in variants
    }
    if options.json:
        print(json.dumps({"runs": options.runs, "median_ms": medians}))
        return
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"median of {options.runs} runs, ms (process start to exit)")
    print(f"  {'':28} " + " ".join(f"{v:>8}" for v in variants))
    for name in COMMANDS:
        print(f"  {name:28} " + " ".join(f"{medians[v][name]:8}" for v in variants))


if __name__ == "__main__":
    main()
