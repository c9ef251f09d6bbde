"""Smoke test of the screen benchmarks: they run in a real pty and report every figure."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "screen.py"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_screen_benchmark_runs_quickly_and_reports_all_figures() -> None:
    spec = importlib.util.spec_from_file_location("screen_bench", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run(quick=True)
    for name in ("game", "minimal"):
        for key in ("startup_ms", "latency_median_ms", "latency_p90_ms"):
            assert figures[f"{name}_{key}"] > 0
    assert figures["startup_ratio"] > 0 and figures["latency_ratio"] > 0
