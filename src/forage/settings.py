"""The player's settings, kept in the data folder: whether to ask before a costly drop, and
the language chosen in the game.

``settings.json`` holds them, written as the tutorial's progress is (``forage.app.tutorial``):
an atomic write, a format tag, and a file that cannot be read counting as none (the
defaults); a folder that cannot be written is no error, the setting then lasting as long
as the game. Both files are read and written through :func:`read_kept` and
:func:`write_kept`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from forage.files import write_atomic
from forage.paths import data_dir

SETTINGS_NAME: Final = "settings.json"
SETTINGS_FORMAT: Final = "forage-settings/1"


def read_kept(path: Path, format_tag: str) -> dict[str, Any] | None:
    """A small JSON object kept in the data folder with this format tag, or None when there
    is none or it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: JSON nested too deeply
        return None
    if not isinstance(data, dict) or data.get("format") != format_tag:
        return None
    return data


def write_kept(path: Path, format_tag: str, fields: dict[str, Any]) -> bool:
    """Keep a small JSON object with its format tag (an atomic write); returns whether it
    could be written."""
    text = json.dumps({"format": format_tag, **fields}, indent=1) + "\n"
    try:
        write_atomic(path, text)
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class Settings:
    """What the player has chosen."""

    ask_costly: bool = True
    """Ask for a second enter before a drop that loses many points (``view.is_costly``)."""
    language: str | None = None
    """The language chosen in the game (a code of ``forage.i18n.LANGUAGES``); None: the
    environment's."""


def settings_path() -> Path:
    """The file the settings are kept in."""
    return data_dir() / SETTINGS_NAME


def load_settings() -> Settings:
    """The settings kept, or the defaults when there are none or they cannot be read."""
    data = read_kept(settings_path(), SETTINGS_FORMAT)
    if data is None:
        return Settings()
    language = data.get("language")
    return Settings(
        ask_costly=data.get("ask_costly") is not False,
        language=language if isinstance(language, str) else None,
    )


def save_settings(settings: Settings) -> bool:
    """Keep the settings (an atomic write); returns whether they could be written."""
    return write_kept(settings_path(), SETTINGS_FORMAT, asdict(settings))
