"""A token bucket: the one way forage limits what a client may send over time."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Bucket:
    """Up to ``capacity`` at once, refilled at ``rate`` a second (messages, bytes, tries)."""

    capacity: float
    rate: float
    tokens: float
    stamp: float

    @classmethod
    def full(cls, capacity: float, rate: float, now: float) -> Bucket:
        """A bucket holding all it can at ``now`` (seconds, any clock)."""
        return cls(capacity, rate, capacity, now)

    def _refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float, amount: float = 1) -> bool:
        """Take ``amount`` if the bucket holds it (True); else take nothing (False)."""
        self._refill(now)
        if self.tokens < amount:
            return False
        self.tokens -= amount
        return True

    def empty(self, now: float) -> bool:
        """Whether not even one is left (nothing taken)."""
        self._refill(now)
        return self.tokens < 1
