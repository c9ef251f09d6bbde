"""forage's translation catalogues: extract the strings, bring each language up to date,
compile.

    uv run python scripts/catalogue.py update    # forage.pot from the code; each .po merged
    uv run python scripts/catalogue.py compile   # each .po to its .mo (built into the wheel)
    uv run python scripts/catalogue.py check     # what is missing or out of date, if anything
    uv run python scripts/catalogue.py merge A B OUT   # two branches' .po of one language joined

The template and the catalogues carry no line numbers (``--no-location``), so that moving
code changes no catalogue; ``docs/translating.md`` is the translator's guide.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "forage"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "forage.pot"
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "Problem": None,
}
"""The functions of ``forage.i18n`` whose arguments are the strings to translate, and
``forage.files.Problem`` (the root layer's sentences, marked as ``N_`` marks them)."""


def extract() -> Catalog:
    """Every string the code hands to gettext, with its translators' comments."""
    template = Catalog(project="forage", msgid_bugs_address="", fuzzy=False)
    found = extract_from_dir(
        str(PACKAGE),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("Translators:",),
        strip_comment_tags=True,
    )
    for _filename, _line, message, comments, context in found:
        template.add(message, None, auto_comments=comments, context=context)
    for message, comment in data_strings():
        if message not in template:
            template.add(message, None, auto_comments=[comment])
    return template


def data_strings() -> list[tuple[str, str]]:
    """The strings a player reads that live in data, not code, each with a translators'
    comment: the recipes' names and conditions (data/cards.json), the achievements'
    names and descriptions (data/achievements.json), the engine's reasons for a refused
    placement and its ratings of a woodland. The data keeps the English (``--json`` prints
    it); the screens translate it where they show it."""
    sys.path.insert(0, str(ROOT / "src"))
    from forage.engine.rules import REASON_TEXT
    from forage.engine.scoring import LOWEST_RATING, RATINGS

    data = ROOT / "data"
    found: list[tuple[str, str]] = []
    for card in json.loads((data / "cards.json").read_text(encoding="utf-8"))["cards"]:
        recipe = card.get("recipe")
        if recipe is not None:
            found.append((recipe["name"], "a recipe's name, on the back of a card"))
            found.append((recipe["condition"], "a recipe's condition (its bonus is said apart)"))
    achievements = json.loads((data / "achievements.json").read_text(encoding="utf-8"))
    for achievement in achievements["achievements"]:
        found.append((achievement["name"], "an achievement's name"))
        found.append((achievement["description"], "what an achievement asks"))
    for reason in REASON_TEXT.values():
        found.append((reason, 'why a placement is refused, after "Can\'t place here:"'))
    for _floor, phrase in RATINGS:
        found.append((phrase, "the rulebook's rating of a woodland's score (a pun if it can be)"))
    found.append((LOWEST_RATING, "the rulebook's rating of the lowest scores (a pun if it can be)"))
    return found


def languages() -> list[str]:
    """The languages that have a catalogue."""
    return sorted(path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/forage.po"))


def po_path(language: str) -> Path:
    """The catalogue of one language."""
    return LOCALE / language / "LC_MESSAGES" / "forage.po"


def read(path: Path) -> Catalog:
    """A catalogue read from its file."""
    with path.open("rb") as file:
        return read_po(file)


def po_bytes(catalogue: Catalog) -> bytes:
    """A catalogue as its file holds it: sorted, without line numbers."""
    out = io.BytesIO()
    write_po(out, catalogue, omit_header=False, no_location=True, sort_output=True, width=100)
    return out.getvalue()


def mo_bytes(catalogue: Catalog) -> bytes:
    """A catalogue compiled, as its ``.mo`` file holds it."""
    out = io.BytesIO()
    write_mo(out, catalogue, use_fuzzy=False)
    return out.getvalue()


def template_bytes() -> bytes:
    """The template as it follows from the code today."""
    template = extract()
    template.creation_date = read(TEMPLATE).creation_date if TEMPLATE.exists() else None
    return po_bytes(template)


def updated(language: str, template: Catalog) -> Catalog:
    """A language's catalogue with the template's strings: new ones empty, gone ones
    dropped."""
    catalogue = read(po_path(language))
    catalogue.update(template, no_fuzzy_matching=True, update_creation_date=False)
    catalogue.obsolete.clear()
    return catalogue


def untranslated(catalogue: Catalog) -> list[str]:
    """The strings of a catalogue with no translation, or one marked fuzzy."""
    missing: list[str] = []
    for message in catalogue:
        if not message.id:
            continue
        if message.fuzzy or not _translated(message):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def _translated(message: Message) -> bool:
    """Whether every form of a message has its translation."""
    strings: Iterable[str] = (
        message.string if isinstance(message.string, (list, tuple)) else [message.string]
    )
    return all(strings)


def problems() -> list[str]:
    """What is out of date or missing in the catalogues, one line each (none: all good)."""
    found: list[str] = []
    template = extract()
    if not TEMPLATE.exists() or po_bytes(read(TEMPLATE)) != template_bytes():
        found.append("forage.pot is out of date with the code: run scripts/catalogue.py update")
    for language in languages():
        path = po_path(language)
        catalogue = read(path)
        if po_bytes(updated(language, template)) != po_bytes(catalogue):
            found.append(f"{language}: forage.po is out of date: run scripts/catalogue.py update")
        for message in untranslated(catalogue):
            found.append(f"{language}: not translated: {message!r}")
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != mo_bytes(catalogue):
            found.append(f"{language}: forage.mo is out of date: run scripts/catalogue.py compile")
    return found


def update() -> None:
    """Write the template from the code, and merge it into every language's catalogue."""
    template = extract()
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(template_bytes())
    for language in languages():
        po_path(language).write_bytes(po_bytes(updated(language, template)))


def compile_all() -> None:
    """Compile every language's catalogue to the ``.mo`` the program reads."""
    for language in languages():
        path = po_path(language)
        path.with_suffix(".mo").write_bytes(mo_bytes(read(path)))


def merge(first: Path, second: Path, out: Path) -> None:
    """Join two versions of one language's catalogue (two branches' work): every string of
    either, each with the translation one of them has (the first's where both do)."""
    joined = read(first)
    for message in read(second):
        if not message.id:
            continue
        mine = joined.get(message.id, message.context)
        if mine is None:
            joined[message.id] = message
        elif not _translated(mine) and _translated(message):
            mine.string = message.string
            mine.flags = message.flags
    out.write_bytes(po_bytes(joined))


def main(argv: list[str]) -> int:
    """The script's command line."""
    command = argv[0] if argv else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "merge" and len(argv) == 4:
        merge(Path(argv[1]), Path(argv[2]), Path(argv[3]))
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    else:
        print("usage: catalogue.py update|compile|check|merge FIRST SECOND OUT", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
