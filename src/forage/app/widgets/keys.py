"""The keys bar at the foot of every screen: the screen's keys and what they do."""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content
from textual.screen import Screen
from textual.style import Style
from textual.widget import Widget

from forage.app.describe import ELLIPSIS


class KeyBar(Widget):
    """The shown bindings of the screen on one line; click a key to use it.

    Textual's ``Footer`` rebuilds itself from child widgets whenever the bindings change
    (twice while a screen starts); this bar is one line of text, drawn again only when
    what it says changes.
    """

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    KeyBar > .keybar--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    KeyBar > .keybar--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    KeyBar > .keybar--disabled {
        text-style: dim;
    }
    """

    COMPONENT_CLASSES = {"keybar--key", "keybar--description", "keybar--disabled"}  # noqa: RUF012

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """A bar that shows the keys of the screen it is on."""
        super().__init__(id=id, classes=classes)
        self._shown: tuple[tuple[str, str, str, bool], ...] = ()

    def on_mount(self) -> None:
        """Follow the screen's bindings."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._shown = self.keys()

    def on_unmount(self) -> None:
        """Stop following the screen's bindings."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        """Repaint when the keys to show have changed."""
        keys = self.keys()
        if keys != self._shown:
            self._shown = keys
            self.refresh()

    def keys(self) -> tuple[tuple[str, str, str, bool], ...]:
        """(key shown, what it does, action, enabled) for each shown binding, one per action;
        a screen with a ``key_label(action, description)`` method may name an action
        otherwise for the moment (enter is Next between the tutorial's lessons), or leave
        it out (None)."""
        seen: set[str] = set()
        keys: list[tuple[str, str, str, bool]] = []
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            label = getattr(self.screen, "key_label", None)
            said = label(binding.action, binding.description) if label else binding.description
            if said is not None:
                keys.append((self.app.get_key_display(binding), said, binding.action, enabled))
        return tuple(keys)

    def render(self) -> Content:
        """The keys, each followed by what it does (nine fit in 80 columns); keys that do
        not fit are left out whole, an ellipsis (``...`` in ASCII) saying so."""
        key_style = self.get_visual_style("keybar--key")
        text_style = self.get_visual_style("keybar--description")
        disabled = self.get_visual_style("keybar--disabled")
        pairs: list[list[tuple[str, Style]]] = []
        for key, description, action, enabled in self._shown:
            click = Style.from_meta({"@click": f"screen.{action}"})
            dim = Style() if enabled else disabled
            pairs.append(
                [(f" {key} ", key_style + dim + click), (description, text_style + dim + click)]
            )
        lengths = [sum(cell_len(text) for text, _ in pair) for pair in pairs]
        width = self.size.width
        parts: list[tuple[str, Style]] = []
        if not width or sum(lengths) <= width:
            for pair in pairs:
                parts += pair
            return Content.assemble(*parts)
        room = width - 1 - len(ELLIPSIS)
        for pair, length in zip(pairs, lengths, strict=True):
            if length > room:
                break
            parts += pair
            room -= length
        parts.append((f" {ELLIPSIS}", text_style))
        return Content.assemble(*parts)
