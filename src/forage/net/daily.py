"""The online daily (CONTRACT.md, "Playing together"): what is pure about it.

A day (UTC) has one deal, dealt from a secret the server draws with :mod:`secrets` when
the day's first try starts and keeps (never from the date, so no one can work it out).
Each player has one try a day: a room of one (:func:`daily_rules`) that closes when its
day is over. A name is registered by its first daily, and with it every name that reads
as it (the same :func:`~forage.net.protocol.name_skeleton`). The leaderboard of a day
(:class:`Board`) lists the tries that have ended, highest final first, ties by who
finished first; once the day is over it also gives the deal and a link to each try's
record. :func:`board_page` is the page ``/daily`` shows, readable without any script.
"""

from __future__ import annotations

import html
import math
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Final
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict

from forage.engine import Deal
from forage.engine.deal import SEED_LIMIT
from forage.net.protocol import Told
from forage.net.rooms import RoomRules

BOARD_PATH: Final = "/daily/leaderboard"
"""The leaderboard's JSON (CONTRACT.md)."""
PAGE_PATH: Final = "/daily"
"""The leaderboard's web page."""
RECORD_PATH: Final = "/daily/record"
"""A past day's try: its game record."""
BOARD_MOST_BYTES: Final = 4 * 1024 * 1024
"""The largest leaderboard answer a client reads (a day of 10 000 tries is under 1 MB)."""


def day_of(moment: float) -> date:
    """The UTC date of a moment (seconds since the epoch)."""
    return datetime.fromtimestamp(moment, UTC).date()


def day_end(day: date) -> float:
    """The moment a day is over: the next midnight, UTC, in seconds since the epoch."""
    return datetime.combine(day, time(), UTC).timestamp() + timedelta(days=1).total_seconds()


def is_over(day: date, now: float) -> bool:
    """Whether a day is over at ``now`` (its deal and records may then be published)."""
    return now >= day_end(day)


def daily_rules(rules: RoomRules, day: date) -> RoomRules:
    """The rules of a day's try: a room of one that waits for its player as long as the day
    lasts, and closes (the game ending as it stands) when the day is over."""
    return replace(
        rules,
        min_players=1,
        max_players=1,
        wait_seconds=math.inf,
        idle_seconds=math.inf,
        closes=day_end(day),
    )


def new_secret() -> int:
    """A fresh secret for a day's deal: 64 random bits from :mod:`secrets`."""
    return secrets.randbelow(SEED_LIMIT)


def secret_deal(secret: int) -> Deal:
    """The deal a day's secret gives: a standard game, deck 1."""
    return Deal.from_seed(secret)


@dataclass(frozen=True)
class DayDeal:
    """A day's deal and the secret it came from, as stored."""

    day: date
    secret: int
    deal: Deal


@dataclass(frozen=True)
class Finished:
    """A try that has ended, as the store lists it for the board (best first)."""

    name: str
    final: int
    finished: str
    """When it ended, on the servers' clock: ISO 8601, UTC."""


class _Json(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class BoardEntry(_Json):
    """A line of the leaderboard; ``record``, the address of the try's game record, is an
    addition given once the day is over."""

    rank: int
    name: Told
    final: int
    finished: Told
    record: Told | None = None


class Board(_Json):
    """``GET /daily/leaderboard``: a day's ended tries, best first. ``over`` and, once the
    day is over, ``deal`` (the deal code) are additions."""

    date: date
    entries: list[BoardEntry]
    over: bool = False
    deal: Told | None = None


class BoardError(_Json):
    """What the leaderboard answers to a request it cannot: one line."""

    error: str


def record_address(day: date, name: str) -> str:
    """The address of a try's game record, relative to the server."""
    return f"{RECORD_PATH}?{urlencode({'date': day.isoformat(), 'name': name})}"


def board(day: date, tries: list[Finished], over: bool, deal: Deal | None) -> Board:
    """A day's leaderboard from its ended tries (best first, as listed); once the day is
    ``over``, its ``deal`` and each entry's link to its record."""
    return Board(
        date=day,
        over=over,
        deal=None if deal is None or not over else deal.code,
        entries=[
            BoardEntry(
                rank=rank,
                name=line.name,
                final=line.final,
                finished=line.finished,
                record=record_address(day, line.name) if over else None,
            )
            for rank, line in enumerate(tries, 1)
        ],
    )


def board_page(shown: Board, today: date) -> str:
    """The leaderboard as a web page: plain HTML, every name escaped."""
    day = shown.date.isoformat()
    rows = "".join(
        "<tr><td>{rank}</td><td>{name}</td><td>{final}</td><td>{finished}</td>{link}</tr>".format(
            rank=entry.rank,
            name=html.escape(entry.name),
            final=entry.final,
            finished=html.escape(entry.finished),
            link=""
            if entry.record is None
            else f'<td><a href="{html.escape(entry.record)}">record</a></td>',
        )
        for entry in shown.entries
    )
    if shown.over:
        note = f"<p>The day is over. Its deal: <code>{html.escape(shown.deal or '')}</code></p>"
    else:
        note = "<p>The day is still being played: the deal is shown once it is over (UTC).</p>"
    links = []
    if shown.date > date.min:
        before = (shown.date - timedelta(days=1)).isoformat()
        links.append(f'<a href="{PAGE_PATH}?date={before}">the day before</a>')
    if shown.date < min(today, date.max):
        after = (shown.date + timedelta(days=1)).isoformat()
        links.append(f'<a href="{PAGE_PATH}?date={after}">the day after</a>')
    links.append(f"<a href='{BOARD_PATH}?date={day}'>JSON</a>")
    header = "<tr><th>rank</th><th>name</th><th>final</th><th>finished (UTC)</th>"
    header += "<th>record</th></tr>" if shown.over else "</tr>"
    empty = "" if shown.entries else "<p>No try has ended yet.</p>"
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>Forage daily {day}</title>"
        "<style>body{font-family:sans-serif;margin:2em}td,th{padding:0 1em;text-align:left}"
        "</style></head><body>"
        f"<h1>Forage daily {day}</h1>{note}<table>{header}{rows}</table>{empty}"
        f"<p>{' · '.join(links)}</p></body></html>"
    )
