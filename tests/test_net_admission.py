"""The rooms server's admission (forage.net.admission): rooms made from an address and in
all, failed joins per connection and per address, the daily's names per address, each given
the time."""

from __future__ import annotations

from dataclasses import replace

from forage.engine import Deal
from forage.net.admission import Admission, ServerRules, address_key
from forage.net.protocol import ErrorCode, new_token
from forage.net.rooms import Kind, Room


def room(code: str, kind: Kind = Kind.ROOM) -> Room:
    """A room in its lobby."""
    made, _ = Room.create(code, Deal.from_seed(1), "Ann", new_token(), 0.0, kind=kind)
    return made


def test_rooms_from_one_address_are_limited_and_others_still_make_theirs() -> None:
    admission = Admission(replace(ServerRules(), rooms_per_address=2))
    rooms = [room("AAAAAAAA"), room("BBBBBBBB")]
    for made in rooms:
        admission.made(made.code, "198.51.100.7")
    refusal = admission.create("198.51.100.7", False, rooms)
    assert refusal is not None and refusal.code == ErrorCode.FULL and not refusal.closes
    assert admission.create("198.51.100.8", False, rooms) is None
    assert admission.create("127.0.0.1", True, rooms) is None  # this computer's tabs
    admission.forget(rooms[0].code)
    assert admission.create("198.51.100.7", False, rooms) is None


def test_the_servers_rooms_in_all_are_limited_and_daily_tries_are_not_counted() -> None:
    admission = Admission(replace(ServerRules(), max_rooms=2))
    rooms = [room("AAAAAAAA"), room("BBBBBBBB", Kind.DAILY)]
    assert admission.create("198.51.100.7", False, rooms) is None
    rooms.append(room("CCCCCCCC"))
    refusal = admission.create("198.51.100.7", False, rooms)
    assert refusal is not None and "2 rooms open" in refusal.message


def test_a_guessers_connection_closes_before_its_address_is_blocked() -> None:
    rules = replace(ServerRules(), failed_joins_per_connection=5, failed_joins=12)
    admission = Admission(rules)
    address = "203.0.113.9"
    verdicts = [admission.failed(address, failures, 0.0) for failures in range(1, 7)]
    assert verdicts[:5] == [None] * 5
    closing = verdicts[5]
    assert closing is not None and closing.code == ErrorCode.RATE and closing.closes
    assert admission.may_try(address, 0.0) is None  # a friend's new connection gets in
    for failures in range(1, 7):  # a second connection's six: the twelfth is spent
        admission.failed(address, failures, 0.0)
    last = admission.failed(address, 1, 0.0)  # a third connection's first
    assert last is not None and "address" in last.message
    assert admission.may_try(address, 0.0) is not None  # the address floods: blocked
    assert admission.may_try(address, rules.failed_join_seconds) is None  # until it waits


def test_names_registered_from_one_address_are_limited() -> None:
    admission = Admission(replace(ServerRules(), registrations=2))
    assert admission.register("203.0.113.9", 0.0) is None
    assert admission.register("203.0.113.9", 0.0) is None
    refusal = admission.register("203.0.113.9", 0.0)
    assert refusal is not None and refusal.closes
    assert admission.register("203.0.113.10", 0.0) is None


def test_an_ipv6_address_is_counted_by_its_network() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::2")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.4") == "192.0.2.4"
