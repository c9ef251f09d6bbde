"""Pilot tests: whole games by key presses, undo, resume, illegal drops, the record file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from app_helpers import (
    choice_spot,
    drive_to,
    game_screen,
    greedy,
    place_by_action,
    place_greedy,
    play_out,
    play_out_quickly,
    saved,
    session_of,
    status,
    sync,
)
from special_files import LINK_SHAPES, linked
from textual.widgets import Static

from forage.app.app import ForageApp
from forage.app.screens import ConfirmScreen, EndScreen
from forage.app.session import save_path
from forage.app.widgets import HandView, StatusBar, WoodlandView
from forage.carddata import standard_deck
from forage.engine import Game
from forage.record import load_game


def shown(app: ForageApp, selector: str) -> str:
    """The plain text of a Static on the current screen."""
    return str(app.screen.query_one(selector, Static).content)


@sync
async def test_standard_game_played_by_keys_shows_the_engines_score() -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_out(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        summary = shown(app, "#end-summary")
        session = session_of(app)
        assert len(session.game.moves) == 8
        fresh = Game(session.deal, standard_deck())
        applied, refusal = fresh.replay(session.game.moves)
        assert (applied, refusal) == (8, None)
        base = fresh.result().score.base
        match = re.search(r"Base score\s+(-?\d+)", summary)
        assert match is not None and int(match.group(1)) == base
        assert fresh.result().rating in summary
        assert session.deal.code in summary
        await saved(pilot, app)
        assert not save_path().exists()  # a finished game leaves no save


@sync
async def test_recipe_challenge_played_by_keys_shows_final_score_and_target() -> None:
    app = ForageApp(seed=5, recipes=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await play_out(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        summary = shown(app, "#end-summary")
        session = session_of(app)
        fresh = Game(session.deal, standard_deck())
        fresh.replay(session.game.moves)
        result = fresh.result()
        match = re.search(r"Final (-?\d+)", summary)
        assert match is not None and int(match.group(1)) == result.score.final
        assert f"target of {result.target}" in summary
        for recipe in fresh.recipes:
            assert recipe.name in summary
        assert ("You win!" in summary) == bool(result.won)
        assert "other deck" not in str(shown(app, "#end-choices"))


@sync
async def test_undo_goes_back_to_the_start() -> None:
    app = ForageApp(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        start = dict(session.game.woodland.squares)
        hand = session.game.hand
        for _ in range(2):
            await drive_to(pilot, app, greedy(session).placement)
            await pilot.press("enter")
        assert len(session.game.moves) == 2
        await pilot.press("u", "u")
        assert session.game.moves == []
        assert session.game.woodland.squares == start
        assert session.game.hand == hand
        await pilot.press("u")  # nothing more to undo: no error
        assert session.game.moves == []


@sync
async def test_quit_mid_game_then_resume() -> None:
    app = ForageApp(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        for _ in range(3):
            await drive_to(pilot, app, greedy(session).placement)
            await pilot.press("enter")
        moves = list(session.game.moves)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_value == 0
    assert save_path().exists()
    data = json.loads(save_path().read_text())
    assert len(data["moves"]) == 3

    again = ForageApp(seed=99)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        resumed = session_of(again)
        assert resumed.game.moves == moves
        assert resumed.seed == 11
        assert "seed 11" in str(game_screen(again).query_one("#title", Static).content)


@sync
async def test_declining_resume_starts_the_game_asked_for() -> None:
    app = ForageApp(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await drive_to(pilot, app, greedy(session).placement)
        await pilot.press("enter", "q")
    again = ForageApp(seed=12)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert session_of(again).seed == 12
        assert session_of(again).game.moves == []
        assert not save_path().exists()


@sync
async def test_illegal_drop_shows_its_reason_and_changes_nothing() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        before = (dict(session.game.woodland.squares), session.game.supply, session.game.hand)
        await pilot.press(*["left"] * 6)  # one card beyond the edge: no overlap
        status = app.screen.query_one(StatusBar)
        assert status.state.refused
        assert "✗" not in app.screen.query_one(WoodlandView).plain_text()  # no one area
        assert "cover at least one area" in status.state.headline
        await pilot.press("enter")
        await pilot.pause()
        assert session.game.moves == []
        after = (dict(session.game.woodland.squares), session.game.supply, session.game.hand)
        assert after == before
        assert "cover at least one area" in status.state.headline


@sync
async def test_cursor_stops_one_card_beyond_the_edge() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await pilot.press(*["left"] * 20, *["up"] * 20)
        x0, y0, _, _ = session.game.woodland.bounds()
        assert (session.cursor.x, session.cursor.y) == (x0 - 2, y0 - 3)


@sync
async def test_mouse_colour_key_changes_the_split_areas_mouse() -> None:
    seed, target = choice_spot()
    app = ForageApp(seed=seed)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await drive_to(pilot, app, target)
        preview = session.preview()
        assert preview is not None and len(preview.mouse_choice_possible) == 1
        spot = preview.mouse_choice_possible[0]
        colour = {(e.x, e.y): e.die for e in preview.effects}[spot]
        assert colour is not None
        await pilot.press("c")
        changed = session.preview()
        assert changed is not None and changed.legal
        new = {(e.x, e.y): e.die for e in changed.effects}[spot]
        assert new is not None and new.mouse and new.colour != colour.colour
        assert "c: mouse colour" in app.screen.query_one(StatusBar).state.details
        await pilot.press("enter")
        assert session.game.moves[0].mouse[0].colour == new.colour


@sync
async def test_record_file_is_written_after_every_placement(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    app = ForageApp(seed=2, record_path=record)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        for count in (1, 2):
            await drive_to(pilot, app, greedy(session).placement)
            await pilot.press("enter")
            await saved(pilot, app)
            game, refusal = load_game(record.read_text())
            assert refusal is None
            assert game.moves == session.game.moves
            assert len(game.moves) == count


@sync
@pytest.mark.parametrize("shape", LINK_SHAPES)
async def test_record_to_a_symlink_writes_its_target(tmp_path: Path, shape: str) -> None:
    link, target = linked(tmp_path, shape)
    app = ForageApp(seed=2, record_path=link, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await drive_to(pilot, app, greedy(session).placement)
        await pilot.press("enter")
        await saved(pilot, app)
        assert link.is_symlink()
        game, refusal = load_game(target.read_text())
        assert refusal is None and game.moves == session.game.moves
    assert sorted(p.name for p in target.parent.iterdir()) == ["game.json"]


@sync
async def test_end_screen_offers_undo_same_deal_and_other_deck() -> None:
    app = ForageApp(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        assert isinstance(app.screen, EndScreen)
        session = session_of(app)
        last = session.game.moves[-1]
        await pilot.press("u")  # back to the woodland, the last card shown where it was
        await pilot.pause()
        assert not isinstance(app.screen, EndScreen)
        assert session.placement() == last.model_copy(update={"mouse": ()})
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        deal = session.deal
        await pilot.press("a")
        await pilot.pause()
        assert session_of(app).deal == deal and session_of(app).game.moves == []
        await play_out_quickly(pilot, app)
        await pilot.press("o")
        await pilot.pause()
        other = session_of(app)
        assert other.deck_number == 2 and set(other.deal.cards).isdisjoint(deal.cards)
        assert "seed 4 deck 2" in str(game_screen(app).query_one("#title", Static).content)


@sync
async def test_new_game_asks_first_when_a_game_is_under_way() -> None:
    app = ForageApp(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await drive_to(pilot, app, greedy(session).placement)
        await pilot.press("enter", "n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert session_of(app) is session
        await pilot.press("n", "y")
        await pilot.pause()
        assert session_of(app) is not session
        assert session_of(app).game.moves == []


@sync
async def test_help_opens_and_closes() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Keys" in shown(app, "#help-text")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game_screen(app)


@sync
async def test_too_small_terminal_says_so() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        notice = app.screen.query_one(".too-small", Static)
        assert notice.display
        assert "too small" in str(notice.content)
        await pilot.press("right", "enter")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.screen.query_one(".too-small", Static).display


@sync
async def test_clicking_a_hand_card_and_a_spot() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await pilot.click(HandView, offset=(12, 2))
        assert session.selected == 1
        view = app.screen.query_one(WoodlandView)
        before = (session.cursor.x, session.cursor.y)
        await pilot.click(WoodlandView, offset=(view.size.width - 3, view.size.height - 1))
        assert (session.cursor.x, session.cursor.y) != before


@sync
async def test_view_follows_the_card_across_a_wide_woodland() -> None:
    app = ForageApp(seed=6)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        while len(session.game.moves) < 6 and not session.game.is_over():
            # stretch the woodland to the right as far as possible
            widest = max(session.game.outcomes(), key=lambda o: (o.placement.x, o.score_change))
            place_by_action(app, widest.placement)
        await pilot.pause()
        view = screen.query_one(WoodlandView)
        x0, _, x1, _ = session.game.woodland.bounds()
        for key in ("right", "left"):
            await pilot.press(*[key] * (x1 - x0 + 4))
            await pilot.pause()
            size, ox, _ = view.layout_for(view.size.width, view.size.height)
            cols = (view.size.width - 1) // (size.width + 1)
            width, _ = session.card_size()
            assert x1 - x0 + 1 + 2 * width > cols  # the woodland and card do not fit at once
            assert ox <= session.cursor.x and session.cursor.x + width - 1 < ox + cols


@sync
async def test_redo_makes_the_undone_placement_again_and_a_new_one_clears_it() -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await place_greedy(pilot, app)
        made = list(session.game.moves)
        base = session.game.base
        await pilot.press("u")
        assert session.game.moves == []
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert session.game.moves == made and session.game.base == base
        assert status(app).state.note.startswith("Redid: placed the ")
        await pilot.press("u")
        other = next(o for o in session.game.outcomes() if o.placement != made[0])
        place_by_action(app, other.placement)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert session.game.moves == [other.placement]
        assert status(app).state.note == "Nothing to redo."
