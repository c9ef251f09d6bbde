"""Run ``forage serve`` in a child process for a test: a free loopback port, always stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

START_SECONDS = 30.0
STOP_SECONDS = 15.0


def free_port() -> int:
    """A TCP port nothing on 127.0.0.1 is listening on just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """A running ``forage serve``: its page address, process and output file."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        """What the server has printed so far (stdout and stderr together)."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def get_page(self) -> str:
        """The game's web page."""
        return get(self.url)

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self.url.rsplit(":", 1)[1].strip("/"))

    def stop(self, number: int = signal.SIGINT) -> None:
        """Stop the server with a signal, ctrl+c's unless told (killing it if it hangs)."""
        stop(self.process, number)


def get(url: str, timeout: float = 5.0) -> str:
    """The body of an HTTP GET."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        body: bytes = response.read()
    return body.decode("utf-8")


def stop(process: subprocess.Popen[bytes], number: int = signal.SIGINT) -> None:
    """Send the server a signal (ctrl+c's unless told); if it has not stopped in time, kill
    it and its games."""
    if process.poll() is None:
        process.send_signal(number)
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(STOP_SECONDS)


@contextmanager
def forage_server(
    home: Path, folder: Path, *options: str, descriptors: int | None = None
) -> Iterator[Served]:
    """``forage serve`` on a free 127.0.0.1 port with FORAGE_HOME=home, until the block ends;
    ``descriptors``: the most files it may have open (``ulimit -n``)."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    env = {**os.environ, "FORAGE_HOME": str(home)}
    command = [
        *(sys.executable, "-m", "forage", "serve", "--host", "127.0.0.1", "--port", str(port)),
        *options,
    ]
    if descriptors is not None:  # the shell sets the limit, then becomes the server
        command = ["bash", "-c", f'ulimit -n {descriptors} && exec "$@"', "bash", *command]
    with log.open("wb") as out:
        # Its own session, so a hung server and the games it started can be killed together.
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    served = Served(f"http://127.0.0.1:{port}/", process, log)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                raise AssertionError(f"forage serve exited early: {served.output()}")
            try:
                get(served.url, timeout=2.0)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise AssertionError(f"no answer on {served.url}: {served.output()}") from None
                time.sleep(0.1)
        yield served
    finally:
        stop(process)


def games_of(pid: int) -> list[int]:
    """The running child processes of a process (a server's games), by their ids."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def resident_mb(pid: int) -> float:
    """A process's resident memory in MB (0 once it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@asynccontextmanager
async def loopback_sessions(count: int) -> AsyncIterator[list[aiohttp.ClientSession]]:
    """Client sessions each connecting from its own loopback address (127.0.x.y)."""
    made = [
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(
                limit=0, local_addr=(f"127.0.{1 + i // 250}.{1 + i % 250}", 0)
            )
        )
        for i in range(count)
    ]
    try:
        yield made
    finally:
        for session in made:
            await session.close()
