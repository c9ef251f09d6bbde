"""Whom a request behind a reverse proxy comes from (forage.net.forwarded): the headers of a
trusted proxy only, the right-most untrusted hop, and never this computer's own."""

from __future__ import annotations

import pytest
from multidict import CIMultiDict

from forage.cli.game_server import refusal
from forage.net.forwarded import (
    Arrival,
    NotProxies,
    Proxies,
    arrival,
    is_local,
    parse_proxies,
)

NGINX = parse_proxies("127.0.0.1")


def headers(*pairs: tuple[str, str]) -> CIMultiDict[str]:
    """Request headers, a name possibly repeated."""
    return CIMultiDict(pairs)


def test_addresses_and_networks_are_parsed_with_spaces_around_commas() -> None:
    proxies = parse_proxies("127.0.0.1, 10.0.0.0/8,::1,2001:db8::/32")
    assert [str(n) for n in proxies.networks] == [
        "127.0.0.1/32",
        "10.0.0.0/8",
        "::1/128",
        "2001:db8::/32",
    ]
    assert proxies.trusts("10.20.30.40") and proxies.trusts("2001:db8::7")
    assert proxies.trusts("::ffff:127.0.0.1")  # a dual-stack socket's IPv4 peer
    assert not proxies.trusts("11.0.0.1") and not proxies.trusts("not-an-address")


@pytest.mark.parametrize(
    ("text", "item", "problem"),
    [
        ("", "", "an empty item (give addresses separated by commas)"),
        ("127.0.0.1, ", "", "an empty item (give addresses separated by commas)"),
        ("*", "*", "not an IP address or network"),
        ("127.0.0.1,localhost", "localhost", "not an IP address or network"),
        ("10.0.0.1/8", "10.0.0.1/8", "a network with bits set beyond its prefix"),
        ("10.0.0.0/33", "10.0.0.0/33", "not an IP address or network"),
    ],
)
def test_a_bad_list_of_proxies_names_the_item_and_the_problem(
    text: str, item: str, problem: str
) -> None:
    with pytest.raises(NotProxies) as raised:
        parse_proxies(text)
    assert (raised.value.item, raised.value.problem) == (item, problem)


def test_the_headers_of_a_peer_that_is_not_trusted_are_ignored() -> None:
    forged = headers(
        ("Host", "127.0.0.1:8000"),
        ("X-Forwarded-For", "203.0.113.9"),
        ("X-Forwarded-Proto", "https"),
        ("X-Forwarded-Host", "evil.example"),
    )
    for proxies in (Proxies(), NGINX):
        came = arrival("192.0.2.1", "http", forged, proxies)
        assert came == Arrival("192.0.2.1", "http", "127.0.0.1:8000", forwarded=False)
    # No proxies trusted: even this computer's own headers are not believed.
    came = arrival("127.0.0.1", "http", forged, Proxies())
    assert not came.forwarded and came.local and came.address == "127.0.0.1"


def test_a_trusted_proxy_gives_the_client_the_scheme_and_the_public_name() -> None:
    told = headers(
        ("Host", "127.0.0.1:8000"),
        ("X-Forwarded-For", "203.0.113.9"),
        ("X-Forwarded-Proto", "https"),
        ("X-Forwarded-Host", "Forage.Example.org"),
    )
    came = arrival("127.0.0.1", "http", told, NGINX)
    assert came == Arrival("203.0.113.9", "https", "forage.example.org", forwarded=True)
    assert came.origin == "https://forage.example.org"
    assert not came.local and came.client == "203.0.113.9"


def test_the_client_is_the_right_most_hop_that_is_not_a_trusted_proxy() -> None:
    proxies = parse_proxies("127.0.0.1,10.0.0.0/8")
    # The client wrote the first two; the front proxy appended the client's address
    # (198.51.100.4); a second proxy, 10.1.1.1, appended the front one's.
    told = headers(("X-Forwarded-For", "127.0.0.1, 192.0.2.66, 198.51.100.4, 10.1.1.1"))
    assert arrival("127.0.0.1", "http", told, proxies).address == "198.51.100.4"
    # The header given twice reads as one list, in order.
    twice = headers(("X-Forwarded-For", "192.0.2.66"), ("X-Forwarded-For", "198.51.100.4"))
    assert arrival("127.0.0.1", "http", twice, proxies).address == "198.51.100.4"


def test_a_forwarded_client_is_never_this_computers_own() -> None:
    # A browser on the proxy's own computer: every hop trusted, the first one the client.
    came = arrival("127.0.0.1", "http", headers(("X-Forwarded-For", "127.0.0.1")), NGINX)
    assert came.forwarded and came.address == "127.0.0.1"
    assert not came.local
    assert came.client == "forwarded:127.0.0.1" and not is_local(came.client)
    # A proxy that says only the scheme still forwards: the peer is the client, not local.
    came = arrival("127.0.0.1", "http", headers(("X-Forwarded-Proto", "https")), NGINX)
    assert came.forwarded and not came.local and came.scheme == "https"


def test_a_trusted_peer_without_forwarded_headers_is_itself_the_client() -> None:
    came = arrival("127.0.0.1", "http", headers(("Host", "127.0.0.1:8000")), NGINX)
    assert came == Arrival("127.0.0.1", "http", "127.0.0.1:8000", forwarded=False)
    assert came.local and came.client == "127.0.0.1"


def test_hops_with_ports_lose_them_and_a_hop_that_is_no_address_is_kept_cut() -> None:
    for hop, address in [
        ("203.0.113.9:51234", "203.0.113.9"),
        ("[2001:db8::5]:443", "2001:db8::5"),
        ("[2001:db8::5]", "2001:db8::5"),
        ("2001:db8::5", "2001:db8::5"),
        ("unknown", "unknown"),
        ("z" * 200, "z" * 64),
    ]:
        came = arrival("127.0.0.1", "http", headers(("X-Forwarded-For", hop)), NGINX)
        assert came.address == address, hop


def test_the_nearest_proxys_scheme_and_host_are_taken_and_an_odd_scheme_is_not() -> None:
    told = headers(
        ("Host", "127.0.0.1:8000"),
        ("X-Forwarded-Proto", "http, https"),
        ("X-Forwarded-Host", "spoofed.example, forage.example.org:8443"),
    )
    came = arrival("127.0.0.1", "http", told, NGINX)
    assert (came.scheme, came.host) == ("https", "forage.example.org:8443")
    odd = arrival("127.0.0.1", "http", headers(("X-Forwarded-Proto", "gopher")), NGINX)
    assert odd.scheme == "http"


LOCAL_NAMES = frozenset({"127.0.0.1:8000", "localhost:8000"})


def test_the_pages_guard_takes_the_public_name_only_from_a_trusted_proxy() -> None:
    public = Arrival("203.0.113.9", "https", "forage.example.org", forwarded=True)
    assert refusal(public, None, LOCAL_NAMES) is None
    assert refusal(public, "https://forage.example.org", LOCAL_NAMES) is None
    # The page was served over https: an http page of the same name is another origin.
    assert refusal(public, "http://forage.example.org", LOCAL_NAMES) is not None
    assert refusal(public, "https://evil.example", LOCAL_NAMES) is not None
    direct = Arrival("192.0.2.1", "http", "forage.example.org", forwarded=False)
    refused = refusal(direct, None, LOCAL_NAMES)
    assert refused is not None and refused.startswith("unknown host")
    local = Arrival("127.0.0.1", "http", "127.0.0.1:8000", forwarded=False)
    assert refusal(local, "http://127.0.0.1:8000", LOCAL_NAMES) is None


def test_the_pages_guard_refuses_a_forwarded_host_that_is_not_a_host_name() -> None:
    for host in ("forage.example.org/x", "a b", "", "forage.example.org:port", '"><script>'):
        came = Arrival("203.0.113.9", "https", host, forwarded=True)
        refused = refusal(came, None, None)
        assert refused is not None and "not a host name" in refused, host
    for host in ("forage.example.org", "forage.test:8443", "[2001:db8::1]:443", "192.0.2.7"):
        assert refusal(Arrival("203.0.113.9", "https", host, forwarded=True), None, None) is None
