"""Where the guided first game (``forage learn``) stands, kept in the data folder.

``learn.json`` holds the lesson to resume at, whether every lesson is done, and whether
the first start of the game has offered the tutorial. An unreadable file counts as none
(the tutorial starts at its first lesson); a folder that cannot be written is no error:
the progress is then simply not kept.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final

from forage.paths import HISTORY_FILE, data_dir
from forage.settings import read_kept, write_kept

PROGRESS_NAME: Final = "learn.json"
PROGRESS_FORMAT: Final = "forage-learn/1"


@dataclass(frozen=True)
class Progress:
    """The tutorial's state: the lesson to resume at (from 0), and what was offered."""

    step: int = 0
    finished: bool = False
    offered: bool = False


def progress_path() -> Path:
    """The file the tutorial's progress is kept in."""
    return data_dir() / PROGRESS_NAME


def load_progress() -> Progress:
    """The progress kept, or a fresh start when there is none or it cannot be read."""
    data = read_kept(progress_path(), PROGRESS_FORMAT)
    if data is None:
        return Progress()
    step, finished, offered = data.get("step"), data.get("finished"), data.get("offered")
    return Progress(
        step=step if isinstance(step, int) and not isinstance(step, bool) and step >= 0 else 0,
        finished=finished is True,
        offered=offered is True,
    )


def save_progress(progress: Progress) -> bool:
    """Keep the progress (an atomic write); returns whether it could be written."""
    return write_kept(progress_path(), PROGRESS_FORMAT, asdict(progress))


def first_start() -> bool:
    """Whether this is a player's very first start: no tutorial file and no history."""
    if progress_path().exists():
        return False
    return not (data_dir() / HISTORY_FILE).exists()


def mark_offered() -> None:
    """Note that the tutorial was offered, so the game never offers it again."""
    progress = load_progress()
    if not progress.offered:
        save_progress(Progress(progress.step, progress.finished, offered=True))
