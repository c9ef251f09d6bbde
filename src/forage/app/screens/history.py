"""The history screen (the `g` key): the stored games, newest first; enter reviews one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from forage.app.describe import ASCII, ENTER_KEY, UP_DOWN, path_lines
from forage.app.screens.base import ForageModal, too_small_notice
from forage.app.widgets.keys import KeyBar
from forage.engine import Game
from forage.files import os_problem, write_atomic
from forage.history.games import StoredGame
from forage.history.report import (
    HISTORY_COLUMNS,
    export_name,
    export_text,
    history_row,
    shown_columns,
)
from forage.i18n import _, ngettext
from forage.paths import data_dir
from forage.record import load_game
from forage.wording import shown as shown_said

SHOWN: Final = 200
"""How many of the newest games the screen lists."""
COLUMN_GAP: Final = 1
"""The blank cells after each column of the games (the table's own padding is none)."""


def stored_game(stored: StoredGame) -> Game | str:
    """The game a stored record replays to, or a one-line reason it cannot be read."""
    try:
        game, refusal = load_game(stored.record)
    except ValueError as exc:  # a RecordError, or a value the engine refuses
        return _("Game {game}'s record cannot be read: {problem}").format(
            game=stored.id, problem=exc
        )
    if refusal is not None and not game.moves:
        return _("Game {game}'s first move is refused: {reason}").format(
            game=stored.id, reason=refusal.message
        )
    return game


def exported_text(game: int, target: Path, width: int) -> Text:
    """Where a game's record was written, in ``width`` columns: the file's name, then its
    folder on lines of its own, broken only after a ``/`` (never inside a name)."""
    text = Text(
        _("Game {game}'s record is written to {name}, in the folder:").format(
            game=game, name=target.name
        )
    )
    for line in path_lines(str(target.parent), width):
        text.append(f"\n{line}", "bold")
    return text


class HistoryScreen(ForageModal):
    """The stored games, one a row; enter or r opens the review of the one under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "review", _("Review"), key_display=f"{ENTER_KEY}/r"),
        Binding("x", "export", _("Export record")),
        Binding("escape,g,q", "close", _("Close")),
    ]

    def __init__(self, games: Sequence[StoredGame] | None) -> None:
        """The screen for these stored games, newest first (None: history is off)."""
        super().__init__()
        self.games = tuple(games) if games is not None else None

    def compose(self) -> ComposeResult:
        """A title, what the list shows, and the table (or why there is none)."""
        yield too_small_notice()
        with Vertical(classes="body dialog history"):
            yield Static(_("Your games"), classes="dialog-title")
            if self.games is None:
                yield Static(
                    _("History is off in this game: nothing is recorded."), id="history-off"
                )
            elif not self.games:
                yield Static(
                    _("No games stored yet: finished and abandoned games appear here."),
                    id="history-empty",
                )
            else:
                count = len(self.games)
                listed = ngettext(
                    "1 game. {arrows} choose; enter or r reviews it move by move; x writes "
                    "its record to a file.",
                    "{count} games, newest first. {arrows} choose; enter or r reviews it move "
                    "by move; x writes its record to a file.",
                    count,
                ).format(count=count, arrows=UP_DOWN)
                yield Static(
                    Text(listed, "dim"),
                    id="history-help",
                )
                yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
                yield Static(id="history-note")  # answers to keys: on lines of their own
        yield KeyBar()

    def on_mount(self) -> None:
        """Fill the table."""
        if not self.games:
            return
        table: DataTable[str] = self.query_one(DataTable)
        # The columns forage history shows at this width, each as wide as its widest
        # cell and one space: at 80 columns the longest deal code is whole.
        shown = shown_columns(self.app.size.width)
        rows = [history_row(game, shown, ASCII) for game in self.games]
        table.cell_padding = 0
        for at, index in enumerate(shown):
            heading = HISTORY_COLUMNS[index].heading
            shown_heading = _(heading)
            widest = max(cell_len(shown_heading), *(cell_len(row[at]) for row in rows))
            table.add_column(shown_heading, key=heading, width=widest + COLUMN_GAP)
        for game, row in zip(self.games, rows, strict=True):
            table.add_row(*row, key=str(game.id))
        table.focus()

    def selected(self) -> StoredGame | None:
        """The game under the cursor, if there is a list."""
        if not self.games:
            return None
        row = self.query_one(DataTable).cursor_row
        return self.games[row] if 0 <= row < len(self.games) else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: review that game."""
        event.stop()
        self.action_review()

    def action_review(self) -> None:
        """Open the review of the game under the cursor."""
        stored = self.selected()
        if stored is None:
            return
        game = stored_game(stored)
        if isinstance(game, str):
            self.tell(Text(game))
            return
        from forage.app.screens.review import review_screen

        self.app.push_screen(review_screen(self.app, game))

    def action_export(self) -> None:
        """Write the record of the game under the cursor to the data folder's exports."""
        stored = self.selected()
        if stored is None:
            return
        target = data_dir() / "exports" / export_name(stored)
        try:
            write_atomic(target, export_text(stored))
        except ValueError as exc:
            self.tell(Text(_("Not exported: {problem}.").format(problem=exc)))
            return
        except OSError as exc:
            problem = shown_said(os_problem(exc))
            self.tell(Text(_("Not exported: {problem}.").format(problem=problem)))
            return
        width = self.query_one("#history-note", Static).content_region.width
        self.tell(exported_text(stored.id, target, width))

    def tell(self, text: Text) -> None:
        """Answer a key under the list, on lines of their own (nothing pops up over it)."""
        self.query_one("#history-note", Static).update(text)

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss("")
