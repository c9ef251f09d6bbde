"""A room as a pure state machine (forage.net.rooms): the caller calls each card only when
every player still in the game has placed; refusals carry the contract's codes; players
who get stuck, leave or never come back are out and the room goes on."""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest
from helpers import card, place
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from room_helpers import (
    RULES,
    cards_told,
    errors,
    first_legal,
    place_first,
    place_in,
    play_out,
    room_of,
    to,
)

from forage.engine import Deal, Deck
from forage.net.client import PlayerGame
from forage.net.protocol import (
    DealOut,
    EndOut,
    JoinedOut,
    LeftOut,
    LobbyOut,
    PlacedOut,
    ProgressOut,
    TurnOut,
)
from forage.net.rooms import (
    Ended,
    Moved,
    Phase,
    PlayerStatus,
    Room,
    RoomRules,
    Status,
    StoredPlayer,
    StoredRoom,
    Update,
    token_hash,
)
from forage.record import load_game


@pytest.mark.parametrize(("players", "recipes"), [(2, False), (4, True), (8, False)])
def test_a_room_plays_to_the_end_and_each_record_replays_to_its_final(
    players: int, recipes: bool
) -> None:
    room = room_of(players, Deal.from_seed(11, recipes=recipes))
    started = room.start(1, 1.0)
    deals = [m for p in range(1, players + 1) for m in to(started, p) if isinstance(m, DealOut)]
    assert len(deals) == players
    assert deals[0].recipes == list(room.deal.recipes or [])
    updates = play_out(room)
    ends = [m for m in to(updates[-1], 1) if isinstance(m, EndOut)]
    assert room.phase is Phase.ENDED and len(ends) == 1
    results = ends[0].results
    assert sorted(r.player for r in results) == list(range(1, players + 1))
    assert [r.final for r in results] == sorted((r.final for r in results), reverse=True)
    for line in results:
        game, refusal = load_game(json.dumps(line.record))
        assert refusal is None and game.is_finished()
        assert game.result().score.final == line.final
        assert game.result().won == line.won
    assert any(isinstance(e, Ended) for e in updates[-1].events)


def test_the_deal_tells_three_cards_and_no_card_is_called_before_everyone_has_placed() -> None:
    room = room_of(3)
    started = room.start(1, 1.0)
    for player in (1, 2, 3):
        told = set().union(*(cards_told(m) for m in to(started, player)))
        assert told == set(room.deal.cards[:3])
    assert not [m for m in to(place_first(room, 1), 1) if isinstance(m, TurnOut)]
    assert not [s for s in place_first(room, 3).sends if isinstance(s.message, TurnOut)]
    last = place_first(room, 2)
    calls = [s for s in last.sends if isinstance(s.message, TurnOut)]
    assert sorted(s.to for s in calls) == [1, 2, 3]
    assert all(s.message.turn == 2 and s.message.card == room.deal.cards[3] for s in calls)
    standings = calls[0].message.standings
    assert [line.placed for line in standings] == [1, 1, 1]
    assert [line.score for line in standings] == sorted(
        (line.score for line in standings), reverse=True
    )


def test_placed_tells_the_player_their_score_as_the_engine_has_it() -> None:
    room = room_of(2)
    room.start(1, 1.0)
    placement = first_legal(room, 2)
    update = room.place(2, place_in(1, placement), 1.0)
    placed, progress = to(update, 2)
    assert isinstance(placed, PlacedOut) and placed.turn == 1
    assert progress == ProgressOut(turn=1, placed=[2], waiting=[1])
    assert to(update, 1) == [progress]  # the others learn who has placed, not where
    game = room.seats[2].game
    assert game is not None and placed.score == game.score()
    assert placed.placement() == placement
    assert update.events == [Moved(2, 1, placement)]


def test_placements_out_of_turn_are_refused_with_the_contracts_codes() -> None:
    room = room_of(2)
    assert errors(place_first_before_start(room), 1) == [("not-started", None)]
    room.start(1, 1.0)
    wrong = room.place(1, place_in(1, place(room.deal.cards[8], 0, 0)), 1.0)
    assert errors(wrong, 1) == [("illegal", "not-in-hand")]
    far = room.place(1, place_in(1, place(room.deal.cards[1], 50, 50)), 1.0)
    assert errors(far, 1) == [("illegal", "no-overlap")]
    assert errors(room.place(1, place_in(2, first_legal(room, 1)), 1.0), 1) == [
        ("stale-turn", None)
    ]
    assert not place_first(room, 1).refused()
    assert errors(place_first(room, 1), 1) == [("already-placed", None)]
    place_first(room, 2)
    assert room.turn == 2
    late = room.place(1, place_in(1, first_legal(room, 1)), 1.0)
    assert errors(late, 1) == [("stale-turn", None)]
    assert late.events == []
    assert not place_first(room, 1).refused()  # the game goes on


def place_first_before_start(room: Room) -> Update:
    return room.place(1, place_in(1, place(room.deal.cards[1], 0, 0)), 1.0)


def test_lobby_refusals_full_started_not_host_name_taken() -> None:
    room = room_of(8)
    assert errors(room.join("Zed", "t", 0.0), 0) == [("full", None)]
    small = room_of(1)
    assert errors(small.start(1, 0.0), 1) == [("not-started", None)]
    assert errors(small.join("ann", "t", 0.0), 0) == [("name-taken", None)]
    small.join("Bob", "t2", 0.0)
    assert errors(small.start(2, 0.0), 2) == [("not-host", None)]
    assert not small.start(1, 0.0).refused()
    assert errors(small.start(1, 0.0), 1) == [("started", None)]
    assert errors(small.join("Cy", "t3", 0.0), 0) == [("started", None)]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("\u00c1nn", "A\u0301nn"),
        ("Ann", "\uff21\uff4e\uff4e"),
        ("Zoë", "ZOË"),
        ("Paul", "\u0420aul"),  # a Cyrillic Р
        ("Paul", "P\u0430ul"),  # a Cyrillic а
        ("pop", "\u0440\u043e\u0440"),  # рор, wholly Cyrillic
        ("b0b", "BOB"),
    ],
)
def test_two_names_that_read_the_same_cannot_share_a_room(first: str, second: str) -> None:
    room, _ = Room.create("ROOM", Deal.from_seed(1), first, "t1", 0.0)
    assert errors(room.join(second, "t2", 0.0), 0) == [("name-taken", None)]
    assert not room.join("Saul", "t3", 0.0).refused()
    assert [p.name for p in room.lobby().players] == [first, "Saul"]


def test_a_lobby_takes_in_only_so_many_players_in_all() -> None:
    room, _ = Room.create("ROOM", Deal.from_seed(1), "Ann", "t0", 0.0)
    for n in range(1, room.rules.most_joins):  # each comes and goes
        update = room.join(f"P{n}", f"t{n}", 0.0)
        assert update.player is not None, n
        room.leave(update.player, 0.0)
    assert len(room.members()) == 1
    assert errors(room.join("Zed", "tz", 0.0), 0) == [("full", None)]


ALL_B, ALL_C, ALL_M = "B B B B B B", "C C C C C C", "M M M M M M"


def test_a_stuck_player_is_out_and_the_room_goes_on_without_them() -> None:
    # Card 2 laid exactly on card 1 makes five bramble mice and uses Edwood: neither leaf
    # card in hand can go anywhere (R13). Laid beside card 1 it leaves bare areas.
    cards = [card(n + 1, areas) for n, areas in enumerate((ALL_M, ALL_B, ALL_C, ALL_C, ALL_C))]
    room = room_of(2, Deal(cards=(1, 2, 3, 4, 5)), cards=Deck.of(cards))
    room.start(1, 1.0)
    stuck = room.place(1, place_in(1, place(2, 0, 0)), 1.0)
    # not told before the call: the others see player 1 as having placed, as any player
    assert [m.type for m in to(stuck, 1)] == ["placed", "progress"]
    assert to(stuck, 2) == [ProgressOut(turn=1, placed=[1], waiting=[2])]
    assert PlayerStatus(1, Status.STUCK) in stuck.events
    call = room.place(2, place_in(1, place(2, 1, 0)), 1.0)
    [turn] = [m for m in to(call, 1) if isinstance(m, TurnOut)]
    assert {line.player: line.playing for line in turn.standings} == {1: False, 2: True}
    assert errors(room.place(1, place_in(2, place(3, 0, -2)), 1.0), 1) == [("illegal", "game-over")]
    updates = play_out(room)
    [end] = [m for m in to(updates[-1], 1) if isinstance(m, EndOut)]
    finals = {line.player: line for line in end.results}
    assert finals[1].won is False
    replayed, _ = load_game(json.dumps(finals[1].record))
    assert replayed.is_stuck() and replayed.result().score.final == finals[1].final


def test_a_player_who_never_comes_back_is_out_after_the_wait() -> None:
    room = room_of(3)
    room.start(1, 1.0)
    place_first(room, 1, 2.0)
    place_first(room, 2, 2.0)
    gone = room.disconnect(3, 5.0)
    assert [s.to for s in gone.sends] == [1, 2]
    assert all(isinstance(s.message, LobbyOut) for s in gone.sends)
    assert room.deadline() == 5.0 + RULES.wait_seconds
    early = room.tick(5.0 + RULES.wait_seconds - 1)
    assert early.sends == [] and room.turn == 1
    late = room.tick(5.0 + RULES.wait_seconds)
    assert PlayerStatus(3, Status.DROPPED) in late.events
    calls = [s for s in late.sends if isinstance(s.message, TurnOut)]
    assert sorted(s.to for s in calls) == [1, 2] and room.turn == 2
    back = room.rejoin("token-3", 200.0)  # back as a watcher: the game ended as it stood
    assert back.player == 3
    assert errors(place_first(room, 3), 3) == [("illegal", "game-over")]


def test_a_player_back_within_the_wait_is_not_dropped() -> None:
    room = room_of(2)
    room.start(1, 1.0)
    room.disconnect(2, 5.0)
    room.rejoin("token-2", 100.0)
    assert room.tick(500.0).events == []
    assert room.seats[2].status is Status.IN


def test_the_host_leaving_passes_the_host_role_on() -> None:
    room = room_of(3)
    left = room.leave(1, 2.0)
    assert isinstance(to(left, 1)[0], LeftOut)
    assert room.host == 2
    lobby = to(left, 3)[-1]
    assert isinstance(lobby, LobbyOut) and lobby.host == 2
    assert [p.player for p in lobby.players] == [2, 3]
    assert not room.start(2, 3.0).refused()


def test_everyone_leaving_a_lobby_closes_it() -> None:
    room = room_of(2)
    room.leave(1, 1.0)
    update = room.leave(2, 1.0)
    assert update.closed and room.phase is Phase.ENDED


def test_a_player_leaving_mid_game_is_out_and_the_card_is_called_for_the_rest() -> None:
    room = room_of(3)
    room.start(1, 1.0)
    place_first(room, 1)
    place_first(room, 2)
    left = room.leave(3, 2.0)
    assert PlayerStatus(3, Status.LEFT) in left.events
    assert sorted(s.to for s in left.sends if isinstance(s.message, TurnOut)) == [1, 2]


@pytest.mark.parametrize("started", [False, True])
def test_an_idle_room_ends_and_says_why(started: bool) -> None:
    room = room_of(2)
    if started:
        room.start(1, 10.0)
        place_first(room, 1, 20.0)
    assert room.deadline() == (20.0 if started else 0.0) + RULES.idle_seconds
    update = room.tick(room.deadline() or 0.0)
    [end] = [m for m in to(update, 2) if isinstance(m, EndOut)]
    assert end.reason == "idle"
    assert len(end.results) == (2 if started else 0)
    assert room.phase is Phase.ENDED and not update.closed
    assert room.tick(room.deadline() or 0.0).closed  # kept a while for rejoins, then closed


def test_rejoin_sends_what_rebuilds_the_players_game() -> None:
    room = room_of(2)
    room.start(1, 1.0)
    for _ in range(3):
        place_first(room, 1)
        place_first(room, 2)
    place_first(room, 2)
    room.disconnect(2, 3.0)
    back = room.rejoin("token-2", 4.0)
    told = to(back, 2)
    assert isinstance(told[0], JoinedOut) and told[0].token == "token-2" and told[0].player == 2
    assert isinstance(told[1], LobbyOut)
    assert isinstance(told[2], DealOut)
    mirror = PlayerGame.dealt(told[2])
    for message in told[3:]:
        mirror.follow(message)
    game = room.seats[2].game
    assert game is not None
    assert mirror.turn == room.turn == 4 and mirror.placed
    assert mirror.moves == game.moves
    assert mirror.game().position.board == game.position.board
    assert set().union(*(cards_told(m) for m in told)) <= set(room.deal.cards[:6])
    assert told[-1] == ProgressOut(turn=4, placed=[2], waiting=[1])  # whom the turn waits for
    assert errors(room.rejoin("not-a-token", 5.0), 0) == [("no-room", None)]


def test_a_player_going_out_mid_turn_is_no_longer_waited_for() -> None:
    room = room_of(3)
    room.start(1, 1.0)
    place_first(room, 1)
    left = room.leave(2, 2.0)
    assert to(left, 1)[-1] == ProgressOut(turn=1, placed=[1], waiting=[3])
    assert to(left, 2) == [LeftOut(room=room.code)]  # gone: told nothing more
    room.disconnect(3, 3.0)
    waited = room.tick(3.0 + RULES.wait_seconds)
    assert [m for m in to(waited, 1) if isinstance(m, ProgressOut)] == []  # the card is called
    assert room.turn == 2


def test_a_room_rebuilt_from_what_is_stored_is_the_same_room() -> None:
    room = room_of(3)
    room.start(1, 1.0)
    events = []
    for _ in range(2):
        for player in (1, 2, 3):
            events.extend(place_first(room, player).events)
    events.extend(place_first(room, 1).events)
    events.extend(room.leave(3, 2.0).events)
    stored = StoredRoom(
        code=room.code,
        kind=room.kind,
        deal=room.deal,
        deck=room.deck,
        seed=None,
        host=room.host,
        phase=room.phase,
        players=tuple(
            StoredPlayer(s.player, s.name, s.token, s.status) for s in room.seats.values()
        ),
        moves=tuple(e for e in events if isinstance(e, Moved)),
    )
    again = Room.restore(stored, 100.0, RULES)
    assert again.turn == room.turn == 3
    for player, seat in room.seats.items():
        twin = again.seats[player]
        assert twin.game is not None and seat.game is not None
        assert twin.game.moves == seat.game.moves and twin.status is seat.status
        assert twin.scores == seat.scores and not twin.connected
    assert again.seats[1].token == token_hash("token-1")
    assert again.deadline() == 100.0 + RULES.wait_seconds
    rest = play_out(again)
    assert again.phase is Phase.ENDED and any(isinstance(e, Ended) for e in rest[-1].events)


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                *("join", "start", *["place"] * 8, "wild", "leave"),
                *("disconnect", "rejoin", "rematch", "tick"),
            ]
        ),
        st.integers(1, 9),
        st.integers(0, 9),
        st.integers(-3, 3),
    ),
    min_size=10,
    max_size=150,
)


def check_told(room: Room, update: Update, known: set[int]) -> None:
    """No message names a card before it is called (the deal's three, then each turn's); a
    call comes only when every player still in has placed the turn before."""
    if room.phase is not Phase.LOBBY:
        known.update(room.deal.cards[:3])
    for send in update.sends:
        message = send.message
        if isinstance(message, TurnOut):
            assert message.card == (
                room.deal.cards[message.turn + 1] if message.turn + 1 < 9 else None
            )
            assert all(s.placed >= message.turn - 1 for s in room.seats.values() if s.playing)
            if message.card is not None:
                known.add(message.card)
        if isinstance(message, EndOut):
            for line in message.results:
                assert set(line.record["deal"]) <= known, line.record
        else:
            assert cards_told(message) <= known, message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS, seed=st.integers(0, 2**64 - 1), recipes=st.booleans())
def test_any_sequence_of_actions_never_tells_a_card_early_and_never_fails(
    actions: Iterable[tuple[str, int, int, int]], seed: int, recipes: bool
) -> None:
    rules = RoomRules(wait_seconds=5, idle_seconds=40, keep_seconds=10)
    room = room_of(2, Deal.from_seed(seed, recipes=recipes), rules=rules)
    known: set[int] = set()
    now = 0.0
    for action, who, number, offset in actions:
        player = 1 + who % max(room.seats)
        seat = room.seats[player]
        if action in ("start", "place", "wild", "leave") and not seat.connected:
            action = "rejoin"  # a player acts only on a connection
        if action == "join":
            update = room.join(f"P{who}{number}", f"token-{len(room.seats) + 1}", now)
        elif action == "start":
            update = room.start(room.host if who < 8 and room.host else player, now)
        elif action == "place" and seat.game is not None and not seat.game.is_over():
            update = place_first(room, player, now)
        elif action in ("place", "wild"):
            update = room.place(
                player,
                place_in(
                    max(1, min(8, room.turn + offset)), place(1 + number * 2, offset, number - 4)
                ),
                now,
            )
        elif action == "leave":
            update = room.leave(player, now)
        elif action == "disconnect":
            update = room.disconnect(player, now)
        elif action == "rejoin":
            update = room.rejoin(f"token-{player}", now)
        elif action == "rematch":
            update = room.may_rematch(player)
            if not update.sends:
                assert room.phase is Phase.ENDED and player == room.host
                update = room.rematched(player, "NEXTROOM")
        else:
            now += number * 1.5
            update = room.tick(now)
        check_told(room, update, known)
        if update.closed:
            break
        assert room.deadline() is not None  # a room always ends, some time
    event(f"{room.phase} at turn {room.turn}")


def test_the_lobby_says_a_recipe_room_and_each_players_status() -> None:
    plain = room_of(2)
    assert plain.lobby().recipes is False
    challenge = room_of(3, deal=Deal.from_seed(7, recipes=True))
    assert challenge.lobby().recipes is True
    challenge.start(1, 0.0)
    challenge.leave(2, 1.0)
    statuses = {line.player: line.status for line in challenge.lobby().players}
    assert statuses == {1: "in", 2: "left", 3: "in"}
