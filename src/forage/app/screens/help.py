"""The help screen: the keys and the rules in short."""

from __future__ import annotations

import textwrap
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from forage.app.describe import (
    ASCII,
    ASK_KEY,
    BAR,
    BASKET,
    CROSS,
    FRIENDS_KEY,
    LEGEND,
    PEEK,
    SLASH,
    TICK,
    TO,
    UP_DOWN,
)
from forage.app.languages import LANGUAGE_KEY
from forage.app.screens.base import ForageModal, too_small_notice
from forage.app.view import COSTLY_LOSS
from forage.app.widgets.keys import KeyBar
from forage.app.widgets.woodland import SIZES, edwood_mark
from forage.engine import Recipe
from forage.engine.areas import (
    BASKET_FACE,
    EDWOOD_POINTS,
    MOUSE_FACE,
    SPLIT_DIE_POINTS,
    raised,
)
from forage.engine.scoring import WIN_LINE
from forage.i18n import LANGUAGES, _

# Translators: the help's key lines; keys (r, tab, ctrl+r...) stay as they are, the
# descriptions start at column 21 and a line is at most 76 columns; [b]...[/b] is bold.
KEY_LINES: Final[tuple[tuple[str, str], ...]] = (
    (
        "",
        _("[b]Keys[/b]   ({up_down} scroll this help; escape or ? closes it)").format(
            up_down=UP_DOWN
        ),
    ),
    ("move", _("  arrows, h j k l   move the card being placed one area")),
    ("rotate", _("  r / R             rotate clockwise / counter-clockwise")),
    ("next_card", _("  tab, 1, 2         choose the hand card")),
    ("place", _("  enter, space      place the card where it is shown")),
    ("mouse_colour", _("  c                 choose the mouse colour on a split area")),
    ("peek", _("  p                 peek under the card (again: show the card)")),
    ("undo", _("  u / ctrl+r        undo the last placement / redo it")),
    ("hint", _("  t                 hint: a suggested placement (on the last line)")),
    (
        "spot",
        _(
            "  f / F             the card's next / previous legal spot, the spots in\n"
            "                    order of what they give at once (not in a puzzle)"
        ),
    ),
    (
        "ask_costly",
        _(
            "  {ask_key}                 ask for a second enter before a drop that loses\n"
            "                    {costly_loss} points or more or takes the score below zero:\n"
            "                    on or off (kept for next time){asking}"
        ).format(ask_key=ASK_KEY, costly_loss=COSTLY_LOSS, asking="{asking}"),
    ),
    ("stats", _("  s                 statistics and achievements")),
    ("history", _("  g                 your games: pick one and review it move by move")),
    ("colours", _("  v                 colours: the standard or the colour-blind palette")),
    ("new_game", _("  n                 new game")),
    ("learn", _("  L                 learn the rules by playing them (as forage learn)")),
    ("puzzle", _("  P                 the day's puzzle: find the one best placement")),
    (
        "friends",
        _("  {friends_key}                 play with friends in a room (forage serve)").format(
            friends_key=FRIENDS_KEY
        ),
    ),
    (
        "switch_language",
        _("  {key}                 language ({languages}): forage starts again").format(
            key=LANGUAGE_KEY,
            # In plain ASCII, a language by its code: its own name may not be drawable.
            languages=", ".join(
                language.code if ASCII else language.name for language in LANGUAGES
            ),
        ),
    ),
    ("quit_game", _("  q                 quit; the game is saved and offered next time")),
    (
        "",
        _(
            "[b]Mouse[/b]\n"
            "  click the woodland    move the card there (its top-left area)\n"
            "  wheel, right click    rotate the card\n"
            "  double click          place the card there\n"
            "  click a hand card     choose it"
        ),
    ),
)
"""The game's help on its keys, a line (or a few) for each action, named as the game
screen's bindings name it ("": not one key's)."""

KEYS: Final = "\n".join(text for _, text in KEY_LINES) + "\n"
"""Every key line of the game's help."""


def game_keys(
    ask_costly: bool | None = None,
    without: frozenset[str] = frozenset(),
    quit_line: str | None = None,
) -> str:
    """The help's key lines: with whether a costly drop asks twice now, where it can;
    ``without`` the actions a screen does without; ``quit_line``: the line saying what q
    does there, in place of the game's."""
    asking = "" if ask_costly is None else _(": now on") if ask_costly else _(": now off")
    lines = []
    for action, text in KEY_LINES:
        if action == "quit_game" and quit_line is not None:
            text = quit_line
        elif action in without:
            continue
        lines.append(text.replace("{asking}", asking))
    return "\n".join(lines) + "\n"


EDWOOD_LINE: Final = _("Edwood Mouse (purple): his area can never be covered")
"""What the help says of Edwood's mark, beside it (:func:`reading`)."""
LEGEND_COLUMN: Final = 12
"""The width of the help's marks, before what each means."""

# Translators: the help's key to the woodland, 76 columns a line at most: the marks in
# the first 14 columns are drawn on the woodland; [b]...[/b] is bold.
READING: Final = _("""\
[b]Reading the woodland[/b]
  b c m       bramble (green), fallen leaves (orange), soil (brown)
  b{slash}m         a split area: either of its two types, no food
  B 6  B10    a die, its colour in capitals and its face: 1, 3, 6, 10,
              and {basket} for 15 (basket), on a badge of its colour
  M{mouse_face} (red)   a mouse die: only Edwood can cover it; its letter keeps
              its die's colour
  {edwood}
  {bar} and underlines mark the edges between cards.
[b]The card being placed[/b] is drawn bright; each of its areas shows its
  type, what the drop does there (highlighted) and what it covers:
{legend}
  c: colour   (largest size) c changes this mouse's colour
  {peek}           the card's outline while peeking under it (p)
  {tick} / {cross}       on the lines below and beside recipes: allowed or met /
              refused or not met; reversed: what the drop would change
  At the smallest size only what the drop does shows; p peeks under.
  The lines under the woodland say what the placement will do and how
  the score changes, or why it is not allowed; the last line what the
  last drop did, a hint, or the answer to a key.
  Looks: v switches to the colour-blind palette (blue, orange,
  purple) and back; to start with it, FORAGE_THEME=colour-blind.
  NO_COLOR=1 (no colours) and FORAGE_ASCII=1 (plain ASCII) are set
  before starting.
""").format(
    slash=SLASH,
    basket=BASKET,
    mouse_face=MOUSE_FACE,
    edwood="{edwood}",
    bar=BAR,
    legend=textwrap.indent(LEGEND, "  "),
    peek=PEEK,
    tick=TICK,
    cross=CROSS,
)

# Translators: the help's rules in short, 76 columns a line at most; [b]...[/b] is bold.
RULES: Final = _("""\
[b]The rules in short[/b]   (to learn them by playing: L, or forage learn)
  Each turn, place one of your two cards so that it covers at least
  one area of the woodland (any rotation), then draw a card.
  Nine cards: eight turns. Each new area that covers an area:
  - food area on an area of its type: a die of its colour is placed
    showing 1, or the die below moves up and goes up a step
    (1{to}3{to}6{to}10{to}{basket_face}; a {basket_face} moves up and stays {raised_basket});
    with no die of that colour left, nothing.
  - split area on a matching area: the die below moves up unchanged.
  - no match: the die below (if any) goes back to the supply and a
    mouse die ({mouse_face}) of the new area's colour is placed; on a split
    area you may choose its colour (c). With none of that colour
    left, Edwood Mouse steps in (once per game).
  - An area below with a die counts as the die's colour only.
  - A mouse die can be covered only by an area of its colour, using
    Edwood (once per game).
  Dice sent back by a placement can feed its mice, not its new food.
[b]Score[/b]  all dice faces added (a mouse is {mouse_face}), {split_die_points} for each die
  on a split area, {edwood_points} if Edwood is in the woodland.
  {win_line} or more wins a standard game. In a recipe challenge the two
  recipes add bonuses (or double a colour); reach the target, the
  sum of the two recipes' numbers (listed below, and beside the
  target where the score panel has room), to win.
  If no card in your hand fits anywhere, the game ends at once.
""").format(
    to=TO,
    basket_face=BASKET_FACE,
    raised_basket=raised(BASKET_FACE),
    mouse_face=MOUSE_FACE,
    split_die_points=SPLIT_DIE_POINTS,
    edwood_points=EDWOOD_POINTS,
    win_line=WIN_LINE,
)


def reading(edwood: str | None = None) -> str:
    """How to read the woodland, Edwood's mark drawn as the board draws it now
    (``edwood``: :func:`edwood_mark` of its areas' height; None: of the smallest)."""
    if edwood is None:
        edwood = edwood_mark(SIZES[-1].height)
    if len(edwood) < LEGEND_COLUMN:
        line = f"{edwood:<{LEGEND_COLUMN}}{EDWOOD_LINE}"
    else:
        line = f"{edwood}\n{' ' * (LEGEND_COLUMN + 2)}{EDWOOD_LINE}"
    return READING.replace("{edwood}", line)


def game_help(keys: str | None = None, edwood: str | None = None) -> str:
    """The game's help: its keys (:func:`game_keys` by default), how to read the woodland
    (Edwood's mark as ``edwood``), and the rules."""
    return (game_keys() if keys is None else keys) + "\n" + reading(edwood) + "\n" + RULES


class HelpScreen(ForageModal):
    """Keys and rules; any of escape, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", _("Close help")),
    ]

    def __init__(
        self,
        recipes: tuple[Recipe, ...] = (),
        text: str | None = None,
        keys: str | None = None,
        edwood: str | None = None,
    ) -> None:
        """Help, listing this game's recipes when it is a recipe challenge; ``text``: another
        screen's help instead of the game's; ``keys``: the game's key lines as this screen
        has them (:func:`game_keys`); ``edwood``: Edwood's mark as the board draws it."""
        super().__init__()
        self.recipes = recipes
        self.text = text
        self.keys = keys
        self.edwood = edwood

    def compose(self) -> ComposeResult:
        """The help text in a scrolling box."""
        yield too_small_notice()
        text = self.text if self.text is not None else game_help(self.keys, self.edwood)
        if self.recipes:
            target = sum(r.target for r in self.recipes)
            sums = " + ".join(str(r.target) for r in self.recipes)
            text += "\n" + _("[b]This game's recipes[/b] (target {sums} = {target})").format(
                sums=sums, target=target
            )
            text += "\n"
            for recipe in self.recipes:
                text += f"  {recipe.name} ({recipe.numbers_text}): {recipe.condition}\n"
        with Vertical(classes="body dialog help"), VerticalScroll():
            yield Static(text, id="help-text")
        yield KeyBar()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss("")
