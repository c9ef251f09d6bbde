"""The rooms' words in Japanese on the player's side, English on the wire: a refused name,
a server's error by its code, a file's problem (CONTRACT.md, "Language")."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_forage

from forage.files import os_problem
from forage.net.link import Refused, error_told, told
from forage.net.protocol import (
    BUSY_TEXT,
    BadMessage,
    BusyOut,
    ErrorCode,
    ErrorOut,
    read_client_message,
)
from forage.wording import shown


def test_a_refused_room_name_is_japanese_on_stderr(tmp_path: Path) -> None:
    env = {**os.environ, "FORAGE_LANG": "ja", "FORAGE_HOME": str(tmp_path)}
    done = run_forage("room", "new", "--name", "a[b", env=env)
    assert done.returncode == 2
    assert "名前に [ は使えません" in done.stderr, done.stderr
    assert "cannot hold" not in done.stderr


def test_a_refused_name_is_english_in_the_protocol_under_japanese() -> None:
    script = (
        "from forage.net.protocol import BadMessage, read_client_message\n"
        "try:\n"
        '    read_client_message(\'{"type": "create", "name": "a[b"}\')\n'
        "except BadMessage as exc:\n"
        "    print(exc)\n"
    )
    env = {**os.environ, "FORAGE_LANG": "ja"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    with pytest.raises(BadMessage) as english:
        read_client_message('{"type": "create", "name": "a[b"}')
    assert "a player name cannot hold [" in str(english.value)
    assert done.stdout.strip() == str(english.value)


def test_a_servers_error_code_is_shown_in_japanese(japanese: None) -> None:
    full = ErrorOut(code=ErrorCode.FULL, message="room ABCDEFGH is full (8 players)")
    assert told(full) == "ルームは満員です"
    illegal = ErrorOut(code=ErrorCode.ILLEGAL, message="x", reason="not-in-hand")
    assert told(illegal) != "x" and "手札" in told(illegal)
    assert told(BusyOut(message=BUSY_TEXT)).startswith("サーバーのデータベース")
    refused = Refused(ErrorCode.NAME_TAKEN, "'Ann' is already playing in this room")
    assert str(refused) == "'Ann' is already playing in this room"
    assert shown(refused) == "その名前は使われています。別の名前にしてください"


def test_an_unknown_error_code_is_shown_in_the_servers_words(japanese: None) -> None:
    assert error_told("brand-new", "the server's own words") == "the server's own words"


def test_a_servers_error_is_its_own_words_in_english() -> None:
    full = ErrorOut(code=ErrorCode.FULL, message="room ABCDEFGH is full (8 players)")
    assert told(full) == "room ABCDEFGH is full (8 players)"


def test_every_error_code_has_its_sentence() -> None:
    from forage.net.link import ERROR_TEXT

    assert set(ERROR_TEXT) == set(ErrorCode)


def test_a_files_problem_is_english_as_text_and_japanese_where_shown(japanese: None) -> None:
    problem = os_problem(PermissionError(errno.EACCES, "Permission denied", "x"))
    assert problem == "not allowed to write there (permission denied)"
    assert shown(problem) == "そこには書き込めません（権限がありません）"
    full = os_problem(OSError(errno.ENOSPC, "No space left on device"))
    assert shown(full) == "ディスクがいっぱいです"
