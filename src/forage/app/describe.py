"""Plain words and glyphs for what the engine says: dice, areas, and a placement's outcome."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from forage.engine import (
    Area,
    AreaEffect,
    Card,
    Colour,
    Die,
    Effect,
    Outcome,
    Reason,
    RecipeProgress,
    Score,
    Square,
)
from forage.engine.areas import BASKET_FACE, EDWOOD_POINTS, MOUSE_FACE
from forage.engine.woodland import Pos


def plain_ascii() -> bool:
    """Whether to draw in plain ASCII: FORAGE_ASCII=1, or a locale that is not UTF-8."""
    forced = os.environ.get("FORAGE_ASCII")
    if forced:
        return forced != "0"
    locale = os.environ.get("LC_ALL") or os.environ.get("LC_CTYPE") or os.environ.get("LANG")
    return locale is not None and not locale.upper().replace("-", "").endswith("UTF8")


ASCII: Final = plain_ascii()
"""Drawing in plain ASCII, decided once at start-up."""
BASKET: Final = "U" if ASCII else "⊔"
"""The basket glyph shown for a die's 15 face."""
SLASH: Final = "/" if ASCII else "╱"
"""The line between the two types of a split area."""
ARROW: Final = ">" if ASCII else "→"
"""The arrow of a change inside a drawn area, ``M3→6`` (at most five characters)."""
TO: Final = "->" if ASCII else "→"
"""The arrow of a change in a sentence: ``score 12 → 15``."""
DOT: Final = "|" if ASCII else "·"
"""The separator between items on a line."""
POINTER: Final = ">" if ASCII else "▶"
"""The mark of the chosen hand card."""
FRAME: Final = ("[", "]") if ASCII else ("▐", "▌")
"""The frame drawn either side of the chosen hand card."""
ARROW_KEYS: Final = "arrows" if ASCII else "←↑↓→"
"""The arrow keys as the footer names them."""
UP_DOWN: Final = "up/down" if ASCII else "↑↓"
LEFT_KEY: Final = "left" if ASCII else "←"
RIGHT_KEY: Final = "right" if ASCII else "→"
ENTER_KEY: Final = "enter" if ASCII else "⏎"
"""Keys as the footer names them."""
MOUSE_COLOUR: Final = "Mouse colour"
"""What the footer calls the c key, shown last and only where the card has a choice of
mouse colour (in ASCII, at 80 columns, it is then cut: the status line names it too)."""
MOUSE_HINT: Final = "c: mouse colour"
"""What a preview adds where a mouse die may take either colour (R8c)."""
ELLIPSIS: Final = "..." if ASCII else "…"
PAR_IS: Final = "the best score knowing the draw order"
"""What par is, in every place that names it: a search that knows the order of the
cards to come (proven the best, or the best it found: ``par_words``)."""
DEGREE: Final = " degrees" if ASCII else "°"
STAR: Final = "*" if ASCII else "★"
"""The mark of an achievement just unlocked."""
EMPTY: Final = "." if ASCII else "·"
"""The mark of an empty spot of the table."""
BAR: Final = "|" if ASCII else "│"
"""The line drawn between two cards' areas."""
CROSS: Final = "x" if ASCII else "✗"
"""The mark of the area that causes a refusal."""
TICK: Final = "v" if ASCII else "✓"
"""The mark of a placement allowed that gains or keeps points (and of a puzzle solved)."""
LOST_MARK: Final = "?"
"""The mark of a player whose connection is lost (a room's side panel, two players a line)."""
OUT_MARK: Final = "-"
"""The mark of a player out of the game (left, stuck or waited out)."""
LOSS: Final = "!" if ASCII else "▼"
"""The mark of a placement allowed that loses points: not a tick, which reads as good."""
PEEK: Final = "|" if ASCII else "┃"
"""The outline of the card being placed while peeking under it."""
MARK_IN: Final = (">", "<") if ASCII else ("▶", "◀")
"""Either side of the squares marked as the place to go (``forage learn``)."""
MARK_EMPTY: Final = "+" if ASCII else "◆"
"""A marked square of empty table."""

TERRAIN: Final = {Colour.B: "bramble", Colour.C: "leaves", Colour.M: "soil"}

LEGEND: Final = f"""\
+C1         a new die (C, showing 1) is placed
M3{ARROW}6        the die below moves up and goes up a step ({ARROW}10, {ARROW}{BASKET})
=B3         a split area: the die below moves up unchanged
+M-2        a mouse die moves in; B3{ARROW}M-2: the die below goes back
+Edwood     Edwood Mouse moves in; M-2{ARROW}E: he covers a mouse
no C        no die of that colour is left: nothing is placed
on soil     what the area covers (on M3: a die; none: empty table)
{CROSS} mouse     this area is why the card cannot go here
            (the other reasons: {CROSS} Edwood, {CROSS} no die, {CROSS} colour)"""
"""What the words drawn in the card being placed mean."""


def par_words(proven: bool) -> str:
    """What a par is: :data:`PAR_IS`, and whether the search proved it the best."""
    return PAR_IS if proven else f"{PAR_IS}, as far as the search looked"


def clock_time(seconds: float) -> str:
    """A span of time as a clock shows it: ``0:07``, ``1:42``, ``12:00`` (whole seconds,
    rounded down; never below zero)."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def par_said(score: int, proven: bool) -> str:
    """A deal's par as every place says it (the end screen, the review, ``forage par``):
    ``Par for this deal: 51 (the best score knowing the draw order)``."""
    return f"Par for this deal: {score} ({par_words(proven)})"


def path_lines(path: str, width: int) -> list[str]:
    """A file's path in lines of at most ``width`` characters, broken only after a ``/``
    (never inside a name; a name longer than the line has a line to itself)."""
    lines = [""]
    for part in re.split(r"(?<=/)", path):
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return lines


def card_name(card: Card) -> str:
    """A card as a player knows it: by the recipe on its back, ``the Chestnut Tart card``
    (``card 14`` for a card without a recipe)."""
    if card.recipe is not None:
        return f"the {card.recipe.name} card"
    return f"card {card.number}"


def points(count: int) -> str:
    """``1 point``, ``-3 points``."""
    return f"{count} point" if abs(count) == 1 else f"{count} points"


def face(value: int) -> str:
    """A die face as shown: 1, 3, 6, 10, the basket glyph for 15, -2 for the mouse."""
    if value == BASKET_FACE:
        return BASKET
    return str(value)


def die_text(die: Die) -> str:
    """A die in words-and-glyphs, for example ``B10`` or ``M-2``."""
    return f"{die.colour.value}{face(die.value)}"


def effect_phrase(effect: AreaEffect) -> str:
    """What one area of the placed card will do, in a few words."""
    kind = effect.effect
    after = effect.die
    back = f" ({die_text(effect.returned)} to the supply)" if effect.returned is not None else ""
    if kind is Effect.PLACED and after is not None:
        return f"new {die_text(after)}"
    if kind is Effect.RAISED and after is not None and effect.below is not None:
        before = effect.below.die
        was = face(before.value) if before is not None else "?"
        return f"{after.colour.value} {was}{TO}{face(after.value)}"
    if kind is Effect.MOVED and after is not None:
        return f"{die_text(after)} carried"
    if kind is Effect.NO_DIE_LEFT:
        return f"no {effect.area.value} die left"
    if kind is Effect.MOUSE and after is not None:
        return f"mouse {after.colour.value}{MOUSE_FACE}{back}"
    if kind is Effect.EDWOOD:
        return f"Edwood moves in ({points(EDWOOD_POINTS)}; used up){back}"
    return ""


def drop_aftermath(outcome: Outcome) -> str:
    """What a drop did beside the score, in plain words for the note after it:
    ``; Edwood used up, 2 dice to the supply`` (food dice a mouse sent back; a mouse die
    Edwood sends back is no loss); nothing when it did neither."""
    parts = []
    if any(e.effect is Effect.EDWOOD for e in outcome.effects):
        parts.append("Edwood used up")
    back = sum(1 for e in outcome.effects if e.returned is not None and not e.returned.mouse)
    if back:
        parts.append(f"{back} {'die' if back == 1 else 'dice'} to the supply")
    return "; " + ", ".join(parts) if parts else ""


def _gathered(effect: AreaEffect) -> int:
    """The points a die placed or raised by one area adds (the most a drop gathers)."""
    after, below = effect.die, effect.below
    if after is None:
        return 0
    if effect.effect is Effect.RAISED and below is not None and below.die is not None:
        return after.value - below.die.value
    return after.value if effect.effect is Effect.PLACED else 0


def line_words(outcomes: Sequence[Outcome]) -> str:
    """What a line of drops gathers, each by its biggest die placed or raised: ``raises
    C3 to 6, then the last card takes it to 10``."""
    parts = []
    held: tuple[int, int] | None = None  # where the last drop's die went
    for index, outcome in enumerate(outcomes):
        gathering = [e for e in outcome.effects if _gathered(e) > 0]
        best = max(gathering, key=_gathered, default=None)
        who = "the last card " if index and index == len(outcomes) - 1 else ""
        if best is None or best.die is None:
            change = outcome.score_change
            parts.append(f"{who}scores {change:+d}" if change else f"{who}gathers nothing")
            held = None
            continue
        die = best.die
        before = best.below.die if best.below is not None else None
        if best.effect is Effect.PLACED or before is None:
            what = f"places a new {die.colour.value}{die.value}"
        elif (best.x, best.y) == held:
            what = f"takes it to {die.value}"
        else:
            what = f"raises {before.colour.value}{before.value} to {die.value}"
        parts.append(who + what)
        held = (best.x, best.y)
    return ", then ".join(parts)


def progress_words(progress: RecipeProgress) -> str:
    """How far a recipe's counted condition has got: ``now 4 of 5``."""
    return f"now {progress.have} of {progress.need}"


def score_sum(score: Score) -> str:
    """The base score as points that add up, e.g. ``food 36 · mice -2 · split -1 · Edwood 0
    = 33``."""
    parts = score.parts
    return (
        f"food {parts.food} {DOT} mice {parts.mice} {DOT} split {parts.split} {DOT} "
        f"Edwood {parts.edwood} = {score.base}"
    )


class Preview(NamedTuple):
    """What the status bar says of the card where it is: two lines and their tone."""

    headline: str
    details: str
    tone: str
    """``gain``, ``level`` or ``loss`` for a legal drop (by the score's change), ``refused``."""
    brief: str = ""
    """The details in fewer words (counts of each kind of change), for a line too narrow
    for them; empty where the details are short anyway."""


def tone_of(change: int) -> str:
    """How a drop's change of score reads: a gain, no change, or a loss."""
    return "gain" if change > 0 else "loss" if change < 0 else "level"


def _lead(tone: str) -> str:
    """The mark a preview's headline starts with: a tick unless the drop loses points."""
    return LOSS if tone == "loss" else TICK


def outcome_lines(outcome: Outcome, base: int, final: tuple[int, int] | None = None) -> Preview:
    """The preview of a placement for the status bar; ``final`` is the final score now and
    after it, in a recipe challenge."""
    if not outcome.legal:
        where = " (the red area)" if outcome.cause is not None else ""
        return Preview(
            f"{CROSS} Can't place here{where}: {outcome.message}.",
            "Move (arrows) or rotate (r) the card; p peeks under it.",
            "refused",
        )
    change = outcome.score_change
    if final is not None:
        now, after = final
        tone = tone_of(after - now)
        headline = (
            f"{_lead(tone)} Enter places it: final {now} {TO} {after} ({after - now:+d}; "
            f"base {change:+d})."
        )
    else:
        tone = tone_of(change)
        headline = (
            f"{_lead(tone)} Enter places it: score {base} {TO} {base + change} ({change:+d})."
        )
    phrases = [p for p in (effect_phrase(e) for e in outcome.effects) if p]
    empty = sum(1 for e in outcome.effects if e.effect is Effect.NEW)
    if empty:
        phrases.append(f"{empty} on empty table")
    details = f" {DOT} ".join(phrases) if phrases else "no dice change"
    if outcome.mouse_choice_possible:
        details += f" {DOT} {MOUSE_HINT}"
    return Preview(headline, details, tone, brief_details(outcome))


ASK_KEY: Final = "w"
"""The key that turns on or off the question before a costly drop."""
FRIENDS_KEY: Final = "i"
"""The key on the game screen that plays with friends: a room on a server."""


def costly_question(before: int, after: int, final: bool) -> str:
    """The headline that asks for a second enter before a costly drop, saying its cost."""
    what = "final" if final else "score"
    return (
        f"{LOSS} This drop costs {points(before - after)} ({what} {before} {TO} {after}): "
        f"enter again places it."
    )


COSTLY_NOTE: Final = (
    f"Not placed yet: move or turn the card to try elsewhere; {ASK_KEY} stops asking."
)
"""The note under the question before a costly drop."""


def asking_words(on: bool) -> str:
    """What the key that turns the question before costly drops on or off answers."""
    if on:
        return f"Costly drops ask for a second enter again ({ASK_KEY} turns that off)."
    return f"Costly drops no longer ask for a second enter ({ASK_KEY} asks again)."


BRIEF_KINDS: Final = (
    (Effect.PLACED, "new die", "new dice"),
    (Effect.RAISED, "raised", "raised"),
    (Effect.MOVED, "carried", "carried"),
)
"""The kinds of gain the brief details count, in the order said, with their words for one
and for more."""


def brief_details(outcome: Outcome) -> str:
    """What a drop does in few words, what it costs first: mice, Edwood, food dice sent
    back to the supply, colours run out; then the dice it adds, raises and carries and the
    areas on empty table, e.g. ``2 mice · Edwood -5 · 2 dice back · 1 new die · 3 raised``."""
    effects = outcome.effects
    parts = []
    mice = sum(1 for e in effects if e.effect is Effect.MOUSE)
    if mice:
        parts.append(f"{mice} {'mouse' if mice == 1 else 'mice'}")
    if any(e.effect is Effect.EDWOOD for e in effects):
        parts.append(f"Edwood {EDWOOD_POINTS}")
    back = sum(1 for e in effects if e.returned is not None and not e.returned.mouse)
    if back:
        parts.append(f"{back} {'die' if back == 1 else 'dice'} back")
    parts.extend(f"no {e.area.value} die left" for e in effects if e.effect is Effect.NO_DIE_LEFT)
    for kind, one, more in BRIEF_KINDS:
        count = sum(1 for e in effects if e.effect is kind)
        if count:
            parts.append(f"{count} {one if count == 1 else more}")
    empty = sum(1 for e in effects if e.effect is Effect.NEW)
    if empty:
        parts.append(f"{empty} on empty table")
    if outcome.mouse_choice_possible:
        parts.append(MOUSE_HINT)
    return f" {DOT} ".join(parts) if parts else "no dice change"


def brief_within(brief: str, width: int) -> str:
    """The brief details in ``width`` cells: whole counts left out from the end where it is
    longer (an ellipsis in their place), the mouse colour key's hint always kept."""
    if len(brief) <= width:
        return brief
    parts = brief.split(f" {DOT} ")
    hint = [parts.pop()] if parts[-1] == MOUSE_HINT else []
    while parts:
        parts.pop()
        text = f" {DOT} ".join([*parts, ELLIPSIS, *hint])
        if len(text) <= width:
            return text
    return brief[: max(0, width - 1)].rstrip() + ELLIPSIS


SHORT: Final = 5
"""The most characters a short label has (the width of an area at 80x24)."""


class CellPreview(NamedTuple):
    """What one area of the card being placed covers and what the drop does there."""

    change: str
    """What happens, e.g. ``M3→M6``, ``+C1``, ``B3→M-2`` (a mouse moves in and the die
    goes back); on a refusal, the cause's mark."""
    short: str
    """The same in at most five characters."""
    below: str
    """What lies below: ``on soil``, ``on M3``; empty on empty table."""
    short_below: str
    """The same in at most five characters (empty where it does not fit: ``on C10``)."""
    word: str
    """One more word where there is room: mouse, basket, Edwood."""
    cause: bool
    """Whether this area causes the refusal."""
    die: Die | None
    """The die on the area afterwards (None on a refusal)."""


CAUSE_WORD: Final = {
    Reason.COVERS_EDWOOD: "Edwood",
    Reason.COVERS_MOUSE: "mouse",
    Reason.EDWOOD_USED: "mouse",
    Reason.NO_MOUSE_DIE: "no die",
    Reason.BAD_MOUSE_COLOUR: "colour",
}
"""The word beside the cross on the area that causes a refusal."""


def area_letters(area: Area) -> str:
    """An area's type(s) in lower case: ``b``, ``c╱m``."""
    return SLASH.join(c.value.lower() for c in area.colours)


def area_name(area: Area) -> str:
    """An area's type as a word where it is one type: ``bramble``, else ``b╱m``."""
    colours = area.colours
    return TERRAIN[colours[0]] if len(colours) == 1 else area_letters(area)


def _below(square: Square | None) -> tuple[str, str]:
    """What lies below an area, long and short."""
    if square is None:
        return "", ""
    if square.edwood:
        return "on Edwood", "on E"
    if square.die is not None:
        text = "on " + die_text(square.die)
        return text, text if len(text) <= SHORT else ""
    return "on " + area_name(square.area), "on " + "".join(
        c.value.lower() for c in square.area.colours
    )


def _change(effect: AreaEffect) -> tuple[str, str, str]:
    """What the drop does at one area: long, short (five characters), and a word."""
    kind, after, before, back = effect.effect, effect.die, effect.below, effect.returned
    if kind is Effect.PLACED and after is not None:
        return "+" + die_text(after), "+" + die_text(after), ""
    if kind is Effect.RAISED and after is not None and before is not None and before.die:
        was, now = die_text(before.die), die_text(after)
        short = f"{was}{ARROW}{face(after.value)}"
        return f"{was}{ARROW}{now}", short, "basket" if after.value == BASKET_FACE else ""
    if kind is Effect.MOVED and after is not None:
        return f"={die_text(after)}", f"={die_text(after)}", "kept"
    if kind is Effect.NO_DIE_LEFT:
        return f"no {effect.area.value}", f"no {effect.area.value}", "none left"
    if kind is Effect.MOUSE and after is not None:
        mouse = die_text(after)
        if back is not None:
            return f"{die_text(back)}{ARROW}{mouse}", "+" + mouse, "mouse"
        return "+" + mouse, "+" + mouse, "mouse"
    if kind is Effect.EDWOOD:
        if back is not None:
            chased = f"{die_text(back)}{ARROW}E"
            return chased, chased if len(chased) <= SHORT else "+E", "Edwood"
        return "+Edwood", "+E", "Edwood"
    return "", "", ""


def cell_previews(
    outcome: Outcome, card: Mapping[Pos, Area], squares: Mapping[Pos, Square]
) -> dict[Pos, CellPreview]:
    """Each area of the card being placed: what it covers and what the drop does there."""
    out: dict[Pos, CellPreview] = {}
    if outcome.legal:
        for effect in outcome.effects:
            long, short, word = _change(effect)
            if (effect.x, effect.y) in outcome.mouse_choice_possible:
                word = "c: colour"
            below, short_below = _below(effect.below)
            out[effect.x, effect.y] = CellPreview(
                long, short, below, short_below, word, False, effect.die
            )
        return out
    for pos in card:
        below, short_below = _below(squares.get(pos))
        cause = pos == outcome.cause
        change = short = ""
        if cause and outcome.reason is not None:
            change = f"{CROSS} {CAUSE_WORD.get(outcome.reason, '')}"
            square = squares.get(pos)
            short = CROSS + (below[3:] if square is not None and len(below) <= 7 else "")
        out[pos] = CellPreview(change, short, below, short_below, "", cause, None)
    return out
