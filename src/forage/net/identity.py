"""What the player holds on the servers, kept in their data folder: their names on the
online daily and their seats in rooms.

The first ``daily`` of a name on a server registers it with a token that every later try
under that name must give: only the player who holds it can play under the name there.
forage makes the token itself and keeps it before the first try is asked for, so that a
connection lost before the server's answer costs nothing: the next try gives the same
token. The tokens are kept in ``online-daily.json`` in the data folder, by server and by
name key (:func:`forage.net.protocol.name_key`): a name written in another case or width
finds its token. The server also takes the token with a name that merely reads as the
registered one (the same :func:`forage.net.protocol.name_skeleton`), but a player names
themself the same way each time, so the key is enough here.

A seat in a room is the token the server gave with ``joined``: it takes the player's place
back (``rejoin``) at any point of the room's life, after a lost connection or from a new
``forage room join`` once the program is gone. The seats are kept in ``rooms.json`` in the
data folder, by server and by room code, each with the name played under and the turn last
told (0: the lobby); a seat is forgotten once its room has ended, the player has left it
or the server no longer has it.

Both files are written atomically and readable by the player alone; one that is missing,
damaged or not one forage wrote reads as holding nothing (and is written afresh with the
next token kept).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from forage.files import write_atomic
from forage.net.protocol import name_key, room_code
from forage.paths import data_dir

TOKENS_NAME: Final = "online-daily.json"
"""The file, in the data folder, of the player's names on each server."""
SEATS_NAME: Final = "rooms.json"
"""The file, in the data folder, of the player's seats in rooms on each server."""
MOST_BYTES: Final = 1_000_000
"""A file of tokens larger than this is not one forage wrote: read as none."""


def tokens_path() -> Path:
    """Where the player's daily tokens are kept."""
    return data_dir() / TOKENS_NAME


def seats_path() -> Path:
    """Where the player's seats in rooms are kept."""
    return data_dir() / SEATS_NAME


def server_key(server: str) -> str:
    """A server as the files name it (its address without a trailing slash, in lower case)."""
    return server.rstrip("/").lower()


def _read_kept(path: Path) -> dict[str, dict[str, Any]]:
    """A file of tokens as it was written: by server, a table each; nothing where the file
    is missing or is not one forage wrote."""
    try:
        if path.stat().st_size > MOST_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        server: table
        for server, table in data.items()
        if isinstance(server, str) and isinstance(table, dict)
    }


def _write_kept(path: Path, kept: dict[str, dict[str, Any]]) -> None:
    """Write a file of tokens atomically, readable by the player alone; raises OSError."""
    write_atomic(path, json.dumps(kept, indent=1, sort_keys=True) + "\n")
    if os.name == "posix":
        os.chmod(path, 0o600)


def daily_token(server: str, name: str) -> str | None:
    """The token this player holds for ``name`` on ``server``'s daily, if any."""
    token = _read_kept(tokens_path()).get(server_key(server), {}).get(name_key(name))
    return token if isinstance(token, str) else None


def keep_daily_token(server: str, name: str, token: str | None) -> None:
    """Keep the token of ``name`` on ``server`` (None: forget it), atomically, the file
    readable by the player alone. Raises OSError when the data folder cannot be written."""
    path = tokens_path()
    kept = _read_kept(path)
    held = kept.get(server_key(server), {}).items()
    names = {key: value for key, value in held if isinstance(value, str)}
    kept[server_key(server)] = names
    if token is None:
        names.pop(name_key(name), None)
    else:
        names[name_key(name)] = token
    _write_kept(path, kept)


@dataclass(frozen=True)
class Seat:
    """A player's seat in a room: enough to take it back."""

    server: str
    """The server's address, as the player gave it."""
    room: str
    token: str
    name: str
    """The name the player is known by in the room."""
    turn: int = 0
    """The turn last told (0: the room has not been dealt)."""


def _seat(server: str, room: str, entry: object) -> Seat | None:
    """A seat as the file holds it; None for one forage did not write."""
    if not isinstance(entry, dict) or room_code(room) != room:
        return None
    fields = (entry.get("server"), entry.get("token"), entry.get("name"), entry.get("turn"))
    address, token, name, turn = fields
    if not (isinstance(address, str) and server_key(address) == server):
        return None
    if not (isinstance(token, str) and token and isinstance(name, str) and name):
        return None
    if not (isinstance(turn, int) and not isinstance(turn, bool) and turn >= 0):
        return None
    return Seat(address, room, token, name, turn)


def seats(server: str | None = None) -> list[Seat]:
    """The seats this data folder holds (on ``server`` only, if given), by server and code."""
    found: list[Seat] = []
    wanted = None if server is None else server_key(server)
    for key, rooms in sorted(_read_kept(seats_path()).items()):
        if wanted is None or key == wanted:
            made = (_seat(key, room, entry) for room, entry in sorted(rooms.items()))
            found.extend(seat for seat in made if seat is not None)
    return found


def seat_in(server: str, room: str) -> Seat | None:
    """The seat this data folder holds in room ``room`` of ``server``, if any."""
    entry = _read_kept(seats_path()).get(server_key(server), {}).get(room)
    return _seat(server_key(server), room, entry)


def keep_seat(seat: Seat) -> None:
    """Keep a seat (in place of any in the same room), atomically, the file readable by the
    player alone. Raises OSError when the data folder cannot be written."""
    path = seats_path()
    kept = _read_kept(path)
    entry = asdict(seat)
    del entry["room"]
    kept.setdefault(server_key(seat.server), {})[seat.room] = entry
    _write_kept(path, kept)


def forget_seat(server: str, room: str) -> None:
    """Forget the seat in a room, if one is kept. Raises OSError when the data folder cannot
    be written."""
    path = seats_path()
    kept = _read_kept(path)
    rooms = kept.get(server_key(server), {})
    if room not in rooms:
        return
    del rooms[room]
    if not rooms:
        del kept[server_key(server)]
    _write_kept(path, kept)
