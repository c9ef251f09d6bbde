"""The hint: always legal, never looks at the draw pile, and its command output."""

from __future__ import annotations

import json

import pytest

from forage.ai.hint import hint
from forage.carddata import standard_deck
from forage.cli.ai_commands import hint_command
from forage.engine import Area, Card, Deal, Deck, Game


def play_by_hints(game: Game) -> None:
    while not game.is_over():
        found = hint(game)
        assert found is not None
        outcome = game.outcome(found.placement)
        assert outcome.legal, (found.placement, outcome.reason)
        assert found.score == game.position.base + outcome.score_change
        game.push(found.placement)
    assert hint(game) is None


def test_every_hint_is_legal_through_whole_games() -> None:
    # Six-card deals (five placements): every stage of a game, from the first look to the
    # last placement, at a third of a full deal's cost.
    deck = standard_deck()
    standard = Deal.from_seed(21)
    play_by_hints(Game(Deal(cards=standard.cards[:6]), deck))
    challenge = Deal.from_seed(22, recipes=True)
    play_by_hints(Game(Deal(cards=challenge.cards[:6], recipes=challenge.recipes), deck))


def test_hints_stay_legal_when_mice_and_edwood_abound() -> None:
    # Cards of clashing types: most placements make mice, use Edwood or are refused.
    texts = ["B B B B B B", "C C C C C C", "M M M M M M", "BC BC BC BC BC BC", "CM CM CM CM CM CM"]
    cards = [
        Card(number=i + 1, areas=tuple(Area(a) for a in t.split()))  # type: ignore[arg-type]
        for i, t in enumerate(texts)
    ]
    play_by_hints(Game(Deal(cards=(1, 2, 3, 4, 5)), Deck.of(cards)))


def test_hint_does_not_look_at_the_draw_pile() -> None:
    deck = standard_deck()
    cards = Deal.from_seed(5).cards
    shuffled = (*cards[:3], *reversed(cards[3:]))
    first = hint(Game(Deal(cards=cards), deck))
    second = hint(Game(Deal(cards=shuffled), deck))
    assert first is not None and second is not None
    assert first.placement == second.placement
    assert first.expected == second.expected


def test_hint_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Deal.from_seed(3), standard_deck())
    assert hint_command(game, as_json=True) == 0
    data = json.loads(capsys.readouterr().out)["hint"]
    assert {"card", "rotation", "x", "y", "score", "expected"} <= set(data)
    assert data["card"] in game.hand
    assert hint_command(game, as_json=False) == 0
    assert "card" in capsys.readouterr().out.lower()


def test_hint_command_on_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Deal(cards=Deal.from_seed(3).cards[:2]), standard_deck())
    game.push(next(game.outcomes()).placement)
    assert hint_command(game, as_json=True) == 0
    assert json.loads(capsys.readouterr().out) == {"hint": None}
