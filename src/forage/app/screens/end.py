"""The end of a game: the breakdown, the final score, rating, recipes, and what next."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Static

from forage.app.screens.base import ForageModal, too_small_notice
from forage.app.session import Session
from forage.app.widgets.score import recipes_text


def summary_text(session: Session) -> Text:
    """Everything the end screen says about the finished game."""
    game = session.game
    result = game.result()
    score = result.score
    text = Text()
    if result.stuck:
        text.append("No card in your hand fits anywhere, so the game ends here.\n", "bold #ffb040")
    else:
        text.append("All cards are placed.\n", "bold")
    text.append(f"Dice total {score.dice_total}, including {score.mice} mice at -2 each\n")
    text.append(f"Dice on split areas {-score.split_dice} · Edwood {-5 if score.edwood else 0}\n")
    text.append(f"Base score {score.base}\n", "bold")
    if session.is_challenge:
        text.append_text(recipes_text(result, game.recipes, conditions=True))
        text.append("\n")
    text.append(f"{result.rating}\n", "bold italic #ffff66")
    if result.won:
        text.append("You win!", "bold #80ff80")
    else:
        text.append("Not a win this time.", "bold #ff8080")
    if session.is_challenge:
        text.append(f"  Final {score.final} against a target of {result.target}.")
    else:
        text.append(f"  {score.base} points; 35 or more wins.")
    text.append(f"\nDeal code to share: {game.deal.code}")
    return text


def choices_text(has_other: bool) -> Text:
    """The keys for what to do next."""
    text = Text()
    text.append("a", "bold reverse")
    text.append(" same deal again   ")
    if has_other:
        text.append("o", "bold reverse")
        text.append(" the other deck   ")
    text.append("n", "bold reverse")
    text.append(" new game   ")
    text.append("u", "bold reverse")
    text.append(" undo   ")
    text.append("q", "bold reverse")
    text.append(" quit")
    return text


class EndScreen(ForageModal):
    """The result of the game; dismisses with again, other, new, undo or quit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('again')", "Same deal"),
        Binding("o", "choose('other')", "Other deck"),
        Binding("n", "choose('new')", "New game"),
        Binding("u", "choose('undo')", "Undo"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, session: Session) -> None:
        """The end screen of this session's game."""
        super().__init__()
        self.session = session
        self.has_other = session.other_deck() is not None

    def compose(self) -> ComposeResult:
        """The summary and the choices."""
        yield too_small_notice()
        with Vertical(classes="body dialog end"):
            yield Static("Game over", classes="dialog-title")
            with VerticalScroll():
                yield Static(summary_text(self.session), id="end-summary")
            yield Static(choices_text(self.has_other), id="end-choices")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The other-deck choice exists only for a standard game's nine cards."""
        if action == "choose" and parameters and parameters[0] == "other":
            return self.has_other
        return True

    def action_choose(self, choice: str) -> None:
        """Close with the player's choice."""
        self.dismiss(choice)
