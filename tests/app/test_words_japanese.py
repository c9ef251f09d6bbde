"""The game's words in Japanese: the previews, refusals and panels the screens draw,
every recipe and achievement translated, and each narrow label within its columns."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from rich.cells import cell_len

from forage.ai.review import LABELS
from forage.app.describe import (
    brief_within,
    card_name,
    label_name,
    outcome_lines,
    points,
    recipe_name,
    score_sum,
    wrap_cells,
)
from forage.app.widgets.hand import BLOCK
from forage.app.widgets.status import headline_lines
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement
from forage.engine.rules import REASON_TEXT
from forage.engine.scoring import LOWEST_RATING, RATINGS
from forage.history.report import date_text
from forage.i18n import _, catalogue, ngettext

DATA = Path(__file__).parent.parent.parent / "data"
STATUS_WIDTH = 78
"""The status bar's words at 80 columns (a margin either side)."""
SIDE_WIDTH = 28
"""The side panel's words at 80 columns."""


def first_game() -> Game:
    """A game at its first turn (the lessons' first deal)."""
    return Game(Deal.from_code("7.17.5.1.10.12.8.15.3"), standard_deck())


def test_a_legal_drop_is_previewed_in_japanese(japanese: None) -> None:
    game = first_game()
    outcome = game.outcome(Placement.from_notation("17r90@0,2"))
    preview = outcome_lines(outcome, game.base)
    assert "Enter で配置" in preview.headline
    assert "得点" in preview.headline
    assert cell_len(preview.headline) <= STATUS_WIDTH


def test_a_refused_drop_says_why_in_japanese_on_two_lines_at_most(japanese: None) -> None:
    game = first_game()
    refused = game.outcome(Placement.from_notation("17@9,9"))
    preview = outcome_lines(refused, game.base)
    assert "ここには置けません" in preview.headline
    assert _(refused.message) in preview.headline
    lines = headline_lines(preview.headline, STATUS_WIDTH)
    assert len(lines) <= 2
    assert all(cell_len(line) <= STATUS_WIDTH for line in lines)
    assert "…" not in lines[-1]  # the reason is never cut short


def test_the_same_refusal_reads_in_english_outside_the_fixture() -> None:
    game = first_game()
    refused = game.outcome(Placement.from_notation("17@9,9"))
    assert outcome_lines(refused, game.base).headline.endswith(f"{refused.message}.")


def test_points_cards_and_scores_in_japanese(japanese: None) -> None:
    game = first_game()
    assert points(-3) == "-3 点"
    card = game.card(17)
    assert card.recipe is not None
    assert card_name(card) == f"{recipe_name(card.recipe)}のカード"
    assert recipe_name(card.recipe) != card.recipe.name
    assert score_sum(game.result().score).startswith("食べ物")


def test_a_brief_within_its_columns_in_japanese(japanese: None) -> None:
    brief = "ネズミ 2 · トークン -5 · ダイス 2 戻る · 新ダイス 1 · 上昇 3 · c: ネズミの色"
    for width in (20, 30, 40):
        assert cell_len(brief_within(brief, width)) <= width
    assert brief_within(brief, 30).endswith("c: ネズミの色")


def test_japanese_text_wraps_by_columns() -> None:
    text = "最も得点の低い食べ物（ネズミを引いた後、ボーナスの前）の得点が2倍。"
    lines = wrap_cells(text, 24)
    assert "".join(lines) == text
    assert all(cell_len(line) <= 24 for line in lines)
    assert not any(line.startswith(("、", "。", "）")) for line in lines)
    assert wrap_cells("raise the die at the marked spot", 10) == [
        "raise the",
        "die at the",
        "marked",
        "spot",
    ]


def test_a_date_follows_the_language(japanese: None) -> None:
    assert date_text("2026-12-06T10:00:00Z") == "2026年12月6日"
    assert date_text("not a date") == "not a date"


def test_a_date_in_english_is_iso() -> None:
    assert date_text(date(2026, 12, 6).isoformat()) == "2026-12-06"


def test_review_labels_are_named_in_japanese(japanese: None) -> None:
    assert label_name("mistake") == "悪手"
    assert all(cell_len(label_name(label)) <= 10 for label in LABELS)


def data_texts() -> list[str]:
    """Every recipe's and achievement's text, every refusal and rating the engine says."""
    cards = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))["cards"]
    texts = [c["recipe"][key] for c in cards for key in ("name", "condition")]
    achievements = json.loads((DATA / "achievements.json").read_text(encoding="utf-8"))
    texts += [a[key] for a in achievements["achievements"] for key in ("name", "description")]
    texts += [*REASON_TEXT.values(), *(phrase for _, phrase in RATINGS), LOWEST_RATING]
    return texts


@pytest.mark.parametrize("text", data_texts())
def test_every_recipe_achievement_reason_and_rating_has_japanese(text: str) -> None:
    translated = catalogue("ja").gettext(text)
    assert translated != text
    assert any(cell_len(char) == 2 for char in translated)


FIELDS: dict[str, object] = {
    "count": 99,
    "turn": 8,
    "turns": 8,
    "food": 45,
    "mice": -4,
    "split": -3,
    "edwood": -5,
    "dot": "·",
    "final": 99,
    "target": 99,
    "gap": 99,
}
"""Wide values for the labels' fields."""
AS_NARROW: tuple[str, ...] = (
    "{count} to draw",
    "Turn {turn} of {turns}",
    "pile empty",
    "Game over",
    "Dice left ",
    "Score ",
    "Base score ",
    "Final {final}",
    " {dot} target {target}",
    "reached",
    "{gap} to go",
)
"""The side panel's labels whose English is as wide as their place allows: the Japanese
takes no more columns."""


def shown(message: str, language: str) -> str:
    """A label as the panel shows it, its fields filled with wide values."""
    return catalogue(language).gettext(message).format(**FIELDS)


@pytest.mark.parametrize("message", AS_NARROW)
def test_each_narrow_label_is_no_wider_in_japanese(message: str) -> None:
    japanese = shown(message, "ja")
    assert japanese != message.format(**FIELDS)
    assert cell_len(japanese) <= cell_len(shown(message, "en"))


def test_the_side_panel_lines_fit_its_columns_in_japanese() -> None:
    def ja(message: str) -> str:
        return shown(message, "ja")

    lines = [
        f"{ja('Turn {turn} of {turns}')} · {ja('{count} to draw')}",
        f"{ja('Dice left ')} B:5   C:5   M:5 ",
        f"{ja('Edwood ')}{ja('available (once)')}",
        ja(" food {food} {dot} mice {mice}"),
        ja(" split {split} {dot} Edwood {edwood}"),
        f"{ja('Final {final}')} → 99{ja(' {dot} target {target}')}",
        f" ({ja('{gap} to go')})",
    ]
    for line in lines:
        assert cell_len(line) <= SIDE_WIDTH, line


def test_a_hand_card_name_fits_under_its_cards(japanese: None) -> None:
    longest = max(
        (recipe_name(c.recipe) for c in standard_deck().cards.values() if c.recipe is not None),
        key=cell_len,
    )
    assert cell_len(f"▶1 {longest}") <= SIDE_WIDTH
    assert BLOCK * 2 <= SIDE_WIDTH


def test_plural_words_take_the_japanese_form(japanese: None) -> None:
    assert ngettext("{count} mouse", "{count} mice", 2).format(count=2) == "ネズミ 2"
