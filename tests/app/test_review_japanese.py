"""The review screen in Japanese: its labels, verdicts and keys translated, its JSON the same
bytes in every language."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import play_hints
from screen_text import Shown

from forage.ai.review import LABELS, MoveReview
from forage.app.screens.review import legend_text, verdict_text
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement
from forage.record import record_from_game

JAPANESE_LABELS = {
    "best": "最善手",
    "good": "好手",
    "inaccuracy": "疑問手",
    "mistake": "悪手",
    "blunder": "大悪手",
}


def entry_of(label: str, loss: float) -> MoveReview:
    """A move's review with this label and loss (its placements any legal-looking one)."""
    placement = Placement(card=3, x=0, y=0)
    return MoveReview(
        index=0,
        placement=placement,
        score_after=4,
        best=placement,
        expected_played=40.0,
        expected_best=40.0 + loss,
        loss=loss,
        label=label,
        orders=120,
        exact=False,
    )


@pytest.mark.usefixtures("japanese")
@pytest.mark.parametrize("label", LABELS)
def test_a_verdict_names_its_label_in_japanese(label: str) -> None:
    entry = entry_of(label, 1.5)
    shown = verdict_text(entry).plain
    assert shown.startswith(JAPANESE_LABELS[label] + "："), shown
    assert "（120通りの引き順を抽出した平均）" in shown
    assert entry.label == label  # the review's own label, as its JSON writes it, stays


@pytest.mark.usefixtures("japanese")
def test_the_legend_names_every_label_in_japanese() -> None:
    assert legend_text().plain == "! 最善手  ✓ 好手  ?! 疑問手  ? 悪手  ?? 大悪手"


def test_the_labels_are_english_in_english() -> None:
    assert verdict_text(entry_of("blunder", 9)).plain.startswith("Blunder: -9; the marked move")
    assert legend_text().plain == "! best  ✓ good  ?! inaccuracy  ? mistake  ?? blunder"


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A short finished game's record (a four-card deal, a poor first move)."""
    game = play_hints(Game(Deal(cards=(5, 12, 3, 1)), standard_deck()), poor=0)
    path = tmp_path / "game.json"
    path.write_text(record_from_game(game).to_json())
    return path


def review_json(record: Path, home: Path, language: str) -> subprocess.CompletedProcess[bytes]:
    """``forage review --json`` of the record in ``language``."""
    env = {**os.environ, "FORAGE_LANG": language, "FORAGE_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "forage", "review", "--json", str(record)],
        capture_output=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_the_review_json_is_the_same_bytes_in_japanese(record: Path, tmp_path: Path) -> None:
    english = review_json(record, tmp_path / "en", "en")
    japanese = review_json(record, tmp_path / "ja", "ja")
    assert english.returncode == japanese.returncode == 0, japanese.stderr
    assert japanese.stdout == english.stdout
    assert b'"label": "' in english.stdout


def test_the_review_screen_in_japanese_fits_80_by_24(record: Path, tmp_path: Path) -> None:
    with Shown(tmp_path / "home", "review", str(record)) as shown:
        shown.wait_for("手ごとの最終得点の期待値")
        lines = shown.lines()
        assert lines[0].startswith(" あなたのゲーム  3手中1手目  実際の手："), lines[0]
        assert lines[2].strip() == "! 最善手  ✓ 好手  ?! 疑問手  ? 悪手  ?? 大悪手"
        verdict = next(line for line in lines if "：-" in line or "期待値は" in line)
        assert verdict.lstrip().startswith(tuple(JAPANESE_LABELS.values())), verdict
        assert lines[-1].strip().startswith("← 戻る → 次へ")
        assert lines[-1].endswith("q 閉じる"), lines[-1]  # the key bar whole, its last key too
        shown.send("p")
        shown.wait_for(r"パーの手順  3手中1手目  パーの手：")
        shown.send("p")
        shown.send("?")
        help_text = shown.wait_for(r"振り返り   （escape か \? で閉じます）")
        assert "大悪手：最善手より8点以上低い" in help_text
