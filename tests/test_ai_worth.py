"""The expert's learnt worth (ai/worth.py): kinds, features, tables, the shipped model; and
the fits that learn it (benchmarks/worth_fit.py)."""

from __future__ import annotations

import random

import pytest
from helpers import load_benchmark

from forage.ai.bots import Expert
from forage.ai.worth import (
    KIND_NAMES,
    KINDS,
    MOST_LEFT,
    WorthModel,
    features,
    food_areas,
    learnt_model,
    outlook,
)
from forage.carddata import standard_deck
from forage.engine import Area, Colour
from forage.engine.board import encode, pack
from forage.engine.woodland import die

_FITS = load_benchmark("worth_fit.py")
fit = _FITS.fit
fit_td = _FITS.fit_td


def kind(code: int) -> str:
    """The name of a code's kind."""
    return KIND_NAMES[KINDS[code][0]]


def test_square_kinds_name_the_die_the_area_and_edwood() -> None:
    assert kind(encode(Area.B, die(Colour.B, 6))) == "die 6"
    assert kind(encode(Area.BM, die(Colour.M, 10))) == "die 10 split"
    assert kind(encode(Area.C, die(Colour.C, -2))) == "mouse"
    assert kind(encode(Area.M)) == "bare food"
    assert kind(encode(Area.CM)) == "bare split"
    assert kind(encode(Area.B, edwood=True)) == "edwood"
    # A die's colour scales it; a bare split area is scaled by both of its colours.
    assert KINDS[encode(Area.BM, die(Colour.M, 10))][1] == (2,)
    assert KINDS[encode(Area.CM)][1] == (1, 2)


def test_features_count_each_kind_and_its_coming_areas() -> None:
    board = {
        pack(0, 0): encode(Area.B, die(Colour.B, 3)),
        pack(1, 0): encode(Area.B, die(Colour.B, 3)),
        pack(0, 1): encode(Area.BC),
        pack(1, 1): encode(Area.M, die(Colour.M, -2)),
    }
    areas = [6.0, 3.0, 1.5]
    row = features(board, areas)
    count = len(KIND_NAMES)
    assert row[KIND_NAMES.index("die 3")] == 2
    assert row[count + KIND_NAMES.index("die 3")] == 2 * 6.0
    assert row[count + KIND_NAMES.index("bare split")] == (6.0 + 3.0) / 2
    assert row[count + KIND_NAMES.index("mouse")] == 1.5
    assert sum(row[:count]) == len(board)


def test_a_table_is_base_plus_per_area_times_the_areas_to_come() -> None:
    rng = random.Random(5)
    rows = [tuple(rng.uniform(-2, 2) for _ in KIND_NAMES) for _ in range(MOST_LEFT)]
    model = WorthModel(tuple(rows), tuple(reversed(rows)))
    code = encode(Area.C, die(Colour.C, 6))
    k = KIND_NAMES.index("die 6")
    coming = (1.0, 2.0, 2.0)
    for left in (1, 3, MOST_LEFT, MOST_LEFT + 2):
        r = min(left, MOST_LEFT) - 1
        expected = model.base[r][k] + model.per_area[r][k] * left * 2.0
        assert model.table(left, coming).values[code] == pytest.approx(expected)
    assert model.table(0, coming).values[code] == 0.0


def test_the_fit_recovers_a_known_model() -> None:
    rng = random.Random(11)
    count = len(KIND_NAMES)
    true_base = [rng.uniform(-3, 3) for _ in range(count)]
    true_area = [rng.uniform(-1, 1) for _ in range(count)]
    rows = []
    for _ in range(600):
        x = [float(rng.randint(0, 4)) for _ in range(count)]
        x += [x[i] * rng.uniform(0, 8) for i in range(count)]
        y = 7.0 + sum(w * v for w, v in zip(true_base + true_area, x, strict=True))
        rows.append((2, x, y))
    model = fit(rows, ridge=1e-6)
    assert model.base[1] == pytest.approx(true_base, abs=1e-3)
    assert model.per_area[1] == pytest.approx(true_area, abs=1e-3)
    assert model.base[0] == tuple(0.0 for _ in KIND_NAMES)  # no examples: all weights 0


def test_value_iteration_fits_exact_games_and_is_not_misled_by_later_luck() -> None:
    # Each game: from 3 placements left to 1, a woodland worth exactly 2 a square of kind 0
    # plus 1 a square of kind 1; what a game gains after a row is that worth plus 4, so
    # the next placement's points plus the next woodland's value is the same target.
    rng = random.Random(3)
    count = len(KIND_NAMES)
    games = []
    for _ in range(300):
        game = []
        for left in (3, 2, 1):
            x = [0.0] * (2 * count)
            x[0], x[1] = float(rng.randint(0, 5)), float(rng.randint(0, 5))
            game.append((left, x, 4 + 2 * x[0] + x[1]))
        games.append(game)
    rows = [row for game in games for row in game]
    plain, iterated = fit(rows, ridge=1e-6), fit_td(games, ridge=1e-6)
    for left in (1, 2, 3):
        assert iterated.base[left - 1][:2] == pytest.approx((2.0, 1.0), abs=1e-3)
        assert iterated.base[left - 1] == pytest.approx(plain.base[left - 1], abs=1e-3)
    # Luck in a later draw (+5 or -5 between the rows with 2 and 1 left, here falling with
    # the first row's squares) misleads the plain fit of the first row but not the
    # iterated one, whose target for that row stops at the next woodland's value.
    lucky = []
    for game in games:
        luck = 5 if game[0][1][0] > 2 else -5
        lucky.append([(r, x, y + luck * (r >= 2)) for r, x, y in game])
    plain = fit([row for game in lucky for row in game], ridge=1e-6)
    assert plain.base[2][0] != pytest.approx(2.0, abs=1.0)
    assert fit_td(lucky, ridge=1e-6).base[2][0] == pytest.approx(2.0, abs=0.5)


def test_the_shipped_model_round_trips_and_the_expert_uses_it() -> None:
    model = learnt_model()
    assert len(model.base) == MOST_LEFT
    assert WorthModel.from_json(model.to_json()) == model
    assert Expert().model == model
    bad = model.to_json() | {"kinds": ["die 1"]}
    with pytest.raises(ValueError, match="kinds"):
        WorthModel.from_json(bad)


def test_outlook_is_the_mean_food_areas_of_the_cards_to_come() -> None:
    deck = standard_deck()
    cards = deck.numbers[:4]
    mean = outlook(deck, cards)
    for colour in range(3):
        total = sum(food_areas(deck, n)[colour] for n in cards)
        assert mean[colour] == pytest.approx(total / 4, abs=1e-3)
    assert sum(outlook(deck, [])) == pytest.approx(5)
