"""The language forage speaks: how it is chosen, and its catalogues kept whole and up to date."""

from __future__ import annotations

import ast
import importlib.util
import re
import string
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog

from forage import i18n
from forage.i18n import choose, normalise

ROOT = Path(__file__).resolve().parent.parent


def catalogue_script() -> ModuleType:
    """scripts/catalogue.py, as a module."""
    spec = importlib.util.spec_from_file_location("catalogue", ROOT / "scripts" / "catalogue.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("catalogue", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ja", "ja"),
        ("ja_JP.UTF-8", "ja"),
        ("ja-JP", "ja"),
        ("JA_jp.eucJP@x", "ja"),
        ("en_GB.UTF-8", "en"),
        ("C", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("fr_FR.UTF-8", None),
        ("", None),
        ("  ", None),
    ],
)
def test_a_locale_name_names_a_shipped_language_or_none(name: str, code: str | None) -> None:
    assert normalise(name) == code


def test_forage_lang_comes_first() -> None:
    environ = {"FORAGE_LANG": "ja", "LANGUAGE": "en", "LC_ALL": "en_US.UTF-8"}
    assert choose(environ, kept="en") == "ja"
    assert choose({"FORAGE_LANG": "en", "LANG": "ja_JP.UTF-8"}, kept="ja") == "en"


def test_the_kept_setting_comes_before_the_locale() -> None:
    assert choose({"LANG": "en_US.UTF-8"}, kept="ja") == "ja"
    assert choose({"LANG": "ja_JP.UTF-8"}, kept="en") == "en"


def test_an_unknown_forage_lang_or_setting_falls_through_to_the_locale() -> None:
    assert choose({"FORAGE_LANG": "xx", "LANG": "ja_JP.UTF-8"}, kept="zz") == "ja"


def test_gettext_order_language_list_then_the_first_locale_variable_set() -> None:
    assert choose({"LANGUAGE": "fr:ja:en", "LANG": "en_US.UTF-8"}) == "ja"
    assert choose({"LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}) == "ja"
    assert choose({"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "en_US"}) == "ja"
    assert choose({"LANG": "ja_JP.UTF-8"}) == "ja"
    # LC_ALL is in force: a LANG behind it does not count, even where LC_ALL names no
    # shipped language.
    assert choose({"LC_ALL": "fr_FR.UTF-8", "LANG": "ja_JP.UTF-8"}) == "en"


def test_english_where_nothing_fits() -> None:
    assert choose({}) == "en"
    assert choose({"LANG": "de_DE.UTF-8"}) == "en"


def test_use_switches_the_strings_and_back() -> None:
    template = catalogue_script().read(i18n.LOCALE_DIR / "ja" / "LC_MESSAGES" / "forage.po")
    translated = next((m for m in template if m.id and isinstance(m.id, str) and m.string), None)
    if translated is None:
        pytest.skip("no translated string yet")
    try:
        i18n.use("ja")
        assert i18n.current() == "ja"
        assert i18n._(translated.id) == translated.string
        i18n.use("en")
        assert i18n._(translated.id) == translated.id
    finally:
        i18n.use("en")


def test_english_needs_no_catalogue_and_a_missing_one_falls_back() -> None:
    assert i18n.catalogue("en").gettext("Place") == "Place"
    assert i18n.catalogue("xx").gettext("Place") == "Place"


def test_every_shipped_language_has_its_catalogue() -> None:
    for language in i18n.language_codes():
        if language == i18n.SOURCE_LANGUAGE:
            continue
        folder = i18n.LOCALE_DIR / language / "LC_MESSAGES"
        assert (folder / "forage.po").is_file(), language
        assert (folder / "forage.mo").is_file(), language


def test_the_catalogues_are_up_to_date_and_complete() -> None:
    problems = catalogue_script().problems()
    assert problems == [], "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


FIELD = string.Formatter()


def fields(text: str) -> set[str]:
    """The named fields of a format string (its ``{name}`` and ``{name:spec}``)."""
    try:
        return {name for _, name, _, _ in FIELD.parse(text) if name is not None}
    except ValueError:
        return {"<not a format string>"}


def shipped_catalogues() -> list[tuple[str, Catalog]]:
    """Each shipped language's catalogue, read."""
    script = catalogue_script()
    return [(language, script.read(script.po_path(language))) for language in script.languages()]


def test_every_translation_has_the_fields_of_its_source() -> None:
    wrong: list[str] = []
    for language, catalogue in shipped_catalogues():
        for message in catalogue:
            if not message.id or not message.string:
                continue
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            strings = [message.string] if isinstance(message.string, str) else message.string
            want = set().union(*(fields(source) for source in ids))
            for translation in strings:
                if translation and fields(translation) != want:
                    wrong.append(f"{language}: {ids[0]!r} -> {translation!r}")
    assert wrong == [], "\n".join(wrong)


def test_every_translation_keeps_the_printf_fields_of_its_source() -> None:
    # argparse's own messages are %-formatted.
    printf = re.compile(r"%(\([a-z_]+\))?[sdr]")
    wrong: list[str] = []
    for language, catalogue in shipped_catalogues():
        for message in catalogue:
            if not message.id or not message.string or not isinstance(message.id, str):
                continue
            if "python-format" not in message.flags and "%" not in message.id:
                continue
            translation = message.string if isinstance(message.string, str) else ""
            if sorted(printf.findall(message.id)) != sorted(printf.findall(translation)):
                wrong.append(f"{language}: {message.id!r} -> {translation!r}")
    assert wrong == [], "\n".join(wrong)


GETTEXT_CALLS = {"_", "N_", "ngettext", "pgettext"}


def test_no_string_is_handed_to_gettext_in_a_form_the_extractor_cannot_read() -> None:
    wrong: list[str] = []
    for path in sorted((ROOT / "src" / "forage").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in GETTEXT_CALLS or not node.args:
                continue
            count = 2 if node.func.id in ("ngettext", "pgettext") else 1
            for argument in node.args[:count]:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    continue
                # A string marked N_ where it is defined is translated where shown, by its
                # name (a constant, a table's entry); what is built there never is.
                named = (ast.Name, ast.Attribute, ast.Subscript)
                if node.func.id == "_" and isinstance(argument, named):
                    continue
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                wrong.append(f"{where}: {node.func.id}() of {ast.unparse(argument)}")
    assert wrong == [], "\n".join(wrong)


def test_no_source_string_uses_positional_fields() -> None:
    # A translation may need to put the fields in its own order: each must have a name.
    wrong: list[str] = []
    for _language, catalogue in shipped_catalogues()[:1]:
        for message in catalogue:
            ids = [message.id] if isinstance(message.id, str) else list(message.id or ())
            for source in ids:
                if "%" in source:
                    continue  # argparse's own, %-formatted
                try:
                    parsed = list(FIELD.parse(source))
                except ValueError:
                    continue  # braces as text
                if any(
                    name is not None and (name == "" or name.isdigit()) for _, name, _, _ in parsed
                ):
                    wrong.append(repr(source))
    assert wrong == [], "\n".join(wrong)


DISPLAY_CALLS: dict[str, tuple[int, ...]] = {
    "notify": (0,),
    "Static": (0,),
    "Label": (0,),
    "Button": (0,),
    "Binding": (2,),
    "say": (0,),
    "tell": (0,),
    "ConfirmScreen": (0,),
    "Text": (0,),
    "SystemExit": (0,),
    "print": (0,),
    "fail": (0,),
    "error": (0,),
}
"""Calls whose argument at these positions a player reads (a widget's text, a footer's
label, a message, a line printed, an error the command line shows)."""
DISPLAY_KEYWORDS = frozenset({"description", "title", "sub_title", "message", "help"})
"""Keyword arguments a player reads."""
PLAYER_PACKAGES = ("app", "cli")
"""The parts of forage whose every literal shown is the player's to read."""
WORD = re.compile(r"[A-Za-z]{2,}")


def _shown_literal(node: ast.expr) -> bool:
    """Whether an argument is text written in English right there (a literal or f-string
    with a word in it), rather than a value or a string that went through gettext."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = re.sub(r"\[/?[a-z $#.@=-]*\]", "", node.value)  # Rich markup is not words
        return bool(WORD.search(text))
    if isinstance(node, ast.JoinedStr):
        return any(_shown_literal(part) for part in node.values)
    return False


def test_no_text_shown_to_a_player_bypasses_gettext() -> None:
    wrong: list[str] = []
    for package in PLAYER_PACKAGES:
        for path in sorted((ROOT / "src" / "forage" / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                shown = [
                    node.args[index]
                    for index in DISPLAY_CALLS.get(name, ())
                    if index < len(node.args)
                ]
                shown += [k.value for k in node.keywords if k.arg in DISPLAY_KEYWORDS]
                for argument in shown:
                    if _shown_literal(argument):
                        where = f"{path.relative_to(ROOT)}:{node.lineno}"
                        wrong.append(f"{where}: {ast.unparse(argument)[:70]}")
    assert wrong == [], f"{len(wrong)} texts shown untranslated:\n" + "\n".join(wrong)
