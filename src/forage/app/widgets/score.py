"""The score: in a recipe challenge the final score and target first, then the recipes
(their ticks as the drop shown would leave them), then the base score and its points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from forage.app.describe import (
    CROSS,
    DOT,
    ELLIPSIS,
    TICK,
    TO,
    bonus_text,
    chars_within,
    progress_words,
    rating_text,
    recipe_condition,
    recipe_name,
    wrap_cells,
)
from forage.app.themes import DEFAULT_MARKS, marks_of
from forage.app.widgets.lines import FitsItsLines
from forage.engine import GameResult, Recipe, RecipeProgress
from forage.i18n import _

TALL_CLASS: Final = "-tall-height"
"""The class of a screen tall enough for a challenge's whole base score (``TALL_ROWS``)."""
FLIP_STYLE: Final = Style(bold=True, reverse=True)
"""A tick the drop shown would change."""


class ScoreState(NamedTuple):
    """What the score panel shows; ``after`` is the standing after the drop shown."""

    result: GameResult | None = None
    recipes: tuple[Recipe, ...] = ()
    after: GameResult | None = None
    progress: tuple[RecipeProgress | None, ...] = ()
    """How far each recipe's counted condition has got, as the drop shown would leave it."""
    brief: bool = False
    """Each recipe on one line, without its condition (a panel that has other lines to
    keep in view: a room's players)."""


def breakdown_text(
    result: GameResult,
    challenge: bool = False,
    marks: Mapping[str, Style] = DEFAULT_MARKS,
    compact: bool = False,
    width: int = 0,
) -> Text:
    """The base score and the points that add up to it (not ``compact``: a challenge's
    panel on a short terminal, which has room for the base score alone); once the game is
    over, the woodland's rating, wrapped to ``width`` when given."""
    score = result.score
    text = Text(no_wrap=True, overflow="ellipsis")
    # Translators: the score panel's heading (28 columns with the number after it).
    text.append(_("Base score ") if challenge else _("Score "), "bold")
    text.append(f"{score.base}", marks["score"])
    if compact:
        return text
    text.append("\n")
    parts = score.parts
    # Translators: the score panel, 27 columns at most.
    text.append(
        _(" food {food} {dot} mice {mice}").format(food=parts.food, mice=parts.mice, dot=DOT)
    )
    text.append("\n")
    # Translators: the score panel, 27 columns at most.
    text.append(
        _(" split {split} {dot} Edwood {edwood}").format(
            split=parts.split, edwood=parts.edwood, dot=DOT
        )
    )
    if result.finished:
        rating = _("Woodland: {rating}").format(rating=rating_text(result.rating))
        for line in wrap_cells(rating, width - 1) if width > 10 else [rating]:
            text.append(f"\n {line}", "italic")
    return text


def final_text(
    result: GameResult,
    after: GameResult | None = None,
    width: int = 0,
    marks: Mapping[str, Style] = DEFAULT_MARKS,
    compact: bool = False,
    recipes: tuple[Recipe, ...] = (),
) -> Text:
    """The final score (and what the drop shown makes it) against the target, with the
    ``recipes``' numbers it adds up (R17) where they fit; what is left to go on a line of
    its own where ``width`` is too narrow for one line (left out when ``compact``: the
    target beside the final score says it)."""
    text = Text()
    final = result.score.final
    # Translators: the score panel, with a target after it: 28 columns in all.
    text.append(_("Final {final}").format(final=final), marks["score"])
    if after is not None and after.score.final != final:
        text.append(f" {TO} {after.score.final}", "bold reverse")
    if result.target is not None:
        text.append(_(" {dot} target {target}").format(dot=DOT, target=result.target), "bold")
        sums = f" ({'+'.join(str(r.target) for r in recipes)})" if recipes else ""
        if not width or text.cell_len + len(sums) <= width:
            text.append(sums)
        gap = result.target - (after or result).score.final
        rest = _("reached") if gap <= 0 else _("{gap} to go").format(gap=gap)
        fits = not width or text.cell_len + 3 + cell_len(rest) <= width
        if fits:
            text.append(f" {DOT} {rest}")
        elif not compact:
            text.append(f"\n ({rest})")
    return text


def recipes_text(
    result: GameResult,
    recipes: tuple[Recipe, ...],
    conditions: bool,
    after: GameResult | None = None,
    width: int = 0,
    marks: Mapping[str, Style] = DEFAULT_MARKS,
    compact: bool = False,
    progress: Sequence[RecipeProgress | None] = (),
) -> Text:
    """The final score and target, then each recipe with its condition (wrapped to
    ``width`` when given) and, where the condition is a count, how far it has got
    (``progress``), its bonus and tick; ticks the drop shown would flip are marked.
    ``compact``: what is left to go only where it fits beside the target."""
    text = Text()
    if not recipes:
        return text
    text.append_text(final_text(result, after, width, marks, compact, recipes))
    shown = after.recipes if after is not None else result.recipes
    margin = "" if compact else " "  # a short panel gives its recipes the column back
    counts = list(progress) or [None] * len(recipes)
    for recipe, now, then, count in zip(recipes, result.recipes, shown, counts, strict=True):
        mark = TICK if then.met else CROSS
        style = marks["gain" if then.met else "bad"]
        if then.met != now.met:  # the drop shown would change this tick: say so
            mark = f"{TICK if now.met else CROSS}{TO}{mark}"
            style = style + FLIP_STYLE
        text.append("\n")
        text.append(f"{margin}{mark} ", style)
        # The recipe's number beside its name, as beside the target (R17); its bonus apart,
        # the points it adds at the head of its condition (a doubling's condition says
        # "double" itself, and what the doubling is worth now follows it).
        name = f"{recipe_name(recipe)} ({recipe.target})"
        hang = " " * (len(margin) + cell_len(mark) + 1)
        room = width - len(hang) if width else 0
        if not conditions and room and cell_len(name) > room:  # one line a recipe: cut
            cut = chars_within(name, max(0, room - len(ELLIPSIS)))
            lines = [name[:cut].rstrip() + ELLIPSIS]
        else:
            lines = wrap_cells(name, room) if room > 8 else [name]
        text.append(lines[0])
        for line in lines[1:]:
            text.append(f"\n{hang}{line}")
        bonus = "" if recipe.doubles else f"+{bonus_text(recipe)}"
        tail = []
        if count is not None:
            # Translators: how far a recipe's count has got, as a sentence: "Now 4 of 5."
            tail.append(_("{progress}.").format(progress=progress_words(count).capitalize()))
        if recipe.doubles and then.met and then.bonus:
            tail.append(_("Now {bonus}.").format(bonus=f"{then.bonus:+d}"))
        indent = margin + "  "
        if not conditions:  # one line a recipe: its bonus beside its name where it fits
            if bonus and (not room or cell_len(lines[0]) + 1 + cell_len(bonus) <= room):
                text.append(f" {bonus}", "italic")
            continue
        room = width - len(indent)
        condition = recipe_condition(recipe)
        condition = f"{bonus}: {condition}" if bonus else condition
        lines = wrap_cells(condition, room) if room > 0 else [condition]
        for said in tail:  # "Now 4 of 5." on the last line if it fits, else its own
            if room <= 0 or cell_len(lines[-1]) + 1 + cell_len(said) <= room:
                lines[-1] += f" {said}"
            else:
                lines.append(said)
        for line in lines:
            text.append(f"\n{indent}{line}", "italic")
    return text


class ScorePanel(FitsItsLines):
    """The score breakdown and, in a recipe challenge, the final score, target and recipes."""

    state: reactive[ScoreState] = reactive(ScoreState, always_update=True)

    def __init__(self, *, id: str | None = None) -> None:
        """A panel with nothing to show yet."""
        super().__init__(id=id)
        self._drawn: tuple[ScoreState, tuple[int, bool, str], Text] | None = None
        """The panel's text and what it was made for (the state, width, size class and
        theme): a new state is drawn once, not once to measure and again to paint."""

    def watch_state(self) -> None:
        """Lay the screen out again when the panel's lines grow or shrink (a recipe's
        bonus may wrap its name onto a second line), else just repaint it."""
        self.fit_lines(self.render())

    def render(self) -> Text:
        """Recipes first in a challenge (final score, target), then the base breakdown."""
        compact = not self.screen.has_class(TALL_CLASS)  # 80x24: the recipes whole first
        made_for = (self.size.width, compact, self.app.theme)
        drawn = self._drawn
        if drawn is None or drawn[0] is not self.state or drawn[1] != made_for:
            drawn = self._drawn = (self.state, made_for, self._text(compact))
        return drawn[2]

    def _text(self, compact: bool) -> Text:
        """The panel's text for the state now."""
        result = self.state.result
        if result is None:
            return Text("")
        recipes = self.state.recipes
        marks = marks_of(self.app)
        width = self.size.width or 28
        if not recipes:
            return breakdown_text(result, marks=marks, width=width)
        state = self.state
        text = recipes_text(
            result, recipes, not state.brief, state.after, width, marks, compact, state.progress
        )
        text.append("\n")
        text.append_text(breakdown_text(result, True, marks, compact, width))
        return text
