"""Who a request comes from, and through which name, when ``forage serve`` stands behind a
reverse proxy (``--forwarded-allow-ips``).

The rule, the one both the page's Host and Origin checks and the rooms' limits follow: the
``X-Forwarded-For``, ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` headers of a request are
believed only when its TCP peer is a trusted proxy; the client is then the right-most
address of ``X-Forwarded-For`` that is not itself a trusted proxy (each proxy appends the
address it was reached from, so what stands left of that was written by the client). A
forwarded client is never this computer's own, whatever its address.

Pure: no I/O, no aiohttp.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from multidict import MultiMapping

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FORWARDED_FOR: Final = "X-Forwarded-For"
FORWARDED_PROTO: Final = "X-Forwarded-Proto"
FORWARDED_HOST: Final = "X-Forwarded-Host"
SCHEMES: Final = frozenset({"http", "https"})
"""The schemes a proxy may say its client used."""
FORWARDED_MARK: Final = "forwarded:"
"""What marks a forwarded client whose address is a loopback one, so that it is counted
apart from this computer's own (and never exempt as they are)."""
LONGEST_ADDRESS: Final = 64
"""The most characters of an ``X-Forwarded-For`` entry kept when it is not an address."""
HOST_PATTERN: Final = re.compile(
    r"(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?"
)
"""A host name or IP address, with a port or not, as a ``Host`` header gives it (lower case)."""


def ip_of(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as an IP address (an IPv4-mapped IPv6 address as IPv4), or None."""
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def is_local(address: str) -> bool:
    """Whether a client address is this computer's own (loopback)."""
    found = ip_of(address)
    return found is not None and found.is_loopback


@dataclass(frozen=True)
class Proxies:
    """The reverse proxies whose ``X-Forwarded-*`` headers are believed (none unless told)."""

    networks: tuple[Network, ...] = ()

    def trusts(self, address: str) -> bool:
        """Whether an address is one of the trusted proxies."""
        found = ip_of(address)
        return found is not None and any(found in network for network in self.networks)


class NotProxies(ValueError):
    """An item of a list of proxies that is not an address or network, and why."""

    def __init__(self, item: str, problem: str) -> None:
        """``item`` as given, and what is wrong with it."""
        super().__init__(f"{problem}: {item!r}")
        self.item = item
        self.problem = problem


def parse_proxies(text: str) -> Proxies:
    """The trusted proxies of a comma-separated list of addresses and networks
    (``127.0.0.1,10.0.0.0/8,::1``), or NotProxies naming the first item that is not one."""
    networks = []
    for item in text.split(","):
        word = item.strip()
        if not word:
            raise NotProxies(word, "an empty item (give addresses separated by commas)")
        try:
            networks.append(ipaddress.ip_network(word, strict=True))
        except ValueError as exc:
            if "host bits" in str(exc):
                raise NotProxies(word, "a network with bits set beyond its prefix") from None
            raise NotProxies(word, "not an IP address or network") from None
    return Proxies(tuple(networks))


@dataclass(frozen=True)
class Arrival:
    """Where a request comes from, as the proxies in front of this server say."""

    address: str
    """The client's address (an ``X-Forwarded-For`` entry that is not an address, as given)."""
    scheme: str
    """``http`` or ``https``, as the client reached the server."""
    host: str
    """The host name (and port) the client asked for, lower case."""
    forwarded: bool
    """Whether a trusted proxy told of the client (the request's peer is that proxy)."""

    @property
    def local(self) -> bool:
        """Whether the client is this computer's own: a loopback peer, not forwarded."""
        return not self.forwarded and is_local(self.address)

    @property
    def client(self) -> str:
        """The client as the rooms count it: its address, marked with FORWARDED_MARK when it
        is a forwarded loopback one (so that it is never taken for this computer's own)."""
        if self.forwarded and is_local(self.address):
            return f"{FORWARDED_MARK}{self.address}"
        return self.address

    @property
    def origin(self) -> str:
        """The origin of the page the client was served (``scheme://host``)."""
        return f"{self.scheme}://{self.host}"

    def host_is_valid(self) -> bool:
        """Whether :attr:`host` is a host name or address, with a port or not."""
        return HOST_PATTERN.fullmatch(self.host) is not None


def _entries(values: Iterable[str]) -> list[str]:
    """The comma-separated entries of a header's values, in order, stripped, none empty."""
    return [entry.strip() for value in values for entry in value.split(",") if entry.strip()]


def _address(entry: str) -> str:
    """An ``X-Forwarded-For`` entry as an address: a port or brackets taken off; an entry
    that is no address, as given (cut to LONGEST_ADDRESS characters)."""
    candidates = [entry]
    if entry.startswith("[") and "]" in entry:
        candidates.append(entry[1 : entry.index("]")])
    elif entry.count(":") == 1:
        candidates.append(entry.split(":")[0])
    for candidate in candidates:
        found = ip_of(candidate)
        if found is not None:
            return str(found)
    return entry[:LONGEST_ADDRESS]


def arrival(peer: str, scheme: str, headers: MultiMapping[str], proxies: Proxies) -> Arrival:
    """Where a request from the TCP ``peer``, over ``scheme``, with ``headers``, comes from:
    as its ``X-Forwarded-*`` headers say if the peer is one of ``proxies`` and it has any,
    else the peer itself and its own ``Host``."""
    host = headers.get("Host", "").strip().lower()
    direct = Arrival(peer, scheme, host, forwarded=False)
    if not proxies.trusts(peer):
        return direct
    hops = [_address(entry) for entry in _entries(headers.getall(FORWARDED_FOR, []))]
    protos = _entries(headers.getall(FORWARDED_PROTO, []))
    hosts = _entries(headers.getall(FORWARDED_HOST, []))
    if not hops and not protos and not hosts:
        return direct
    client = next((hop for hop in reversed(hops) if not proxies.trusts(hop)), None)
    if client is None:  # every hop a trusted proxy: the first of them is the client
        client = hops[0] if hops else peer
    # The last value of each is the one the nearest proxy, a trusted one, wrote.
    proto = protos[-1].lower() if protos else scheme
    return Arrival(
        address=client,
        scheme=proto if proto in SCHEMES else scheme,
        host=hosts[-1].lower() if hosts else host,
        forwarded=True,
    )
