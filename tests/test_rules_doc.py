"""docs/rules.md explains every ruling and names tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_rules_doc_has_a_section_per_ruling() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### (R\d+) ", text, flags=re.MULTILINE)
    assert headings == [f"R{n}" for n in range(1, 20)]


def test_rules_doc_names_only_tests_that_exist() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", text))
    defined: dict[str, set[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        source = path.read_text(encoding="utf-8")
        defined[path.name] = set(re.findall(r"^(?:async )?def (test_\w+)", source, re.MULTILINE))
    everything = set().union(*defined.values())
    assert named, "the doc names tests"
    assert named <= everything, sorted(named - everything)
    # Every test of the rulings files is named in the doc.
    rulings = set().union(*(v for k, v in defined.items() if k.startswith("test_rulings_")))
    ruling_tests = {name for name in rulings if re.match(r"test_r\d+[a-e]?_", name)}
    assert len(ruling_tests) > 100
    assert ruling_tests <= named, sorted(ruling_tests - named)
