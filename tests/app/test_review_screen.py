"""The review screen: stepping through the moves, the best move and par's line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from app_helpers import sync
from helpers import play_hints
from textual.pilot import Pilot
from textual.widgets import Static

from forage.ai.par import QUICK
from forage.ai.review import MoveReview, Review, ReviewSettings, start_of
from forage.app.describe import ARROW, MARK_IN, card_name
from forage.app.review_app import ReviewApp
from forage.app.screens.help import HelpScreen
from forage.app.screens.review import (
    HELP,
    MARKS,
    Gains,
    ReviewScreen,
    gains_of,
    legend_text,
    moves_text,
    next_costly,
    score_words,
    verdict_text,
)
from forage.app.view import card_cells
from forage.app.widgets import WoodlandView
from forage.app.widgets.keys import KeyBar
from forage.carddata import standard_deck
from forage.engine import Deal, Game, Placement

SMALL = ReviewSettings(samples=6, candidates=2, par_effort=QUICK)


def hint_game() -> Game:
    """A four-card deal of the built-in deck, with a poor first move, then hints."""
    return play_hints(Game(Deal(cards=(5, 12, 3, 1)), standard_deck()), poor=0)


def text_of(screen: ReviewScreen, selector: str) -> str:
    """The plain text a Static shows."""
    return str(screen.query_one(selector, Static).render())


async def analysed(pilot: Pilot[int], app: ReviewApp) -> tuple[ReviewScreen, Review]:
    """The review screen once its analysis is in, and the analysis."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert screen.result is not None
    return screen, screen.result


@sync
async def test_stepping_through_the_moves_and_par() -> None:
    game = hint_game()
    app = ReviewApp(game, SMALL, workers=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, found = await analysed(pilot, app)
        numbers = text_of(screen, "#review-chart").splitlines()[-1].split()
        assert numbers == [*(str(n) for n in range(1, len(game.moves) + 1)), "move"]
        caption = text_of(screen, "#review-chart-label")
        last = found.moves[-1].expected_played
        assert f"{ARROW} {last:g} (lowest" in caption and f"par {found.par.score}" in caption
        # The first move: the one played over the woodland before it, and its verdict.
        assert "move 1 of 3" in text_of(screen, "#review-title")
        first = found.moves[0]
        assert first.label.capitalize() in text_of(screen, "#review-verdict")
        view = screen.query_one(WoodlandView).state
        assert view.outcome is not None and view.outcome.placement.card == game.moves[0].card
        assert len(view.squares) == 6  # the starting card alone
        # b draws the best move instead.
        await pilot.press("b")
        assert "better move" in text_of(screen, "#review-title")
        best = screen.query_one(WoodlandView).state.outcome
        assert best is not None and best.placement.card == first.best.card
        await pilot.press("b")
        # Stepping: right, end, left, home; never past either end.
        await pilot.press("right")
        assert screen.index == 1 and "move 2 of 3" in text_of(screen, "#review-title")
        await pilot.press("end", "right")
        assert screen.index == 2
        await pilot.press("home", "left")
        assert screen.index == 0
        # p switches to par's line and back.
        await pilot.press("p")
        assert screen.on_par
        assert "Par's line" in text_of(screen, "#review-title")
        said = f"Par for this deal: {found.par.score} ("
        assert text_of(screen, "#review-verdict").startswith(said)
        assert "par's move" in text_of(screen, "#review-title")
        assert "move played" not in text_of(screen, "#review-title")
        placement = screen.query_one(WoodlandView).state.outcome
        assert placement is not None and placement.placement == found.par.placements[0]
        await pilot.press("p")
        assert not screen.on_par and "Your game" in text_of(screen, "#review-title")


@sync
async def test_q_closes_the_review_while_it_is_still_analysing() -> None:
    game = hint_game()
    app = ReviewApp(game, ReviewSettings(samples=6, candidates=2, par_effort=QUICK), workers=1)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("q")
        await pilot.pause()
    assert screen.result is None  # closed before the analysis was shown


def made_entry(label: str, loss: float) -> MoveReview:
    """A reviewed move made by hand: card 12 played, card 5 turned 90° the best."""
    return MoveReview(
        index=0,
        placement=Placement(card=12, rotation=0, x=1, y=0),
        score_after=3,
        best=Placement(card=5, rotation=90, x=1, y=-1),
        expected_played=41.7,
        expected_best=round(41.7 + loss, 2),
        loss=loss,
        label=label,
        orders=120,
        exact=False,
    )


def test_the_verdict_names_the_better_move_and_what_each_scores_at_once() -> None:
    deck = standard_deck()
    words = verdict_text(made_entry("mistake", 6.5), Gains(played=2, best=5), deck=deck).plain
    name = card_name(deck[5])
    assert words.startswith(f"Mistake: -6.5; the marked move ({name}, turned 90°) would have")
    assert "48.2 rather than 41.7: it scores +5 at once, the move played +2." in words
    assert "(" not in words.split("turned 90°")[1].split("\n")[0]  # no coordinates
    later = verdict_text(made_entry("inaccuracy", 2.5), Gains(played=4, best=1)).plain
    assert "it scores +1 at once against +4, but leaves a woodland better" in later
    assert "within the sampling's noise" in verdict_text(made_entry("best", 0.2)).plain
    assert verdict_text(made_entry("best", 0.0)).plain.startswith("Best: expected final score")


def test_gains_are_the_engines_score_changes() -> None:
    game = hint_game()
    before = start_of(game)
    played, other = (
        game.moves[0],
        next(o.placement for o in before.outcomes() if o.placement != game.moves[0]),
    )
    entry = replace(made_entry("good", 1.0), placement=played, best=other)
    assert gains_of(before, entry) == Gains(
        before.outcome(played).score_change, before.outcome(other).score_change
    )


def test_the_list_of_moves_marks_each_label_and_the_move_shown() -> None:
    entries = [made_entry("best", 0.0), made_entry("blunder", 9.0), made_entry("good", 1.0)]
    assert moves_text(3, 1).plain == "1  2  3"  # before the analysis: numbers only
    assert moves_text(3, 1, {2: entries[2]}).plain == f"1  2  3{MARKS['good']}"  # one move in
    shown = moves_text(3, 1, dict(enumerate(entries)))
    assert shown.plain == f"1{MARKS['best']}  2??  3{MARKS['good']}"
    shown_in_reverse = [
        shown.plain[span.start : span.end] for span in shown.spans if "reverse" in str(span.style)
    ]
    assert shown_in_reverse == ["2", "??"]


def test_m_goes_round_the_costly_moves() -> None:
    labels = ["best", "mistake", "good", "blunder", "inaccuracy"]
    entries = [made_entry(label, 0.0) for label in labels]
    assert [next_costly(entries, i) for i in range(5)] == [1, 3, 3, 4, 1]
    assert next_costly([made_entry("best", 0.0), made_entry("good", 1.0)], 0) is None


@sync
async def test_m_jumps_to_the_poor_move_and_the_list_shows_its_mark() -> None:
    game = hint_game()  # its first move is the poor one
    app = ReviewApp(game, SMALL, workers=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, found = await analysed(pilot, app)
        await pilot.press("end", "m")
        expected = next_costly(found.moves, len(game.moves) - 1)
        assert expected == 0 and screen.index == 0
        strip = text_of(screen, "#review-moves")
        assert strip.startswith("1" + MARKS[found.moves[0].label])


def test_scores_are_written_with_one_decimal_at_most() -> None:
    entry = replace(made_entry("mistake", 4.84), expected_best=48.86, expected_played=44.02)
    words = verdict_text(entry).plain
    assert "-4.8;" in words and "48.9 rather than 44:" not in words
    assert "to score 48.9 rather than 44." in words
    assert score_words(41.75) == "41.8" and score_words(40.0) == "40"


def test_the_legend_names_every_mark() -> None:
    legend = legend_text().plain
    for label, mark in MARKS.items():
        assert f"{mark} {label}" in legend
    assert "help" not in legend  # ? is a mistake's mark here; the key bar names ? Help


def test_the_help_gives_each_mark_its_thresholds() -> None:
    for low, label in zip((0.5, 2.0, 4.0), ("good", "inaccuracy", "mistake"), strict=True):
        assert f"{MARKS[label]:<3} {label}: {low:g} to" in HELP
    assert f"{MARK_IN[0]} {MARK_IN[1]}" in HELP


@sync
async def test_the_better_move_is_marked_on_the_board_and_help_opens() -> None:
    game = hint_game()  # its first move is the poor one
    app = ReviewApp(game, SMALL, workers=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, found = await analysed(pilot, app)
        assert "help" not in text_of(screen, "#review-legend")
        bar = screen.query_one(KeyBar)
        assert "? Help" in "".join(s.text for s in bar.render_lines(bar.region.reset_offset))
        first = found.moves[0]
        view = screen.query_one(WoodlandView).state
        if first.loss > 0:
            best_cells = card_cells(screen.shown()[0], first.best)
            assert view.marked == frozenset((x, y) for x, y, _ in best_cells)
        else:
            assert view.marked == frozenset()
        await pilot.press("b")  # the better move drawn: nothing else marked
        assert screen.query_one(WoodlandView).state.marked == frozenset()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "inaccuracy" in str(app.screen.query_one("#help-text", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


def test_in_a_recipe_challenge_the_gains_count_the_recipes() -> None:
    deal = Deal.from_seed(3, recipes=True)
    game = Game(deal, standard_deck())
    outcomes = list(game.outcomes())
    now = game.result().score.final
    finals = [game.result_after(o).score.final - now for o in outcomes]
    bases = [o.score_change for o in outcomes]
    index = next(i for i, (f, b) in enumerate(zip(finals, bases, strict=True)) if f != b)
    entry = replace(
        made_entry("good", 1.0), placement=outcomes[index].placement, best=outcomes[0].placement
    )
    assert gains_of(game, entry) == Gains(finals[index], finals[0])


@sync
async def test_each_move_shows_its_mark_and_verdict_as_soon_as_it_is_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = hint_game()

    async def by_hand(self: ReviewScreen) -> None:  # the moves come by hand
        return None

    monkeypatch.setattr(ReviewScreen, "_analyse", by_hand)
    app = ReviewApp(game, SMALL, workers=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert "Analysing this move" in text_of(screen, "#review-verdict")
        second = replace(made_entry("blunder", 9.0), index=1, placement=game.moves[1])
        screen._reached(second)  # the second move is in before the first
        await pilot.pause()
        assert text_of(screen, "#review-moves").startswith("1  2??  3")
        assert "0 of 3" not in text_of(screen, "#review-verdict")
        assert "1 of 3 moves done" in text_of(screen, "#review-verdict")
        await pilot.press("right")
        assert text_of(screen, "#review-verdict").startswith("Blunder: -9")


def test_review_tells_each_move_as_it_is_done() -> None:
    from forage.ai.review import review, start_of

    game = hint_game()
    told: list[MoveReview] = []
    found = review(start_of(game), game.moves, SMALL, workers=1, each=told.append)
    assert sorted(told, key=lambda m: m.index) == found.moves


@sync
async def test_a_kept_review_with_an_index_beyond_any_game_is_worked_out_again(
    forage_home: Path,
) -> None:
    import sqlite3

    from forage.ai.review import review, review_key
    from forage.history.database import DB_NAME
    from forage.history.store import HistoryStore

    game = hint_game()
    start = start_of(game)
    with HistoryStore.open(forage_home) as store:
        first = review(start, game.moves, SMALL, workers=1, memory=store.analyses)
    with sqlite3.connect(forage_home / DB_NAME) as conn:
        conn.execute(
            "UPDATE analyses SET value = replace(value, '\"index\": 0', '\"index\": 1e999') "
            "WHERE kind = 'review' AND key = ?",
            (review_key(start, game.moves, SMALL),),
        )
    app = ReviewApp(game, SMALL, workers=1)
    async with app.run_test(size=(100, 30)) as pilot:
        _, found = await analysed(pilot, app)
    assert app.crash is None
    assert (found.moves, found.par) == (first.moves, first.par)  # worked out again
