"""Big letters: a room's code drawn large enough to read out across a table.

Each character of a room code (and a few more, and the dash between its halves) is five
cells wide and five lines tall, drawn in full blocks, or in ``#`` in plain ASCII
(``FORAGE_ASCII=1``). Pure functions: no Textual.
"""

from __future__ import annotations

from typing import Final

from forage.app.describe import ASCII

GLYPHS: Final[dict[str, tuple[str, ...]]] = {
    "0": (".###.", "#..##", "#.#.#", "##..#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", ".###."),
    "2": ("####.", "....#", ".###.", "#....", "#####"),
    "3": ("####.", "....#", ".###.", "....#", "####."),
    "4": ("#..#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "####."),
    "6": (".###.", "#....", "####.", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", "..#.."),
    "8": (".###.", "#...#", ".###.", "#...#", ".###."),
    "9": (".###.", "#...#", ".####", "....#", ".###."),
    "A": (".###.", "#...#", "#####", "#...#", "#...#"),
    "B": ("####.", "#...#", "####.", "#...#", "####."),
    "C": (".####", "#....", "#....", "#....", ".####"),
    "D": ("####.", "#...#", "#...#", "#...#", "####."),
    "E": ("#####", "#....", "####.", "#....", "#####"),
    "F": ("#####", "#....", "####.", "#....", "#...."),
    "G": (".####", "#....", "#..##", "#...#", ".###."),
    "H": ("#...#", "#...#", "#####", "#...#", "#...#"),
    "I": (".###.", "..#..", "..#..", "..#..", ".###."),
    "J": ("..###", "...#.", "...#.", "#..#.", ".##.."),
    "K": ("#...#", "#..#.", "###..", "#..#.", "#...#"),
    "L": ("#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#...#", "#...#"),
    "N": ("#...#", "##..#", "#.#.#", "#..##", "#...#"),
    "O": (".###.", "#...#", "#...#", "#...#", ".###."),
    "P": ("####.", "#...#", "####.", "#....", "#...."),
    "Q": (".###.", "#...#", "#.#.#", "#..#.", ".##.#"),
    "R": ("####.", "#...#", "####.", "#..#.", "#...#"),
    "S": (".####", "#....", ".###.", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#.."),
    "U": ("#...#", "#...#", "#...#", "#...#", ".###."),
    "V": ("#...#", "#...#", "#...#", ".#.#.", "..#.."),
    "W": ("#...#", "#...#", "#.#.#", "##.##", "#...#"),
    "X": ("#...#", ".#.#.", "..#..", ".#.#.", "#...#"),
    "Y": ("#...#", ".#.#.", "..#..", "..#..", "..#.."),
    "Z": ("#####", "...#.", "..#..", ".#...", "#####"),
    "-": ("....", "....", ".##.", "....", "...."),
    " ": ("..", "..", "..", "..", ".."),
}
"""Each character drawn as five rows, ``#`` a filled cell."""
HEIGHT: Final = 5
"""The lines a big character takes."""
GAP: Final = 1
"""Blank cells between two big characters."""


def shown_code(code: str) -> str:
    """A room code as the screens show it: in two halves, ``K7MX-3QPA`` (the server reads
    it with or without the dash)."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}" if len(code) >= 8 else code


def big_lines(text: str, plain: bool = ASCII) -> list[str]:
    """``text`` in big characters: :data:`HEIGHT` lines, blocks (``#`` when ``plain``)
    where a character is filled. A character without a glyph is drawn small, in the
    middle line."""
    fill = "#" if plain else "█"
    rows = [""] * HEIGHT
    for index, char in enumerate(text.upper()):
        glyph = GLYPHS.get(char) or tuple(char if row == HEIGHT // 2 else " " for row in range(5))
        for row in range(HEIGHT):
            gap = " " * GAP if index else ""
            rows[row] += gap + glyph[row].replace("#", fill).replace(".", " ")
    return rows


def big_width(text: str) -> int:
    """How many cells wide :func:`big_lines` draws ``text``."""
    return len(big_lines(text, plain=True)[0])
