"""The player's names on the servers' online daily, kept in their data folder.

The first ``daily`` of a name on a server registers it with a token that every later try
under that name must give: only the player who holds it can play under the name there.
forage makes the token itself and keeps it before the first try is asked for, so that a
connection lost before the server's answer costs nothing: the next try gives the same
token. The tokens are kept in ``online-daily.json`` in the data folder (written
atomically, readable by the player alone), by server and by name key
(:func:`forage.net.protocol.name_key`): a name written in another case or width finds its
token. The server also takes the token with a name that merely reads as the registered
one (the same :func:`forage.net.protocol.name_skeleton`), but a player names themself
the same way each time, so the key is enough here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

from forage.files import write_atomic
from forage.net.protocol import name_key
from forage.paths import data_dir

TOKENS_NAME: Final = "online-daily.json"
"""The file, in the data folder, of the player's names on each server."""
MOST_BYTES: Final = 1_000_000
"""A tokens file larger than this is not one forage wrote: read as none."""


def tokens_path() -> Path:
    """Where the player's daily tokens are kept."""
    return data_dir() / TOKENS_NAME


def _server_key(server: str) -> str:
    """A server as the file names it (its address without a trailing slash)."""
    return server.rstrip("/").lower()


def _read() -> dict[str, dict[str, str]]:
    """Every token kept, by server and name key; nothing where the file is missing or is
    not one forage wrote (it is then written afresh with the next registration)."""
    try:
        path = tokens_path()
        if path.stat().st_size > MOST_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        server: {name: token for name, token in names.items() if isinstance(token, str)}
        for server, names in data.items()
        if isinstance(server, str) and isinstance(names, dict)
    }


def daily_token(server: str, name: str) -> str | None:
    """The token this player holds for ``name`` on ``server``'s daily, if any."""
    return _read().get(_server_key(server), {}).get(name_key(name))


def keep_daily_token(server: str, name: str, token: str | None) -> None:
    """Keep the token of ``name`` on ``server`` (None: forget it), atomically, the file
    readable by the player alone. Raises OSError when the data folder cannot be written."""
    kept = _read()
    names = kept.setdefault(_server_key(server), {})
    if token is None:
        names.pop(name_key(name), None)
    else:
        names[name_key(name)] = token
    path = tokens_path()
    write_atomic(path, json.dumps(kept, indent=1, sort_keys=True) + "\n")
    if os.name == "posix":
        os.chmod(path, 0o600)
