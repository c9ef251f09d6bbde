"""The day's puzzle (``forage puzzle``, ``P``): the game screen's puzzle mode, at a
puzzle's position.

The player places with the game's own keys. The first placement is judged at once: the
answer is the only one that can still reach the best score; any other is answered with the
most it can still reach. ``a`` shows the answer's line on the woodland, one placement at a
time; ``n`` sets the position up again (only the first try counts, as the lines then say,
and as they say from the start when the history holds a try at the puzzle); escape leaves.
Once the game is over a line says why the best line is best (what each of its placements
gathers). The first try is kept in the history (awaited from the app's services), which
answers with the player's figures (:meth:`told`): the player's rating goes in the title,
beside the puzzle's difficulty.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple

from textual.binding import Binding, BindingType
from textual.widgets import Static

from forage.app.describe import CROSS, DEGREE, DOT, TICK, card_name, line_words, points
from forage.app.modes.guided import GuidedMode
from forage.app.screens.game import GameScreen
from forage.app.services import services_of
from forage.app.session import Session
from forage.app.view import card_cells, title_text
from forage.app.widgets import StatusBar, StatusState
from forage.engine import Game, Placement
from forage.history.achievements import achievement_description, achievement_name
from forage.i18n import _
from forage.puzzle import Puzzle

if TYPE_CHECKING:
    from forage.history.store import PuzzleRecorded

PRACTICE: Final = _("only the first try counts")
"""What the lines add, in brackets, once the first try is made (each line whole at 80
columns)."""
AGAIN: Final = _("n tries again ({practice}); escape leaves.").format(practice=PRACTICE)
"""The keys once the game is over."""
TRIED_BEFORE: Final = _("Tried before: {practice}, so this one is practice.").format(
    practice=PRACTICE
)
"""What the status bar says when the puzzle opens on a puzzle the history holds a try at."""


class Verdict(NamedTuple):
    """What the first placement was worth: whether it is the answer, and the best final
    score the game can still reach after it."""

    right: bool
    reach: int


def best_reach(game: Game) -> int:
    """The best final score a game can still reach, knowing the draw order (exact here:
    a puzzle's game has at most two placements left)."""
    from forage.ai.par import par

    return par(game).score


def spot_words(game: Game, placement: Placement) -> str:
    """A placement in words, its spot being marked: ``the Chestnut Tart card, turned 90°``."""
    name = card_name(game.card(placement.card))
    if not int(placement.rotation):
        return name
    return _("{card}, turned {angle}{degree}").format(
        card=name, angle=int(placement.rotation), degree=DEGREE
    )


def puzzle_screen(puzzle: Puzzle, day: date, *, over_game: bool = False) -> GameScreen:
    """The game screen of the puzzle of ``day``; ``over_game``: opened over a game, escape
    goes back to it."""
    return GameScreen(Session(puzzle.game()), PuzzleMode(puzzle, day, over_game=over_game))


class PuzzleMode(GuidedMode):
    """The game screen with the puzzle's two lines under the title."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: the key bar's labels, with the game's (Card, Move ... Help) on 80.
        Binding("escape,q", "mode('leave')", _("Leave"), key_display="esc"),
        Binding("a", "mode('answer')", _("Answer")),
        Binding("n", "mode('again')", _("Again")),
        Binding("c", "mouse_colour", _("Mouse colour"), show=False),  # room for a and n at 80
    ]

    LOCKED: ClassVar[frozenset[str]] = GuidedMode.LOCKED | {"hint"}
    """The game's keys a puzzle does without (a hint would give the answer away)."""

    def __init__(self, puzzle: Puzzle, day: date, *, over_game: bool = False) -> None:
        """The puzzle of ``day``; ``over_game``: opened over a game, escape goes back to it."""
        self.puzzle = puzzle
        self.day = day
        self.line = puzzle.line()
        self.verdict: Verdict | None = None
        """The first placement's worth, once it is made."""
        self.showing = False
        """The answer's line is being shown: its next placement marked."""
        self.tried = False
        """The first try has been made (later tries do not count)."""
        self.practice = False
        """The position was set up again after the first try: this try does not count."""
        self.rating: int | None = None
        """The player's puzzle rating after the first try, once the history says it."""
        super().__init__(over_game=over_game)

    # -- where things stand -----------------------------------------------------------------

    def placed(self) -> int:
        """How many of the puzzle's placements have been made."""
        return len(self.screen.session.game.moves) - len(self.puzzle.record.moves)

    def marked(self) -> frozenset[tuple[int, int]]:
        """While the answer is shown, the squares of its next placement."""
        step = self.placed()
        game = self.screen.session.game
        if not self.showing or step >= len(self.line) or game.is_over():
            return frozenset()
        cells = card_cells(game, self.line[step])
        return frozenset((x, y) for x, y, _ in cells)

    def lines(self) -> tuple[str, str]:
        """What the puzzle says under the title."""
        puzzle, game = self.puzzle, self.screen.session.game
        best = puzzle.best
        # Translators: said after a line, in brackets.
        practice = _(" ({practice})").format(practice=PRACTICE)
        practice = practice if self.practice and not self.showing else ""
        # Each line whole at 80 columns: the practice note goes where there is room.
        if game.is_over():
            final = game.result().score.final
            mark = TICK if final == best else CROSS
            return (
                _(
                    "{mark} Final score {final}; the best line scores {best}, against "
                    "{second} at best otherwise."
                ).format(mark=mark, final=final, best=best, second=puzzle.second),
                _("The best line {line}.").format(line=line_words(puzzle.line_outcomes())),
            )
        if self.showing:
            step = self.placed()
            return (
                _("The answer, marked: {spot}.").format(spot=spot_words(game, self.line[step])),
                _("Enter places it."),
            )
        verdict = self.verdict
        if verdict is None:
            if practice:
                left = _("{left} placements left ({practice}): the best line scores {best}.")
            else:
                left = _("{left} placements left, both cards in hand: the best line scores {best}.")
            return (
                left.format(left=puzzle.left, practice=PRACTICE, best=best),
                _("Only one first placement can reach it. Find it and press enter."),
            )
        if verdict.right:
            return (
                _("{tick} Solved: the only placement that can reach {best}.").format(
                    tick=TICK, best=best
                ),
                # Translators: {practice} is " (only the first try counts)" or nothing.
                _("Now place the last card for the best score{practice}.").format(
                    practice=practice
                ),
            )
        return (
            _(
                "{cross} Not the answer: from here {reach} at best, {points} short of {best}."
            ).format(
                cross=CROSS, reach=verdict.reach, points=points(best - verdict.reach), best=best
            ),
            # Translators: {practice} is " (only the first try counts)" or nothing.
            _("a shows the answer; n tries again{practice}.").format(practice=practice),
        )

    def view_updated(self) -> None:
        """The title naming the puzzle, and the puzzle's lines (the game's widgets drawn)."""
        screen = self.screen
        puzzle = self.puzzle
        title = _("puzzle {day} {dot} #{number} {dot} difficulty {rating}").format(
            day=self.day.isoformat(), dot=DOT, number=puzzle.id, rating=puzzle.rating
        )
        if self.rating is not None:
            title += _(" {dot} your rating {rating}").format(dot=DOT, rating=self.rating)
        screen.query_one("#title", Static).update(title_text(title))
        lines = self.lines()
        screen.query_one("#lesson", Static).update("\n".join(lines))
        game = screen.session.game
        if game.is_over():  # the game's end words (summary, undo) do not apply
            mark = "gain" if game.result().score.final == puzzle.best else "loss"
            screen.query_one(StatusBar).state = StatusState(lines[0], AGAIN, mark, screen.last_note)

    def mounted(self) -> None:
        """The puzzle is drawn: ask the history whether the player has tried it before."""
        self.screen.run_worker(self._ask_tried(), group="tried")

    async def _ask_tried(self) -> None:
        """A puzzle the history holds a try at: this try is practice, as the lines and the
        status bar say."""
        puzzle = self.puzzle.id
        before = await services_of(self.screen.app).puzzle_tried(puzzle)
        if before and not self.tried:
            self.tried = self.practice = True
            self.screen.say(TRIED_BEFORE)

    async def _keep_try(self, solved: bool) -> None:
        """Keep the first try in the history; then what it did to the player's figures."""
        puzzle, services = self.puzzle, services_of(self.screen.app)
        found = await services.record_puzzle(puzzle.id, puzzle.rating, self.day, solved)
        if found is not None:
            self.told(found)

    def told(self, recorded: PuzzleRecorded) -> None:
        """The history kept the first try: the player's rating goes in the title, their
        other figures and any achievement on the status bar's last line."""
        figures = recorded.figures
        self.rating = figures.rating
        text = _("Puzzles: {solved} solved of {tried}; streak {streak}.").format(
            solved=figures.solved, tried=figures.tried, streak=figures.streak_current
        )
        for achievement in recorded.achievements:
            text += _(" Achievement: {name} ({description}).").format(
                name=achievement_name(achievement),
                description=achievement_description(achievement),
            )
        self.screen.say(text)

    def allows(self, action: str) -> bool:
        """The game's keys, less those a puzzle does without; the answer until it is shown;
        enter until the game is over."""
        over = self.screen.session.game.is_over()
        if action == "answer" and (self.showing or over):
            return False
        return not (action == "place" and over)  # no summary: the lines say how it went

    # -- actions ------------------------------------------------------------------------------

    def place(self) -> None:
        """Place the card; the first placement is judged at once."""
        screen = self.screen
        before = self.placed()
        screen.place_card()
        if before == 0 and self.placed() == 1 and not self.showing:
            reach = best_reach(screen.session.game)
            self.verdict = Verdict(right=reach == self.puzzle.best, reach=reach)
            if not self.tried:
                self.tried = True
                screen.run_worker(self._keep_try(self.verdict.right), group="history")
        self._follow_answer()
        screen.refresh_bindings()
        screen.changed()

    def _follow_answer(self) -> None:
        """While the answer is shown, put the card on its next placement."""
        step = self.placed()
        session = self.screen.session
        if self.showing and step < len(self.line) and not session.game.is_over():
            session.go_to(self.line[step])

    def action_answer(self) -> None:
        """Set the position up again with the answer's first placement marked."""
        self._restart(showing=True)

    def action_again(self) -> None:
        """Set the position up again to try once more (only the first try counts)."""
        self._restart(showing=False)

    def _restart(self, showing: bool) -> None:
        """The puzzle's position again; the answer shown or not."""
        self.showing = showing
        self.practice = self.practice or self.tried
        self.verdict = None
        self.screen.load(Session(self.puzzle.game()))
        self._follow_answer()
        self.screen.refresh_bindings()
        self.screen.changed()
