"""The end of a game: the breakdown, the final score, rating, recipes, and what next."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from forage.app.describe import ELLIPSIS, par_said, rating_text, score_sum
from forage.app.screens.base import ForageModal, too_small_notice
from forage.app.services import FinishedGame, Priority, services_of
from forage.app.session import Session
from forage.app.themes import DEFAULT_MARKS, marks_of
from forage.app.widgets.history import HistoryPanel, HistoryState
from forage.app.widgets.keys import KeyBar
from forage.app.widgets.score import recipes_text
from forage.carddata import standard_deck
from forage.engine import Game
from forage.engine.scoring import WIN_LINE
from forage.history.achievements import Achievement
from forage.i18n import _

if TYPE_CHECKING:
    from forage.ai.par import ParResult


def summary_text(session: Session, marks: Mapping[str, Style] = DEFAULT_MARKS) -> Text:
    """Everything the end screen says about the finished game."""
    game = session.game
    result = game.result()
    score = result.score
    text = Text()
    if result.stuck:
        text.append(
            _("No card in your hand fits anywhere, so the game ends here.") + "\n", marks["loss"]
        )
    else:
        text.append(_("All cards are placed.") + "\n", "bold")
    if session.is_challenge:
        progress = game.recipe_progress()
        text.append_text(
            recipes_text(result, game.recipes, conditions=True, marks=marks, progress=progress)
        )
        text.append("\n")
    text.append(_("Base score {base}").format(base=score.base), "bold")
    text.append(f"  ({score_sum(score)})\n")
    text.append(_("Your woodland (base score {base}): ").format(base=score.base))
    text.append(rating_text(result.rating) + "\n", marks["score"] + Style(italic=True))
    if result.won:
        text.append(_("You win!"), marks["gain"])
    else:
        text.append(_("Not a win this time."), marks["bad"] + Style(bold=True))
    if session.is_challenge:
        text.append(
            _("  Final {final} against a target of {target}.").format(
                final=score.final, target=result.target
            )
        )
    else:
        text.append(_("  {base} points; {win} or more wins.").format(base=score.base, win=WIN_LINE))
    text.append("\n" + _("Deal code to share: {code}").format(code=game.deal.code))
    return text


def choices_text(has_other: bool) -> Text:
    """The keys for what to do next, two lines of them."""
    lines = (
        (
            # Translators: the end screen's choices, all five on one line of 70 columns.
            ("a", _("same deal again")),
            *((("o", _("the other deck")),) if has_other else ()),
            ("n", _("new game")),
            ("u", _("undo")),
            ("q", _("quit")),
        ),
        (("r", _("review your moves")), ("esc", _("see the woodland"))),
    )
    text = Text()
    for number, line in enumerate(lines):
        if number:
            text.append("\n")
        for place, (key, what) in enumerate(line):
            if place:
                text.append("   ")
            text.append(key, "bold reverse")
            text.append(f" {what}")
    return text


def par_found(app: object) -> dict[str, tuple[int, bool]]:
    """The pars the app has worked out, by deal code: (par, proven), found once per deal
    (an app that keeps none gives an empty mapping that is not kept)."""
    found = getattr(app, "par_found", None)
    return found if isinstance(found, dict) else {}


class EndScreen(ForageModal):
    """The result of the game; dismisses with again, other, new, undo, quit, or look (escape:
    the finished woodland, from which enter brings this summary back); r opens the review."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: the key bar's labels; the seven shown with their keys fit 80 columns.
        Binding("a", "choose('again')", _("Same deal")),
        Binding("o", "choose('other')", _("Other deck")),
        Binding("n", "choose('new')", _("New game")),
        Binding("u", "choose('undo')", _("Undo")),
        Binding("q", "choose('quit')", _("Quit")),
        Binding("y", "copy_share", _("Copy share line"), show=False),
        Binding("r", "review", _("Review")),
        Binding("escape", "choose('look')", _("Woodland")),
    ]

    def __init__(self, session: Session) -> None:
        """The end screen of the session's game."""
        super().__init__()
        self.session = session
        self.has_other = session.other_deck() is not None
        self._unlocked: tuple[Achievement, ...] = ()
        self._share: str | None = None

    def compose(self) -> ComposeResult:
        """The summary and the choices."""
        yield too_small_notice()
        with Vertical(classes="body dialog end"), VerticalScroll():
            # all of it in the scroll: a long summary (a first win's achievements) at
            # 80x24 scrolls to its end, the choices too, none of it cut off below
            yield Static(_("Game over"), classes="dialog-title")
            yield Static(summary_text(self.session, marks_of(self.app)), id="end-summary")
            yield Static("", id="end-par")
            yield HistoryPanel(id="end-history")
            yield Static(choices_text(self.has_other), id="end-choices")
        yield KeyBar()

    def on_mount(self) -> None:
        """Record the game in the history; start working out the deal's par, if asked for."""
        self.record_history()
        if not getattr(self.app, "show_par", False) or self.session.game.deck != standard_deck():
            self.query_one("#end-par", Static).display = False
            return
        known = par_found(self.app).get(self.session.deal.code)
        if known is not None:  # worked out already (the game ended again after an undo)
            self._show_par(*known)
            return
        self.query_one("#end-par", Static).update(
            Text(
                _("Par for this deal: working it out (a few seconds){ellipsis}").format(
                    ellipsis=ELLIPSIS
                ),
                "dim",
            )
        )
        self.run_worker(self._find_par(), exclusive=True, group="par")

    async def _find_par(self) -> None:
        """The deal's par: the one the history knows (kept from an earlier search, or
        proven by a stored game), else the search's, done by the app's workers (perhaps
        under way since the game's first placement)."""
        from forage.ai.par import par_task
        from forage.ai.workers import pool_problem

        services = services_of(self.app)
        code = self.session.deal.code
        known = await services.known_par(code)
        if known is not None:
            self._show_par(*known)
            return
        deal_start = Game(self.session.deal, standard_deck())
        searching = services.analysis.run(Priority.SOON, par_task(deal_start))
        try:
            found: ParResult = await asyncio.wrap_future(searching)
        except Exception as error:  # the worker died, or none could start
            self._par_missing(pool_problem(error))
            return
        self._show_par(found.score, found.proven)
        await services.keep_par(code, found)  # known next time, and by the review

    def _par_missing(self, problem: str) -> None:
        """Say that the deal's par could not be worked out, and why."""
        self.query_one("#end-par", Static).update(
            Text(_("Par for this deal: not worked out: {problem}.").format(problem=problem), "dim")
        )

    def _show_par(self, par: int, proven: bool) -> None:
        """Show the par beside the player's score (and remember it for the deal)."""
        par_found(self.app)[self.session.deal.code] = (par, proven)
        result = self.session.game.result()
        mine = result.score.final
        text = Text()
        text.append(par_said(par, proven), "bold")
        # Translators: after "Par for this deal: 51 (the best score ...)".
        text.append(_("; you scored {score}.").format(score=mine))
        self.query_one("#end-par", Static).update(text)
        self.history_par(par, proven)

    # -- the history (the app's services) ---------------------------------------------------

    def record_history(self) -> None:
        """Record the finished game in the history; what it unlocked and the deal's
        scoreboard are shown when that is done."""
        if not services_of(self.app).keeps_history:
            self.query_one(HistoryPanel).display = False
            return
        self.query_one(HistoryPanel).state = HistoryState(waiting=True)
        self.run_worker(self._recorded_game(), group="history")

    async def _recorded_game(self) -> None:
        """Store the game, then show what the history says of it."""
        found = await services_of(self.app).record_finished(self.session)
        if found is not None:
            self._unlocked = found.unlocked
            self._show_history(found)

    def history_par(self, par: int, proven: bool) -> None:
        """Store the par found and announce any achievement it unlocks."""
        if services_of(self.app).keeps_history:
            self.run_worker(self._par_in_history(par, proven), group="history")

    async def _par_in_history(self, par: int, proven: bool) -> None:
        """Note the par in the history (after the game is stored), then show what it says."""
        found = await services_of(self.app).record_par(self.session, par, proven)
        if found is not None:
            self._unlocked += found.unlocked
            self._show_history(found)

    def _show_history(self, found: FinishedGame) -> None:
        """Show in the history panel what the history says of the game."""
        self._share = found.share
        self.query_one(HistoryPanel).state = HistoryState(
            recorded=found.recorded is not None,
            player=found.player,
            achievements=self._unlocked,
            scoreboard=found.scoreboard.lines,
            par=found.par,
            share=found.share,
            first_only=found.first_only,
        )

    def action_copy_share(self) -> None:
        """Put the daily share line on the clipboard (OSC 52)."""
        if self._share:
            self.app.copy_to_clipboard(self._share)
            panel = self.query_one(HistoryPanel)
            panel.state = replace(panel.state, copied=True)  # said in the panel, over nothing

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The other-deck choice exists only for a standard game's nine cards."""
        if action == "choose" and parameters and parameters[0] == "other":
            return self.has_other
        return True

    def action_review(self) -> None:
        """Review the finished game move by move; closing the review comes back here."""
        from forage.app.screens.review import review_screen

        self.app.push_screen(review_screen(self.app, self.session.game))

    def action_choose(self, choice: str) -> None:
        """Close with the player's choice."""
        self.dismiss(choice)
