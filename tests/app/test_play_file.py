"""``forage play FILE``: a record continued and written onward, and a bad record or an
illegal move refused in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app_helpers import (
    place_greedy,
)

from forage.app.app import ForageApp
from forage.app.session import Session
from forage.carddata import standard_deck
from forage.cli.play import continued
from forage.engine import Deal, Game
from forage.record import record_from_game


def test_continue_a_record_and_write_onward(tmp_path: Path) -> None:
    game = Game(Deal.from_seed(7), standard_deck())
    for _ in range(3):
        game.push(max(game.outcomes(), key=lambda o: o.score_change))
    source = tmp_path / "shared.json"
    source.write_text(record_from_game(game, 7).to_json(), encoding="utf-8")
    onward = tmp_path / "onward.json"
    session = continued(str(source), onward)
    assert isinstance(session, Session)
    assert session.game.moves == game.moves and session.seed == 7

    async def play_one() -> None:
        app = ForageApp(session=session, record_path=onward)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await place_greedy(pilot, app)

    import asyncio

    asyncio.run(play_one())
    written = json.loads(onward.read_text(encoding="utf-8"))
    assert len(written["moves"]) == 4
    assert written["moves"][:3] == json.loads(source.read_text(encoding="utf-8"))["moves"]


def run_forage(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The forage command line in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "forage", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_play_file_refuses_a_bad_record_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"deal": [1, 2, 99]}', encoding="utf-8")
    done = run_forage("play", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"forage: {bad}: deal[2]: unknown card 99"]
    missing = run_forage("play", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_play_file_refuses_an_illegal_move(tmp_path: Path) -> None:
    record = tmp_path / "illegal.json"
    record.write_text(
        json.dumps({"seed": 1, "moves": [{"card": 5, "rotation": 0, "x": 9, "y": 9}]}),
        encoding="utf-8",
    )
    done = run_forage("play", str(record))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"forage: {record}: moves[0] (5@9,9): no-overlap: "
        "the card must cover at least one area of the woodland"
    ]
