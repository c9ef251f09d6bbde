"""``forage serve``'s rooms: the rooms server it opens beside the browser game.

Imported only when serving (it loads aiohttp through :mod:`forage.net.server`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from forage.cli.errors import BadInput
from forage.i18n import _
from forage.net.admission import ServerRules
from forage.net.database import StoreError
from forage.net.forwarded import Proxies
from forage.net.server import RoomServer
from forage.net.service import RoomService
from forage.net.store import RoomStore
from forage.wording import shown

MOST_ROOMS: Final = 100_000
"""The largest --max-rooms."""


def room_server(
    max_rooms: int | None, url: str | None = None, proxies: Proxies | None = None
) -> RoomServer:
    """The rooms server, at most ``max_rooms`` open (default: :class:`ServerRules`'), its
    store in PostgreSQL at ``url`` or else in the data folder, believing the forwarded
    clients of ``proxies``; BadInput names a store that cannot be used."""
    rules = ServerRules(proxies=proxies or Proxies())
    if max_rooms is not None:
        rules = replace(rules, max_rooms=max_rooms)
    try:
        store = RoomStore.open(url=url)
    except StoreError as exc:
        raise BadInput(_("the rooms' store {problem}").format(problem=shown(exc))) from None
    return RoomServer(RoomService(store, rules))
