"""The daily deal: golden deal codes that must never change, the seed's formula, the share line."""

from __future__ import annotations

import base64
import hashlib
from datetime import date

import pytest

from forage.engine import Deal
from forage.history.daily import daily_deal, daily_seed, osc52, parse_day, share_line

# Worked out once (2026-12-01) and fixed here: a change to any of these changes everyone's
# daily deal, which must never happen.
GOLDEN = {
    "2026-01-01": ("8.17.11.9.6.5.7.1.15", "8.4:15.10.18.9.2.5.7.6.16"),
    "2026-12-01": ("5.10.6.4.16.13.17.14.7", "15.17:14.11.12.6.10.8.13.5.2"),
    "2030-02-28": ("10.18.7.2.9.12.17.3.1", "18.2:8.9.4.10.16.11.12.1.15"),
}


@pytest.mark.parametrize("day", sorted(GOLDEN))
def test_the_daily_deal_of_a_date_never_changes(day: str) -> None:
    standard, recipes = GOLDEN[day]
    assert daily_deal(date.fromisoformat(day)).code == standard
    assert daily_deal(date.fromisoformat(day), recipes=True).code == recipes


def test_the_seed_is_the_documented_hash() -> None:
    standard = int.from_bytes(hashlib.sha256(b"forage-daily:2026-12-01").digest()[:8], "big")
    assert daily_seed(date(2026, 12, 1)) == standard == 0x6443736D3A00428A
    digest = hashlib.sha256(b"forage-daily:2026-12-01:recipes").digest()
    seed = int.from_bytes(digest[:8], "big")
    assert daily_seed(date(2026, 12, 1), recipes=True) == seed
    assert daily_deal(date(2026, 12, 1), True) == Deal.from_seed(seed, recipes=True)


@pytest.mark.parametrize("text", ["2026-13-01", "2026-02-30", "tomorrow", "2026-1-1", ""])
def test_a_bad_date_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        parse_day(text)


def test_parse_day_reads_a_date() -> None:
    assert parse_day("2026-02-28") == date(2026, 2, 28)


def test_the_share_line_gives_the_result_but_not_the_deal() -> None:
    day = date(2026, 12, 1)
    line = share_line(day, 42, "A berry good harvest", par=45, recipes_met=1)
    assert "2026-12-01" in line and "42 points" in line and "A berry good harvest" in line
    assert "par 45, 3 below par" in line and "recipes met 1/2" in line
    for card in daily_deal(day, recipes=True).code.split(":")[1].split("."):
        assert f".{card}." not in line
    assert daily_deal(day).code not in line and "\n" not in line
    assert "on par" in share_line(day, 45, "x", par=45)
    assert "2 above par" in share_line(day, 47, "x", par=45)
    assert "par" not in share_line(day, 47, "x") and "recipes" not in share_line(day, 47, "x")


def test_osc52_carries_the_text_in_base64() -> None:
    escape = osc52("Forage daily · 42")
    assert escape.startswith("\x1b]52;c;") and escape.endswith("\x07")
    assert base64.b64decode(escape[7:-1]).decode("utf-8") == "Forage daily · 42"


def test_the_share_line_has_a_mark_for_each_move_and_an_ascii_form() -> None:
    day = date(2026, 12, 1)
    changes = [4, 0, -3, 2]
    line = share_line(day, 42, "A berry good harvest", par=45, changes=changes)
    assert line.endswith(" · 🟩🟨🟥🟩")
    plain = share_line(day, 42, "A berry good harvest", par=45, changes=changes, plain=True)
    assert plain.isascii() and plain.endswith(" | +=-+")
    assert plain.split(" | ")[:3] == line.split(" · ")[:3]
