"""A called game: the engine's game on a deal whose cards come one at a time from outside
(a room's server calls each turn's card), kept beside :class:`~forage.engine.Game` as a
variant of it.

The rules are the game's own: cards are drawn as R12 draws them, R13 is judged on the hand
the game holds. What differs is only when the deal is known: while a card is still to be
called, a hand short of a card waits for the call, so the game is neither finished nor
stuck; the deal is :data:`~forage.engine.deal.DECK_SIZE` cards in all.
"""

from __future__ import annotations

from typing import ClassVar

from forage.engine.deal import DECK_SIZE, HAND_SIZE, Deal
from forage.engine.game import Game
from forage.engine.rules import draw_into


class CalledGame(Game):
    """A game whose deal grows by one card at each call (:meth:`call`), to
    :attr:`CARDS` cards; the game as far as the cards called."""

    CARDS: ClassVar[int] = DECK_SIZE
    """The cards the deal holds once every card is called."""

    @property
    def deal_size(self) -> int:
        """How many cards the deal holds in all, once every card is called."""
        return self.CARDS

    def awaits_call(self) -> bool:
        """Whether the hand waits for a card that is still to be called."""
        return len(self.deal.cards) < self.CARDS and len(self.position.hand) < HAND_SIZE

    def call(self, card: int) -> None:
        """Take in the card called next: the deal goes one card further, and a hand waiting
        for it draws it (R12); raises ValueError for a card the game cannot take (one not in
        the deck, one dealt already, one past the deal's last)."""
        if len(self.deal.cards) >= self.CARDS:
            raise ValueError(f"the deal has its {self.CARDS} cards: no card is to be called")
        if card not in self.deck:
            raise ValueError(f"card {card} is not in the deck")
        waiting = self.awaits_call()
        self.deal = Deal.checked((*self.deal.cards, card), self.deal.recipes)
        if waiting:
            position = self.position
            hand = list(position.hand)
            next_draw = draw_into(hand, position.next_draw, self.deal.cards)
            self._stack[-1] = position._replace(hand=tuple(hand), next_draw=next_draw)
            self._stuck[-1] = None

    def is_finished(self) -> bool:
        """Whether every card of the deal has been placed (never while one is to be called)."""
        return not self.awaits_call() and super().is_finished()

    def is_stuck(self) -> bool:
        """Whether no hand card can be placed (R13), once the hand holds the card called."""
        return not self.awaits_call() and super().is_stuck()
