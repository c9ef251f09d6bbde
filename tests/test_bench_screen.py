"""The screen benchmark: one short real run in a pty, and its figures' arithmetic and options
checked on measurements given to it."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest
from helpers import load_benchmark


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_a_quick_run_draws_the_game_and_both_yardsticks_in_a_pty() -> None:
    module = load_benchmark("screen.py")
    figures = module.run(quick=True, floor=True)
    assert (figures["presses"], figures["repeats"]) == (4, 1)
    for name in ("game", "minimal", "floor"):
        [startup] = figures[f"{name}_startup_runs_ms"]
        assert figures[f"{name}_startup_ms"] == startup > 0
        assert figures[f"{name}_latency_p90_ms"] >= figures[f"{name}_latency_median_ms"] > 0
    for prefix, name in (("", "game"), ("floor_", "floor")):
        ratio = figures[f"{name}_startup_ms"] / figures["minimal_startup_ms"]
        assert figures[f"{prefix}startup_ratio"] == pytest.approx(ratio, abs=0.01)
    latency = figures["game_latency_median_ms"] / figures["minimal_latency_median_ms"]
    assert figures["latency_ratio"] == pytest.approx(latency, abs=0.01)


STARTUP = {"game": 0.5, "minimal": 0.25, "before": 0.6, "floor": 0.3}
"""The start-up each program is given to take (s) by :func:`given_measurements`."""


def given_measurements(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch, sizes: list[tuple[int, int]] | None = None
) -> list[tuple[str, int, dict[str, str]]]:
    """Replace the benchmark's pty runs by fixed times; returns the runs asked for, as
    (program, key presses, environment), and adds each run's terminal size to ``sizes``."""
    asked: list[tuple[str, int, dict[str, str]]] = []

    def measure(
        argv: Sequence[str],
        marker: bytes,
        keys: Sequence[bytes],
        env: dict[str, str],
        size: tuple[int, int] = (80, 24),
        first: Sequence[tuple[bytes, bytes]] = (),
    ) -> tuple[float, list[float]]:
        if sizes is not None:
            sizes.append(size)
        if argv[-1] == module.FLOOR_APP:
            name = "floor"
        elif argv[-1] == module.MINIMAL_APP:
            name = "minimal"
        else:
            name = "before" if "PYTHONPATH" in env else "game"
        asked.append((name, len(keys), env))
        runs = sum(1 for n, _, _ in asked if n == name)
        return STARTUP[name] * runs, [STARTUP[name] / 10 * (i + 1) for i in range(len(keys))]

    monkeypatch.setattr(module, "_measure", measure)
    return asked


def test_startup_only_against_another_checkout_takes_turns_and_reports_both_games(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    module = load_benchmark("screen.py")
    asked = given_measurements(module, monkeypatch)
    figures = module.run(startup_only=True, runs=2, against=str(tmp_path))
    # one untimed run of each first, then the programs take turns, run after run
    order = ["game", "minimal", "before"]
    assert [name for name, _, _ in asked] == order * 3
    assert all(keys == 0 for _, keys, _ in asked)
    assert all(env["PYTHONPATH"] == str(tmp_path) for name, _, env in asked if name == "before")
    # each program's timed runs are its 2nd and 3rd calls: 2x and 3x its start-up
    for name in order:
        assert figures[f"{name}_startup_runs_ms"] == [STARTUP[name] * 2000, STARTUP[name] * 3000]
        assert figures[f"{name}_startup_ms"] == STARTUP[name] * 2500
        assert f"{name}_latency_median_ms" not in figures
    assert figures["startup_ratio"] == 2.0 and figures["startup_ratio_runs"] == [2.0, 2.0]
    assert figures["before_startup_ratio"] == 2.4
    assert "floor_startup_ms" not in figures and "latency_ratio" not in figures


def test_floor_adds_the_pydantic_app_and_latency_is_the_median_of_every_press(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = load_benchmark("screen.py")
    asked = given_measurements(module, monkeypatch)
    figures = module.run(quick=True, floor=True)
    assert [name for name, _, _ in asked] == ["game", "minimal", "floor"] * 2
    assert [keys for _, keys, _ in asked] == [0, 0, 0, 4, 4, 4]
    assert "before_startup_ms" not in figures
    # presses at 0.1, 0.2, 0.3, 0.4 of the start-up: median 0.25, p90 the 3rd of 4
    assert figures["floor_latency_median_ms"] == pytest.approx(STARTUP["floor"] * 250)
    assert figures["floor_latency_p90_ms"] == pytest.approx(STARTUP["floor"] * 300)
    assert figures["floor_startup_ratio"] == 1.2 and figures["latency_ratio"] == 2.0


def test_the_terminal_size_reaches_every_run_and_the_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--size 100x32`` runs every program in a 100x32 terminal (COLUMNS says so too)."""
    module = load_benchmark("screen.py")
    sizes: list[tuple[int, int]] = []
    asked = given_measurements(module, monkeypatch, sizes)
    figures = module.run(quick=True, size=(100, 32))
    assert sizes == [(100, 32)] * len(asked) and len(asked) == 4
    assert all(env["COLUMNS"] == "100" for _, _, env in asked)
    assert figures["size"] == "100x32"
    assert module._size("100x32") == (100, 32)
