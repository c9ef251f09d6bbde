"""The session behind the screen: cursor limits, mouse colours, saving, other decks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from app_helpers import choice_spot
from hypothesis import given
from hypothesis import strategies as st

from forage.app.describe import face, outcome_lines
from forage.app.keeper import Keeper
from forage.app.screens.end import summary_text
from forage.app.session import Session, save_path
from forage.app.widgets.woodland import (
    SIZES,
    WoodlandState,
    _axis_origin,
    choose_size,
    grid_segments,
)
from forage.engine import Deal, Rotation


def test_cursor_stays_within_one_card_of_the_woodland() -> None:
    session = Session.start(seed=1)
    x0, y0, x1, y1 = session.game.woodland.bounds()
    for _ in range(10):
        session.move(1, 1)
    assert (session.cursor.x, session.cursor.y) == (x1 + 1, y1 + 1)
    session.rotate()
    assert session.cursor.rotation is Rotation.R90
    assert (session.cursor.x, session.cursor.y) == (x1 + 1, y1 + 1)
    for _ in range(10):
        session.move(-1, -1)
    assert (session.cursor.x, session.cursor.y) == (x0 - 3, y0 - 2)


def test_rotate_back_undoes_rotate() -> None:
    session = Session.start(seed=1)
    session.rotate(True)
    session.rotate(False)
    assert session.cursor.rotation is Rotation.R0


def test_mouse_colour_cycles_through_the_choices_and_back() -> None:
    seed, target = choice_spot()
    session = Session.start(seed=seed)
    assert session.go_to(target)
    first = session.preview()
    assert first is not None and first.mouse_choice_possible
    spot = first.mouse_choice_possible[0]
    colours = []
    for _ in range(2):
        assert session.cycle_mouse()
        outcome = session.preview()
        assert outcome is not None and outcome.legal
        die = {(e.x, e.y): e.die for e in outcome.effects}[spot]
        assert die is not None
        colours.append(die.colour)
    assert colours[0] != colours[1]
    session.move(1, 0)
    assert session.cursor.mouse == ()


def test_save_and_load_round_trip() -> None:
    session = Session.start(seed=8)
    outcome = next(session.game.outcomes())
    assert session.go_to(outcome.placement)
    assert session.place() is not None
    Keeper().keep(session)
    assert save_path().exists()
    data = json.loads(save_path().read_text())
    assert data["seed"] == 8 and len(data["moves"]) == 1
    loaded = Keeper().load()
    assert loaded is not None
    assert loaded.game.moves == session.game.moves
    assert loaded.deal == session.deal


def test_unreadable_save_is_ignored(forage_home: Path) -> None:
    forage_home.mkdir(parents=True, exist_ok=True)
    save_path().write_text("{not json")
    assert Keeper().load() is None
    save_path().write_text(
        json.dumps({"format": "forage-save/1", "deal": "1.2", "moves": ["9@0,0"]})
    )
    assert Keeper().load() is None


def test_other_deck_of_a_seed_and_of_a_deal_code() -> None:
    session = Session.start(seed=5)
    other = session.other_deck()
    assert other is not None and other.deck_number == 2
    assert other.deal == Deal.from_seed(5, deck=2)
    by_code = Session.start(deal_code=session.deal.code)
    rest = by_code.other_deck()
    assert rest is not None
    assert set(rest.deal.cards) == set(range(1, 19)) - set(session.deal.cards)
    challenge = Session.start(seed=5, recipes=True)
    assert challenge.other_deck() is None


def test_label_names_the_seed_or_the_deal_code() -> None:
    assert Session.start(seed=5).label() == "seed 5 deck 1 · standard game"
    code = "4.11:5.12.3.1.9.17.2.8.14"
    assert Session.start(deal_code=code).label() == f"deal {code} · recipe challenge"


def test_faces_and_preview_words() -> None:
    assert [face(v) for v in (1, 3, 6, 10, 15, -2)] == ["1", "3", "6", "10", "⊔", "-2"]
    session = Session.start(seed=1)
    session.move(-6, 0)
    outcome = session.preview()
    assert outcome is not None and not outcome.legal
    headline = outcome_lines(outcome, 0).headline
    assert "cover at least one area" in headline


def test_view_follows_the_card_beyond_a_small_view() -> None:
    assert _axis_origin(0, 20, 18, 19, 10, previous=0) == 10  # just enough to show the card
    assert _axis_origin(0, 20, 0, 1, 10, previous=11) == 0
    assert _axis_origin(0, 20, 5, 6, 10, previous=3) == 3  # the card in view: no scrolling
    assert _axis_origin(0, 5, 2, 3, 10, previous=None) == -2  # all fits: centred
    # the woodland (0..5) fits but a stale view has lost it: moved just enough to show it
    assert _axis_origin(0, 5, 2, 3, 10, previous=-10) == -4
    # the woodland fits and the card reaches past the view: the card is clipped, not
    # the woodland (0..7 stays whole in 0..9; the card's 10 is cut)
    assert _axis_origin(0, 7, 8, 10, 10, previous=-1) == 0
    assert _axis_origin(0, 7, -3, -1, 10, previous=0) == -2  # as far left as keeps 7 in view
    assert _axis_origin(0, 7, 3, 4, 10, previous=-1) == -1  # a drop elsewhere: no re-centring


def test_grid_reads_without_colour() -> None:
    session = Session.start(seed=1)
    squares = dict(session.game.woodland.squares)
    state = WoodlandState(squares=squares)
    size = choose_size(state, 60, 20)
    assert size in SIZES
    lines = grid_segments(state, SIZES[-1], -1, -1, 40, 6)
    text = "\n".join("".join(seg.text for seg in line) for line in lines)
    for square in squares.values():
        letters = "╱".join(c.value.lower() for c in square.area.colours)
        assert letters[0] in text
    assert "╱" in text  # the start card's split area


def test_end_summary_says_why_a_stuck_game_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session.start(seed=2)
    real = session.game.result()
    stuck = real.model_copy(update={"stuck": True, "finished": True, "won": False})
    monkeypatch.setattr(session.game, "result", lambda: stuck)
    text = summary_text(session).plain
    assert "No card in your hand fits anywhere" in text
    assert session.deal.code in text
    assert "Not a win" in text


def test_run_game_refuses_a_bad_deal_code(capsys: pytest.CaptureFixture[str]) -> None:
    from forage.cli.play import run_game

    assert run_game(None, "1.2.99", False, 1, None) == 2
    assert "99" in capsys.readouterr().err
    assert run_game(None, None, False, 3, None) == 2


def test_a_session_writes_nothing_itself(forage_home: Path, tmp_path: Path) -> None:
    """Placing, undoing and redoing change the game only; the keeper writes it down."""
    record = tmp_path / "game.json"
    session = Session.start(seed=8, record_path=record)
    assert session.go_to(next(session.game.outcomes()).placement)
    assert session.place() is not None
    assert session.undo() is not None and session.redo() is not None
    assert not save_path().exists() and not record.exists()
    Keeper().keep(session)
    assert json.loads(save_path().read_text())["moves"] == [session.game.moves[0].notation()]
    assert json.loads(record.read_text())["moves"][0]["card"] == session.game.moves[0].card


def test_brief_details_count_each_kind_of_change_costs_first() -> None:
    """The brief details agree with the effects they count, whatever the drop: mice,
    Edwood and food dice back to the supply before the dice added, raised and carried."""
    from forage.app.describe import brief_details
    from forage.engine import Effect

    seen = 0
    for seed in (5, 9):
        game = Session.start(seed=seed).game
        while not game.is_over():
            outcomes = [o for o in game.outcomes() if o.legal]
            for outcome in outcomes:
                brief = brief_details(outcome)
                mice = sum(1 for e in outcome.effects if e.effect is Effect.MOUSE)
                new = sum(1 for e in outcome.effects if e.effect is Effect.PLACED)
                if mice:
                    assert brief.startswith(f"{mice} {'mouse' if mice == 1 else 'mice'}")
                    seen += 1
                if new:
                    assert f"{new} new di" in brief
                edwood = any(e.effect is Effect.EDWOOD for e in outcome.effects)
                assert ("Edwood -5" in brief) == edwood
                if mice and new:
                    assert brief.index(" mi" if mice > 1 else " mouse") < brief.index(" new")
            game.push(max(outcomes, key=lambda o: o.score_change))
    assert seen


@given(
    counts=st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=8),
    hint=st.booleans(),
    width=st.integers(min_value=20, max_value=120),
)
def test_brief_within_a_width_drops_whole_counts_from_the_end_and_keeps_the_key_hint(
    counts: list[int], hint: bool, width: int
) -> None:
    """A brief too long for its line loses whole counts from its end, an ellipsis in their
    place, never a word cut short; the c key's hint stays; one that fits is left alone."""
    from forage.app.describe import DOT, ELLIPSIS, MOUSE_HINT, brief_within

    counts_of = [f"{n} raised" for n in counts]
    parts = counts_of + ([MOUSE_HINT] if hint else [])
    brief = f" {DOT} ".join(parts)
    fitted = brief_within(brief, width)
    assert len(fitted) <= width
    if len(brief) <= width:
        assert fitted == brief
        return
    kept = fitted.split(f" {DOT} ")
    assert kept[-1] == MOUSE_HINT if hint else kept[-1] == ELLIPSIS
    shown = [p for p in kept if p not in (ELLIPSIS, MOUSE_HINT)]
    assert shown == counts_of[: len(shown)]  # a prefix of the counts, each whole
    one_more = [*counts_of[: len(shown) + 1], ELLIPSIS, *([MOUSE_HINT] if hint else [])]
    assert len(shown) + 1 == len(counts) or len(f" {DOT} ".join(one_more)) > width
