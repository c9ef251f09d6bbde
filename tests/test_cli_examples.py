"""The shipped example records replay, and docs/record-format.md agrees with the CLI.

If the card data changes, the examples may stop replaying: regenerate them (any legal game
will do; see docs/record-format.md) rather than loosening these tests.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from forage.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
DOC = ROOT / "docs" / "record-format.md"


def replay(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    code = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def test_there_are_examples() -> None:
    names = {path.name for path in EXAMPLES}
    assert {"standard-game.json", "recipe-challenge.json", "partial-game.json"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_example_replays(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    result = replay(capsys, path)
    assert result["ok"] and result["error"] is None
    record = json.loads(path.read_text(encoding="utf-8"))
    assert result["moves_applied"] == len(record["moves"])
    # The readable summary and the move listing work on it too.
    assert main(["replay", str(path)]) == 0
    assert main(["moves", str(path), "--json"]) == 0
    capsys.readouterr()


def test_example_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    folder = ROOT / "docs" / "examples"
    standard = replay(capsys, folder / "standard-game.json")
    assert standard["finished"] and standard["target"] is None
    assert standard["won"] is (standard["score"]["base"] >= 35)
    challenge = replay(capsys, folder / "recipe-challenge.json")
    assert challenge["finished"] and challenge["target"] is not None
    assert len(challenge["recipes"]) == 2
    assert challenge["won"] is (challenge["score"]["final"] >= challenge["target"])
    partial = replay(capsys, folder / "partial-game.json")
    assert not partial["finished"] and partial["won"] is None
    record = json.loads((folder / "partial-game.json").read_text(encoding="utf-8"))
    assert any(move.get("mouse") for move in record["moves"])


def json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)


def test_doc_json_blocks_are_json() -> None:
    blocks = json_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 3
    for block in blocks:
        json.loads(block)


def test_doc_worked_example_matches_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """The worked example shows partial-game.json and (part of) its real result object."""
    text = DOC.read_text(encoding="utf-8")
    record_block = text.split("<!-- worked-example-record -->", 1)[1]
    shown_record = json.loads(json_blocks(record_block)[0])
    path = ROOT / "docs" / "examples" / "partial-game.json"
    assert shown_record == json.loads(path.read_text(encoding="utf-8"))
    result_block = text.split("<!-- worked-example-result -->", 1)[1]
    shown = json.loads(json_blocks(result_block)[0])
    actual = replay(capsys, path)
    for key, value in shown.items():
        if key == "woodland":
            assert all(square in actual["woodland"] for square in value)
        else:
            assert actual[key] == value, key
    moves_block = text.split("<!-- worked-example-moves -->", 1)[1]
    shown_moves = json.loads(json_blocks(moves_block)[0])["moves"]
    assert main(["moves", str(path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["moves"]
    assert all(entry in listed for entry in shown_moves)


def test_doc_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every record the page marks ``<!-- replays -->`` is accepted with all moves legal."""
    parts = DOC.read_text(encoding="utf-8").split("<!-- replays -->")[1:]
    assert len(parts) >= 3
    for index, part in enumerate(parts):
        path = tmp_path / f"doc-{index}.json"
        path.write_text(json_blocks(part)[0], encoding="utf-8")
        result = replay(capsys, path)
        assert result["ok"], index
