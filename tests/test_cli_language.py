"""The command line in Japanese (FORAGE_LANG=ja): its help and errors are Japanese, and what
machines read (every ``--json`` output, the exit codes) is the same bytes as in English."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from helpers import run_forage

from forage.carddata import standard_deck
from forage.cli import COMMANDS
from forage.engine import Deal, Game
from forage.record import record_from_game

HELPS = [(), *((command,) for command in COMMANDS), ("room", "new"), ("room", "join")]
"""Every help the command line has: forage's own, each command's, room's subcommands'."""

OPTION = re.compile(r"(?<![\w-])--?[a-z][a-z0-9-]*")
"""An option as help names it (``--max-games``, ``-h``)."""
CHOICES = re.compile(r"\{[^{}]*\}")
"""A choice list as argparse shows it (``{greedy,expert}``)."""
TECHNICAL = frozenset(
    {
        "http",
        "https",
        "ws",
        "postgresql",
        "PostgreSQL",
        "SQLite",
        "X-Forwarded-For",
        "Proto",
        "Host",
    }
)
"""Names of protocols, programs and headers, the same in every language."""


def forage(*args: str, language: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``python -m forage ARGS`` in a fresh process in ``language``, data in ``home``."""
    env = {**os.environ, "FORAGE_LANG": language, "FORAGE_HOME": str(home), "COLUMNS": "80"}
    return run_forage(*args, env=env)


def english_words(text: str) -> list[str]:
    """ASCII words of two letters or more in help text that are not an option, a command,
    a metavar in capitals, a choice, a technical name or ``forage``."""
    text = CHOICES.sub(" ", OPTION.sub(" ", text))
    words = re.findall(r"[A-Za-z][A-Za-z-]*[A-Za-z]", text)
    return [
        word
        for word in words
        if word not in COMMANDS
        and word not in ("forage", "new", "join")
        and not word.replace("-", "").isupper()
        and word not in TECHNICAL
    ]


def test_the_check_finds_english_words_in_help() -> None:
    said = "usage: forage play [-h] [--seed SEED] {1,2} FILE: continue the game of this record"
    assert english_words(said) == ["usage", "continue", "the", "game", "of", "this", "record"]
    assert english_words("使い方: forage play [-h] [--seed SEED] {1,2} FILE　続ける") == []


@pytest.mark.parametrize("words", HELPS, ids=lambda words: " ".join(words) or "forage")
def test_help_in_japanese_has_no_english_word(words: tuple[str, ...], tmp_path: Path) -> None:
    shown = forage(*words, "--help", language="ja", home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "使い方" in shown.stdout
    assert english_words(shown.stdout) == []
    from forage.adapters.argparse import columns

    assert max(columns(line) for line in shown.stdout.splitlines()) <= 80


@pytest.mark.parametrize(
    "args",
    [
        ("play", "--bogus"),
        ("deal", "--deck", "3"),
        ("deal", "--seed", "many"),
        ("bot",),
        ("par", "--seed", "1", "--deal", "x"),
        ("history", "--limit", "0"),
        ("deal", "--recipes", "--deck", "2"),
    ],
)
def test_a_usage_error_in_japanese_is_one_japanese_line(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    english = forage(*args, language="en", home=tmp_path)
    japanese = forage(*args, language="ja", home=tmp_path)
    assert japanese.returncode == english.returncode == 2
    assert japanese.stdout == english.stdout == ""
    assert japanese.stderr.count("\n") == 1 and japanese.stderr.startswith("forage: ")
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese.stderr), japanese.stderr
    assert japanese.stderr != english.stderr


def records(folder: Path) -> dict[str, Path]:
    """Record files to read: a finished game, one with a refused move, one that is no record."""
    deal = Deal.from_seed(7)
    game = Game(deal, standard_deck())
    while not game.is_finished() and (outcomes := list(game.outcomes())):
        game.replay([outcomes[0].placement])
    finished = folder / "finished.json"
    finished.write_text(record_from_game(game, seed=7).to_json(), encoding="utf-8")
    refused = json.loads(finished.read_text(encoding="utf-8"))
    refused["moves"] = [refused["moves"][0], refused["moves"][0]]
    (folder / "refused.json").write_text(json.dumps(refused), encoding="utf-8")
    (folder / "broken.json").write_text('{"format": "forage/1", "seed": -1}', encoding="utf-8")
    return {
        "finished": finished,
        "refused": folder / "refused.json",
        "broken": folder / "broken.json",
    }


def test_json_and_exit_codes_are_the_same_bytes_in_japanese(tmp_path: Path) -> None:
    files = records(tmp_path)
    commands = [
        ("deal", "--seed", "12"),
        ("deal", "--seed", "12", "--recipes"),
        ("daily", "--code", "--date", "2024-05-01"),
        ("puzzle", "--json", "--date", "2024-05-01"),
        ("stats", "--json", "--player", "ann"),
        ("history", "--json", "--player", "ann"),
        ("bot", "--games", "2", "--seed", "3", "--json"),
        *(("replay", str(path), "--json") for path in files.values()),
        *(("moves", str(path), "--json") for path in files.values()),
    ]
    for args in commands:
        english = forage(*args, language="en", home=tmp_path / "en")
        japanese = forage(*args, language="ja", home=tmp_path / "ja")
        assert japanese.returncode == english.returncode, args
        if args[0] == "bot":  # the bot's speed differs between runs; the rest does not
            english_data, japanese_data = json.loads(english.stdout), json.loads(japanese.stdout)
            for data in (english_data, japanese_data):
                data.pop("games_per_second")
                data.pop("seconds", None)
            assert japanese_data == english_data, args
        else:
            assert japanese.stdout == english.stdout, args


def test_a_records_problem_is_japanese_on_stderr_and_english_in_its_json(tmp_path: Path) -> None:
    files = records(tmp_path)
    for name in ("refused", "broken"):
        english = forage("replay", str(files[name]), language="en", home=tmp_path)
        japanese = forage("replay", str(files[name]), language="ja", home=tmp_path)
        assert japanese.returncode == english.returncode != 0
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese.stderr), japanese.stderr
        assert japanese.stderr.count("\n") == english.stderr.count("\n") == 1


def test_a_table_for_people_is_in_japanese(tmp_path: Path) -> None:
    files = records(tmp_path)
    english = forage("replay", str(files["finished"]), language="en", home=tmp_path)
    japanese = forage("replay", str(files["finished"]), language="ja", home=tmp_path)
    assert "Deal" in english.stdout and "ディール" in japanese.stdout
    assert "Moves" not in japanese.stdout
    empty = forage("history", "--player", "ann", language="ja", home=tmp_path)
    assert empty.stdout.strip() == "ann の記録されたゲームはまだありません。"
