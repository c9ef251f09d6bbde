"""The end screen's par is kept in the history: known at once when the deal ends again."""

from __future__ import annotations

from pathlib import Path

from app_helpers import play_out_quickly, sync
from textual.widgets import Static

from forage.ai.par import ParResult, kept_par
from forage.app.app import ForageApp
from forage.app.recorder import Recorder
from forage.app.screens import EndScreen
from forage.app.screens import end as end_module
from forage.carddata import standard_deck
from forage.engine import Deal, Game
from forage.history.store import HistoryStore


class FakeJob:
    """A par search that answers at once with a made-up par, counting its starts."""

    started: list[str] = []  # noqa: RUF012 - shared by the test's jobs

    def __init__(self, code: str) -> None:
        """A search of this deal code."""
        FakeJob.started.append(code)

    def wait(self, cancelled: object) -> ParResult:
        """The made-up par."""
        return ParResult(score=123, proven=False, seconds=1.0, placements=[], method="fake")

    def stop(self) -> None:
        """Nothing to stop."""


async def par_text_after_a_game(seed: int) -> str:
    """Play a seed's game out with history on; the end screen's par line once known."""
    app = ForageApp(seed=seed, show_par=True, recorder=Recorder("ann"), offer_resume=False)
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
    real = end_module.ParJob
    end_module.ParJob = FakeJob  # type: ignore[assignment,misc]
    FakeJob.started = []
    try:
        first = await par_text_after_a_game(3)
        assert FakeJob.started == [Deal.from_seed(3).code]
        assert "Par for this deal: 123" in first
        with HistoryStore.open(forage_home) as store:
            kept = kept_par(Game(Deal.from_seed(3), standard_deck()), store)
        assert kept is not None and kept.score == 123
        again = await par_text_after_a_game(3)
        assert FakeJob.started == [Deal.from_seed(3).code]  # not searched again
        assert "Par for this deal: 123 (the best score knowing the draw order, as far" in again
    finally:
        end_module.ParJob = real  # type: ignore[misc]


@sync
async def test_a_kept_par_beyond_the_rules_is_worked_out_again(forage_home: Path) -> None:
    import sqlite3

    from forage.ai.par import FULL, par_key
    from forage.history.store import DB_NAME

    real = end_module.ParJob
    end_module.ParJob = FakeJob  # type: ignore[assignment,misc]
    FakeJob.started = []
    try:
        await par_text_after_a_game(3)
        key = par_key(Game(Deal.from_seed(3), standard_deck()), FULL)
        with sqlite3.connect(forage_home / DB_NAME) as conn:
            conn.execute(
                "UPDATE analyses SET value = ? WHERE kind = 'par' AND key = ?",
                ('{"score": 1e999, "proven": true, "placements": [], "method": "x"}', key),
            )
        again = await par_text_after_a_game(3)
        assert FakeJob.started == [Deal.from_seed(3).code] * 2  # searched again
        assert "Par for this deal: 123" in again
    finally:
        end_module.ParJob = real  # type: ignore[misc]
