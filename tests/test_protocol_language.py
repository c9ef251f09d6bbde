"""The rooms server says the same bytes in every language: its protocol is for programs
(CONTRACT.md, "Language"), whatever FORAGE_LANG or LANG the server runs under."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import aiohttp
from serving import forage_server

CONVERSATION: tuple[dict[str, Any] | str, ...] = (
    "not json",
    {"type": "dance"},
    {"type": "join", "room": "ZZZZ", "name": "Ann"},
    {"type": "create", "name": "", "recipes": False, "deck": 1},
    {"type": "create", "name": "a\u0430", "recipes": False, "deck": 1},
    {"type": "start"},
    {"type": "place", "turn": 1, "card": 3, "rotation": 45, "x": 0, "y": 0},
    {"type": "create", "name": "Ann", "recipes": False, "deck": 9},
    {"type": "daily", "name": "x" * 80},
)
"""Messages a client may send that the server refuses, each with its words."""


async def answers(url: str) -> list[dict[str, Any]]:
    """What the server answers to each message of :data:`CONVERSATION`, in order."""
    said: list[dict[str, Any]] = []
    address = url.replace("http", "ws", 1) + "play"
    async with aiohttp.ClientSession() as session, session.ws_connect(address) as socket:
        for message in CONVERSATION:
            text = message if isinstance(message, str) else json.dumps(message)
            await socket.send_str(text)
            reply = await socket.receive(timeout=30)
            assert reply.type == aiohttp.WSMsgType.TEXT, reply
            said.append(json.loads(reply.data))
    return said


def conversation_in(language: str, tmp_path: Path) -> list[dict[str, Any]]:
    """The server's answers when it runs in ``language``."""
    home = tmp_path / language
    home.mkdir()
    before = os.environ.get("FORAGE_LANG")
    os.environ["FORAGE_LANG"] = language
    try:
        with forage_server(home, tmp_path) as served:
            return asyncio.run(answers(served.url))
    finally:
        os.environ["FORAGE_LANG"] = before or "en"


def test_the_rooms_servers_refusals_are_the_same_bytes_in_japanese(tmp_path: Path) -> None:
    english = conversation_in("en", tmp_path)
    japanese = conversation_in("ja", tmp_path)
    assert all(answer["type"] == "error" for answer in english), english
    assert japanese == english
