"""``forage serve --forwarded-allow-ips`` behind a real TLS reverse proxy: Debian's nginx with
docs/serve.md's configuration, a certificate for ``forage.test`` from a throwaway authority.

Rooms are played over ``wss://`` by the public name; the rooms count the forwarded client
(not the proxy's 127.0.0.1, and never as this computer's own); forged ``X-Forwarded-For``
from a peer that is not the proxy, or written by a client through the proxy, is not
believed; the page is answered by its public name with a ``wss://`` websocket, and its
tab's game is counted as its browser's forwarded address; the terminal clients reach an
``https://`` server over ``wss://``, trusting what ``SSL_CERT_FILE`` names and nothing else.
Each test's clients connect from their own loopback address (127.0.0.x), so that the
limits they meet are their own.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import ssl
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.abc import AbstractResolver, ResolveResult
from helpers import run_forage
from proxying import PUBLIC_NAME, Certificates, Proxy, make_certificates, missing, nginx_proxy
from room_serving import Player, run
from serving import Served, forage_server, games_of

from forage.net import CLIENT_HEADER, ROOMS_CLIENT_VARIABLE
from forage.net.client import RoomClient, play_url
from forage.net.protocol import DealOut, PlacedOut

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")

UNKNOWN_ROOM = "ABCD2345"
FAILED_JOINS = 60
"""The failed joins an address may make at once (ServerRules.failed_joins)."""
FAILED_PER_CONNECTION = 5
"""The failed joins one connection may make (ServerRules.failed_joins_per_connection)."""
ROOMS_PER_ADDRESS = 20
"""The rooms one address may have open (ServerRules.rooms_per_address)."""
WAIT = 30.0


class PublicName(AbstractResolver):
    """A resolver that finds every name on 127.0.0.1 (where nginx listens)."""

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        """127.0.0.1 for any name."""
        return [
            ResolveResult(
                hostname=host,
                host="127.0.0.1",
                port=port,
                family=socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
        ]

    async def close(self) -> None:
        """Nothing to close."""


@dataclass(frozen=True)
class Site:
    """``forage serve`` behind nginx: the server, the proxy and the certificates."""

    served: Served
    proxy: Proxy
    certs: Certificates

    @property
    def public(self) -> str:
        """The server's public address, through nginx."""
        return f"https://{PUBLIC_NAME}:{self.proxy.port}"

    @property
    def direct(self) -> str:
        """The server's own address, not through nginx."""
        return self.served.url.rstrip("/")

    @asynccontextmanager
    async def session(self, source: str) -> AsyncIterator[aiohttp.ClientSession]:
        """A client session from the loopback address ``source``, trusting the test's
        certificate authority, finding every name on 127.0.0.1."""
        trusted = ssl.create_default_context(cafile=str(self.certs.authority))
        connector = aiohttp.TCPConnector(
            ssl=trusted, resolver=PublicName(), local_addr=(source, 0), limit=0
        )
        async with aiohttp.ClientSession(
            connector=connector, timeout=aiohttp.ClientTimeout(total=WAIT)
        ) as session:
            yield session


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One forage serve behind one nginx for this module's tests."""
    folder = tmp_path_factory.mktemp("proxy")
    certs = make_certificates(folder / "certs", [PUBLIC_NAME, "localhost"])
    with (
        forage_server(folder / "home", folder, "--forwarded-allow-ips", "127.0.0.1") as served,
        nginx_proxy(folder, served.port, certs) as proxy,
    ):
        yield Site(served, proxy, certs)


async def join_answer(
    session: aiohttp.ClientSession, server: str, headers: dict[str, str] | None = None
) -> str:
    """The code of the error that joining an unknown room is answered with, on a new
    connection to ``server``'s rooms sending ``headers``."""
    async with session.ws_connect(play_url(server), headers=headers) as socket_:
        await socket_.send_json({"type": "join", "room": UNKNOWN_ROOM, "name": "Eve"})
        answer = await socket_.receive_json(timeout=WAIT)
    assert answer["type"] == "error", answer
    return str(answer["code"])


async def fail_joins(session: aiohttp.ClientSession, server: str) -> list[str]:
    """Join an unknown room FAILED_JOINS + 1 times, on a new connection each
    FAILED_PER_CONNECTION times; each answer's code."""
    codes: list[str] = []
    while len(codes) <= FAILED_JOINS:
        async with session.ws_connect(play_url(server)) as socket_:
            for _ in range(min(FAILED_PER_CONNECTION, FAILED_JOINS + 1 - len(codes))):
                await socket_.send_json({"type": "join", "room": UNKNOWN_ROOM, "name": "Eve"})
                answer: dict[str, Any] = await socket_.receive_json(timeout=WAIT)
                codes.append(str(answer.get("code")))
    return codes


def test_a_room_is_played_over_wss_by_the_public_name(site: Site) -> None:
    async def scenario() -> tuple[PlacedOut, PlacedOut]:
        async with site.session("127.0.0.2") as one, site.session("127.0.0.3") as two:
            ann = Player(await RoomClient.connect(site.public, session=one))
            bo = Player(await RoomClient.connect(site.public, session=two))
            try:
                await ann.create("Ann")
                await bo.join(ann.room, "Bo")
                await ann.client.start()
                placed = []
                for player in (ann, bo):
                    await player.read_until(DealOut, WAIT)
                    await player.place_first()
                    placed.append(await player.read_until(PlacedOut, WAIT))
                return placed[0], placed[1]
            finally:
                await ann.close()
                await bo.close()

    assert play_url(site.public) == f"wss://{PUBLIC_NAME}:{site.proxy.port}/play"
    first, second = run(scenario())
    assert first.turn == second.turn == 1


def test_the_rooms_an_address_makes_are_limited_for_a_forwarded_client(site: Site) -> None:
    """Every client reaches the server from nginx's 127.0.0.1, which as a client of its own
    would not be limited: the limit holds for the forwarded address, and for it alone."""

    async def scenario() -> tuple[list[str], str]:
        clients: list[RoomClient] = []
        async with site.session("127.0.0.4") as many, site.session("127.0.0.5") as other:
            try:
                answers = []
                for index in range(ROOMS_PER_ADDRESS + 1):
                    client = await RoomClient.connect(site.public, session=many)
                    clients.append(client)
                    await client.create(f"Host{index}")
                    answers.append((await client.receive(WAIT)).type)
                client = await RoomClient.connect(site.public, session=other)
                clients.append(client)
                await client.create("Elsewhere")
                return answers, (await client.receive(WAIT)).type
            finally:
                for client in clients:
                    await client.close()

    answers, elsewhere = run(scenario())
    assert answers == ["joined"] * ROOMS_PER_ADDRESS + ["error"]
    assert elsewhere == "joined"


def test_failed_joins_count_the_forwarded_client_and_forged_headers_are_not_believed(
    site: Site,
) -> None:
    async def scenario() -> dict[str, Any]:
        forged = {"X-Forwarded-For": "127.0.0.6"}
        async with (
            site.session("127.0.0.6") as spent,
            site.session("127.0.0.7") as spoofer,
            site.session("127.0.0.8") as outsider,
            site.session("127.0.0.1") as trusted,
        ):
            return {
                # through nginx: the forwarded address runs out of failed joins
                "spent": await fail_joins(spent, site.public),
                # a client's own X-Forwarded-For through nginx: nginx appends the real one
                "through nginx": await join_answer(spoofer, site.public, forged),
                # straight to the server from an address that is not the proxy
                "not the proxy": await join_answer(outsider, site.direct, forged),
                # the same header from the proxy's address is believed
                "the proxy": await join_answer(trusted, site.direct, forged),
            }

    said = run(scenario())
    assert said["spent"] == ["no-room"] * FAILED_JOINS + ["rate"]
    assert said["through nginx"] == "no-room"
    assert said["not the proxy"] == "no-room"
    assert said["the proxy"] == "rate"


def game_environment(pid: int) -> dict[str, str]:
    """A running process's environment."""
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (entry.split(b"=", 1) for entry in raw.split(b"\0") if b"=" in entry)
    return {name.decode(): value.decode(errors="replace") for name, value in pairs}


def voucher_of_new_game(site: Site, before: set[int]) -> str:
    """The rooms voucher a tab's game started since ``before`` was told."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for pid in set(games_of(site.served.process.pid)) - before:
            told = game_environment(pid).get(ROOMS_CLIENT_VARIABLE)
            if told is not None:
                return told
        time.sleep(0.05)
    raise AssertionError(f"no game told of its browser: {site.served.output()}")


def test_the_page_answers_its_public_name_and_plays_over_wss(site: Site) -> None:
    origin = f"https://{PUBLIC_NAME}:{site.proxy.port}"

    async def scenario() -> dict[str, Any]:
        async with site.session("127.0.0.9") as browser, site.session("127.0.0.10") as other:
            async with browser.get(site.public + "/") as response:
                page = (response.status, await response.text())
            try:
                await browser.ws_connect(
                    f"wss://{PUBLIC_NAME}:{site.proxy.port}/ws",
                    headers={"Origin": f"http://{PUBLIC_NAME}:{site.proxy.port}"},
                )
                wrong_scheme: int | None = None
            except aiohttp.WSServerHandshakeError as exc:
                wrong_scheme = exc.status
            before = set(games_of(site.served.process.pid))
            tab = await browser.ws_connect(
                f"wss://{PUBLIC_NAME}:{site.proxy.port}/ws?width=100&height=32",
                headers={"Origin": origin},
            )
            drawn = b""
            while b"Turn 1 of 8" not in drawn:
                message = await tab.receive(timeout=WAIT)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                drawn += message.data
            vouch = await asyncio.to_thread(voucher_of_new_game, site, before)
            spent = await fail_joins(browser, site.public)
            # The tab's game reaches the rooms on 127.0.0.1 with its voucher: its browser's.
            async with site.session("127.0.0.1") as game:
                as_its_game = await join_answer(game, site.direct, {CLIENT_HEADER: vouch})
            # The voucher sent through nginx by another client is not taken.
            passed_on = await join_answer(other, site.public, {CLIENT_HEADER: vouch})
            await tab.close()
            return {
                "page": page,
                "wrong scheme": wrong_scheme,
                "vouch": vouch,
                "spent": spent,
                "as its game": as_its_game,
                "passed on": passed_on,
            }

    said = run(scenario())
    status, page = said["page"]
    assert status == 200
    assert f'data-session-websocket-url="wss://{PUBLIC_NAME}:{site.proxy.port}/ws' in page
    assert said["wrong scheme"] == 403
    assert said["vouch"].startswith("forwarded:127.0.0.9 ")
    assert said["spent"] == ["no-room"] * FAILED_JOINS + ["rate"]
    assert said["as its game"] == "rate"
    assert said["passed on"] == "no-room"


def test_the_terminal_clients_reach_an_https_server_trusting_ssl_cert_file(
    site: Site, tmp_path: Path
) -> None:
    server = f"https://localhost:{site.proxy.port}"
    untrusting = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    untrusting["FORAGE_HOME"] = str(tmp_path)
    trusting = {**untrusting, "SSL_CERT_FILE": str(site.certs.authority)}
    board = run_forage("leaderboard", "--server", server, "--json", env=trusting)
    assert board.returncode == 0, board.stderr
    assert "entries" in json.loads(board.stdout)
    join = ("room", "join", UNKNOWN_ROOM, "--name", "Eve", "--server", server)
    joined = run_forage(*join, env=trusting)
    assert (joined.returncode, joined.stderr) == (
        2,
        f"forage: room {UNKNOWN_ROOM}: no room has that code on {server} "
        "(check it with the host)\n",
    )
    refused = run_forage(*join, env=untrusting)
    assert refused.returncode == 2
    assert refused.stderr.startswith(
        f"forage: --server: cannot reach {server}: its TLS certificate is not trusted ("
    )
    assert refused.stderr.count("\n") == 1
    unboarded = run_forage("leaderboard", "--server", server, "--json", env=untrusting)
    assert unboarded.returncode == 2
    assert "CERTIFICATE_VERIFY_FAILED" in unboarded.stderr
    assert unboarded.stderr.count("\n") == 1
