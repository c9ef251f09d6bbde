"""Smoke test of the screen benchmarks: they run in a real pty and report every figure."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "screen.py"


def load_benchmark() -> ModuleType:
    """The benchmark script as a module."""
    spec = importlib.util.spec_from_file_location("screen_bench", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_screen_benchmark_runs_quickly_and_reports_all_figures() -> None:
    module = load_benchmark()
    figures = module.run(quick=True)
    for name in ("game", "minimal"):
        for key in ("startup_ms", "latency_median_ms", "latency_p90_ms"):
            assert figures[f"{name}_{key}"] > 0
    assert figures["startup_ratio"] > 0 and figures["latency_ratio"] > 0


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_startup_only_against_another_checkout_reports_both_games() -> None:
    module = load_benchmark()
    source = str(SCRIPT.parents[1] / "src")
    figures = module.run(startup_only=True, runs=1, against=source)
    for name in ("game", "before", "minimal"):
        assert figures[f"{name}_startup_ms"] > 0
        assert len(figures[f"{name}_startup_runs_ms"]) == 1
        assert f"{name}_latency_median_ms" not in figures
    assert figures["startup_ratio"] > 0 and figures["before_startup_ratio"] > 0
    assert len(figures["startup_ratio_runs"]) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_floor_runs_the_minimal_app_with_one_pydantic_model() -> None:
    module = load_benchmark()
    assert "from pydantic import" in module.FLOOR_APP and "Die(face=3" in module.FLOOR_APP
    figures = module.run(startup_only=True, runs=1, floor=True)
    assert figures["floor_startup_ms"] > 0 and figures["floor_startup_ratio"] > 0
    assert len(figures["floor_startup_ratio_runs"]) == 1
    assert "before_startup_ms" not in figures
