"""The real entry points in a fresh process: the ``forage`` script and ``python -m forage``.

Exit codes must survive the trip through the interpreter, and the headless commands must
not import Textual (they start quickly and work where no terminal UI can).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from forage.carddata import standard_deck
from forage.engine import Deal, Game


def legal_record(turns: int) -> dict[str, Any]:
    """A record of a few legal moves, chosen by the engine."""
    deal = Deal.from_seed(2024)
    game = Game(deal, standard_deck())
    moves = []
    for _ in range(turns):
        p = next(game.outcomes()).placement
        assert game.push(p).legal
        moves.append({"card": p.card, "rotation": int(p.rotation), "x": p.x, "y": p.y})
    return {"format": "forage/1", "deal": list(deal.cards), "moves": moves}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("records")
    good = legal_record(2)
    # The starting card is never in hand.
    start_again = {"card": good["deal"][0], "rotation": 0, "x": 0, "y": 0}
    files = {
        "good": good,
        "illegal": {**good, "moves": [*good["moves"], start_again]},
        "bad": {"deal": [1, 2, 19]},
    }
    paths = {}
    for name, record in files.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        paths[name] = str(path)
    return paths


def forage_script() -> str:
    script = Path(sys.executable).with_name("forage")
    if not script.exists():
        pytest.skip("the forage console script is not installed next to this Python")
    return str(script)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)


def test_console_script_exit_codes(records: dict[str, str]) -> None:
    forage = forage_script()
    good = run(forage, "replay", records["good"], "--json")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["moves_applied"] == 2
    illegal = run(forage, "replay", records["illegal"], "--json")
    assert illegal.returncode == 1
    assert json.loads(illegal.stdout)["error"]["reason"] == "not-in-hand"
    assert len(illegal.stderr.splitlines()) == 1
    bad = run(forage, "replay", records["bad"])
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "deal[2]" in bad.stderr and records["bad"] in bad.stderr
    assert "Traceback" not in bad.stderr


def test_python_dash_m(records: dict[str, str]) -> None:
    moves = run(sys.executable, "-m", "forage", "moves", records["good"], "--json")
    assert moves.returncode == 0, moves.stderr
    assert json.loads(moves.stdout)["moves"]
    missing = run(sys.executable, "-m", "forage", "replay", records["good"] + ".missing")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_headless_commands_do_not_import_textual(records: dict[str, str]) -> None:
    probe = (
        "import contextlib, io, json, sys\n"
        "from forage.cli import main\n"
        "codes = []\n"
        "for args in json.loads(sys.argv[1]):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), "
        "contextlib.redirect_stderr(io.StringIO()):\n"
        "        codes.append(main(args))\n"
        "print(json.dumps({'codes': codes, "
        "'textual': sorted(m for m in sys.modules if m.split('.')[0] == 'textual')}))\n"
    )
    commands = [
        ["deal", "--seed", "3"],
        ["deal", "--seed", "3", "--recipes"],
        ["replay", records["good"]],
        ["replay", records["good"], "--json"],
        ["replay", records["illegal"], "--json"],
        ["replay", records["bad"], "--json"],
        ["moves", records["good"]],
        ["moves", records["good"], "--json"],
    ]
    done = run(sys.executable, "-c", probe, json.dumps(commands))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["codes"] == [0, 0, 0, 0, 1, 2, 0, 0]
    assert report["textual"] == []


def test_import_time_shows_no_textual(records: dict[str, str]) -> None:
    done = run(sys.executable, "-X", "importtime", "-m", "forage", "replay", records["good"])
    assert done.returncode == 0
    imported = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line]
    assert "forage.record" in imported
    assert not [name for name in imported if name.split(".")[0] == "textual"]
