"""The language forage speaks to its player: which one, and the functions every string a
player reads goes through.

Catalogues are gettext's (``locale/<language>/LC_MESSAGES/forage.mo`` inside the package,
compiled from the ``.po`` beside it); English is the source text and needs none. The
language is chosen once per process, before the first string is translated:
``FORAGE_LANG``, else the one kept in the player's settings, else gettext's own order
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. No installed system
locale is needed. What machines read (records, results, ``--json``, the WebSocket protocol,
exit codes) never goes through here.

Strings are written ``_("Score: {score}").format(score=...)``, named fields so that a
translation can put them in its own order; a string defined before the language is known
(a module's constant) is marked with :func:`N_` and translated where it is shown.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

DOMAIN: Final = "forage"
"""The catalogues' gettext domain."""

LOCALE_DIR: Final = Path(__file__).parent / "locale"
"""Where the compiled catalogues are, one folder per language."""

SOURCE_LANGUAGE: Final = "en"
"""The language forage is written in; needs no catalogue."""

ENVIRONMENT: Final = "FORAGE_LANG"
"""The environment variable that names forage's language for one run."""

GETTEXT_ORDER: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables gettext reads, in its order, after ``FORAGE_LANG`` and the setting."""


@dataclass(frozen=True)
class Language:
    """A language forage can be read in."""

    code: str
    """Its code, as ``FORAGE_LANG`` takes it (``en``, ``ja``)."""
    name: str
    """Its name in itself, as a player looking for it reads it."""


LANGUAGES: Final = (Language("en", "English"), Language("ja", "日本語"))
"""Every language forage ships, the source language first."""


def language_codes() -> tuple[str, ...]:
    """The codes of the languages forage ships."""
    return tuple(language.code for language in LANGUAGES)


def normalise(name: str) -> str | None:
    """The code of a shipped language a locale name asks for (``ja_JP.UTF-8`` -> ``ja``,
    ``C`` -> ``en``), or None when it names none of them."""
    name = name.strip()
    if not name:
        return None
    if name in ("C", "POSIX") or name.startswith(("C.", "POSIX.")):
        return SOURCE_LANGUAGE
    base = name.split(".", 1)[0].split("@", 1)[0].replace("-", "_").lower()
    for candidate in (base, base.split("_", 1)[0]):
        if candidate in language_codes():
            return candidate
    return None


def choose(environ: Mapping[str, str], kept: str | None = None) -> str:
    """The language for a run: ``FORAGE_LANG``, else ``kept`` (the player's setting), else
    the first of gettext's variables that names a shipped language, else English."""
    forced = normalise(environ.get(ENVIRONMENT, ""))
    if forced is not None:
        return forced
    chosen = normalise(kept) if kept is not None else None
    if chosen is not None:
        return chosen
    for variable in GETTEXT_ORDER:
        value = environ.get(variable, "")
        if not value:
            continue
        # LANGUAGE is a list (``ja:en``); the others name one locale.
        names = value.split(":") if variable == "LANGUAGE" else [value]
        for name in names:
            found = normalise(name)
            if found is not None:
                return found
        if variable != "LANGUAGE":
            break  # the first locale variable set is the one in force (LANGUAGE aside)
    return SOURCE_LANGUAGE


def catalogue(language: str) -> _gettext.NullTranslations:
    """The translations of one language (none, the source text itself, for English or a
    language whose catalogue is missing)."""
    if language == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, [language], fallback=True)


class _Current:
    """The language in use in this process, chosen on the first string asked."""

    language: str | None = None
    translations: _gettext.NullTranslations = _gettext.NullTranslations()


def use(language: str) -> None:
    """Speak ``language`` from now on (a shipped code; anything else means English)."""
    code = normalise(language) or SOURCE_LANGUAGE
    _Current.language = code
    _Current.translations = catalogue(code)


def current() -> str:
    """The code of the language in use (chosen from the environment and the player's
    setting when nothing has chosen it yet)."""
    if _Current.language is None:
        use(choose(os.environ, kept_language()))
    assert _Current.language is not None
    return _Current.language


def kept_language() -> str | None:
    """The language the player chose in the game, kept in settings.json (None: none)."""
    from forage.settings import load_settings  # a small JSON read, with no Textual

    return load_settings().language


def _(message: str) -> str:
    """``message`` in the player's language."""
    if _Current.language is None:
        current()
    return _Current.translations.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that fits ``count`` in the player's language."""
    if _Current.language is None:
        current()
    return _Current.translations.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the player's language, as meant in ``context`` (where one English word
    has two meanings: ``best`` a score, ``best`` a move's rating)."""
    if _Current.language is None:
        current()
    return _Current.translations.pgettext(context, message)


def N_(message: str) -> str:
    """``message`` marked for translation where it is shown, not where it is defined."""
    return message
