"""Plain words and glyphs for what the engine says: dice, areas, and a placement's outcome."""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from rich.cells import cell_len, set_cell_size

from forage.engine import (
    Area,
    AreaEffect,
    Card,
    Colour,
    Die,
    Effect,
    Outcome,
    Reason,
    Recipe,
    RecipeProgress,
    Score,
    Square,
)
from forage.engine.areas import BASKET_FACE, EDWOOD_POINTS, MOUSE_FACE
from forage.engine.woodland import Pos
from forage.i18n import N_, _, ngettext, pgettext


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
# Translators: a footer key's label, at most 12 columns.
MOUSE_COLOUR: Final = _("Mouse colour")
"""What the footer calls the c key, shown last and only where the card has a choice of
mouse colour (in ASCII, at 80 columns, it is then cut: the status line names it too)."""
MOUSE_HINT: Final = N_("c: mouse colour")
"""What a preview adds where a mouse die may take either colour (R8c)."""
ELLIPSIS: Final = "..." if ASCII else "…"
PAR_IS: Final = _("the best score knowing the draw order")
"""What par is, in every place that names it: a search that knows the order of the
cards to come (proven the best, or the best it found: ``par_words``)."""
DEGREE: Final = _(" degrees") if ASCII else "°"
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

TERRAIN: Final = {Colour.B: N_("bramble"), Colour.C: N_("leaves"), Colour.M: N_("soil")}
"""Each type of area as a word (translated where shown)."""

# Translators: the help's legend of the card being placed, 72 columns at most a line; the
# marks in the first 12 columns are drawn on the woodland: keep them as the woodland draws
# them in your language.
LEGEND: Final = _("""\
+C1         a new die (C, showing 1) is placed
M3{arrow}6        the die below moves up and goes up a step ({arrow}10, {arrow}{basket})
=B3         a split area: the die below moves up unchanged
+M-2        a mouse die moves in; B3{arrow}M-2: the die below goes back
+Edwood     Edwood Mouse moves in; M-2{arrow}E: he covers a mouse
no C        no die of that colour is left: nothing is placed
on soil     what the area covers (on M3: a die; none: empty table)
{cross} mouse     this area is why the card cannot go here
            (the other reasons: {cross} Edwood, {cross} no die, {cross} colour)""").format(
    arrow=ARROW, basket=BASKET, cross=CROSS
)
"""What the words drawn in the card being placed mean."""


def label_name(label: str) -> str:
    """A review's rating of a move as the player reads it (``mistake``; in Japanese 悪手);
    the review's JSON keeps the English label (``forage.ai.review.LABELS``)."""
    # Translators: the review's ratings of a move, in a column of 10 columns at most.
    names = {
        "best": pgettext("rating of a move", "best"),
        "good": pgettext("rating of a move", "good"),
        "inaccuracy": pgettext("rating of a move", "inaccuracy"),
        "mistake": pgettext("rating of a move", "mistake"),
        "blunder": pgettext("rating of a move", "blunder"),
    }
    return names.get(label, label)


def par_words(proven: bool) -> str:
    """What a par is: :data:`PAR_IS`, and whether the search proved it the best."""
    if proven:
        return PAR_IS
    return _("{par_is}, as far as the search looked").format(par_is=PAR_IS)


def clock_time(seconds: float) -> str:
    """A span of time as a clock shows it: ``0:07``, ``1:42``, ``12:00`` (whole seconds,
    rounded down; never below zero)."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def par_said(score: int, proven: bool) -> str:
    """A deal's par as every place says it (the end screen, the review, ``forage par``):
    ``Par for this deal: 51 (the best score knowing the draw order)``."""
    return _("Par for this deal: {score} ({par_is})").format(score=score, par_is=par_words(proven))


def path_lines(path: str, width: int) -> list[str]:
    """A file's path in lines of at most ``width`` characters, broken only after a ``/``
    (never inside a name; a name longer than the line has a line to itself)."""
    lines = [""]
    for part in re.split(r"(?<=/)", path):
        if lines[-1] and cell_len(lines[-1]) + cell_len(part) > width:
            lines.append("")
        lines[-1] += part
    return lines


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells: broken at spaces as ``textwrap`` breaks
    them, and a run of double-width characters (Japanese, which has no spaces) broken
    anywhere, never before a full-width stop or comma."""
    if width <= 0 or all(cell_len(char) == 1 for char in text):
        return textwrap.wrap(text, width) if width > 0 else [text]
    lines: list[str] = []
    line = ""
    for word in re.split(r"(?<=\s)(?=\S)", text):  # each word with the space after it
        if cell_len(line + word.rstrip()) <= width:
            line += word
            continue
        if all(cell_len(char) == 1 for char in word) and cell_len(word.rstrip()) <= width:
            if line.strip():
                lines.append(line.rstrip())
            line = word
            continue
        for char in word:
            if cell_len(line.rstrip() + char) > width and char not in WRAP_STICKY:
                if line.strip():
                    lines.append(line.rstrip())
                line = "" if char.isspace() else char
            else:
                line += char
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


WRAP_STICKY: Final = "、。，．：）」"
"""Full-width marks that never start a wrapped line."""


def chars_within(text: str, width: int) -> int:
    """How many of ``text``'s first characters fit in ``width`` cells."""
    cells = 0
    for index, char in enumerate(text):
        cells += cell_len(char)
        if cells > width:
            return index
    return len(text)


def rating_text(rating: str) -> str:
    """The rulebook's phrase for a woodland (the engine's, R16) in the player's language."""
    return _(rating)


def recipe_name(recipe: Recipe) -> str:
    """A recipe's name in the player's language (the data keeps the English)."""
    return _(recipe.name)


def recipe_condition(recipe: Recipe) -> str:
    """A recipe's condition in the player's language."""
    return _(recipe.condition)


def bonus_text(recipe: Recipe) -> str:
    """A recipe's bonus as printed on the card: ``6 pts``, ``1 pt``, ``x2``."""
    if recipe.doubles:
        return "x2"
    bonus = int(recipe.bonus)
    return ngettext("{count} pt", "{count} pts", bonus).format(count=bonus)


def recipe_numbers(recipe: Recipe) -> str:
    """A recipe's number toward the target (R17) and its bonus: ``target 24, bonus 6 pts``."""
    return _("target {target}, bonus {bonus}").format(
        target=recipe.target, bonus=bonus_text(recipe)
    )


def card_name(card: Card) -> str:
    """A card as a player knows it: by the recipe on its back, ``the Chestnut Tart card``
    (``card 14`` for a card without a recipe)."""
    if card.recipe is not None:
        return _("the {recipe} card").format(recipe=recipe_name(card.recipe))
    return _("card {number}").format(number=card.number)


def points(count: int) -> str:
    """``1 point``, ``-3 points``."""
    return ngettext("{count} point", "{count} points", abs(count)).format(count=count)


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
    back = ""
    if effect.returned is not None:
        back = _(" ({die} to the supply)").format(die=die_text(effect.returned))
    if kind is Effect.PLACED and after is not None:
        return _("new {die}").format(die=die_text(after))
    if kind is Effect.RAISED and after is not None and effect.below is not None:
        before = effect.below.die
        was = face(before.value) if before is not None else "?"
        return f"{after.colour.value} {was}{TO}{face(after.value)}"
    if kind is Effect.MOVED and after is not None:
        return _("{die} carried").format(die=die_text(after))
    if kind is Effect.NO_DIE_LEFT:
        return _("no {colour} die left").format(colour=effect.area.value)
    if kind is Effect.MOUSE and after is not None:
        return _("mouse {die}{back}").format(die=f"{after.colour.value}{MOUSE_FACE}", back=back)
    if kind is Effect.EDWOOD:
        return _("Edwood moves in ({points}; used up){back}").format(
            points=points(EDWOOD_POINTS), back=back
        )
    return ""


def drop_aftermath(outcome: Outcome) -> str:
    """What a drop did beside the score, in plain words for the note after it:
    ``; Edwood used up, 2 dice to the supply`` (food dice a mouse sent back; a mouse die
    Edwood sends back is no loss); nothing when it did neither."""
    parts = []
    if any(e.effect is Effect.EDWOOD for e in outcome.effects):
        parts.append(_("Edwood used up"))
    back = sum(1 for e in outcome.effects if e.returned is not None and not e.returned.mouse)
    if back:
        parts.append(
            ngettext("{count} die to the supply", "{count} dice to the supply", back).format(
                count=back
            )
        )
    if not parts:
        return ""
    # Translators: what a drop did beside the score, said after the note on the drop;
    # {parts} is a list joined by the next string (", ").
    return _("; {parts}").format(parts=_(", ").join(parts))


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
        last = bool(index and index == len(outcomes) - 1)
        if best is None or best.die is None:
            change = outcome.score_change
            if change:
                said = (
                    _("the last card scores {change}") if last else _("scores {change}")
                ).format(change=f"{change:+d}")
            else:
                said = _("the last card gathers nothing") if last else _("gathers nothing")
            parts.append(said)
            held = None
            continue
        die = best.die
        before = best.below.die if best.below is not None else None
        if best.effect is Effect.PLACED or before is None:
            what = (
                _("the last card places a new {die}") if last else _("places a new {die}")
            ).format(die=f"{die.colour.value}{die.value}")
        elif (best.x, best.y) == held:
            what = (
                _("the last card takes it to {face}") if last else _("takes it to {face}")
            ).format(face=die.value)
        else:
            what = (
                _("the last card raises {die} to {face}") if last else _("raises {die} to {face}")
            ).format(die=f"{before.colour.value}{before.value}", face=die.value)
        parts.append(what)
        held = (best.x, best.y)
    # Translators: joins the steps of a line of drops ("raises C3 to 6, then ...").
    return _(", then ").join(parts)


def progress_words(progress: RecipeProgress) -> str:
    """How far a recipe's counted condition has got: ``now 4 of 5``."""
    return _("now {have} of {need}").format(have=progress.have, need=progress.need)


def score_sum(score: Score) -> str:
    """The base score as points that add up, e.g. ``food 36 · mice -2 · split -1 · Edwood 0
    = 33``."""
    parts = score.parts
    return _(
        "food {food} {dot} mice {mice} {dot} split {split} {dot} Edwood {edwood} = {base}"
    ).format(
        food=parts.food,
        mice=parts.mice,
        split=parts.split,
        edwood=parts.edwood,
        base=score.base,
        dot=DOT,
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
        reason = reason_text(outcome)
        if outcome.cause is not None:
            headline = _("{cross} Can't place here (the red area): {reason}.")
        else:
            headline = _("{cross} Can't place here: {reason}.")
        return Preview(
            headline.format(cross=CROSS, reason=reason),
            _("Move (arrows) or rotate (r) the card; p peeks under it."),
            "refused",
        )
    change = outcome.score_change
    if final is not None:
        now, after = final
        tone = tone_of(after - now)
        # Translators: the status line (78 columns) of a drop in a recipe challenge.
        headline = _(
            "{mark} Enter places it: final {now} {to} {after} ({change}; base {base_change})."
        ).format(
            mark=_lead(tone),
            now=now,
            to=TO,
            after=after,
            change=f"{after - now:+d}",
            base_change=f"{change:+d}",
        )
    else:
        tone = tone_of(change)
        # Translators: the status line (78 columns) of a drop.
        headline = _("{mark} Enter places it: score {now} {to} {after} ({change}).").format(
            mark=_lead(tone), now=base, to=TO, after=base + change, change=f"{change:+d}"
        )
    phrases = [p for p in (effect_phrase(e) for e in outcome.effects) if p]
    empty = sum(1 for e in outcome.effects if e.effect is Effect.NEW)
    if empty:
        phrases.append(_("{count} on empty table").format(count=empty))
    details = f" {DOT} ".join(phrases) if phrases else _("no dice change")
    if outcome.mouse_choice_possible:
        details += f" {DOT} {_(MOUSE_HINT)}"
    return Preview(headline, details, tone, brief_details(outcome))


def reason_text(outcome: Outcome) -> str:
    """Why a placement is refused, in the player's language (empty for a legal one)."""
    return _(outcome.message) if outcome.message else ""


ASK_KEY: Final = "w"
"""The key that turns on or off the question before a costly drop."""
FRIENDS_KEY: Final = "i"
"""The key on the game screen that plays with friends: a room on a server."""


def costly_question(before: int, after: int, final: bool) -> str:
    """The headline that asks for a second enter before a costly drop, saying its cost."""
    if final:
        question = _(
            "{mark} This drop costs {points} (final {before} {to} {after}): enter again places it."
        )
    else:
        question = _(
            "{mark} This drop costs {points} (score {before} {to} {after}): enter again places it."
        )
    return question.format(
        mark=LOSS, points=points(before - after), before=before, to=TO, after=after
    )


COSTLY_NOTE: Final = _(
    "Not placed yet: move or turn the card to try elsewhere; {ask_key} stops asking."
).format(ask_key=ASK_KEY)
"""The note under the question before a costly drop."""


def asking_words(on: bool) -> str:
    """What the key that turns the question before costly drops on or off answers."""
    if on:
        said = _("Costly drops ask for a second enter again ({ask_key} turns that off).")
    else:
        said = _("Costly drops no longer ask for a second enter ({ask_key} asks again).")
    return said.format(ask_key=ASK_KEY)


def brief_details(outcome: Outcome) -> str:
    """What a drop does in few words, what it costs first: mice, Edwood, food dice sent
    back to the supply, colours run out; then the dice it adds, raises and carries and the
    areas on empty table, e.g. ``2 mice · Edwood -5 · 2 dice back · 1 new die · 3 raised``."""
    effects = outcome.effects
    parts = []
    mice = sum(1 for e in effects if e.effect is Effect.MOUSE)
    if mice:
        parts.append(ngettext("{count} mouse", "{count} mice", mice).format(count=mice))
    if any(e.effect is Effect.EDWOOD for e in effects):
        parts.append(_("Edwood {points}").format(points=EDWOOD_POINTS))
    back = sum(1 for e in effects if e.returned is not None and not e.returned.mouse)
    if back:
        parts.append(ngettext("{count} die back", "{count} dice back", back).format(count=back))
    parts.extend(
        _("no {colour} die left").format(colour=e.area.value)
        for e in effects
        if e.effect is Effect.NO_DIE_LEFT
    )
    added = sum(1 for e in effects if e.effect is Effect.PLACED)
    if added:
        parts.append(ngettext("{count} new die", "{count} new dice", added).format(count=added))
    raised = sum(1 for e in effects if e.effect is Effect.RAISED)
    if raised:
        parts.append(ngettext("{count} raised", "{count} raised", raised).format(count=raised))
    carried = sum(1 for e in effects if e.effect is Effect.MOVED)
    if carried:
        parts.append(ngettext("{count} carried", "{count} carried", carried).format(count=carried))
    empty = sum(1 for e in effects if e.effect is Effect.NEW)
    if empty:
        parts.append(_("{count} on empty table").format(count=empty))
    if outcome.mouse_choice_possible:
        parts.append(_(MOUSE_HINT))
    return f" {DOT} ".join(parts) if parts else _("no dice change")


def brief_within(brief: str, width: int) -> str:
    """The brief details in ``width`` cells: whole counts left out from the end where it is
    longer (an ellipsis in their place), the mouse colour key's hint always kept."""
    if cell_len(brief) <= width:
        return brief
    parts = brief.split(f" {DOT} ")
    hint = [parts.pop()] if parts[-1] == _(MOUSE_HINT) else []
    while parts:
        parts.pop()
        text = f" {DOT} ".join([*parts, ELLIPSIS, *hint])
        if cell_len(text) <= width:
            return text
    return set_cell_size(brief, max(0, width - 1)).rstrip() + ELLIPSIS


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
    Reason.COVERS_EDWOOD: N_("Edwood"),
    Reason.COVERS_MOUSE: N_("mouse"),
    Reason.EDWOOD_USED: N_("mouse"),
    Reason.NO_MOUSE_DIE: N_("no die"),
    Reason.BAD_MOUSE_COLOUR: N_("colour"),
}
"""The word beside the cross on the area that causes a refusal (translated where shown)."""


def area_letters(area: Area) -> str:
    """An area's type(s) in lower case: ``b``, ``c╱m``."""
    return SLASH.join(c.value.lower() for c in area.colours)


def area_name(area: Area) -> str:
    """An area's type as a word where it is one type: ``bramble``, else ``b╱m``."""
    colours = area.colours
    return _(TERRAIN[colours[0]]) if len(colours) == 1 else area_letters(area)


def _under(square: Square) -> tuple[str, str]:
    """What an area covers, in a word and in the fewest letters: ``Edwood`` / ``E``,
    ``M3`` / ``M3``, ``soil`` / ``m``."""
    if square.edwood:
        return _("Edwood"), "E"
    if square.die is not None:
        return die_text(square.die), die_text(square.die)
    return area_name(square.area), "".join(c.value.lower() for c in square.area.colours)


def _on(what: str) -> str:
    """What lies below, said: ``on soil``."""
    # Translators: what an area of the card being placed covers, drawn inside the area
    # (``on M3``, ``on b``); five columns where it is short.
    return _("on {what}").format(what=what)


def _below(square: Square | None) -> tuple[str, str]:
    """What lies below an area, long and short."""
    if square is None:
        return "", ""
    long, short = _under(square)
    text, brief = _on(long), _on(short)
    if square.die is not None:
        return text, text if cell_len(text) <= SHORT else ""
    return text, brief


def _change(effect: AreaEffect) -> tuple[str, str, str]:
    """What the drop does at one area: long, short (five characters), and a word."""
    kind, after, before, back = effect.effect, effect.die, effect.below, effect.returned
    if kind is Effect.PLACED and after is not None:
        return "+" + die_text(after), "+" + die_text(after), ""
    if kind is Effect.RAISED and after is not None and before is not None and before.die:
        was, now = die_text(before.die), die_text(after)
        short = f"{was}{ARROW}{face(after.value)}"
        return f"{was}{ARROW}{now}", short, _("basket") if after.value == BASKET_FACE else ""
    if kind is Effect.MOVED and after is not None:
        return f"={die_text(after)}", f"={die_text(after)}", _("kept")
    if kind is Effect.NO_DIE_LEFT:
        # Translators: drawn in an area at most five columns wide: no die of colour C left.
        none = _("no {colour}").format(colour=effect.area.value)
        return none, none, _("none left")
    if kind is Effect.MOUSE and after is not None:
        mouse = die_text(after)
        if back is not None:
            return f"{die_text(back)}{ARROW}{mouse}", "+" + mouse, _("mouse")
        return "+" + mouse, "+" + mouse, _("mouse")
    if kind is Effect.EDWOOD:
        if back is not None:
            chased = f"{die_text(back)}{ARROW}E"
            return chased, chased if len(chased) <= SHORT else "+E", _("Edwood")
        return "+Edwood", "+E", _("Edwood")
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
                word = _("c: colour")
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
            said = CAUSE_WORD.get(outcome.reason)
            change = f"{CROSS} {_(said) if said else ''}"
            square = squares.get(pos)
            under = _under(square)[0] if square is not None else ""
            short = CROSS + (under if square is not None and cell_len(under) <= SHORT - 1 else "")
        out[pos] = CellPreview(change, short, below, short_below, "", cause, None)
    return out
