"""Forage: the 9 card solitaire game, in the terminal."""

__version__ = "0.1.0"
