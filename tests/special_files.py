"""Paths to write that are not plain files, made in a test's folder: a FIFO, a unix socket,
for root a device node (a copy of /dev/null's), and symbolic links."""

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


LINK_SHAPES: Final = ("to a file", "dangling", "chain")
"""The symbolic links :func:`linked` makes: to a file, to no file yet, through another link."""


def linked(folder: Path, shape: str) -> tuple[Path, Path]:
    """A symbolic link of ``shape`` (one of :data:`LINK_SHAPES`) in ``folder``, and the
    file at the end of its chain, in a folder of its own (``records``)."""
    target = folder / "records" / "game.json"
    target.parent.mkdir()
    link = folder / "link.json"
    if shape == "chain":
        middle = folder / "middle.json"
        middle.symlink_to(Path("records") / "game.json")  # relative to the link's folder
        link.symlink_to(middle)
    else:
        link.symlink_to(target)
    if shape != "dangling":
        target.write_text("an older file")
    return link, target


def is_kind(path: Path, kind: str) -> bool:
    """Whether ``path`` (not followed if a link) is still a special file of ``kind``."""
    mode = os.lstat(path).st_mode
    return {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "device": stat.S_ISCHR}[kind](mode)
