"""Start-up: Ctrl+C while forage loads, and the garbage collector held until the first frame.

:func:`exit_on_interrupt` is the SIGINT handler while the command's modules load.

Loading Textual, pydantic and the engine makes some sixty thousand objects that live as long
as the process; while they are made, Python's collector would walk them again and again
(about a tenth of the game's start-up). :func:`hold` pauses it from the ``forage``
script's start (:mod:`forage.launch`; :mod:`forage.cli` pauses it too for ``forage play``
run another way, and turns it back on for any other command once it knows the command);
:func:`release` freezes what is alive by the first frame (the collector then never walks
it again) and turns the collector back on: the app calls it after its first refresh, and
the command line once the command ends, in case the game stopped before drawing.
Reference counting frees memory as usual meanwhile; only cycles wait.
"""

from __future__ import annotations

import gc
import os

_held = False


def hold() -> None:
    """Pause the cyclic garbage collector while the game loads (no-op if it is off)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release() -> None:
    """Turn the collector back on if :func:`hold` paused it, freezing what is alive now."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()


def exit_on_interrupt(signum: int, frame: object) -> None:
    """Ctrl+C while forage loads: exit 130 at once, as nothing is written or drawn yet.

    Raising KeyboardInterrupt instead is not enough there: Python wraps it in a
    RuntimeError inside a class's ``__set_name__``, and pydantic-core turns it into a panic
    inside its own start-up, each with a traceback.
    """
    os._exit(130)
