"""The palettes as Textual themes: ``v`` and Textual's theme switch redraw the game's
colours; ``FORAGE_THEME`` chooses the first; ``NO_COLOR`` still draws the letters."""

from __future__ import annotations

import os
import re

import pytest
from app_helpers import (
    MOUSE_FIRST,
    ONTO_THE_MOUSE,
    app_on,
    drive_to,
    game_screen,
    moves,
    output_with_theme,
    sync,
)
from textual.widget import Widget

from forage.app.app import ForageApp
from forage.app.themes import PALETTES
from forage.app.widgets import HandView, StatusBar, SupplyView, WoodlandView
from forage.engine import Placement

STANDARD = set(PALETTES["standard"].terrain.values())
COLOUR_BLIND = set(PALETTES["colour-blind"].terrain.values())


def background_colours(widget: Widget) -> set[str]:
    """Every background colour a widget draws, as #rrggbb."""
    found = set()
    for y in range(widget.size.height):
        for segment in widget.render_line(y):
            style = segment.style
            if style is not None and style.bgcolor is not None and style.bgcolor.triplet:
                found.add(style.bgcolor.triplet.hex)
    return found


def drawn(app: ForageApp) -> dict[str, set[str]]:
    """The background colours of the woodland, the hand and the supply."""
    screen = app.screen
    return {
        name: background_colours(screen.query_one(kind))
        for name, kind in (("woodland", WoodlandView), ("hand", HandView), ("supply", SupplyView))
    }


def test_the_two_palettes_differ_in_every_terrain_colour() -> None:
    assert STANDARD.isdisjoint(COLOUR_BLIND)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@sync
async def test_v_switches_the_palette_and_back(size: tuple[int, int]) -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.theme == "forage"
        before = drawn(app)
        for colours in before.values():
            assert colours & STANDARD and not colours & COLOUR_BLIND
        await pilot.press("v")
        await pilot.pause()
        assert app.theme == "forage-colour-blind"
        after = drawn(app)
        for colours in after.values():
            assert colours & COLOUR_BLIND and not colours & STANDARD
        assert "colour-blind palette" in game_screen(app).query_one(StatusBar).state.note
        await pilot.press("v")
        await pilot.pause()
        assert app.theme == "forage"
        assert drawn(app) == before


@sync
async def test_textual_theme_switch_picks_the_palette() -> None:
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert {"forage", "forage-colour-blind"} <= set(app.available_themes)
        app.theme = "forage-colour-blind"
        await pilot.pause()
        assert drawn(app)["woodland"] & COLOUR_BLIND
        app.theme = "nord"  # any other theme draws the palette FORAGE_THEME chose
        await pilot.pause()
        assert drawn(app)["woodland"] & STANDARD


@sync
async def test_v_under_no_color_keeps_the_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = ForageApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = app.screen.query_one(WoodlandView).plain_text()
        await pilot.press("v")
        await pilot.pause()
        assert app.no_color and app.theme == "forage-colour-blind"
        assert app.screen.query_one(WoodlandView).plain_text() == text


def test_forage_theme_starts_the_app_on_the_colour_blind_theme() -> None:
    code = (
        "from forage.app.app import ForageApp\n"
        "from forage.app.themes import palette_name\n"
        "app = ForageApp(seed=1)\n"
        "print(app.theme, palette_name(app))\n"
    )
    shown = {
        theme: output_with_theme(code, theme).split()
        for theme in ("standard", "colour-blind", "no-such-palette")
    }
    assert shown["standard"] == ["forage", "standard"]
    assert shown["colour-blind"] == ["forage-colour-blind", "colour-blind"]
    assert shown["no-such-palette"] == ["forage", "standard"]


def test_no_style_sheet_names_a_colour() -> None:
    """Every colour of the .tcss files is a theme variable (the palettes' surfaces)."""
    from pathlib import Path

    import forage.app

    sheets = list(Path(forage.app.__file__).parent.rglob("*.tcss"))
    assert sheets
    for sheet in sheets:
        text = sheet.read_text(encoding="utf-8")
        assert not re.search(r"#[0-9a-fA-F]{3,8}\b", text), f"{sheet.name} names a colour"


def test_each_theme_gives_every_surface_of_its_palette() -> None:
    from forage.app.themes import THEMES
    from forage.palette import PALETTES, SURFACES

    app = ForageApp(seed=1)
    for theme, palette in THEMES.items():
        variables = app.get_theme(theme).variables  # type: ignore[union-attr]
        for surface in SURFACES:
            assert variables[f"forage-{surface}"] == PALETTES[palette].surfaces[surface]
    defaults = app.get_theme_variable_defaults()  # under any other theme too
    assert {f"forage-{surface}" for surface in SURFACES} <= set(defaults)


def test_the_commands_draw_with_the_palette_forage_theme_chooses() -> None:
    import subprocess
    import sys

    script = "from forage.render import AREA_STYLE; print(AREA_STYLE)"
    drawn = {
        theme: subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "FORAGE_THEME": theme},
        ).stdout
        for theme in ("standard", "colour-blind")
    }
    from forage.palette import PALETTES

    for theme, printed in drawn.items():
        assert PALETTES[theme].card[next(iter(PALETTES[theme].card))] in printed
    assert drawn["standard"] != drawn["colour-blind"]


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
