"""Worker processes: how they start, and that none outlives the program that made it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from forage.ai.workers import start_method, stop_pool, worker_pool

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and /proc")

PROGRAM = textwrap.dedent(
    """
    import multiprocessing, sys, threading, time
    from forage.ai.workers import start_method, stop_pool, worker_pool

    if sys.argv[1] == "threaded":
        threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
    method = start_method()
    pool = worker_pool(2)
    try:
        futures = [pool.submit(time.sleep, 600) for _ in range(2)]
        time.sleep(0.5)
        print(method, flush=True)
        print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
        import gc, multiprocessing.synchronize as sync
        names = [o._semlock.name for o in gc.get_objects() if isinstance(o, sync.SemLock)]
        print(" ".join(name for name in names if name), flush=True)
        for future in futures:
            future.result()
    except KeyboardInterrupt:
        stop_pool(pool, finished=False)
        print("stopped", flush=True)
        sys.exit(130)
    """
)


def alive(pid: int) -> bool:
    """Whether a process runs under this pid (a zombie counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def left(semaphores: list[str]) -> list[str]:
    """Those of these named semaphores still in /dev/shm."""
    return [name for name in semaphores if Path("/dev/shm", "sem." + name.lstrip("/")).exists()]


def start_program(kind: str) -> tuple[subprocess.Popen[str], str, list[int], list[str]]:
    """Run a program whose two workers sleep; its start method, worker pids and named
    semaphores."""
    program = subprocess.Popen(
        [sys.executable, "-c", PROGRAM, kind],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert program.stdout is not None
    method = program.stdout.readline().strip()
    pids = [int(p) for p in program.stdout.readline().split()]
    assert pids, program.stderr.read() if program.stderr else "no workers"
    return program, method, pids, program.stdout.readline().split()


def ended_within(pids: list[int], seconds: float) -> bool:
    """Whether every one of the processes has ended within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize(("kind", "method"), [("single", "fork"), ("threaded", "forkserver")])
def test_workers_end_when_the_program_is_killed(kind: str, method: str) -> None:
    program, used, pids, named = start_program(kind)
    try:
        assert used == method
        assert all(alive(pid) for pid in pids)
        os.kill(program.pid, signal.SIGKILL)
        program.wait()
        assert ended_within(pids, 5.0), "a worker outlived the program killed with SIGKILL"
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5.0
    while left(named) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left(named), "semaphores left in /dev/shm"


def test_ctrl_c_reaches_the_program_and_not_its_workers() -> None:
    program, _, pids, _ = start_program("threaded")
    try:
        os.kill(program.pid, signal.SIGINT)
        said, errors = program.communicate(timeout=20)
        assert said.strip() == "stopped"
        assert program.returncode == 130
        assert "Traceback" not in errors, errors  # no worker saw the Ctrl+C
        assert ended_within(pids, 5.0)
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_process_running_threads_never_forks_its_workers() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert start_method() != "fork"
        pool = worker_pool(1)
        try:
            assert pool.submit(os.getpid).result(timeout=60) != os.getpid()
        finally:
            stop_pool(pool)
    finally:
        stop.set()
        thread.join()


def test_stopping_an_unfinished_pool_ends_its_running_workers() -> None:
    from forage.adapters.futures import running_workers

    pool = worker_pool(2)
    futures = [pool.submit(time.sleep, 600) for _ in range(2)]
    time.sleep(0.5)
    pids = [p.pid for p in running_workers(pool) if p.pid is not None]
    stop_pool(pool, finished=False)
    assert pids
    assert ended_within(pids, 5.0)
    from concurrent.futures import wait

    assert not wait(futures, timeout=5.0).not_done, "a future of an ended worker never ends"


def descendants(pid: int) -> set[int]:
    """The processes started by ``pid``, and by them, down to the last (from /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    found: set[int] = set()
    layer = {pid}
    while layer:
        layer = {child for child, parent in parents.items() if parent in layer} - found
        found |= layer
    return found


def record_of_a_finished_game(folder: Path) -> Path:
    """A finished greedy game's record, to review."""
    from forage.carddata import standard_deck
    from forage.engine import Deal, Game
    from forage.record import record_from_game

    game = Game(Deal.from_seed(2003), standard_deck())
    while not game.is_over():
        game.push(max(game.outcomes(), key=lambda o: o.score_change).placement)
    path = folder / "game.json"
    path.write_text(record_from_game(game).to_json())
    return path


@pytest.mark.parametrize(
    ("how", "command"),
    [
        (signal.SIGKILL, ("review", "RECORD", "--json")),
        (signal.SIGTERM, ("bot", "--games", "200", "--policy", "expert")),
        (signal.SIGKILL, ("bot", "--games", "200", "--policy", "expert")),
    ],
)
def test_no_worker_outlives_a_command_stopped_mid_analysis(
    tmp_path: Path, how: signal.Signals, command: tuple[str, ...]
) -> None:
    args = [str(record_of_a_finished_game(tmp_path)) if a == "RECORD" else a for a in command]
    program = subprocess.Popen(
        [sys.executable, "-m", "forage", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "FORAGE_HOME": str(tmp_path / "home")},
    )
    try:
        deadline = time.monotonic() + 30
        while len(descendants(program.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = descendants(program.pid)
        assert len(workers) >= 2, "the command analyses in worker processes"
        program.send_signal(how)
        program.wait(10)
        assert ended_within(sorted(workers), 5.0), "a worker outlived its command"
    finally:
        if program.poll() is None:
            program.kill()
        for pid in descendants(program.pid):
            os.kill(pid, signal.SIGKILL)
