"""The sizes forage draws at: whole numbers in ASCII digits, clamped; anything else the default."""

from __future__ import annotations

import pytest

from forage.cli.play import clamped_size
from forage.screen_size import MAX_COLUMNS, MAX_ROWS, clamp_size


@pytest.mark.parametrize("text", ["²", "³", "①", "12²", "٣"])
def test_digits_that_are_not_ascii_give_the_default_size(text: str) -> None:
    assert clamp_size(text, text) == (80, 24)


def test_sizes_in_ascii_digits_are_read_and_clamped() -> None:
    assert clamp_size(" 120 ", "40") == (120, 40)
    assert clamp_size("9" * 4300, "0") == (MAX_COLUMNS, 1)
    assert clamp_size(100_000, 100_000) == (MAX_COLUMNS, MAX_ROWS)


def test_the_game_starts_at_the_default_size_for_a_superscript_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "²")
    monkeypatch.setenv("ROWS", "30")
    assert clamped_size() == ("80", "30")
