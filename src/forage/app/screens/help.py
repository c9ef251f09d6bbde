"""The help screen: the keys and the rules in short."""

from __future__ import annotations

from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Static

from forage.app.describe import BASKET, LEGEND
from forage.app.screens.base import ForageModal, too_small_notice
from forage.engine import Recipe

KEYS: Final = """\
[b]Keys[/b]
  arrows or h j k l   move the card being placed one area
  r / R               rotate clockwise / counter-clockwise
  tab, 1, 2           choose the hand card
  enter or space      place the card where it is shown
  c                   change the mouse colour on a split area, where there is a choice
  u                   undo the last placement (back to the start of the game)
  t                   hint: show a suggested placement
  n                   new game        q   quit (the game is saved)
  ?                   this help       escape closes it
"""

READING: Final = f"""\
[b]Reading the woodland[/b]
  b / c / m      bramble (green), fallen leaves (orange), soil litter (brown)
  b╱m            a split area: it counts as either of its two types and has no food
  b 6  B10       a die and its face: 1, 3, 6, 10, and {BASKET} for the 15 (basket).
                 On a split area the die's colour is in capitals.
  -2 (red)       a mouse die; it can only be covered using Edwood
  EDW (purple)   Edwood Mouse; his area can never be covered
  │ and underline   the edges between cards
  The card being placed is drawn bright, with what each area will do beside it:
  {LEGEND}
  The line under the woodland says what the placement will do, or why it is not allowed.
"""

RULES: Final = """\
[b]The rules in short[/b]
  Place one of your two cards each turn so that it covers at least one area of the
  woodland; you may rotate it. Then draw a card. Nine cards, eight turns.
  Each new area that covers another area:
  - food area on an area of the same type: a die of that colour is placed showing 1,
    or the die below moves up onto it and goes up a step (1→3→6→10→15);
    if no die of that colour is left, nothing is placed.
  - split area on a matching area: the die below (if any) moves up unchanged.
  - no match: the die below (if any) goes back to the supply and a mouse die (-2) of
    the new area's colour is placed. On a split area you may choose its colour (c).
    If none of that colour is left, Edwood Mouse steps in (once per game).
  - An area below with a die counts as the die's colour only.
  - A mouse die can only be covered, by an area of its colour, by using Edwood.
  Dice returned by a placement can feed its mice, but not its new food dice.
[b]Score[/b]  the sum of all dice faces (a mouse is -2), minus 1 for each die on a split
  area, minus 5 if Edwood is in the woodland. 35 or more wins a standard game.
  Recipe challenge: two recipes add bonuses (or double a colour); reach the target
  (the sum of the two recipe numbers) to win.
  If no card in your hand can be placed anywhere, the game ends at once.
"""


class HelpScreen(ForageModal):
    """Keys and rules; any of escape, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close help"),
    ]

    def __init__(self, recipes: tuple[Recipe, ...] = ()) -> None:
        """Help, listing this game's recipes when it is a recipe challenge."""
        super().__init__()
        self.recipes = recipes

    def compose(self) -> ComposeResult:
        """The help text in a scrolling box."""
        yield too_small_notice()
        text = KEYS + "\n" + READING + "\n" + RULES
        if self.recipes:
            target = sum(r.target for r in self.recipes)
            text += f"\n[b]This game's recipes[/b] (target {target})\n"
            for recipe in self.recipes:
                text += f"  {recipe.name} ({recipe.bonus_text}): {recipe.condition}\n"
        with Vertical(classes="body dialog help"), VerticalScroll():
            yield Static(text, id="help-text")
        yield Footer()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss("")
