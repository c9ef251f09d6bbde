"""The rooms client (forage.net.client): the server's address, and a player's game rebuilt
from what the server tells that player."""

from __future__ import annotations

import pytest
from room_helpers import place_first, room_of, to

from forage.engine import Deal
from forage.net.address import server_url
from forage.net.client import PlayerGame, play_url
from forage.net.protocol import DealOut
from forage.net.rooms import Phase


@pytest.mark.parametrize(
    ("server", "url"),
    [
        ("http://127.0.0.1:8000", "ws://127.0.0.1:8000/play"),
        ("https://example.org", "wss://example.org/play"),
        ("127.0.0.1:9000", "ws://127.0.0.1:9000/play"),
        ("ws://host:1/play", "ws://host:1/play"),
    ],
)
def test_a_server_address_names_its_websocket(server: str, url: str) -> None:
    assert play_url(server) == url


@pytest.mark.parametrize(
    ("server", "url"),
    [
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/daily/leaderboard?date=2026-05-01"),
        ("wss://example.org/play", "https://example.org/daily/leaderboard?date=2026-05-01"),
        ("127.0.0.1:9000", "http://127.0.0.1:9000/daily/leaderboard?date=2026-05-01"),
    ],
)
def test_a_server_address_names_its_web_paths(server: str, url: str) -> None:
    assert server_url(server, "/daily/leaderboard", "date=2026-05-01") == url


@pytest.mark.parametrize("server", ["ftp://example.org", "http://", "http://[::1"])
def test_what_is_not_a_server_address_is_a_value_error(server: str) -> None:
    with pytest.raises(ValueError, match=r"not a server address|Invalid IPv6"):
        server_url(server, "/play")
    with pytest.raises(ValueError):
        play_url(server)


@pytest.mark.parametrize(("seed", "recipes"), [(1, False), (5, True), (9, False)])
def test_a_players_game_as_told_is_the_servers_at_every_turn(seed: int, recipes: bool) -> None:
    """Asked after every message (the game carried on as each card is called) and built
    afresh from the same messages, the mirror is the room's game for that player."""
    room = room_of(2, Deal.from_seed(seed, recipes=recipes))
    [deal] = [m for m in to(room.start(1, 1.0), 2) if isinstance(m, DealOut)]
    kept = PlayerGame.dealt(deal)
    told = []
    while room.phase is Phase.PLAYING:
        for player in (1, 2):
            if room.seats[player].placed < room.turn:
                update = place_first(room, player)
                for message in to(update, 2):
                    told.append(message)
                    kept.follow(message)
                    server = room.seats[2].game
                    assert server is not None
                    if message.type != "end":
                        assert kept.game().position.board == server.position.board
                        if message.type == "turn":  # the card called is in hand, as drawn
                            assert kept.game().hand == server.hand
    afresh = PlayerGame.dealt(deal)
    for message in told:
        afresh.follow(message)
    server = room.seats[2].game
    assert server is not None
    assert afresh.game().moves == kept.game().moves == server.moves
    assert afresh.game().score() == kept.game().score() == server.score()
    assert kept.game().woodland == server.woodland


def test_a_players_game_is_over_only_once_its_last_card_is_placed() -> None:
    room = room_of(2, Deal.from_seed(3))
    [deal] = [m for m in to(room.start(1, 1.0), 1) if isinstance(m, DealOut)]
    mirror = PlayerGame.dealt(deal)
    while room.phase is Phase.PLAYING:
        for player in (1, 2):
            if room.seats[player].placed < room.turn:
                for message in to(place_first(room, player), 1):
                    mirror.follow(message)
            game = mirror.game()
            assert game.is_over() is (len(mirror.moves) == 8)
            assert game.turns == 8 and game.draw_pile == 9 - 3 - len(mirror.called)
    assert mirror.game().is_finished()
