"""Playing together: the rooms and the online daily of CONTRACT.md ("Playing together") over
a websocket.

- :mod:`~forage.net.protocol`: the messages each way, the limits and error codes, and
  reading a client's message strictly.
- :mod:`~forage.net.rooms`: a room as a pure state machine (no I/O, no clock of its own):
  each action returns the messages to send to whom and the changes to store.
- :mod:`~forage.net.daily`: the online daily's rules (names, days, a try's room of one,
  the secret of a day's deal) and its leaderboard.
- :mod:`~forage.net.database`: one schema and one set of statements for SQLite and
  PostgreSQL (:mod:`~forage.net.postgres`).
- :mod:`~forage.net.store`: rooms, players, moves, results and the daily's days, names
  and tries; the live rooms read back after a restart.
- :mod:`~forage.net.admission`: who may make a room, try to join or register a name: the
  server's limits, given the time.
- :mod:`~forage.net.patience`: the store's own threads, and a failed call tried again.
- :mod:`~forage.net.service`: the rooms of a server and their clients, no web server in
  it: told only what is stored; the timers, the daily; with PostgreSQL, several servers on
  one database.
- :mod:`~forage.net.server`: the service on aiohttp: the websocket at ``/play``, each
  connection's limits, the daily's leaderboard pages (:mod:`~forage.net.gate` caps the
  connections, :mod:`~forage.net.forwarded` believes a reverse proxy).
- :mod:`~forage.net.client`: an asyncio client of the protocol, and a player's game as told.
- :mod:`~forage.net.link`: a player's link to a room: what they have been told, kept through
  lost connections.

This module itself imports nothing, so that the command line can name the default server.
"""

from typing import Final

DEFAULT_SERVER: Final = "http://127.0.0.1:8000"
"""The rooms server a client plays on unless told (``forage serve``'s own address)."""
ROOMS_SERVER_VARIABLE: Final = "FORAGE_ROOMS_SERVER"
"""Where ``forage serve`` tells a browser tab's game the address of its rooms (the game's
``i`` plays there; else on :data:`DEFAULT_SERVER`)."""
ROOMS_CLIENT_VARIABLE: Final = "FORAGE_ROOMS_CLIENT"
"""Where ``forage serve`` tells a browser tab's game who its player is for the rooms' limits:
the browser's address, signed by the server (:data:`CLIENT_HEADER`)."""
CLIENT_HEADER: Final = "Forage-Client"
"""The header a browser tab's game opens its rooms connection with: the value of
:data:`ROOMS_CLIENT_VARIABLE`, so the server counts the browser's address, not its own."""


def server_option(server: str) -> str:
    """`` --server URL`` as a command is given it, or nothing for :data:`DEFAULT_SERVER`."""
    return "" if server.rstrip("/") == DEFAULT_SERVER else f" --server {server}"
