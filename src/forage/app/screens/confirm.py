"""A yes/no question over the game: resume a saved game, start a new one."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from forage.app.screens.base import ForageModal, too_small_notice
from forage.app.widgets.keys import KeyBar
from forage.i18n import _


class ConfirmScreen(ForageModal):
    """Ask a question; dismisses with "yes" or "no" (or "later", where it is offered)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer('yes')", _("Yes")),
        Binding("n,escape", "answer('no')", _("No")),
        Binding("s", "answer('later')", _("Later"), show=False),
    ]

    def __init__(
        self, question: str, answers: tuple[str, str] | None = None, later: str | None = None
    ) -> None:
        """A dialog asking ``question``; ``answers`` names what y and n do (yes and no by
        default), ``later`` what s does (None: s does nothing)."""
        super().__init__()
        self.question = question
        self.answers = answers if answers is not None else (_("yes"), _("no"))
        self.later = later

    def compose(self) -> ComposeResult:
        """The question and its keys."""
        yield too_small_notice()
        with Vertical(classes="body dialog confirm"):
            yield Static(self.question, id="question")
            yes, no = self.answers
            later = "" if self.later is None else f"    [b reverse]s[/] {self.later}"
            yield Static(f"[b reverse]y[/] {yes}{later}    [b reverse]n[/] {no}", id="answers")
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """s answers only where it is offered."""
        if action == "answer" and parameters == ("later",):
            return self.later is not None
        return True

    def action_answer(self, answer: str) -> None:
        """Close with the answer."""
        self.dismiss(answer)
