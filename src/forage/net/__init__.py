"""Playing together: the rooms of CONTRACT.md ("Playing together") over a websocket.

- :mod:`~forage.net.protocol`: the messages each way, the limits and error codes, and
  reading a client's message strictly.
- :mod:`~forage.net.rooms`: a room as a pure state machine (no I/O, no clock of its own):
  each action returns the messages to send to whom and the changes to store.
- :mod:`~forage.net.store`: rooms, players, moves and results in SQLite, and the live
  rooms read back after a restart.
- :mod:`~forage.net.server`: the aiohttp websocket handler at ``/play``, its limits and
  timers.
- :mod:`~forage.net.client`: an asyncio client of the protocol.
"""
