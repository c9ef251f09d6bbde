"""Forage: the 9 card solitaire game, in the terminal."""

import os

__version__ = "0.1.0"


def exit_on_interrupt(signum: int, frame: object) -> None:
    """Ctrl+C while forage loads: exit 130 at once, as nothing is written or drawn yet.

    Raising KeyboardInterrupt instead is not enough there: Python wraps it in a
    RuntimeError inside a class's ``__set_name__``, and pydantic-core turns it into a panic
    inside its own start-up, each with a traceback.
    """
    os._exit(130)


def main() -> int:
    """The ``forage`` command: :func:`forage.cli.main`, quiet (130) on Ctrl+C while loading.

    Nothing is imported before this runs; from its first line until the command's modules
    are loaded (``forage.cli``'s ``_load``), Ctrl+C ends the process at once.
    """
    try:
        import signal

        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, exit_on_interrupt)
    except KeyboardInterrupt:
        return 130
    from forage.cli import main as command_line

    return command_line()
