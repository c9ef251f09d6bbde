"""Builders for tests of rooms (forage.net): a pure room with players, placements for a
turn, the messages an update sends each player."""

from __future__ import annotations

from forage.engine import Deal, Deck, Placement
from forage.net.protocol import DealOut, ErrorOut, PlacedOut, PlaceIn, ServerMessage, TurnOut
from forage.net.rooms import Phase, Room, RoomRules, Update

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
RULES = RoomRules(wait_seconds=120, idle_seconds=1000, keep_seconds=50)


def to(update: Update, player: int) -> list[ServerMessage]:
    """The messages an update sends one player, in order."""
    return [send.message for send in update.sends if send.to == player]


def errors(update: Update, player: int) -> list[tuple[str, str | None]]:
    """The (code, reason) of each error an update sends one player."""
    return [(m.code, m.reason) for m in to(update, player) if isinstance(m, ErrorOut)]


def place_in(turn: int, placement: Placement) -> PlaceIn:
    """The place message of a placement for a turn."""
    return PlaceIn(
        turn=turn,
        card=placement.card,
        rotation=int(placement.rotation),
        x=placement.x,
        y=placement.y,
        mouse=[{"x": m.x, "y": m.y, "colour": m.colour} for m in placement.mouse],
    )


def room_of(
    players: int = 2, deal: Deal | None = None, rules: RoomRules = RULES, cards: Deck | None = None
) -> Room:
    """A room in its lobby with ``players`` players, 1 the host."""
    room, _ = Room.create(
        "ROOMCODE", deal or Deal.from_seed(7), NAMES[0], "token-1", 0.0, rules=rules, cards=cards
    )
    for index in range(1, players):
        assert room.join(NAMES[index], f"token-{index + 1}", 0.0).player == index + 1
    return room


def first_legal(room: Room, player: int) -> Placement:
    """The first legal placement of a player's hand (the engine's order)."""
    game = room.seats[player].game
    assert game is not None
    return next(game.outcomes()).placement


def place_first(room: Room, player: int, now: float = 1.0) -> Update:
    """The player places the first legal placement for the turn being played."""
    return room.place(player, place_in(room.turn, first_legal(room, player)), now)


def cards_told(message: ServerMessage) -> set[int]:
    """The card numbers a message names (an end's records aside)."""
    if isinstance(message, DealOut):
        return {message.start, *message.hand}
    if isinstance(message, TurnOut):
        return set() if message.card is None else {message.card}
    if isinstance(message, PlacedOut):
        return {message.card}
    return set()


def play_out(room: Room, now: float = 1.0) -> list[Update]:
    """Every player still in places the first legal placement, turn after turn, to the end."""
    updates = []
    while room.phase is Phase.PLAYING:
        for seat in list(room.seats.values()):
            if seat.playing and seat.placed < room.turn and room.phase is Phase.PLAYING:
                updates.append(place_first(room, seat.player, now))
    return updates
