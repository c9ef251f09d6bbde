"""The game screen in play: what a drop covers and does, why it is refused,
the next card beside the woodland, the recipe preview, the end summary, the hand, hints,
redo, continuing a record, the view, and the plain fallbacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from app_helpers import (
    ascii_output,
    drive_to,
    game_screen,
    greedy,
    output_with_theme,
    place_by_action,
    place_greedy,
    play_out_quickly,
    session_of,
    sync,
)
from textual.widgets import Static

from forage.app.app import ForageApp
from forage.app.describe import card_name
from forage.app.screens import EndScreen, GameScreen
from forage.app.session import Session
from forage.app.widgets import HandView, ScorePanel, StatusBar, WoodlandView
from forage.app.widgets.hand import mini_card
from forage.carddata import standard_deck
from forage.cli.play import continued
from forage.engine import Deal, Effect, Game, Placement, Reason, Rotation
from forage.record import record_from_game

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

MOUSE_FIRST = "5r90@-1,0"
"""Seed 1's first turn, leaving a B mouse at (1, 0)."""
ONTO_THE_MOUSE = "8@1,-2"
"""Then card 8 (no B area where the mouse is) over that mouse: refused there alone."""


def moves(*notations: str) -> list[Placement]:
    """Placements from their compact notation."""
    return [Placement.from_notation(n) for n in notations]


def app_on(seed: int, made: list[Placement], recipes: bool = False) -> ForageApp:
    """An app continuing a seed's game after these moves."""
    deal = Deal.from_seed(seed, recipes=recipes)
    return ForageApp(session=Session.deal_up(deal, seed, 1, None, made), offer_resume=False)


def woodland(app: ForageApp) -> WoodlandView:
    """The game screen's woodland view."""
    return app.screen.query_one(WoodlandView)


def status(app: ForageApp) -> StatusBar:
    """The status bar of the game screen."""
    return game_screen(app).query_one(StatusBar)


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_a_refusal_marks_only_the_area_that_causes_it(size: tuple[int, int]) -> None:
    app = app_on(1, moves(MOUSE_FIRST))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        target = Placement.from_notation(ONTO_THE_MOUSE)
        await drive_to(pilot, app, target)
        await pilot.pause()
        outcome = session.preview()
        assert outcome is not None and outcome.reason is Reason.COVERS_MOUSE
        cause = session.game.woodland[outcome.cause]  # type: ignore[index]
        assert cause.die is not None and cause.die.mouse
        text = app.screen.query_one(WoodlandView).plain_text()
        assert text.count("✗") == 1  # one area of six is marked
        assert "M-2" in text.split("✗")[1].split("\n")[0] or "on M-2" in text
        assert "the red area" in status(app).state.headline


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_each_covered_area_shows_what_the_drop_does_there(size: tuple[int, int]) -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        outcome = greedy(session)
        await drive_to(pilot, app, outcome.placement)
        await pilot.pause()
        text = app.screen.query_one(WoodlandView).plain_text()
        placed = [e for e in outcome.effects if e.effect is Effect.PLACED]
        assert placed, "the greedy first drop of seed 1 places a die"
        for effect in placed:  # each new die is named in its area: +B1, +C1, +M1
            assert f"+{effect.area.value}1" in text


@sync
async def test_peek_shows_the_woodland_under_the_card() -> None:
    app = app_on(1, moves(MOUSE_FIRST))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await drive_to(pilot, app, Placement.from_notation(ONTO_THE_MOUSE))
        view = app.screen.query_one(WoodlandView)
        covering = view.plain_text()
        await pilot.press("p")
        await pilot.pause()
        under = view.plain_text()
        assert "✗" not in under and "┃" in under
        assert "M-2" in under  # the mouse under the card is in sight
        await pilot.press("left")  # moving the card shows it again
        await pilot.pause()
        assert "┃" not in view.plain_text() and covering != under


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_the_next_card_starts_beside_the_woodland(size: tuple[int, int]) -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        first = await place_greedy(pilot, app)
        assert len(session.game.moves) == 1
        cursor = session.cursor
        assert cursor is not None
        squares = session.game.woodland.squares
        cells = session.game.card(cursor.card).footprint(cursor.rotation)
        assert not any((cursor.x + dx, cursor.y + dy) in squares for dx, dy, _ in cells)
        bar = status(app).state
        assert bar.tone == "idle" and "✗" not in bar.headline  # not refused: not yet moved
        assert "Move it onto the woodland" in bar.headline
        name = card_name(session.game.card(first.placement.card))
        assert bar.note == f"Placed {name}: {first.score_change:+d} " + (
            f"(score now {session.game.base})."
        )
        assert not woodland(app).state.previews  # no red mark on the woodland either
        await pilot.press("enter")  # a second enter places nothing, and says so calmly
        await pilot.pause()
        assert len(session.game.moves) == 1
        bar = status(app).state
        assert bar.tone == "idle" and bar.note.startswith("Move the card onto the woodland")
        await pilot.press("left")  # once the player moves it, a refusal is a refusal
        await pilot.pause()
        outcome = session.preview()
        assert outcome is not None
        if not outcome.legal:
            assert status(app).state.tone == "refused"


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


RECIPE_MOVES = moves("14r90@-1,1", "7@-1,1", "12@-1,0", "9r90@-2,0")
"""Seed 1's recipe challenge after four moves; then 13@0,1 loses a recipe's bonus."""


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_recipe_preview_shows_the_final_score_and_flips_the_tick(
    size: tuple[int, int],
) -> None:
    app = app_on(1, RECIPE_MOVES, recipes=True)
    drop = Placement.from_notation("13@0,1")
    fresh = Game(Deal.from_seed(1, recipes=True), standard_deck())
    fresh.replay(RECIPE_MOVES)
    now = fresh.result()
    assert fresh.push(drop).legal
    then = fresh.result()
    flipped = [
        (r.name, s.met) for r, s in zip(now.recipes, then.recipes, strict=True) if r.met != s.met
    ]
    assert flipped
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await drive_to(pilot, app, drop)
        await pilot.pause()
        headline = status(app).state.headline
        assert f"final {now.score.final} → {then.score.final}" in headline
        panel = game_screen(app).query_one(ScorePanel)
        rendered = panel.render()
        plain = rendered.plain
        assert plain.startswith(f"Final {now.score.final} → {then.score.final}")
        for name, met in flipped:  # each tick as it is, and as the drop would leave it
            line = next(x for x in plain.splitlines() if name in x)
            assert line.lstrip().startswith("✗→✓" if met else "✓→✗")
        assert "…" not in plain  # conditions wrap, never cut


@pytest.mark.parametrize("size", SIZES)
@sync
async def test_escape_closes_the_end_summary_and_enter_brings_it_back(
    size: tuple[int, int],
) -> None:
    app = ForageApp(seed=5, recipes=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await play_out_quickly(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        summary = str(app.screen.query_one("#end-summary", Static).content)
        assert summary.index("Final") < summary.index("Base score")
        assert "Your woodland (base score" in summary
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert "summary" in status(app).state.note
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)


@sync
async def test_the_hand_draws_the_card_as_it_will_land_and_names_it() -> None:
    app = ForageApp(seed=5, recipes=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        await pilot.press("r")
        await pilot.pause()
        assert session.cursor is not None and session.cursor.rotation is Rotation.R90
        card = session.game.card(session.cursor.card)
        plain = app.screen.query_one(HandView).render().plain
        turned = [line.plain for line in mini_card(card, Rotation.R90)]
        assert len(turned) == 2 and len(turned[0]) == 9  # three areas wide, two high
        assert turned[0] in plain and turned[1] in plain
        assert f"card {card.number}" not in plain and "#" not in plain  # named by its back
        assert card.recipe is not None and card.recipe.name in plain


@sync
async def test_a_hint_is_on_the_status_line_until_it_is_played() -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        best = greedy(session_of(app))
        screen.show_hint(best.placement, best.score_change, 20.0)
        await pilot.pause()
        note = status(app).state.note
        name = card_name(session_of(app).game.card(best.placement.card))
        assert note.startswith(f"Hint: {name} here, {best.score_change:+d}")
        assert not list(app._notifications)  # no toast over the woodland
        await pilot.press("enter")
        await pilot.pause()
        assert "Hint" not in status(app).state.note


@sync
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_hint_goes_once_the_card_leaves_its_placement(size: tuple[int, int]) -> None:
    app = ForageApp(seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        best = greedy(session_of(app))
        game_screen(app).show_hint(best.placement, best.score_change, 20.0)
        await pilot.pause()
        assert status(app).state.note.startswith("Hint:")
        await pilot.press("right")
        await pilot.pause()
        assert "Hint" not in status(app).state.note
        await pilot.press("left")  # back on the spot: the hint stays gone
        await pilot.pause()
        assert "Hint" not in status(app).state.note


@sync
async def test_the_view_keeps_every_placed_card_in_sight_at_120x40() -> None:
    app = ForageApp(seed=6)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        view = screen.query_one(WoodlandView)
        while not session.game.is_over():
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
            for key in ("up", "up", "left", "left", "down", "right"):
                await pilot.press(key)
                size, ox, oy = view.layout_for(view.size.width, view.size.height)
                cols = (view.size.width - 1) // (size.width + 1)
                rows = view.size.height // size.height
                x0, y0, x1, y1 = session.game.woodland.bounds()
                assert ox <= x0 and x1 < ox + cols and oy <= y0 and y1 < oy + rows
            if len(session.game.moves) >= 5:
                break


def test_continue_a_record_and_write_onward(tmp_path: Path) -> None:
    game = Game(Deal.from_seed(7), standard_deck())
    for _ in range(3):
        game.push(max(game.outcomes(), key=lambda o: o.score_change))
    source = tmp_path / "shared.json"
    source.write_text(record_from_game(game, 7).to_json(), encoding="utf-8")
    onward = tmp_path / "onward.json"
    session = continued(str(source), onward)
    assert isinstance(session, Session)
    assert session.game.moves == game.moves and session.seed == 7

    async def play_one() -> None:
        app = ForageApp(session=session, record_path=onward)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await place_greedy(pilot, app)

    import asyncio

    asyncio.run(play_one())
    written = json.loads(onward.read_text(encoding="utf-8"))
    assert len(written["moves"]) == 4
    assert written["moves"][:3] == json.loads(source.read_text(encoding="utf-8"))["moves"]


def run_forage(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The forage command line in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "forage", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_play_file_refuses_a_bad_record_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"deal": [1, 2, 99]}', encoding="utf-8")
    done = run_forage("play", str(bad))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"forage: {bad}: deal[2]: unknown card 99"]
    missing = run_forage("play", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_play_file_refuses_an_illegal_move(tmp_path: Path) -> None:
    record = tmp_path / "illegal.json"
    record.write_text(
        json.dumps({"seed": 1, "moves": [{"card": 5, "rotation": 0, "x": 9, "y": 9}]}),
        encoding="utf-8",
    )
    done = run_forage("play", str(record))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"forage: {record}: moves[0] (5@9,9): no-overlap: "
        "the card must cover at least one area of the woodland"
    ]


def test_ascii_fallback_draws_no_box_glyphs() -> None:
    code = (
        "from forage.app.describe import BASKET, SLASH, CROSS, ARROW, LEGEND;"
        "from forage.app.screens.help import READING;"
        "print(BASKET, SLASH, CROSS, ARROW); print(all(ord(c) < 128 for c in LEGEND))"
    )
    for env in (
        {"FORAGE_ASCII": "1"},
        {"FORAGE_ASCII": "", "LANG": "C", "LC_ALL": "", "LC_CTYPE": "", "PYTHONCOERCECLOCALE": "0"},
    ):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**os.environ, **env},
            timeout=60,
        )
        assert done.stdout.split("\n")[:2] == ["U / x >", "True"], (env, done.stderr)


@sync
async def test_no_color_keeps_the_meaning_in_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = app_on(1, moves(MOUSE_FIRST))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.no_color
        await drive_to(pilot, app, Placement.from_notation(ONTO_THE_MOUSE))
        await pilot.pause()
        text = app.screen.query_one(WoodlandView).plain_text()
        assert "✗" in text and "M-2" in text and "b╱m" in text


def test_colour_blind_palette_is_chosen_by_forage_theme() -> None:
    code = (
        "from forage.app.themes import DEFAULT_PALETTE, PALETTES; "
        "print(sorted(PALETTES[DEFAULT_PALETTE].terrain.values()))"
    )
    shown = {theme: output_with_theme(code, theme) for theme in ("standard", "colour-blind")}
    assert shown["standard"] != shown["colour-blind"]
    assert "#56b4e9" not in shown["colour-blind"]  # the woodland keeps the darker shades
    assert "#1f5f8f" in shown["colour-blind"]  # Okabe and Ito's blue for bramble


@sync
async def test_mouse_right_click_and_wheel_rotate_and_double_click_places() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = session_of(app)
        assert session.cursor is not None and session.cursor.rotation is Rotation.R0
        await pilot.click(WoodlandView, offset=(2, 1), button=3)
        assert session.cursor.rotation is Rotation.R90
        view = app.screen.query_one(WoodlandView)
        view.post_message(WoodlandView.Turned(False))  # what the wheel sends, turning back
        await pilot.pause()
        assert session.cursor.rotation is Rotation.R0
        best = greedy(session).placement
        session.go_to(best)
        game_screen(app).changed()
        await pilot.pause()
        size, ox, oy = view.layout_for(view.size.width, view.size.height)
        spot = (1 + (best.x - ox) * (size.width + 1), (best.y - oy) * size.height)
        await pilot.click(WoodlandView, offset=spot, times=2)
        await pilot.pause()
        assert session.game.moves == [best]


def test_ascii_fallback_on_the_game_screen() -> None:
    script = (
        "import asyncio\n"
        "from forage.app.app import ForageApp\n"
        "from forage.app.widgets import HandView, WoodlandView\n"
        "async def main():\n"
        "    app = ForageApp(seed=1, offer_resume=False)\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "        await pilot.press('left', 'left', 'left')\n"
        "        print(app.screen.query_one(WoodlandView).plain_text())\n"
        "        print(app.screen.query_one(HandView).render().plain)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "FORAGE_ASCII": "1"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "b/m" in done.stdout  # seed 1's start card has a split area
    assert not set("╱⊔✗→┃") & set(done.stdout)


@sync
async def test_the_side_panel_scrolls_at_80x24_and_leaves_the_keys_to_the_card() -> None:
    """A side panel taller than the screen scrolls rather than being cut, and the arrow keys
    still move the card. No deal's panel runs over at 80x24 today (seed 60's did, by a
    line), so the score panel is made taller here."""
    from textual.containers import VerticalScroll

    from forage.app.widgets import ScorePanel

    app = ForageApp(seed=60, recipes=True, offer_resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        side = app.screen.query_one("#side", VerticalScroll)
        assert side.max_scroll_y == 0  # seed 60's panel fits whole
        app.screen.query_one(ScorePanel).styles.min_height = 30
        await pilot.pause()
        assert side.max_scroll_y > 0  # the panel scrolls, not cut
        before = session_of(app).cursor
        await pilot.press("down")
        await pilot.pause()
        assert side.scroll_y == 0 and session_of(app).cursor != before
        side.scroll_end(animate=False)
        await pilot.pause()
        assert side.scroll_y == side.max_scroll_y


def test_a_doubling_recipe_with_a_negative_bonus_reads_minus() -> None:
    from forage.app.widgets.score import recipes_text

    game = Session.start(seed=3, recipes=True).game
    doubled = [r for r in game.recipes if r.doubles]
    assert doubled  # seed 3's challenge has Pickled Mushrooms (x2)
    worst = min(
        (o for o in game.outcomes() if o.legal),
        key=lambda o: game.result_after(o).score.final,
    )
    after = game.result_after(worst)
    assert any(r.met and r.bonus < 0 for r in after.recipes)
    text = str(recipes_text(after, game.recipes, conditions=False))
    assert "+-" not in text and " -" in text


@sync
@pytest.mark.parametrize(
    ("seed", "size"), [(3, (80, 24)), (6, (120, 40))], ids=["seed3-80x24", "seed6-120x40"]
)
async def test_the_view_is_steady_and_never_cuts_the_woodland(
    seed: int, size: tuple[int, int]
) -> None:
    from forage.app.widgets.woodland import SIZES, _fits

    app = ForageApp(seed=seed, offer_resume=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        session = session_of(app)
        screen = game_screen(app)
        view = screen.query_one(WoodlandView)
        cells: list[object] = []
        while not session.game.is_over():
            session.go_to(greedy(session).placement)
            screen.changed()
            await pilot.pause()
            before = view.drawn_layout
            place_by_action(app, greedy(session).placement)
            await pilot.pause()
            now = view.drawn_layout
            assert before is not None and now is not None
            cell, ox, oy = now
            cells.append(cell)
            state = view.state
            if cell == before[0] and (ox, oy) != before[1:]:
                # the view moved after a drop only to keep the whole woodland in sight
                x0, y0, x1, y1 = session.game.woodland.bounds()
                bx, by = before[1:]
                cols = (view.size.width - 1) // (cell.width + 1)
                rows = view.size.height // cell.height
                assert not (bx <= x0 and x1 < bx + cols and by <= y0 and y1 < by + rows)
            if len(cells) > 1 and cells[-1] != cells[-2]:  # it shrank because it had to
                assert SIZES.index(cells[-1]) > SIZES.index(cells[-2])
                assert not _fits(state, cells[-2], view.size.width, view.size.height, 1)
            for key in ("left", "left", "left", "up", "up", "right", "right", "down"):
                await pilot.press(key)
                drawn = view.drawn_layout
                assert drawn is not None
                cell, ox, oy = drawn
                cols = (view.size.width - 1) // (cell.width + 1)
                rows = view.size.height // cell.height
                x0, y0, x1, y1 = session.game.woodland.bounds()
                if x1 - x0 < cols and y1 - y0 < rows:  # it fits: all of it is in view
                    assert ox <= x0 and x1 < ox + cols and oy <= y0 and y1 < oy + rows


ASCII_SCRIPT = """
import asyncio, sys
sys.path.insert(0, {helpers!r})
from app_helpers import greedy, session_of, game_screen, quick_idle_checks
from forage.app.app import ForageApp
from forage.app.widgets import HandView, ScorePanel, StatusBar, WoodlandView
from forage.app.widgets.keys import KeyBar
from textual.widgets import Static

async def main():
    app = ForageApp(seed=3, recipes=True, offer_resume=False)
    async with app.run_test(size=({columns}, {rows})) as pilot:
        await pilot.pause()
        session = session_of(app)
        session.go_to(greedy(session).placement)
        game_screen(app).action_place()
        await pilot.pause()
        await pilot.press("left", "left")
        screen = app.screen
        parts = [
            str(screen.query_one("#title", Static).render()),
            screen.query_one(WoodlandView).plain_text(),
            screen.query_one(HandView).render().plain,
            str(screen.query_one(ScorePanel).render()),
            "\\n".join(text for text, _ in screen.query_one(StatusBar).lines(78)),
            screen.query_one(KeyBar).render().plain,
        ]
        print("\\n".join(parts))

quick_idle_checks()
asyncio.run(main())
"""


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_forage_ascii_draws_the_game_screen_in_plain_ascii(
    size: tuple[int, int], tmp_path: Path
) -> None:
    helpers = str(Path(__file__).resolve().parent)
    script = ASCII_SCRIPT.format(helpers=helpers, columns=size[0], rows=size[1])
    shown = ascii_output(script, tmp_path)
    assert "Placed the " in shown and "Turn 2 of 8" in shown
    assert shown.isascii(), sorted({c for c in shown if not c.isascii()})
    assert " > " not in shown.replace("->", "")  # no 'score 0 > -1' read as a comparison
