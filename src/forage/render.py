"""Rich renderings for the headless commands: the woodland as a coloured grid, the score."""

from __future__ import annotations

from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from forage.engine import Colour, Game, Square, Woodland
from forage.engine.areas import MOUSE_FACE
from forage.palette import area_style

AREA_STYLE: Final = {colour: area_style(colour) for colour in Colour}
"""How each food type's areas are drawn: the card shades of the palette (``FORAGE_THEME``)."""
CELL: Final = 5


def _cell(sq: Square | None) -> Text:
    """One woodland area as a five-character coloured cell."""
    if sq is None:
        return Text(" " * CELL)
    if sq.edwood:
        label = " EDW "
    elif sq.die is not None:
        face = "m" if sq.die.mouse else str(sq.die.value)
        label = f"{sq.die.colour.value}{face}" + ("/" if not sq.area.is_food else "")
    else:
        label = sq.area.value
    label = label.center(CELL)
    colours = sq.area.colours
    if sq.area.is_food:
        return Text(label, style=AREA_STYLE[colours[0]])
    half = CELL // 2 + 1
    text = Text(label[:half], style=AREA_STYLE[colours[0]])
    text.append(label[half:], style=AREA_STYLE[colours[1]])
    return text


def woodland_grid(woodland: Woodland) -> Text:
    """The woodland's top areas as a grid of coloured cells, with x and y rulers."""
    x0, y0, x1, y1 = woodland.bounds()
    text = Text(" " * 4)
    for x in range(x0, x1 + 1):
        text.append(f"{x:^{CELL}}", style="dim")
    for y in range(y0, y1 + 1):
        text.append("\n")
        text.append(f"{y:>3} ", style="dim")
        for x in range(x0, x1 + 1):
            text.append_text(_cell(woodland.get((x, y))))
    return text


def legend() -> Text:
    """A one-line key to the grid's cells."""
    text = Text("areas ")
    for colour, name in ((Colour.B, "B bramble"), (Colour.C, "C leaves"), (Colour.M, "M soil")):
        text.append(f" {name} ", style=AREA_STYLE[colour])
        text.append(" ")
    text.append(" dice: colour and face (Bm mouse), EDW Edwood, X/ a die on a split area")
    return text


def score_table(game: Game) -> Table:
    """The score breakdown and, in a challenge, the recipes and target."""
    result = game.result()
    s = result.score
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    parts = s.parts
    table.add_row("food dice", str(parts.food))
    table.add_row("mouse dice", f"{parts.mice} ({s.mice} at {MOUSE_FACE} each)")
    table.add_row("dice on split areas", str(parts.split))
    table.add_row("Edwood", str(parts.edwood))
    table.add_row("base score", str(s.base))
    for recipe, outcome in zip(game.recipes, result.recipes, strict=True):
        mark = "met" if outcome.met else "not met"
        table.add_row(f"{recipe.name} ({recipe.numbers_text})", f"{mark}, {outcome.bonus:+d}")
    if result.target is not None:
        table.add_row("final score", f"{s.final} (target {result.target})")
    table.add_row("rating", result.rating)
    return table


def summary(game: Game) -> RenderableType:
    """The whole replay summary: grid, legend and score."""
    return Group(woodland_grid(game.woodland), legend(), Text(""), score_table(game))
