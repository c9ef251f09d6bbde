"""Forage: the 9 card solitaire game, in the terminal."""

__version__ = "0.1.0"


def main() -> int:
    """The ``forage`` command: :func:`forage.cli.main`, quiet (130) on Ctrl+C while loading.

    Nothing is imported before this runs, so Ctrl+C at any moment of start-up after the
    interpreter's own ends without a traceback.
    """
    try:
        from forage.cli import main as command_line
    except KeyboardInterrupt:
        return 130
    return command_line()
