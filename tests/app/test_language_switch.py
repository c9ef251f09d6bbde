"""The language switch (``I``): kept in the settings, and ``forage play`` started again in
the new language with the same game."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from app_helpers import place_greedy, session_of, sync
from terminal import Terminal, place_first_spot

from forage.app.app import ForageApp
from forage.app.languages import RESUME_VARIABLE, Restart, next_language
from forage.app.learn_app import LearnApp
from forage.app.saves import SAVE_NAME
from forage.app.session import Session
from forage.settings import load_settings


def test_the_next_language_goes_round_every_language() -> None:
    assert next_language("en") == "ja"
    assert next_language("ja") == "en"
    assert next_language("xx") == "en"


@sync
async def test_i_keeps_the_language_and_ends_the_app_to_start_again(forage_home: Path) -> None:
    app = ForageApp(seed=3, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hand = session_of(app).game.hand
        await pilot.press("I")
        await pilot.pause()
    assert app.restart == Restart("ja", resume=True) and app.return_value == 0
    assert load_settings().language == "ja"
    saved = json.loads((forage_home / SAVE_NAME).read_text(encoding="utf-8"))
    assert saved["moves"] == []  # no card placed, yet saved: the same deal comes back
    resumed = Session.from_save_data(saved, None)
    assert resumed.game.hand == hand


@sync
async def test_a_forage_started_again_takes_the_saved_game_up_without_asking(
    forage_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = ForageApp(seed=3, offer_resume=False)
    async with first.run_test(size=(80, 24)) as pilot:
        await place_greedy(pilot, first)
        moves = session_of(first).game.moves
        await pilot.press("I")
        await pilot.pause()
    monkeypatch.setenv(RESUME_VARIABLE, "1")
    again = ForageApp(seed=99)
    assert RESUME_VARIABLE not in os.environ  # taken: what it starts does not inherit it
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert session_of(again).game.moves == moves
        assert "Your game goes on" in " ".join(str(n.message) for n in again._notifications)


@sync
async def test_i_in_another_app_keeps_the_language_for_the_next_start(forage_home: Path) -> None:
    app = LearnApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("I")
        await pilot.pause()
        assert app.is_running and app.screen is screen
        said = " ".join(str(n.message) for n in app._notifications)
    assert "from the next start of forage" in said
    assert load_settings().language == "ja"


def test_forage_started_again_in_japanese_plays_the_same_game(forage_home: Path) -> None:
    with Terminal(forage_home, "play", "--seed", "3", size=(80, 24)) as terminal:
        place_first_spot(terminal)
        terminal.send("I")
        assert terminal.wait_for("言語：日本語"), terminal.text()[-300:]
        terminal.send("q")
        assert terminal.wait(30) == 0
    assert terminal.wait_for("に保存しました", 5), terminal.raw[-300:]
    after = Session.from_save_data(json.loads((forage_home / SAVE_NAME).read_text("utf-8")))
    dealt = Session.start(seed=3)
    assert after.deal == dealt.deal and len(after.game.moves) == 1
    dealt.game.push(after.game.moves[0])
    assert after.game.hand == dealt.game.hand  # the cards in hand after the switch
    assert load_settings().language == "ja"
