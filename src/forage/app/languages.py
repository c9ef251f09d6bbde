"""Switching forage's language in the game (``I``): the next language is kept in the
settings, and ``forage play`` starts again in it with its game in progress (a process speaks
one language for its life: its screens' words are fixed as they load).

The app saves the game and ends with a :class:`Restart`; the command that ran it then
starts the same command line again with ``FORAGE_LANG`` set (:func:`start_again`), and
:data:`RESUME_VARIABLE` tells the new process to take the saved game up at once.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NoReturn

from forage.i18n import ENVIRONMENT, LANGUAGES
from forage.settings import load_settings, save_settings

if TYPE_CHECKING:
    from textual.app import App

LANGUAGE_KEY: Final = "I"
"""The key, on every screen, that switches to the next language."""
RESUME_VARIABLE: Final = "FORAGE_RESUME_SAVED"
"""Set (to ``1``) for a forage started again in another language: it takes the saved game
up without asking."""


@dataclass(frozen=True)
class Restart:
    """The app ended to have forage start again in another language."""

    language: str
    """The code of the language to start in."""
    resume: bool
    """Whether the game in progress was saved to be taken up at once."""


def next_language(code: str) -> str:
    """The language after ``code`` in :data:`forage.i18n.LANGUAGES` (the first after the
    last)."""
    codes = [language.code for language in LANGUAGES]
    index = codes.index(code) if code in codes else -1
    return codes[(index + 1) % len(codes)]


def language_name(code: str) -> str:
    """A language's name in itself (``日本語``)."""
    return next(language.name for language in LANGUAGES if language.code == code)


def keep_language(code: str) -> bool:
    """Keep ``code`` as the player's language in settings.json; whether it could be
    written."""
    return save_settings(dataclasses.replace(load_settings(), language=code))


def take_resume_mark() -> bool:
    """Whether this process was started again to take the saved game up at once (the mark
    is taken: what this process starts does not inherit it)."""
    return os.environ.pop(RESUME_VARIABLE, "") == "1"


def keep_the_tab(app: App[Any]) -> None:
    """In a browser tab: the app's end does not close the tab (Textual's web driver tells
    the server ``exit`` as it stops), for the process started again in its place draws
    into the same tab."""
    driver = getattr(app, "_driver", None)
    write_meta = getattr(driver, "write_meta", None)
    if driver is None or write_meta is None:
        return

    def written(data: dict[str, object]) -> None:
        if data.get("type") != "exit":
            write_meta(data)

    driver.write_meta = written


def start_again(restart: Restart) -> NoReturn:
    """Replace this process with the same command line in ``restart``'s language (its
    game taken up at once if it was saved)."""
    os.environ[ENVIRONMENT] = restart.language
    if restart.resume:
        os.environ[RESUME_VARIABLE] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
