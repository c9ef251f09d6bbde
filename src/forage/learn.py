"""``forage learn``: the lessons of the guided first game, as data and pure checks.

Each lesson is a position of the built-in deck (a deal and the placements made for the
player), a marked placement that meets its goal, two lines saying what to do, and a
goal: a pure function of the engine's values (the game and the :class:`Outcome` of the
drop the player is about to make) that says whether the drop does what the lesson
teaches. The screen asks the engine what a drop does; a lesson only decides whether that
is what it asked for. No I/O and no drawing here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from forage.carddata import standard_deck
from forage.engine import Deal, Effect, Game, Outcome, Placement
from forage.i18n import _

GoalCheck = Callable[[Game, Outcome], bool]
"""Whether a legal drop (its outcome, in the game before it) meets a lesson's goal."""


class Goal(StrEnum):
    """What a lesson asks the player to do, each checked by :data:`CHECKS`."""

    SPOT = "spot"
    GATHER = "gather"
    RAISE = "raise"
    SPLIT = "split"
    DIE_RULES = "die-rules"
    MOUSE = "mouse"
    EDWOOD = "edwood"
    RUN_OUT = "run-out"
    SCORE = "score"
    TARGET = "target"


@dataclass(frozen=True)
class Lesson:
    """One step of the guided game: a position, what to do there, and its goal.

    The texts are in the player's language (translated when the lessons are defined: the
    language is fixed for a process's life). They may hold ``{to}``, ``{slash}`` and
    ``{target}`` / ``{gain}``, filled in by :func:`lesson_text` (arrows and glyphs as the
    screen draws them).
    """

    title: str
    lines: tuple[str, str]
    """What to do, in two lines of at most 78 characters."""
    wants: str
    """The goal in a few words, for a drop that does something else."""
    done: str
    """Said once the goal is met."""
    deal: str
    """The deal code of the position."""
    moves: tuple[str, ...]
    """The placements made for the player, in notation."""
    spot: str
    """A placement (notation) that meets the goal: marked on the woodland."""
    goal: Goal

    def game(self) -> Game:
        """The lesson's position: its deal with its placements made."""
        game = Game(Deal.from_code(self.deal), standard_deck())
        replayed = game.replay([Placement.from_notation(m) for m in self.moves])
        if replayed.refusal is not None:
            raise ValueError(f"lesson {self.title!r}: move {replayed.applied + 1} is illegal")
        return game

    @property
    def placement(self) -> Placement:
        """The marked placement."""
        return Placement.from_notation(self.spot)


def _any(outcome: Outcome, *effects: Effect) -> bool:
    """Whether some area of the drop has one of these effects."""
    return any(e.effect in effects for e in outcome.effects)


def _clean(outcome: Outcome) -> bool:
    """Whether the drop makes no mouse and calls no Edwood."""
    return not _any(outcome, Effect.MOUSE, Effect.EDWOOD)


def on_spot(game: Game, outcome: Outcome, spot: Placement) -> bool:
    """Whether the drop is the marked placement's card, rotation and top-left."""
    here = outcome.placement
    return (here.card, here.rotation, here.x, here.y) == (
        spot.card,
        spot.rotation,
        spot.x,
        spot.y,
    )


def gathers(game: Game, outcome: Outcome) -> bool:
    """A new die showing 1 comes from the supply (R8a), and no mouse."""
    return _any(outcome, Effect.PLACED) and _clean(outcome)


def raises(game: Game, outcome: Outcome) -> bool:
    """A die moves up and goes up a step (R8a), and no mouse."""
    return _any(outcome, Effect.RAISED) and _clean(outcome)


def splits(game: Game, outcome: Outcome) -> bool:
    """A split area moves a die up unchanged (R8b), and no mouse."""
    return _any(outcome, Effect.MOVED) and _clean(outcome)


def die_rules(game: Game, outcome: Outcome) -> bool:
    """A die standing on a split area is raised by a food area of its colour (R7)."""
    return _clean(outcome) and any(
        e.effect is Effect.RAISED and e.below is not None and len(e.below.area.colours) == 2
        for e in outcome.effects
    )


def makes_mouse(game: Game, outcome: Outcome) -> bool:
    """A mismatch sends the die below back to the supply and brings a mouse (R8c)."""
    return not _any(outcome, Effect.EDWOOD) and any(
        e.effect is Effect.MOUSE and e.returned is not None for e in outcome.effects
    )


def edwood_chases(game: Game, outcome: Outcome) -> bool:
    """Edwood covers a mouse die and sends it back to the supply (R8d, R10)."""
    return any(
        e.effect is Effect.EDWOOD and e.returned is not None and e.returned.mouse
        for e in outcome.effects
    )


def runs_out(game: Game, outcome: Outcome) -> bool:
    """A gathering area gets no die: its colour has run out (R8a), and no mouse."""
    return _any(outcome, Effect.NO_DIE_LEFT) and _clean(outcome)


def best_gain(game: Game) -> int:
    """The most any placement of the hand adds to the base score now (R15)."""
    return max((o.score_change for o in game.outcomes()), default=0)


def scores_best(game: Game, outcome: Outcome) -> bool:
    """The drop adds as much to the base score as any placement of the hand can (R15)."""
    return outcome.score_change >= best_gain(game)


def reaches_target(game: Game, outcome: Outcome) -> bool:
    """The drop ends the challenge with the final score at its target or above (R17)."""
    return game.result_after(outcome).won is True


CHECKS: Final[dict[Goal, GoalCheck]] = {
    Goal.GATHER: gathers,
    Goal.RAISE: raises,
    Goal.SPLIT: splits,
    Goal.DIE_RULES: die_rules,
    Goal.MOUSE: makes_mouse,
    Goal.EDWOOD: edwood_chases,
    Goal.RUN_OUT: runs_out,
    Goal.SCORE: scores_best,
    Goal.TARGET: reaches_target,
}
"""Each goal's check (the marked spot's is :func:`on_spot`)."""


def goal_met(lesson: Lesson, game: Game, outcome: Outcome) -> bool:
    """Whether a drop meets the lesson's goal (a refused drop never does)."""
    if not outcome.legal:
        return False
    if lesson.goal is Goal.SPOT:
        return on_spot(game, outcome, lesson.placement)
    return CHECKS[lesson.goal](game, outcome)


# Translators: each lesson's two lines are at most 78 columns each, once {to} (an arrow),
# {slash}, {target} and {gain} (numbers) are filled in; a title follows "step 3 of 10: ".
LESSONS: Final[tuple[Lesson, ...]] = (
    Lesson(
        title=_("move and turn the card"),
        lines=(
            _("Your card is drawn bright over the woodland: arrows move it, r turns it."),
            _("Turn it once (r) and move it onto the marked spot, then press enter."),
        ),
        wants=_("the card turned once (r) and moved onto the marked spot"),
        done=_("The card is down: it covers the woodland where you put it."),
        deal="7.17.5.1.10.12.8.15.3",
        moves=(),
        spot="17r90@0,2",
        goal=Goal.SPOT,
    ),
    Lesson(
        title=_("place to gather"),
        lines=(
            _("A food area on an empty area of its own type gathers: a die of its colour"),
            _("comes from the supply showing 1 (+C1). Drop the card where it gathers."),
        ),
        wants=_("a drop that gathers a new die (+B1, +C1 or +M1) and makes no mouse"),
        done=_("You gathered: a new die showing 1 came from the supply."),
        deal="8.15.6.9.7.14.16.10.2",
        moves=(),
        spot="15@1,-1",
        goal=Goal.GATHER,
    ),
    Lesson(
        title=_("match to raise"),
        lines=(
            _("A food area on a die of its colour takes the die up a step:"),
            _("1{to}3{to}6{to}10{to}15, the basket. Raise the die at the marked spot."),
        ),
        wants=_("a drop that raises a die (M1{to}3) and makes no mouse"),
        done=_("You raised a die: it moved up onto the new area, one step higher."),
        deal="12.7.2.6.3.13.5.11.18",
        moves=("7@0,1",),
        spot="2@-1,0",
        goal=Goal.RAISE,
    ),
    Lesson(
        title=_("a split area"),
        lines=(
            _("A split area (b{slash}m) has two types and no food: on a matching die it moves"),
            _("the die up unchanged (=B1), and a die on it costs 1. Move a die up with one."),
        ),
        wants=_("a split area moving a die up unchanged (=B1), and no mouse"),
        done=_("The split area moved the die up as it was: split areas never raise."),
        deal="18.12.1.14.15.13.2.6.9",
        moves=("12@0,-1",),
        spot="1r180@1,-1",
        goal=Goal.SPLIT,
    ),
    Lesson(
        title=_("a die's colour rules the area below"),
        lines=(
            _("An area holding a die counts as the die's colour only: a split area under a"),
            _("die is no longer both types. Raise the die standing on a split area."),
        ),
        wants=_("a food area of the die's colour on the die that stands on a split area"),
        done=_("The die's colour decided the match, not the split area under it."),
        deal="10.2.17.16.13.1.3.7.9",
        moves=("17r270@0,1", "2r180@0,0"),
        spot="16r270@1,0",
        goal=Goal.DIE_RULES,
    ),
    Lesson(
        title=_("covering the wrong type"),
        lines=(
            _("An area on another type brings a mouse of its colour (-2), and the die it"),
            _("covers goes back to the supply (M1{to}B-2). Cover a die with the wrong type."),
        ),
        wants=_("a drop where a die goes back to the supply and a mouse moves in"),
        done=_("A mouse moved in and the die went back to the supply."),
        deal="15.1.7.10.9.2.11.4.18",
        moves=("1r90@1,-1",),
        spot="7@0,-2",
        goal=Goal.MOUSE,
    ),
    Lesson(
        title=_("Edwood chases a mouse"),
        lines=(
            _("Only Edwood Mouse covers a mouse, once a game, under an area of its colour:"),
            _("the mouse goes back and Edwood stays for good (-5). Cover the mouse (M-2{to}E)."),
        ),
        wants=_("an area of the mouse's colour on the mouse: Edwood chases it"),
        done=_("Edwood chased the mouse away. He is used now: no more this game."),
        deal="11.1.9.4.10.14.5.15.8",
        moves=("9r180@0,0",),
        spot="1@-1,-1",
        goal=Goal.EDWOOD,
    ),
    Lesson(
        title=_("a colour running out"),
        lines=(
            _("Each colour has five dice; the supply panel shows what is left. A gathering"),
            _("area whose colour has run out gets no die (no B). Drop where that happens."),
        ),
        wants=_("a drop where a gathering area gets no die (no B, no C or no M)"),
        done=_("No die was left of that colour, so the area stayed empty."),
        deal="12.2.6.11.16.14.10.9.18",
        moves=("6r180@-1,0", "2@-1,0", "11@-1,-1", "14r180@0,0"),
        spot="16r90@-2,-2",
        goal=Goal.RUN_OUT,
    ),
    Lesson(
        title=_("the score"),
        lines=(
            _("Score: the dice faces added, a mouse -2, 1 off per die on a split area, 5 off"),
            _("for Edwood. Find the drop that adds {gain}, the most your hand can add now."),
        ),
        wants=_("a drop that adds {gain} to the score (watch the line below the woodland)"),
        done=_("That was the best drop of your hand."),
        deal="6.14.9.18.7.1.3.17.13",
        moves=("14@0,-1",),
        spot="9r270@0,0",
        goal=Goal.SCORE,
    ),
    Lesson(
        title=_("a recipe challenge"),
        lines=(
            _("Two recipes add bonuses (the panel shows them and ticks those met); the"),
            _("target is their numbers added, {target}. Reach it with your last card."),
        ),
        wants=_("the drop that brings the final score to the target, {target}"),
        done=_("You reached the target and won the challenge."),
        deal="3.15:13.2.7.4.16.14.10.11.12",
        moves=(
            "2r270@-2,0",
            "4r270@0,1",
            "16r180@0,1",
            "7r90@0,1",
            "10@0,1",
            "11r90@-1,0",
            "14r270@0,-1",
        ),
        spot="12r180@1,-3",
        goal=Goal.TARGET,
    ),
)
"""The lessons in order."""

FINISHED: Final = (
    # Translators: the last screen of forage learn, two lines of at most 78 columns each.
    _("You have played every rule. For a real game: forage (or forage play --recipes"),
    _("for a recipe challenge); ? shows the rules in short. Escape leaves."),
)
"""What the last screen says once every lesson is done."""


def lesson_text(lesson: Lesson, game: Game, to: str, slash: str) -> tuple[str, str, str]:
    """A lesson's two lines and its goal in words, with the arrow, the split glyph, the
    target and the gain filled in."""
    target = sum(r.target for r in game.recipes) if game.recipes else 0
    gain = best_gain(game) if lesson.goal is Goal.SCORE else 0
    values = {"to": to, "slash": slash, "target": target, "gain": gain}
    first, second = (line.format(**values) for line in lesson.lines)
    return first, second, lesson.wants.format(**values)
