"""The deal's par, worked out in a separate process so the screen never waits on it.

The child is ``python -m forage.app.par_job CODE``; it prints the par found as one line
(:func:`forage.ai.par.par_text`). Par is the same on every machine, so the end screen shows
what ``forage par`` says.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forage.ai.par import ParResult


def main(argv: list[str]) -> int:
    """Child process: search the deal's best score and print it with whether it is proven."""
    from forage.ai.par import par, par_text
    from forage.carddata import standard_deck
    from forage.engine import Deal, Game

    (code,) = argv
    print(par_text(par(Game(Deal.from_code(code), standard_deck()))), flush=True)
    return 0


class ParJob:
    """A par search of a deal (built-in deck) running in its own process."""

    def __init__(self, code: str) -> None:
        """Start searching the deal with this code."""
        self._process = subprocess.Popen(
            [sys.executable, "-m", "forage.app.par_job", code],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def wait(self, cancelled: Callable[[], bool]) -> ParResult | None:
        """Block until the search ends (its par), fails (None) or is cancelled (None)."""
        while self._process.poll() is None:
            if cancelled():
                self.stop()
                return None
            time.sleep(0.1)
        out = self._process.stdout.read() if self._process.stdout is not None else ""
        if self._process.returncode != 0:
            return None
        from forage.ai.par import par_from_text

        return par_from_text(out)

    def stop(self) -> None:
        """End the search process if it is still running."""
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._process.kill()
        if self._process.stdout is not None:
            self._process.stdout.close()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
