"""The rules kernel: golden counts of legal placements and refusals (perft-style), and the
R8c colour choice made the same by the engine and the simulator (the screen's side is in
``tests/app/test_kernel_screen.py``).

The golden counts were checked against the independent reference reading of the rulings
(``tests/reference.py``) when they were written, and still are, reason by reason.
"""

from __future__ import annotations

from collections import Counter

import pytest
import reference
from helpers import game_at, place

from forage.ai.sim import simulator_for
from forage.carddata import standard_deck
from forage.engine import ROTATIONS, Deal, Game, Placement, Reason

Position = tuple[
    list[tuple[int, int, str, str | None]], list[str], tuple[int, int, int] | None, bool
]
"""A woodland (cells as helpers.woodland takes them), hand cards, supply (None: every
die not in the woodland) and whether Edwood is to hand."""

BY_CHOICE: Position = (
    [(0, 0, "M", None), (1, 0, "M", None), (0, 1, "M", None), (1, 1, "B", None)],
    ["BC BC B BM B B"],
    (1, 2, 5),
    False,
)
"""Woodland M, M, M, B; supply B1 C2 M5; Edwood used; a card BC BC B BM B B in hand."""

POSITIONS: dict[str, Position] = {
    "legal-only-by-a-chosen-colour": BY_CHOICE,
    "split-areas-over-mice": (
        [(0, 0, "BC", "Bm"), (1, 0, "CM", "Mm"), (0, 1, "B", "B3"), (1, 1, "C", None)],
        ["BC BM CM B C M", "B B C C M M"],
        None,
        True,
    ),
    "split-areas-over-mice-edwood-spent": (
        [(0, 0, "BC", "Bm"), (1, 0, "CM", "Mm"), (0, 1, "B", "B3"), (1, 1, "C", None)],
        ["BC BM CM B C M", "B B C C M M"],
        None,
        False,
    ),
    "nearly-full-supply": (
        [(0, 0, "B", "B1"), (1, 0, "C", None), (0, 1, "BM", None), (1, 1, "M", None)],
        ["B C M BC B C", "CM M M B B C"],
        None,
        True,
    ),
    "empty-supply-edwood-to-hand": (
        [(0, 0, "B", "B6"), (1, 0, "C", "C3"), (0, 1, "M", "M1"), (1, 1, "BC", None)],
        ["B C M BC CM BM", "M M M C C C"],
        (0, 0, 0),
        True,
    ),
    "empty-supply-edwood-spent": (
        [(0, 0, "B", "B6"), (1, 0, "C", "C3"), (0, 1, "M", "M1"), (1, 1, "BC", None)],
        ["B C M BC CM BM", "M M M C C C"],
        (0, 0, 0),
        False,
    ),
    "edwood-in-the-woodland": (
        [(0, 0, "B", "B3"), (1, 0, "B", "E"), (0, 1, "C", "C1"), (1, 1, "M", None)],
        ["B B C C M M", "BM BC B C M M"],
        None,
        False,
    ),
    "baskets-stay-full": (
        [(0, 0, "B", "B15"), (1, 0, "B", "B15"), (0, 1, "C", "C10"), (1, 1, "M", "M6")],
        ["B B B C M BC", "C C C C C CM"],
        None,
        True,
    ),
    "dice-on-split-areas": (
        [(0, 0, "BM", "B6"), (1, 0, "CM", "M3"), (0, 1, "BC", "C1"), (1, 1, "B", None)],
        ["B M C BM CM BC", "M B C C B M"],
        None,
        True,
    ),
    "mouse-edwood-may-cover": (
        [(0, 0, "B", "Bm"), (1, 0, "C", "Cm"), (0, 1, "M", None), (1, 1, "M", "M3")],
        ["B C M M B C", "BC CM BM B C M"],
        None,
        True,
    ),
    "scarce-colours-for-split-mice": (
        [(0, 0, "M", None), (1, 0, "M", None), (0, 1, "M", None), (1, 1, "M", None)],
        ["BC BC CM CM B C", "BC CM B C BC CM"],
        (1, 1, 0),
        False,
    ),
    "long-woodland": (
        [(x, 0, "BCM"[x % 3], None) for x in range(6)]
        + [(x, 1, "CMB"[x % 3], None) for x in range(6)],
        ["B C M BC CM BM", "M M B B C C"],
        None,
        True,
    ),
}

GOLDEN: dict[str, dict[int, dict[str, int]]] = {
    "legal-only-by-a-chosen-colour": {
        2: {"legal": 35, "legal-by-choice": 1, "no-mouse-die": 13, "no-overlap": 96}
    },
    "split-areas-over-mice": {
        2: {"covers-mouse": 19, "edwood-used": 5, "legal": 24, "no-overlap": 96},
        3: {"covers-mouse": 26, "legal": 22, "no-overlap": 96},
    },
    "split-areas-over-mice-edwood-spent": {
        2: {"covers-mouse": 19, "edwood-used": 15, "legal": 14, "no-overlap": 96},
        3: {"covers-mouse": 26, "edwood-used": 8, "legal": 14, "no-overlap": 96},
    },
    "nearly-full-supply": {2: {"legal": 48, "no-overlap": 96}, 3: {"legal": 48, "no-overlap": 96}},
    "empty-supply-edwood-to-hand": {
        2: {"legal": 47, "no-mouse-die": 1, "no-overlap": 96},
        3: {"legal": 37, "no-mouse-die": 11, "no-overlap": 96},
    },
    "empty-supply-edwood-spent": {
        2: {"legal": 25, "no-mouse-die": 23, "no-overlap": 96},
        3: {"legal": 9, "no-mouse-die": 39, "no-overlap": 96},
    },
    "edwood-in-the-woodland": {
        2: {"covers-edwood": 24, "legal": 24, "no-overlap": 96},
        3: {"covers-edwood": 24, "legal": 24, "no-overlap": 96},
    },
    "baskets-stay-full": {2: {"legal": 48, "no-overlap": 96}, 3: {"legal": 48, "no-overlap": 96}},
    "dice-on-split-areas": {2: {"legal": 48, "no-overlap": 96}, 3: {"legal": 48, "no-overlap": 96}},
    "mouse-edwood-may-cover": {
        2: {"covers-mouse": 24, "edwood-used": 2, "legal": 22, "no-overlap": 96},
        3: {"covers-mouse": 20, "edwood-used": 4, "legal": 24, "no-overlap": 96},
    },
    "scarce-colours-for-split-mice": {
        2: {"legal": 48, "no-overlap": 96},
        3: {"legal": 36, "legal-by-choice": 4, "no-mouse-die": 12, "no-overlap": 96},
    },
    "long-woodland": {2: {"legal": 104, "no-overlap": 136}, 3: {"legal": 104, "no-overlap": 136}},
}
"""Per position, per hand card: legal placements (default colours), placements legal only
by a chosen mouse colour, and refusals by reason, over every top-left near the woodland."""


def counts(game: Game) -> dict[int, dict[str, int]]:
    """Legal placements and refusals per hand card, over every spot near the woodland."""
    xs = [x for x, _ in game.woodland.squares]
    ys = [y for _, y in game.woodland.squares]
    found: dict[int, dict[str, int]] = {}
    for number in game.hand:
        tally: Counter[str] = Counter()
        for rotation in ROTATIONS:
            for y in range(min(ys) - 3, max(ys) + 2):
                for x in range(min(xs) - 3, max(xs) + 2):
                    placement = Placement(card=number, rotation=rotation, x=x, y=y)
                    outcome = game.outcome(placement)
                    if outcome.legal:
                        tally["legal"] += 1
                        continue
                    tally[str(outcome.reason)] += 1
                    if game.outcome(placement, choose_mice=True).legal:
                        tally["legal-by-choice"] += 1
        found[number] = dict(sorted(tally.items()))
    return found


def position(name: str) -> Game:
    cells, hand, supply, edwood = POSITIONS[name]
    return game_at(cells, hand, supply, edwood)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_golden_counts_of_legal_placements_and_refusals(name: str) -> None:
    assert counts(position(name)) == GOLDEN[name]


@pytest.mark.parametrize("name", list(POSITIONS))
def test_golden_counts_agree_with_the_reference(name: str) -> None:
    game = position(name)
    expected: dict[int, Counter[str]] = {n: Counter() for n in game.hand}
    xs = [x for x, _ in game.woodland.squares]
    ys = [y for _, y in game.woodland.squares]
    for number in game.hand:
        for rotation in ROTATIONS:
            for y in range(min(ys) - 3, max(ys) + 2):
                for x in range(min(xs) - 3, max(xs) + 2):
                    placement = Placement(card=number, rotation=rotation, x=x, y=y)
                    expected[number][reference.resolve(game, placement).reason or "legal"] += 1
    for number, tally in GOLDEN[name].items():
        plain = {k: v for k, v in tally.items() if k != "legal-by-choice"}
        assert plain == dict(expected[number])


def test_r8c_legal_only_with_a_chosen_colour_in_the_engine_list() -> None:
    game = position("legal-only-by-a-chosen-colour")
    plain = place(2, 0, 0)
    assert game.outcome(plain).reason is Reason.NO_MOUSE_DIE
    chosen = game.outcome(plain, choose_mice=True)
    assert chosen.legal and chosen.placement.notation() == "2@0,0[1,0=C]"
    listed = [o for o in game.outcomes() if (o.placement.x, o.placement.y) == (0, 0)]
    assert chosen in listed
    # The colours named are enough on their own: the placement is legal as written.
    assert game.outcome(chosen.placement) == chosen


def test_r8c_legal_only_with_a_chosen_colour_in_the_simulator() -> None:
    game = position("legal-only-by-a-chosen-colour")
    sim = simulator_for(game)
    listed = {sim.placement(m) for m in sim.all_moves(game.position)}
    assert Placement.from_notation("2@0,0[1,0=C]") in listed
    assert listed == {o.placement for o in game.outcomes()}
    # the reference reading of R8c agrees: refused with the default colour, legal with C
    assert reference.resolve(game, place(2, 0, 0)).reason == "no-mouse-die"
    assert reference.resolve(game, Placement.from_notation("2@0,0[1,0=C]")).reason is None
    variants = [sim.placement(m) for m in sim.all_moves(game.position, variants=True)]
    assert all(game.outcome(p).legal for p in variants)


def test_the_real_deck_starts_with_the_listed_placements() -> None:
    game = Game(Deal.from_seed(5), standard_deck())
    assert len(list(game.outcomes())) == sum(
        1 for o in game.outcomes() if game.outcome(o.placement).legal
    )
