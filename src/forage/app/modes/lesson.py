"""The guided first game (``forage learn``): the game screen's lesson mode, one lesson at
a time.

Each lesson (:mod:`forage.learn`) sets up a position, says in two lines what to do and
marks a spot that does it. The keys are the game's own; enter asks the lesson whether
the drop shown meets its goal: if it does, the card is placed and the woodland after it
shown until enter sets up the next lesson; if not, nothing is placed and the two lines
say what the drop would do and what the lesson wants. The lesson reached is kept in the
data folder, so ``forage learn`` resumes there; escape leaves.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Static

from forage.app.describe import DOT, SLASH, TICK, TO, effect_phrase
from forage.app.modes.guided import GuidedMode
from forage.app.screens.game import GameScreen
from forage.app.session import Session
from forage.app.tutorial import Progress, load_progress, save_progress
from forage.app.view import card_cells, title_text
from forage.app.widgets import StatusBar, StatusState
from forage.engine import Effect, Outcome, Placement
from forage.i18n import _
from forage.learn import FINISHED, LESSONS, Lesson, goal_met, lesson_text


def lesson_session(lesson: Lesson) -> Session:
    """A session at the lesson's position, the card to place centred on the woodland."""
    return Session(lesson.game())


def drop_words(outcome: Outcome) -> str:
    """What a legal drop would do, in a few words: ``new C1, M 1→3 (score +4)``."""
    phrases = [p for p in (effect_phrase(e) for e in outcome.effects) if p]
    if not phrases:
        empty = sum(1 for e in outcome.effects if e.effect is Effect.NEW)
        phrases = [
            _("{count} areas on empty table").format(count=empty) if empty else _("no dice change")
        ]
    # Translators: {phrases} is a list joined by ", " (the next string).
    return _("{phrases} (score {change})").format(
        phrases=_(", ").join(phrases), change=f"{outcome.score_change:+d}"
    )


def lesson_screen(step: int | None = None, *, over_game: bool = False) -> GameScreen:
    """The game screen of the tutorial at a lesson (by default the one it was left at);
    ``over_game``: it was opened over a game, and escape goes back to that game."""
    mode = LessonMode(step, over_game=over_game)
    return GameScreen(lesson_session(mode.lesson), mode)


class LessonMode(GuidedMode):
    """The game screen with a lesson's two lines under the title and its spot marked."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: the key bar's labels, with the game's (Card, Move ... Help) on 80.
        Binding("escape,q", "mode('leave')", _("Leave"), key_display="esc"),
        Binding("t", "hint", _("Hint"), show=False),  # the lesson's mark shows where: room for esc
    ]

    def __init__(self, step: int | None = None, *, over_game: bool = False) -> None:
        """The tutorial at a lesson (by default the one it was left at); ``over_game``:
        it was opened over a game, and escape goes back to that game."""
        progress = load_progress()
        self.progress = progress
        start = progress.step if step is None else step
        self.step = start if 0 <= start < len(LESSONS) else 0
        self.finished = False
        self.done: Lesson | None = None
        """The lesson whose goal was just met, shown until enter goes on (None while a
        lesson is being played)."""
        self._why: tuple[Placement, tuple[str, str]] | None = None
        """A refused wrong drop's explanation, shown while the card stays where it was."""
        super().__init__(over_game=over_game)

    @property
    def lesson(self) -> Lesson:
        """The lesson being played."""
        return LESSONS[self.step]

    def mounting(self) -> None:
        """Note where the tutorial stands (the lesson is then drawn)."""
        self.keep()

    def marked(self) -> frozenset[tuple[int, int]]:
        """The squares the lesson's spot covers (none once its goal is met)."""
        if self.finished or self.done is not None:
            return frozenset()
        cells = card_cells(self.screen.session.game, self.lesson.placement)
        return frozenset((x, y) for x, y, _ in cells)

    def view_updated(self) -> None:
        """The title naming the lesson, and the lesson's lines (the game's widgets drawn)."""
        screen = self.screen
        done = self.done
        status = None
        if self.finished:
            title, lines = _("learn: done"), FINISHED
            status = StatusState(
                _("{tick} Every step done: you know the rules.").format(tick=TICK),
                _("escape leaves; ? shows the rules in short."),
                "gain",
                screen.last_note,
            )
        elif done is not None:
            number = LESSONS.index(done) + 1
            title = _("learn {dot} step {number} of {count}: {title} {tick}").format(
                dot=DOT, number=number, count=len(LESSONS), title=done.title, tick=TICK
            )
            # Translators: {after} is the next string or "the end of the tutorial".
            after = (
                _("step {number}: {title}").format(number=self.step + 1, title=self.lesson.title)
                if self.step > LESSONS.index(done)
                else _("the end of the tutorial")
            )
            lines = (f"{TICK} {done.done}", _("Press enter for {after}.").format(after=after))
            status = StatusState(
                _("{tick} Step {number} done: the woodland after your drop.").format(
                    tick=TICK, number=number
                ),
                _("enter goes on to {after}; escape leaves.").format(after=after),
                "gain",
                screen.last_note,
            )
        else:
            lesson = self.lesson
            first, second, _wants = lesson_text(lesson, screen.session.game, TO, SLASH)
            title = _("learn {dot} step {number} of {count}: {title}").format(
                dot=DOT, number=self.step + 1, count=len(LESSONS), title=lesson.title
            )
            lines = (first, second)
            why = self._why
            if why is not None and why[0] == screen.session.cursor:
                lines = why[1]
            elif why is not None:
                self._why = None
        screen.query_one("#title", Static).update(title_text(title))
        screen.query_one("#lesson", Static).update("\n".join(lines))
        if status is not None:
            screen.query_one(StatusBar).state = status

    def allows(self, action: str) -> bool:
        """The game's keys, less those a lesson does without; between lessons only enter
        (to go on), and once every lesson is done none to place."""
        resting = self.finished or self.done is not None
        if resting and action in GameScreen.PLACING_ACTIONS:
            return False
        return not (self.finished and action == "place")

    def key_name(self, action: str) -> str | None:
        """What the key bar calls a key's action: enter goes on between lessons."""
        if action == "place" and self.done is not None:
            return _("Next")
        return None

    def place(self) -> None:
        """Place the card if the drop meets the lesson's goal, else say why not; after a
        lesson's drop, go on to the next lesson."""
        screen = self.screen
        session = screen.session
        if self.done is not None:
            self._go_on()
            return
        if self.finished or session.game.is_over():
            return
        outcome = None if session.waiting else session.preview()
        if outcome is None or not outcome.legal:  # the game's own words: move it, or why not
            screen.place_card()
            return
        lesson = self.lesson
        if not goal_met(lesson, session.game, outcome):
            *_lines, wants = lesson_text(lesson, session.game, TO, SLASH)
            because = _("Not placed: this drop would give {drop}.").format(drop=drop_words(outcome))
            wanted = _("This step wants {wants}.").format(wants=wants)
            self._why = (outcome.placement, (because, wanted))
            screen.say(_("Move or turn the card: the marked spot does what this step wants."))
            return
        screen.place_card()
        self._met(lesson)

    def _met(self, lesson: Lesson) -> None:
        """The lesson's goal is met: show the woodland after the drop until enter (the
        tutorial is kept at the next lesson meanwhile)."""
        self.done = lesson
        self.screen.session.cursor = None  # no card to place until the next lesson
        if self.step + 1 < len(LESSONS):
            self.step += 1
        self.keep()
        self.screen.refresh_bindings()
        self.screen.changed()

    def _go_on(self) -> None:
        """From a lesson just done to the next one, or to the end of the tutorial."""
        done, self.done = self.done, None
        if done is LESSONS[-1]:
            self.finished = True
            self.keep()
            self.screen.keep_note(f"{TICK} {done.done}")
            self.screen.refresh_bindings()
            self.screen.changed()
            return
        self.screen.load(lesson_session(self.lesson))
        self.screen.refresh_bindings()

    def keep(self) -> None:
        """Keep the lesson reached (or that every lesson is done) in the data folder."""
        ended = self.finished or self.done is LESSONS[-1]
        progress = Progress(
            step=0 if ended else self.step,
            finished=ended or self.progress.finished,
            offered=True,
        )
        if progress != self.progress:
            save_progress(progress)
            self.progress = progress

    def action_leave(self) -> None:
        """Leave the tutorial (it resumes at this lesson)."""
        self.keep()
        super().action_leave()
