"""The view functions: each widget's state from engine values alone (no screen)."""

from __future__ import annotations

from forage.app.session import Session
from forage.app.view import card_cells, hand_state, standing_of, status_state, woodland_state
from forage.engine import Rotation


def test_card_cells_are_the_cards_areas_where_the_placement_puts_them() -> None:
    session = Session.start(seed=3)
    cursor = session.cursor
    assert cursor is not None
    card = session.game.card(cursor.card)
    cells = card_cells(session.game, cursor)
    width, height = card.size(cursor.rotation)
    assert len(cells) == width * height
    assert {(x - cursor.x, y - cursor.y) for x, y, _ in cells} == {
        (dx, dy) for dx, dy, _ in card.footprint(cursor.rotation)
    }
    assert card_cells(session.game, None) == ()


def test_the_standing_is_a_copy_later_moves_leave_alone() -> None:
    session = Session.start(seed=3)
    standing = standing_of(session.game, serial=2)
    squares = dict(standing.squares)
    best = max(session.game.outcomes(), key=lambda o: o.score_change)
    session.game.push(best.placement)
    assert standing.squares == squares
    assert standing.key == (2, ())
    assert standing_of(session.game, 2).key == (2, (best.placement,))


def test_the_woodland_state_previews_the_drop_only_when_asked() -> None:
    session = Session.start(seed=3)
    session.move(1, 0)
    outcome = session.preview()
    assert outcome is not None
    squares = standing_of(session.game).squares
    shown = woodland_state(session.game, squares, outcome)
    hidden = woodland_state(session.game, squares, outcome, previews=False, peek=True)
    assert shown.previews and not hidden.previews and hidden.peek
    assert shown.card == card_cells(session.game, outcome.placement)


def test_the_hand_marks_the_card_being_placed_and_its_rotation() -> None:
    session = Session.start(seed=3)
    session.next_card()
    session.rotate()
    state = hand_state(session.game, session.cursor, challenge=False)
    assert state.selected == 1 and state.rotation is Rotation.R90
    assert [card.number for card in state.cards] == list(session.game.hand)


def test_the_status_says_what_to_do_before_the_card_has_moved() -> None:
    session = Session.start(seed=1)
    session.game.push(max(session.game.outcomes(), key=lambda o: o.score_change).placement)
    session.reset_cursor()
    outcome = session.preview()
    standing = standing_of(session.game)
    waiting = status_state(session.game, standing, outcome, waiting=True, peek=False, note="")
    assert waiting.tone == "idle" and "Move it onto the woodland" in waiting.headline
    over = status_state(session.game, standing, None, waiting=False, peek=False, note="n")
    assert over.headline == "The game is over." and over.note == "n"
