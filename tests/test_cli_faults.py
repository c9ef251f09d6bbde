"""Faults around the commands: one line and exit 2 for bad input, never a traceback.

Argument errors, ``--record`` files that cannot be written, numbers too long for Python to
read, Ctrl+C at any moment of start-up (130) and an output pipe closed early (141).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import run_forage
from special_files import KINDS, is_kind, special_file

from forage.cli import main
from forage.cli.errors import EXIT_INTERRUPTED, EXIT_PIPE_CLOSED
from forage.engine import Deal

HUGE = "7" * 5000
LONGEST_NUMBER = "9" * sys.get_int_max_str_digits()
"""A number with as many digits as Python reads (4300)."""


def one_line_exit_2(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """Check exit 2 and a single ``forage: ...`` line on stderr holding ``words``."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("forage: ")
    for word in words:
        assert word in lines[0]
    return lines[0]


def test_argument_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for args, word in (
        (["bot"], "--games"),
        (["bot", "--games", "0"], "at least 1"),
        (["deal", "--seed", "x"], "not a whole number"),
        (["deal", "--seed", "²"], "not a whole number: '²'"),
        (["replay"], "FILE"),
        (["replay", "a.json", "b.json"], "unrecognized arguments"),
        (["deal", "--recipes", "--deck", "2"], "deck 2"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("forage: "), err
        assert word in err and "usage" not in err


def test_help_still_shows_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bot", "--help"])
    assert exc.value.code == 0
    assert "usage: forage bot" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda tmp: str(tmp), "is a folder"),
        (lambda tmp: str(tmp / "file.txt" / "game.json"), "a file is in the way of the folder"),
        (lambda tmp: "", "no file name"),
        (lambda tmp: "   ", "no file name"),
    ],
)
def test_unusable_record_file_is_refused_before_the_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, problem: str
) -> None:
    (tmp_path / "file.txt").write_text("in the way")
    path = make(tmp_path)  # type: ignore[operator]
    assert main(["play", "--record", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--record" in err and problem in err, err
    assert path.strip() == "" or path in err


@pytest.mark.parametrize("kind", list(KINDS))
def test_play_refuses_a_special_file_as_record_before_the_game(tmp_path: Path, kind: str) -> None:
    path = special_file(tmp_path, kind)
    home = tmp_path / "home"
    done = run_forage(
        "play", "--seed", "3", "--record", str(path), env={**os.environ, "FORAGE_HOME": str(home)}
    )
    line = one_line_exit_2(done, f"--record {path}: is {KINDS[kind]}, not a file")
    assert line == f"forage: --record {path}: is {KINDS[kind]}, not a file"
    assert is_kind(path, kind)
    assert not home.exists()  # the game never started: no save, no lock


def test_read_only_record_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tests run as root, for whom no folder is read-only: refuse the write as the OS would.
    import tempfile

    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    target = tmp_path / "game.json"
    assert main(["play", "--record", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(target) in err and "permission denied" in err


def test_record_with_a_5000_digit_number(tmp_path: Path) -> None:
    record = tmp_path / "huge.json"
    record.write_text(
        '{"format": "forage/1", "deal": [1, 2, 3], "moves": [{"card": 2, "x": '
        + HUGE
        + ', "y": 0}]}'
    )
    for command in ("replay", "moves", "hint", "par"):
        line = one_line_exit_2(run_forage(command, str(record)), str(record), "more than")
        assert "set_int_max_str_digits" not in line
    as_json = run_forage("replay", str(record), "--json")
    assert as_json.returncode == 2
    assert json.loads(as_json.stdout)["error"]["reason"] == "bad-input"


def test_deal_code_and_seed_with_5000_digits(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--deal", f"1.{HUGE}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--deal" in err and "more than" in err
    assert "set_int_max_str_digits" not in err
    assert main(["par", "--deal", f"{HUGE}.1"]) == 2
    assert "more than" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["play", "--seed", "9" * 5000])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 200 and "--seed" in err


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--seed", LONGEST_NUMBER],
        ["serve", "--port", LONGEST_NUMBER],
        ["serve", "--max-games", LONGEST_NUMBER],
        ["history", "--limit", f"-{LONGEST_NUMBER}"],
        ["bot", "--games", f"-{LONGEST_NUMBER}"],
        ["play", "--deck", LONGEST_NUMBER],
        ["replay", "a.json", LONGEST_NUMBER],
    ],
    ids=["seed", "port", "max-games", "limit", "games", "deck", "extra argument"],
)
def test_a_4300_digit_number_is_cut_in_the_error_line(tmp_path: Path, args: list[str]) -> None:
    done = run_forage(*args, env={**os.environ, "FORAGE_HOME": str(tmp_path)})
    line = one_line_exit_2(done, args[-2] if args[-2].startswith("--") else "unrecognized")
    assert len(line) < 200 and "..." in line


@pytest.mark.parametrize("name", ["COLUMNS", "LINES"])
def test_a_superscript_terminal_size_is_ignored(tmp_path: Path, name: str) -> None:
    env = {**os.environ, "FORAGE_HOME": str(tmp_path), name: "²"}
    for args in (["--help"], ["stats"], ["history"]):
        done = run_forage(*args, env=env)
        assert done.returncode == 0, done.stderr
        assert done.stderr == "" and done.stdout != ""


# The ``forage`` script's entry point, telling the test when it has taken over Ctrl+C (its
# first lines): before that, in the interpreter's own start-up, Python handles the signal.
SCRIPT = """
import signal, sys
set_handler = signal.signal
def told(*args):
    signal.signal = set_handler
    result = set_handler(*args)
    sys.stderr.write("up\\n")
    sys.stderr.flush()
    return result
signal.signal = told
sys.argv[0] = "forage"
from forage.launch import main
sys.exit(main())
"""


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.05, 0.1, 0.2, 0.5])
def test_ctrl_c_at_any_moment_exits_130_quietly(delay: float) -> None:
    # Long enough to be interrupted at every delay: imports first, then the bots at work.
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, "bot", "--games", "100000", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    assert process.stderr.readline() == "up\n"
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert err == "", err
    assert process.returncode == EXIT_INTERRUPTED


@pytest.mark.parametrize("delay", [1.0, 1.6, 2.3])
def test_ctrl_c_while_the_expert_plays_in_workers_exits_130_quietly(delay: float) -> None:
    # As a terminal sends it: to the whole process group, the workers included.
    process = subprocess.Popen(
        [sys.executable, "-m", "forage", "bot", "--games", "200", "--policy", "expert"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGINT)
    began = time.monotonic()
    _, err = process.communicate(timeout=60)
    assert err == "", err
    assert process.returncode == EXIT_INTERRUPTED
    assert time.monotonic() - began < 5.0


def test_closed_output_pipe_exits_quietly(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": "forage/1", "deal": list(Deal.from_seed(1).cards)}))
    for args in (
        ["moves", str(record), "--json"],
        ["moves", str(record)],
        ["deal", "--seed", "1"],
        ["history"],
        ["stats"],
        ["history", "--json"],
        ["stats", "--json"],
    ):
        # A reader that is gone before anything is written: every write fails.
        read, write = os.pipe()
        os.close(read)
        done = subprocess.run(
            [sys.executable, "-m", "forage", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
        os.close(write)
        assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
        assert done.stderr == ""
        assert done.returncode == EXIT_PIPE_CLOSED


def test_version_and_help_import_nothing_heavy() -> None:
    for args in (["--version"], ["--help"]):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "forage", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0
        imported = {
            line.rsplit("|", 1)[-1].strip().split(".")[0]
            for line in done.stderr.splitlines()
            if "|" in line
        }
        assert "forage" in imported
        assert not imported & {"pydantic", "rich", "textual", "platformdirs"}, imported


def test_a_read_only_record_file_is_refused_not_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "game.json"
    target.write_text("kept")
    target.chmod(0o444)
    assert main(["play", "--record", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(target) in err and "read-only" in err
    assert target.read_text() == "kept"


@pytest.mark.parametrize("command", ["replay", "moves", "review", "play"])
def test_a_record_over_a_megabyte_is_refused_before_it_is_read(
    tmp_path: Path, command: str
) -> None:
    big = tmp_path / "big.json"
    big.write_text(" " * 1_000_001)
    started = time.monotonic()
    line = one_line_exit_2(run_forage(command, str(big)), str(big), "too large")
    assert "1 MB" in line and time.monotonic() - started < 20


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero")
def test_fifos_and_devices_are_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        done = subprocess.run(
            [sys.executable, "-m", "forage", "replay", path],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        one_line_exit_2(done, path, "not a regular file")


def test_json_errors_read_once_at_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"deal": "1.2\x01"}')
    line = one_line_exit_2(run_forage("replay", str(bad)), "not valid JSON")
    assert "at at" not in line and "at line 1" in line


def test_a_long_player_name_is_not_echoed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--player", "x" * 130_000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 200 and "at most 40" in err


@pytest.mark.parametrize("kind", ["worker", "bug"])
def test_a_headless_command_that_fails_unexpectedly_says_one_line_and_logs_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A bug, or an analysis whose worker process is killed (``forage review FILE --json``):
    exit 70, one line naming the log (and a worker's end as such), the traceback in the log;
    never a traceback shown."""
    from concurrent.futures.process import BrokenProcessPool

    import forage.cli

    error = (
        BrokenProcessPool("a child process terminated abruptly")
        if kind == "worker"
        else ValueError("a bug")
    )

    def failed(args: object) -> int:
        raise error

    monkeypatch.setenv("FORAGE_HOME", str(tmp_path))
    monkeypatch.setattr(forage.cli, "_dispatch", failed)
    assert main(["deal", "--seed", "1"]) == 70
    err = capsys.readouterr().err
    (line,) = err.splitlines()
    (log,) = tmp_path.glob("crash-*.log")
    said = {
        "worker": "stopped: one of its worker processes ended (killed, or out of memory?)",
        "bug": "stopped on an unexpected error",
    }[kind]
    assert line == f"forage: the command {said}; details in {log}"
    assert type(error).__name__ in log.read_text() and "Traceback" in log.read_text()
