"""A Textual application that shows one game's review (``forage review FILE``)."""

from __future__ import annotations

from forage.ai.review import WORKERS, ReviewSettings
from forage.app.base import ForageBaseApp
from forage.app.recorder import Recorder
from forage.app.screens.review import ReviewScreen
from forage.app.services import Analysis, Services
from forage.engine import Game
from forage.i18n import _


class ReviewApp(ForageBaseApp):
    """The review screen on its own."""

    TITLE = _("Forage review")

    def __init__(
        self, game: Game, settings: ReviewSettings | None = None, workers: int = WORKERS
    ) -> None:
        """An app reviewing the moves this game has made (``settings`` and ``workers`` as
        :func:`forage.ai.review.review` takes them); reviews seen before are read back from
        the history's memory."""
        super().__init__(Services(history=Recorder(), analysis=Analysis(workers)))
        self.game = game
        self.settings = settings
        self.processes = workers

    def on_mount(self) -> None:
        """Open the review of the game, which ends the app when it closes; a stopping signal
        leaves (the terminal restored)."""
        self.listen_for_signals()
        review = ReviewScreen.of_game(self.game, self.settings, self.processes)
        self.push_screen(review, lambda _: self.exit())
