"""The review screen: step through a finished game, each move against the best one.

The analysis (:mod:`forage.ai.review`) runs in a worker thread, its moves in worker
processes, while the screen shows its progress; until it is done the moves can already be
stepped through. The screen decides no rule: each position and placement is the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from string import Formatter
from typing import Any, ClassVar, Final, NamedTuple

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import ProgressBar, Static

from forage.ai.review import (
    LABELS,
    THRESHOLDS,
    WORKERS,
    MoveReview,
    Review,
    ReviewSettings,
    start_of,
)
from forage.ai.workers import POOL_ERRORS, pool_problem
from forage.app.describe import (
    ARROW,
    ASCII,
    DEGREE,
    DOT,
    ELLIPSIS,
    LEFT_KEY,
    MARK_IN,
    PAR_IS,
    RIGHT_KEY,
    TICK,
    card_name,
    label_name,
    par_said,
)
from forage.app.history_report import blocks
from forage.app.screens.base import ForageScreen, too_small_notice
from forage.app.services import services_of
from forage.app.themes import DEFAULT_MARKS, marks_of
from forage.app.view import card_cells, woodland_state
from forage.app.widgets import KeyBar, WoodlandView
from forage.engine import Deck, Game, Placement
from forage.i18n import _, ngettext

LABEL_STYLE: Final = {
    "best": "gain",
    "good": "good",
    "inaccuracy": "score",
    "mistake": "loss",
    "blunder": "refused",
}
"""The palette's mark (``forage.app.themes.MARKS``) each label is drawn in."""
REVERSE: Final = Style(reverse=True)
NO_STYLE: Final = Style()


MARKS: dict[str, str] = {
    "best": "!",
    "good": TICK,
    "inaccuracy": "?!",
    "mistake": "?",
    "blunder": "??",
}
"""The mark of each label in the list of moves (as in chess: ! a strong move, ?! ? ?? the
costly ones)."""
COSTLY: Final = LABELS[LABELS.index("inaccuracy") :]
"""The labels the `m` key jumps between: an inaccuracy and every label worse."""


LEGEND_KEYS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The labels the legend under the list of moves explains, best first."""


def filled(template: str, **fields: str | Text) -> Text:
    """A (translated) template with its named fields filled in, each field a text kept in
    its own style."""
    text = Text()
    for literal, name, spec, _conversion in Formatter().parse(template):
        text.append(literal)
        if name is not None:
            value = fields[name]
            text.append(value if isinstance(value, Text) else format(value, spec or ""))
    return text


def _mark_lines() -> str:
    """Each mark of the help with the loss it stands for (from the review's thresholds)."""
    bounds = (0.0, *THRESHOLDS, None)
    lines = []
    for label, low, high in zip(LABELS, bounds[:-1], bounds[1:], strict=True):
        word, least = label_name(label), f"{low:g}"
        if high is None:
            span = _("{label}: {low} points or more behind the best").format(label=word, low=least)
        elif not low:
            span = _("{label}: less than {high} points behind the best").format(
                label=word, high=f"{high:g}"
            )
        else:
            span = _("{label}: {low} to {high} points behind the best").format(
                label=word, low=least, high=f"{high:g}"
            )
        lines.append(f"  {MARKS[label]:<3} {span}")
    return "\n".join(lines)


HELP: Final = "\n".join(
    (
        _("[b]The review[/b]   (escape or ? closes this)"),
        _(
            "  Each move of your game is weighed against the best few placements\n"
            "  you could have made, by the final score each is expected to reach:\n"
            "  every candidate is played on to the end over many draw orders of the\n"
            "  cards you had not yet seen, as a good player would play them.\n"
            '  With nothing left to draw, every placement is searched: "proven".'
        ),
        _("[b]Marks[/b]   (points of expected final score)"),
        _mark_lines(),
        _("  The better move is marked on the woodland ({left} {right} around its areas).").format(
            left=MARK_IN[0], right=MARK_IN[1]
        ),
        _("[b]The chart[/b]   (under the verdict, once the analysis is in)"),
        _(
            "  One bar a move played, numbered below it: the final score expected\n"
            "  after that move, from the lowest (the number at the bottom left) to\n"
            "  the highest (top left). The move shown has its number in reverse."
        ),
        _("[b]Keys[/b]"),
        _("  left, right, home, end   step through the moves"),
        _("  m    the next inaccuracy, mistake or blunder"),
        _("  b    draw the better move instead of the one played (again: back)"),
        _("  p    par's line: {par}").format(par=_(PAR_IS)),
        _("  q    close the review"),
        "",
    )
)
"""The review screen's ``?`` help."""


def score_words(value: float) -> str:
    """An expected score or a loss as the review writes it: one decimal at most."""
    return f"{round(value, 1):g}"


def placement_words(placement: Placement, deck: Deck | None = None) -> str:
    """A placement as a player knows it: ``the Chestnut Tart card, turned 90°`` (with the
    deck, its card named by its recipe back; else ``card 12``)."""
    if deck is not None:
        name = card_name(deck[placement.card])
    else:
        name = _("card {number}").format(number=placement.card)
    if not placement.rotation:
        return name
    return _("{card}, turned {angle}{degree}").format(
        card=name, angle=int(placement.rotation), degree=DEGREE
    )


class Gains(NamedTuple):
    """What the move played and the best move each change the score by at once."""

    played: int
    best: int


def gains_of(before: Game, entry: MoveReview) -> Gains:
    """The engine's immediate change of the score that decides the game, for the move
    played and the best move: the base score, or in a recipe challenge the final score
    with the recipes as they stand after the move."""
    if not before.recipes:
        return Gains(
            before.outcome(entry.placement).score_change, before.outcome(entry.best).score_change
        )
    now = before.result().score.final

    def gain(placement: Placement) -> int:
        return before.result_after(before.outcome(placement)).score.final - now

    return Gains(gain(entry.placement), gain(entry.best))


def _signed(value: int) -> str:
    return f"{value:+d}"


def verdict_text(
    entry: MoveReview,
    gains: Gains | None = None,
    marks: Mapping[str, Style] = DEFAULT_MARKS,
    deck: Deck | None = None,
) -> Text:
    """What a move's review says: its label, the points lost, the better move (marked on
    the woodland) and, with ``gains``, what each of the two scores at once."""
    label = Text(label_name(entry.label).capitalize(), marks[LABEL_STYLE[entry.label]])
    played = score_words(entry.expected_played)
    if entry.loss > 0:
        if entry.label == "best" and not entry.proven:
            heading = _("{label}: -{loss} (within the sampling's noise); ")
        else:
            heading = _("{label}: -{loss}; ")
        text = filled(heading, label=label, loss=score_words(entry.loss))
        move, best = placement_words(entry.best, deck), score_words(entry.expected_best)
        fields = {"move": move, "expected_best": best, "expected_played": played}
        if gains is None:
            template = _(
                "the marked move ({move}) would have been expected to score {expected_best} "
                "rather than {expected_played}."
            )
        else:
            fields |= {"gain_best": _signed(gains.best), "gain_played": _signed(gains.played)}
            if gains.best > gains.played:
                template = _(
                    "the marked move ({move}) would have been expected to score "
                    "{expected_best} rather than {expected_played}: it scores {gain_best} at "
                    "once, the move played {gain_played}."
                )
            else:
                template = _(
                    "the marked move ({move}) would have been expected to score "
                    "{expected_best} rather than {expected_played}: it scores {gain_best} at "
                    "once against {gain_played}, but leaves a woodland better for the cards "
                    "to come."
                )
        said = template.format(**fields)
        text.append(said)
    else:
        text = filled(_("{label}: expected final score {score}."), label=label, score=played)
    if entry.proven:
        how = _("(proven: every placement of the cards left searched)")
    elif entry.exact:
        how = _("(averaged over every possible draw order)")
    else:
        how = ngettext(
            "(averaged over {count} sampled draw order)",
            "(averaged over {count} sampled draw orders)",
            entry.orders,
        ).format(count=entry.orders)
    text.append("\n" + how, "dim")
    return text


def moves_text(
    count: int,
    current: int,
    entries: Mapping[int, MoveReview] | None = None,
    marks: Mapping[str, Style] = DEFAULT_MARKS,
) -> Text:
    """The list of moves, ``1! 2✓ 3?? ...``, with each label's mark once that move's
    analysis is in (``entries`` by move index), and the move shown in reverse."""
    text = Text()
    for index in range(count):
        if index:
            text.append("  ")
        style = REVERSE if index == current else NO_STYLE
        text.append(str(index + 1), style)
        entry = entries.get(index) if entries is not None else None
        if entry is not None:
            text.append(MARKS[entry.label], marks[LABEL_STYLE[entry.label]] + style)
    return text


def legend_text(marks: Mapping[str, Style] = DEFAULT_MARKS) -> Text:
    """What the marks of the list of moves mean, each in its colour; only marks: ``?``
    is the mark of a mistake here, and the key bar names the ``?`` key's help."""
    text = Text()
    for label in LEGEND_KEYS:
        text.append(MARKS[label], marks[LABEL_STYLE[label]])
        text.append(f" {label_name(label)}  ")
    text.right_crop(2)
    return text


def chart_caption(found: Review) -> Text:
    """What the chart below shows: the expected final score after the first and the last
    move, its lowest and highest, and par."""
    values = [m.expected_played for m in found.moves]
    text = Text()
    text.append(_("Expected final score by move"), "bold")
    if values:
        first, last, low = (score_words(v) for v in (values[0], values[-1], min(values)))
        # Translators: after "Expected final score by move"; {arrow} is drawn (→).
        text.append(
            _(": {first} {arrow} {last} (lowest {low})").format(
                first=first, arrow=ARROW, last=last, low=low
            )
        )
    text.append(" " + _("{dot} par {score}").format(dot=DOT, score=found.par.score), "dim")
    return text


CHART_LEVELS: Final = 16
"""The heights a bar of the chart can take: two lines of eighths."""


def chart_text(
    values: Sequence[float],
    current: int = -1,
    marks: Mapping[str, Style] = DEFAULT_MARKS,
    plain: bool = ASCII,
) -> Text:
    """The chart of expected final scores, one bar a move over two lines, the highest
    and lowest value on its axis and each move's number under its bar (the move
    ``current`` in reverse); ``plain``: drawn in ASCII."""
    text = Text(no_wrap=True)
    if not values:
        return text
    low, high = min(values), max(values)
    span = high - low
    levels = [1 + round((v - low) * (CHART_LEVELS - 1) / span) if span else 8 for v in values]
    shapes = blocks(plain)
    top, bottom = score_words(high), score_words(low)
    width = max(len(top), len(bottom))
    axis = "|" if plain else "┤"
    for line, (label, floor) in enumerate(((top, len(shapes)), (bottom, 0))):
        if line:
            text.append("\n")
        text.append(f"{label:>{width}} {axis}", "dim")
        for level in levels:
            filled = min(len(shapes), max(0, level - floor))
            text.append(" ")
            text.append((shapes[filled - 1] if filled else " ") * 2, marks["score"])
    text.append("\n" + " " * (width + 2))
    for index in range(len(values)):
        text.append(" ")
        text.append(f"{index + 1:<2}", REVERSE if index == current else NO_STYLE)
    # Translators: after the numbers of the moves under the chart's bars.
    text.append("  " + _("move"), "dim")
    return text


def next_costly(entries: Sequence[MoveReview], current: int) -> int | None:
    """The next move after ``current`` (going round) labelled an inaccuracy or worse."""
    count = len(entries)
    for step in range(1, count + 1):
        index = (current + step) % count
        if entries[index].label in COSTLY:
            return index
    return None


def _games(start: Game, placements: Sequence[Placement]) -> list[Game]:
    """The game before each placement of a legal line, then after the last."""
    end = start.copy()
    end.replay(placements)
    first = len(start.moves)
    return [end.rewound(first + n) for n in range(len(end.moves) - first + 1)]


def review_settings(app: App[Any]) -> ReviewSettings:
    """How hard the app's reviews look (``review_settings`` where the app has them)."""
    settings: ReviewSettings | None = getattr(app, "review_settings", None)
    return settings or ReviewSettings()


def review_screen(app: App[Any], game: Game) -> ReviewScreen:
    """The review of a game's moves opened from another screen, with the app's review
    settings (``review_settings`` and ``review_workers``, where the app has them)."""
    workers: int | None = getattr(app, "review_workers", None)
    return ReviewScreen.of_game(game, review_settings(app), workers or WORKERS)


class ReviewScreen(ForageScreen):
    """A game move by move: the move played or the best one over the woodland, and par's line."""

    CSS_PATH = "review.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: the key bar's labels; all nine with their keys fit one line of 80.
        Binding("left,h", "step(-1)", _("Back"), key_display=LEFT_KEY),
        Binding("right,l", "step(1)", _("Next"), key_display=RIGHT_KEY),
        Binding("home", "jump(0)", _("First")),
        Binding("end", "jump(-1)", _("Last")),
        Binding("m", "next_costly", _("Mistakes")),
        Binding("b", "toggle_best", _("Best/played")),
        Binding("p", "toggle_par", _("Par")),
        Binding("question_mark", "help", _("Help"), key_display="?"),
        Binding("q,escape", "close", _("Close")),
    ]

    def __init__(
        self,
        start: Game,
        placements: Sequence[Placement],
        settings: ReviewSettings | None = None,
        workers: int = WORKERS,
    ) -> None:
        """A review of the game played from ``start`` with these placements."""
        super().__init__()
        self.start = start
        self.placements = list(placements)
        self.settings = settings
        self.processes = workers
        self.index = 0
        self.show_best = False
        self.on_par = False
        self.result: Review | None = None
        self.stopped: str | None = None
        """Why the analysis stopped before it was done, if it did."""
        self.entries: dict[int, MoveReview] = {}
        """Each move's review as it comes in, by move index (all of them once done)."""
        self._positions = _games(start, self.placements)
        self._par_positions: list[Game] = []

    @classmethod
    def of_game(
        cls, game: Game, settings: ReviewSettings | None = None, workers: int = WORKERS
    ) -> ReviewScreen:
        """A review of the moves a game has made (as replayed from a record, or just played)."""
        return cls(start_of(game), game.moves, settings, workers)

    def compose(self) -> ComposeResult:
        """Title, woodland, the verdict, the chart of expected scores, progress, keys."""
        yield too_small_notice()
        with Vertical(classes="body"):
            yield Static(id="review-title")
            yield Static(id="review-moves")
            yield Static(id="review-legend")
            yield WoodlandView(id="woodland")
            yield Static(id="review-verdict")
            yield Static(id="review-chart-label")
            chart = Static(id="review-chart")
            chart.display = False  # until the analysis is in (no lines of empty bars)
            yield chart
            yield ProgressBar(id="review-progress", show_eta=False)
            yield Static(id="review-note")  # answers to keys: on a line of their own
        yield KeyBar()

    def on_mount(self) -> None:
        """Show the first move and start the analysis."""
        self.update_view()
        self.run_worker(self._analyse(), exclusive=True, group="review")

    async def _analyse(self) -> None:
        """The review, awaited from the app's services, its progress and each move's
        review shown as they come (the work stops when the screen closes)."""

        services = services_of(self.app)
        try:
            found = await services.review(
                self.start,
                self.placements,
                self.settings,
                self.processes,
                self._progress,
                self._reached,
            )
        except POOL_ERRORS as error:
            self._stopped(pool_problem(error))
            return
        self._done(found)

    def _stopped(self, problem: str) -> None:
        """The analysis stopped before it was done: say why, keep the moves it did."""
        self.stopped = problem
        self.query_one(ProgressBar).display = False
        self.update_view()

    def _reached(self, entry: MoveReview) -> None:
        """One move's review is in: its mark in the list, and its verdict if it is shown
        (none once the screen has closed)."""
        if not self.on_stack():
            return
        self.entries[entry.index] = entry
        self.update_view()

    def _progress(self, done: int, total: int) -> None:
        """Move the progress bar (none once the screen has closed)."""
        if not self.on_stack():
            return
        self.query_one(ProgressBar).update(total=total, progress=done)

    def _done(self, found: Review) -> None:
        """The analysis is in: show it."""
        self.result = found
        self.entries = {entry.index: entry for entry in found.moves}
        self._par_positions = _games(self.start, found.par.placements)
        self.query_one(ProgressBar).display = False
        self.query_one("#review-chart", Static).display = True
        self.query_one("#review-chart-label", Static).update(chart_caption(found))
        self.update_view()

    # -- keys --------------------------------------------------------------------------------

    def _line(self) -> list[Placement]:
        """The placements being stepped through: the game's, or par's."""
        if self.on_par and self.result is not None:
            return self.result.par.placements
        return self.placements

    def action_step(self, delta: int) -> None:
        """One move back or on."""
        self.index = max(0, min(len(self._line()) - 1, self.index + delta))
        self.update_view()

    def action_jump(self, where: int) -> None:
        """The first or the last move."""
        self.index = 0 if where == 0 else max(0, len(self._line()) - 1)
        self.update_view()

    def action_next_costly(self) -> None:
        """The next move that lost points: an inaccuracy, a mistake or a blunder."""
        if self.result is None:
            self.tell(
                self.missing(
                    _("The labels come with the analysis; it is still running."),
                    _("The labels come with the analysis, which stopped: {problem}."),
                )
            )
            return
        found = next_costly(self.result.moves, self.index if not self.on_par else -1)
        if found is None:
            self.tell(_("No inaccuracy, mistake or blunder in this game."))
            return
        self.on_par = False
        self.index = found
        self.update_view()

    def action_toggle_best(self) -> None:
        """Draw the best move instead of the one played, or back."""
        self.show_best = not self.show_best
        self.update_view()

    def action_toggle_par(self) -> None:
        """Step through par's line instead of the game, or back."""
        if self.result is None:
            self.tell(
                self.missing(
                    _("Par's line comes with the analysis; it is still running."),
                    _("Par's line comes with the analysis, which stopped: {problem}."),
                )
            )
            return
        self.on_par = not self.on_par
        self.index = min(self.index, max(0, len(self._line()) - 1))
        self.update_view()

    def tell(self, text: str) -> None:
        """Answer a key on the note line under the chart (nothing pops up over it); the
        next step through the moves clears it."""
        self.query_one("#review-note", Static).update(text)

    def action_help(self) -> None:
        """What the review's marks, chart and keys mean."""
        from forage.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(text=HELP))

    def action_close(self) -> None:
        """Leave the review, back to the screen it was opened over (the review on its own
        ends its app: :class:`~forage.app.review_app.ReviewApp`)."""
        self.dismiss(None)

    # -- drawing -----------------------------------------------------------------------------

    def shown(self) -> tuple[Game, Placement | None]:
        """The position shown and the placement drawn over it."""
        line = self._line()
        positions = self._par_positions if self.on_par else self._positions
        if not line:
            return positions[0], None
        placement = line[self.index]
        entry = self._entry()
        if self.show_best and entry is not None and not self.on_par:
            placement = entry.best
        return positions[self.index], placement

    def _entry(self) -> MoveReview | None:
        """The review of the move shown, once that move's analysis is in."""
        if self.on_par:
            return None
        return self.entries.get(self.index)

    def update_view(self) -> None:
        """Give the widgets what they show."""
        game, placement = self.shown()
        outcome = game.outcome(placement) if placement is not None else None
        squares = dict(game.woodland.squares)
        entry = self._entry()
        better = entry is not None and entry.loss > 0 and not self.show_best
        cells = card_cells(game, entry.best) if better and entry is not None else ()
        self.query_one(WoodlandView).state = woodland_state(
            game, squares, outcome, marked=frozenset((x, y) for x, y, _ in cells)
        )
        self.query_one("#review-title", Static).update(self.title_text(placement))
        entries = None if self.on_par else self.entries
        self.query_one("#review-moves", Static).update(
            moves_text(len(self._line()), self.index, entries, marks_of(self.app))
        )
        self.query_one("#review-legend", Static).update(legend_text(marks_of(self.app)))
        self.query_one("#review-verdict", Static).update(self.verdict())
        if self.result is not None:
            values = [m.expected_played for m in self.result.moves]
            current = -1 if self.on_par else self.index
            chart = chart_text(values, current, marks_of(self.app))
            self.query_one("#review-chart", Static).update(chart)
        self.tell("")

    def title_text(self, placement: Placement | None) -> Text:
        """Which line, which move, and what is drawn."""
        line = self._line()
        text = Text()
        if self.on_par and self.result is not None:
            text.append(_("Par's line"), "bold")
        else:
            text.append(_("Your game"), "bold")
        if not line:
            text.append(_(": no moves to review"))
            return text
        # Translators: the title line: "Your game  move 1 of 8  move played: ...", 80 columns.
        text.append(_("  move {number} of {count}").format(number=self.index + 1, count=len(line)))
        if placement is not None:
            if self.on_par:
                which = _("  par's move: {placement}")
            elif self.show_best:
                which = _("  better move: {placement}")
            else:
                which = _("  move played: {placement}")
            text.append(which.format(placement=placement_words(placement, self.start.deck)))
        return text

    def missing(self, running: str, stopped: str) -> str:
        """What comes with the analysis, and why it is not there yet (or will not be): the
        sentence ``running`` while it runs, else ``stopped`` with its ``{problem}``."""
        if self.stopped is not None:
            return stopped.format(problem=self.stopped)
        return running

    def verdict(self) -> Text:
        """The verdict on the move shown, or what the analysis is doing."""
        if self.on_par:
            par = self.result.par if self.result is not None else None
            if par is None:
                return Text(_("Par's line: {par}.").format(par=_(PAR_IS)), "dim")
            # Translators: {said} is a whole sentence about par ("Par for this deal: 51 (...)").
            return Text(_("{said}.").format(said=par_said(par.score, par.proven)), "dim")
        entry = self._entry()
        if entry is None and self.stopped is not None:
            return Text(
                _("The analysis stopped: {problem}. The moves it did keep their marks.").format(
                    problem=self.stopped
                ),
                "dim",
            )
        if entry is None:
            return Text(
                _(
                    "Analysing this move{ellipsis} ({done} of {count} moves done; "
                    "each mark appears in the list as its move is done)"
                ).format(ellipsis=ELLIPSIS, done=len(self.entries), count=len(self.placements)),
                "dim",
            )
        before = self._positions[self.index]
        return verdict_text(entry, gains_of(before, entry), marks_of(self.app), before.deck)
