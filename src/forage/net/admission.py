"""Who may make a room, try to join one or register a name for the daily: the rooms server's
limits as rules of their own, given the time, with no connection or database in them (tested
as :class:`~forage.net.rooms.Room` is).

- at most :attr:`ServerRules.max_rooms` rooms are open, and
  :attr:`ServerRules.rooms_per_address` made from one address (not this computer's own,
  where every browser tab plays from, unless :attr:`ServerRules.local_rooms_limited`);
  ``create`` beyond that is ``full`` (daily tries are not counted: each player has one a
  day);
- failed joins (an unknown room, a wrong token, a daily under a name registered with
  another token) are limited per connection (past
  :attr:`ServerRules.failed_joins_per_connection`, ``rate`` and closed: a new connection
  may try again) and, well above that, per client address (past
  :attr:`ServerRules.failed_joins` in :attr:`ServerRules.failed_join_seconds`, ``rate``
  for every connection from it until the address has waited);
- an address registers at most :attr:`ServerRules.registrations` names for the daily in
  :attr:`ServerRules.registration_seconds`.

An address is counted as :func:`address_key` says: an IPv6 address by its /64 network.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from forage.net.bucket import Bucket
from forage.net.forwarded import Proxies
from forage.net.patience import Patience
from forage.net.protocol import MAX_MESSAGE_BYTES, ErrorCode
from forage.net.rooms import Kind, Phase, Room, RoomRules

ADDRESSES_KEPT: Final = 10_000
"""The most client addresses whose failed joins are counted at once (the oldest go first)."""


def address_key(address: str) -> str:
    """What a client's limits are counted by: an IPv4 address, or an IPv6 address's /64
    network (one home or host holds a whole /64); anything else as it is."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return str(found)


@dataclass(frozen=True)
class ServerRules:
    """The limits of a rooms server."""

    max_rooms: int = 1000
    rooms_per_address: int = 20
    """The most open rooms made from one client address (more ``create`` is ``full``)."""
    local_rooms_limited: bool = False
    """Whether :attr:`rooms_per_address` holds for this computer's own addresses too: not
    by default, as every browser tab of ``forage serve`` plays from it."""
    room: RoomRules = field(default_factory=RoomRules)
    queue_size: int = 256
    """Messages waiting to be sent to a client; one more cuts the client off."""
    burst: int = 40
    per_second: float = 20.0
    """A client may send ``burst`` messages at once, and ``per_second`` on average."""
    bytes_burst: int = 16 * MAX_MESSAGE_BYTES
    bytes_per_second: float = 32 * 1024
    """A client may send ``bytes_burst`` bytes at once, and ``bytes_per_second`` on average
    (the messages of a game are a few hundred bytes)."""
    failed_joins_per_connection: int = 5
    """A connection may fail to join this many times; the next failure is ``rate``."""
    failed_joins: int = 60
    failed_join_seconds: float = 600.0
    """An address may fail to join ``failed_joins`` times, one more each of these periods:
    far more than a household's players mistype, far fewer than finding a room by guessing
    its code takes (one in 600 million tries with 1000 rooms open)."""
    join_seconds: float = 30.0
    """A connection that has not asked for a room this long after it opened is closed (a
    player's game connects as it creates or joins)."""
    registrations: int = 10
    registration_seconds: float = 3600.0
    """An address may register ``registrations`` names for the daily, one more each of these
    periods."""
    sweep_seconds: float = 2.0
    """How often a server sharing its database looks for rooms whose deadline has come."""
    dead_seconds: float = 10.0
    """A server sharing the database that has not said it is running for this long has
    stopped: the rooms wait for its players."""
    heartbeat: float = 20.0
    """Seconds between pings; a client that does not answer within half of it is gone."""
    close_seconds: float = 5.0
    """How long a closing connection has to take its last messages."""
    patience: Patience = field(default_factory=Patience)
    """How long the database is waited for, and when players are told it is slow."""
    proxies: Proxies = field(default_factory=Proxies)
    """The reverse proxies whose ``X-Forwarded-*`` headers are believed
    (:mod:`forage.net.forwarded`): the limits then count the forwarded client."""


class PerAddress:
    """A token bucket for each client address (the most recent :data:`ADDRESSES_KEPT`)."""

    def __init__(self, capacity: int, seconds: float) -> None:
        """``capacity`` at once from one address, one more each ``seconds / capacity``."""
        self.capacity = capacity
        self.rate = capacity / seconds
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def spent(self, address: str, now: float) -> bool:
        """Whether the address has nothing left (nothing taken)."""
        bucket = self._buckets.get(address)
        return bucket is not None and bucket.empty(now)

    def take(self, address: str, now: float) -> bool:
        """Take one for the address if it has one left; whether it had."""
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = Bucket.full(self.capacity, self.rate, now)
        self._buckets[address] = bucket
        while len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)
        return bucket.take(now)


@dataclass(frozen=True)
class Refusal:
    """Why something is not let in: the error to answer with, and whether the connection
    closes after it (``rate``)."""

    code: ErrorCode
    message: str
    closes: bool = False


ADDRESS_FAILED: Final = Refusal(
    ErrorCode.RATE, "too many failed joins from your address: wait", closes=True
)
CONNECTION_FAILED: Final = Refusal(
    ErrorCode.RATE, "too many failed joins: check the code", closes=True
)
REGISTERED_ENOUGH: Final = Refusal(
    ErrorCode.RATE, "too many names registered from here: wait", closes=True
)


class Admission:
    """The server's limits on making rooms, failed joins and the daily's names, and the
    addresses the rooms in play were made from."""

    def __init__(self, rules: ServerRules) -> None:
        """Limits as ``rules`` sets them, nothing counted yet."""
        self.rules = rules
        self._failed = PerAddress(rules.failed_joins, rules.failed_join_seconds)
        self._registered = PerAddress(rules.registrations, rules.registration_seconds)
        self._maker: dict[str, str] = {}
        """The client address each room in play was made from."""

    def create(self, address: str, local: bool, rooms: Iterable[Room]) -> Refusal | None:
        """Why a client at ``address`` (``local``: this computer) may not make a room, with
        ``rooms`` in play; None if it may."""
        rules = self.rules
        in_play = [room for room in rooms if room.phase is not Phase.ENDED]
        if sum(1 for room in in_play if room.kind is Kind.ROOM) >= rules.max_rooms:
            return Refusal(
                ErrorCode.FULL,
                f"this server has {rules.max_rooms} rooms open, its most: try again later",
            )
        most = rules.rooms_per_address
        limited = rules.local_rooms_limited or not local
        made = sum(1 for room in in_play if self._maker.get(room.code) == address)
        if limited and made >= most:
            return Refusal(
                ErrorCode.FULL,
                f"{most} rooms made from your address are open, the most: play or leave one first",
            )
        return None

    def made(self, code: str, address: str) -> None:
        """A room was made from an address."""
        self._maker[code] = address

    def forget(self, code: str) -> None:
        """A room is out of play."""
        self._maker.pop(code, None)

    def may_try(self, address: str, now: float) -> Refusal | None:
        """Why an address may not try to join now (it has failed too often); None if it may."""
        return ADDRESS_FAILED if self._failed.spent(address, now) else None

    def failed(self, address: str, failures: int, now: float) -> Refusal | None:
        """A join failed, the connection's ``failures``-th: why the connection closes now,
        or None (the failure is then only answered)."""
        if not self._failed.take(address, now):
            return ADDRESS_FAILED
        if failures > self.rules.failed_joins_per_connection:
            return CONNECTION_FAILED
        return None

    def register(self, address: str, now: float) -> Refusal | None:
        """An address registers a name for the daily: why it may not, or None (counted)."""
        return None if self._registered.take(address, now) else REGISTERED_ENOUGH
