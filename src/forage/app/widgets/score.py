"""The score: the base score with its breakdown; recipes, target and final score."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from forage.engine import GameResult, Recipe


@dataclass(frozen=True, eq=False)
class ScoreState:
    """What the score panel shows."""

    result: GameResult | None = None
    recipes: tuple[Recipe, ...] = ()


def breakdown_text(result: GameResult) -> Text:
    """The base score and the points that add up to it."""
    score = result.score
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("Score ", "bold")
    text.append(f"{score.base}", "bold #ffff66")
    text.append(f"  {result.rating}\n" if result.finished else "\n")
    parts = score.parts
    text.append(f" food {parts.food} · mice {parts.mice}\n")
    text.append(f" split {parts.split} · Edwood {parts.edwood}")
    return text


def recipes_text(result: GameResult, recipes: tuple[Recipe, ...], conditions: bool) -> Text:
    """Each recipe with its condition, bonus and whether it is met; target and final score."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if not recipes:
        return text
    text.append(f"Recipes · target {result.target}", "bold")
    for recipe, res in zip(recipes, result.recipes, strict=True):
        mark = "✓" if res.met else "✗"
        style = "bold #80ff80" if res.met else "#ff8080"
        text.append("\n")
        text.append(f" {mark} ", style)
        text.append(f"{recipe.name} ({recipe.bonus_text})")
        if res.met and res.bonus:
            text.append(f" +{res.bonus}", style)
        if conditions:
            text.append(f"\n   {recipe.condition}", "italic")
    score = result.score
    text.append("\n")
    text.append(f"Final {score.final}", "bold")
    if result.target is not None:
        gap = result.target - score.final
        text.append(" · target reached" if gap <= 0 else f" · {gap} to go")
    return text


class ScorePanel(Widget):
    """The score breakdown and, in a recipe challenge, the recipes and target."""

    DEFAULT_CSS = """
    ScorePanel { height: auto; }
    """

    state: reactive[ScoreState] = reactive(ScoreState, always_update=True)

    def render(self) -> Text:
        """Breakdown, then recipes when there are any."""
        result = self.state.result
        if result is None:
            return Text("")
        text = breakdown_text(result)
        if self.state.recipes:
            text.append("\n")
            text.append_text(recipes_text(result, self.state.recipes, conditions=True))
        return text
