"""The end screen's par is kept in the history: known at once when the deal ends again."""

from __future__ import annotations

from pathlib import Path

from app_helpers import InlinePool, inline_analysis, play_out_quickly, sync
from textual.widgets import Static

from forage.ai.par import ParResult, kept_par
from forage.app.app import ForageApp
from forage.app.recorder import Recorder
from forage.app.screens import EndScreen
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.history.store import HistoryStore


def made_up_par(*args: object) -> ParResult:
    """A par search that answers at once with a made-up par."""
    return ParResult(score=123, proven=False, seconds=1.0, placements=[], method="fake")


async def par_text_after_a_game(seed: int, pool: InlinePool) -> str:
    """Play a seed's game out with history on, its analyses on ``pool``; the end screen's
    par line once known."""
    app = ForageApp(
        seed=seed,
        show_par=True,
        recorder=Recorder("ann"),
        offer_resume=False,
        analysis=inline_analysis(pool),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        text = str(app.screen.query_one("#end-par", Static).content)
    assert app.recorder is not None
    app.recorder.close()
    return text


@sync
async def test_a_par_found_is_kept_and_shown_at_once_next_time(forage_home: Path) -> None:
    pool = InlinePool({"par": made_up_par})
    first = await par_text_after_a_game(3, pool)
    assert pool.calls == ["par"]
    assert "Par for this deal: 123" in first
    with HistoryStore.open(forage_home) as store:
        kept = kept_par(Game(Deal.from_seed(3), standard_deck()), store.analyses)
    assert kept is not None and kept.score == 123
    again = await par_text_after_a_game(3, pool)
    assert pool.calls == ["par"]  # not searched again
    assert "Par for this deal: 123 (the best score knowing the draw order, as far" in again


@sync
async def test_a_kept_par_beyond_the_rules_is_worked_out_again(forage_home: Path) -> None:
    import sqlite3

    from forage.ai.par import FULL, par_key
    from forage.history.database import DB_NAME

    pool = InlinePool({"par": made_up_par})
    await par_text_after_a_game(3, pool)
    key = par_key(Game(Deal.from_seed(3), standard_deck()), FULL)
    with sqlite3.connect(forage_home / DB_NAME) as conn:
        conn.execute(
            "UPDATE analyses SET value = ? WHERE kind = 'par' AND key = ?",
            ('{"score": 1e999, "proven": true, "placements": [], "method": "x"}', key),
        )
    second = InlinePool({"par": made_up_par})
    again = await par_text_after_a_game(3, second)
    assert second.calls == ["par"]  # searched again
    assert "Par for this deal: 123" in again


@sync
async def test_a_par_the_history_has_proven_is_shown_without_working_it_out(
    forage_home: Path,
) -> None:
    from datetime import UTC, datetime

    from history_helpers import played

    from forage.history.games import PlayInfo

    earlier = played(3)
    with HistoryStore.open(forage_home) as store:
        info = PlayInfo(player="ann", started=datetime.now(UTC), par=99, par_proven=True)
        assert store.record(earlier, info) is not None
    pool = InlinePool()
    text = await par_text_after_a_game(3, pool)
    assert (
        pool.calls == [] and "Par for this deal: 99 (the best score knowing the draw order)" in text
    )
