"""forage.files: writing atomically through symbolic links, never over a device, a pipe or a
socket, and the one-line reasons a file cannot be written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from special_files import KINDS, LINK_SHAPES, is_kind, linked, special_file

from forage.files import os_problem, write_atomic, write_problem


@pytest.mark.parametrize("kind", list(KINDS))
def test_write_atomic_refuses_a_special_file_and_leaves_it(tmp_path: Path, kind: str) -> None:
    path = special_file(tmp_path, kind)
    with pytest.raises(OSError) as refused:
        write_atomic(path, "text")
    assert os_problem(refused.value) == f"is {KINDS[kind]}, not a file"
    assert is_kind(path, kind)
    assert sorted(tmp_path.iterdir()) == [path]  # no temporary file left


@pytest.mark.parametrize("kind", list(KINDS))
def test_write_problem_names_a_special_file(tmp_path: Path, kind: str) -> None:
    path = special_file(tmp_path, kind)
    assert write_problem(path) == f"is {KINDS[kind]}, not a file"
    assert is_kind(path, kind)


def test_a_link_to_a_fifo_is_refused_and_stays_a_link(tmp_path: Path) -> None:
    fifo = special_file(tmp_path, "fifo")
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    assert write_problem(link) == "is a pipe (FIFO), not a file"
    with pytest.raises(OSError):
        write_atomic(link, "text")
    assert link.is_symlink() and is_kind(fifo, "fifo")


def test_a_path_that_becomes_a_fifo_while_written_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    assert write_problem(path) is None
    real_fsync = os.fsync

    def fifo_meanwhile(fd: int) -> None:
        real_fsync(fd)
        if not path.exists():
            os.mkfifo(path)

    monkeypatch.setattr(os, "fsync", fifo_meanwhile)
    with pytest.raises(OSError) as refused:
        write_atomic(path, "text")
    assert os_problem(refused.value) == "is a pipe (FIFO), not a file"
    assert is_kind(path, "fifo") and sorted(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("shape", LINK_SHAPES)
def test_write_atomic_writes_through_a_link_which_stays_a_link(tmp_path: Path, shape: str) -> None:
    link, target = linked(tmp_path, shape)
    assert write_problem(link) is None
    write_atomic(link, "new")
    assert link.is_symlink()
    assert target.read_text() == "new" and not target.is_symlink()
    assert sorted(p.name for p in target.parent.iterdir()) == ["game.json"]


def test_a_loop_of_links_is_refused_in_one_line(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.symlink_to(second)
    second.symlink_to(first)
    problem = write_problem(first)
    assert problem is not None and "symbolic links" in problem and "\n" not in problem
    with pytest.raises(OSError):
        write_atomic(first, "text")
    assert first.is_symlink() and second.is_symlink()


def test_a_link_to_a_folder_is_a_folder(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path)
    assert write_problem(link) == "is a folder, not a file"
