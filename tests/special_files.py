"""Files that are not regular files, made in a test's folder: a FIFO, a unix socket and,
for root, a device node (a copy of /dev/null's)."""

from __future__ import annotations

import os
import socket
import stat
import sys
from pathlib import Path
from typing import Final

import pytest

KINDS: Final = {"fifo": "a pipe (FIFO)", "socket": "a socket", "device": "a device"}
"""Each kind of special file, and the words forage's refusal uses for it."""


def special_file(folder: Path, kind: str) -> Path:
    """A special file of ``kind`` (a key of :data:`KINDS`) made in ``folder``; skips the
    test where this system or user cannot make one."""
    path = folder / kind
    if sys.platform == "win32":
        pytest.skip("no FIFOs, unix sockets or device nodes on Windows")
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
            try:
                server.bind(str(path))  # the file stays once the socket is closed
            except OSError as exc:
                pytest.skip(f"cannot bind a unix socket at {path}: {exc.strerror}")
    else:
        if os.geteuid() != 0:
            pytest.skip("only root may make a device node")
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("this container may not make device nodes")
    return path


def is_kind(path: Path, kind: str) -> bool:
    """Whether ``path`` (not followed if a link) is still a special file of ``kind``."""
    mode = os.lstat(path).st_mode
    return {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "device": stat.S_ISCHR}[kind](mode)
