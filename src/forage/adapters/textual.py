"""Textual: every use of its private names, in one place.

- :class:`LineCompositor` (``textual._compositor``): Textual repaints a screen after a key
  press by rendering every widget that meets the box around all the changed regions, each
  widget whole, and then writing only the changed spans. Moving a card changes a few
  woodland lines and the status bar's first lines, whose box covers nearly the whole
  screen, so every widget is rendered again for a handful of changed lines. This compositor
  crops each run of changed lines on its own and has each widget render only its lines
  inside that crop; what it writes is the same. It builds on two private methods of
  Textual's compositor (``render_partial_update`` and ``_get_renders``);
  :func:`use_line_compositor` checks that they are there and take what they took when this
  was written, and leaves Textual's own compositor otherwise.
- :func:`guard_input` (``textual._xterm_parser``): the input parser turns a key sequence
  naming a code point above 0x10FFFF (``ESC[1114112~``, ``ESC[999999999;1H``, from a
  terminal or a browser tab) into a ``ValueError`` that stops its input thread; guarded,
  such a sequence is one ignored key.
- :func:`release_styles_caches` (``textual._styles_cache``): every widget's styles cache
  is kept alive by a shared ``functools.lru_cache`` that has the cache itself in its key,
  with every line that widget drew, until a thousand more have come; screens opened and
  closed again and again (help, statistics, the end screen) grew the game by tens of MB.
- :class:`ErrorHookApp` (``App._handle_exception``): Textual ends an app for an error no
  handler caught through this private method; the app's :meth:`~ErrorHookApp.unhandled_error`
  is told first, and decides whether Textual ends the app for it.
- :func:`drop_exit_printout` (``App._exit_renderables``): what Textual prints once the app
  has ended (a traceback, a panic's text); forage writes a crash to its log instead.
- :func:`on_app_thread` (``App._thread_id``): the thread the app's event loop runs on.
- :func:`bind_also` (``DOMNode._bindings``): Textual's bindings are a class's; the one game
  screen takes its mode's keys on top of its own, merged as Textual merges a subclass's.

``tests/app/test_adapter_textual.py`` and ``tests/test_adapters.py`` check that each name is
still there as used here and say which one is gone after an upgrade; ``pyproject.toml``
bounds Textual to the major version tested.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from textual import events
from textual._compositor import ChopsUpdate, Compositor
from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.app import App, ReturnType
from textual.binding import BindingsMap, BindingType
from textual.dom import DOMNode
from textual.geometry import Region
from textual.keys import Keys
from textual.screen import Screen
from textual.strip import Strip

PRIVATE_NAMES: Final = (
    ("textual._compositor.Compositor", "render_partial_update"),
    ("textual._compositor.Compositor", "_get_renders"),
    ("textual._compositor.Compositor", "_render_chops"),
    ("textual._compositor.Compositor", "_regions_to_spans"),
    ("textual._compositor.Compositor", "_dirty_regions"),
    ("textual.screen.Screen", "_compositor"),
    ("textual._xterm_parser.XTermParser", "_parse_extended_key"),
    ("textual._styles_cache.StylesCache", "get_inner_outer"),
    ("textual.app.App", "_handle_exception"),
    ("textual.app.App", "_exit_renderables"),
    ("textual.app.App", "_thread_id"),
    ("textual.dom.DOMNode", "_bindings"),
)
"""The private names of Textual this module uses: (where, the name)."""

PARTIAL_UPDATE_PARAMETERS = ("self",)
"""The parameters of the compositor's partial update this class replaces."""
RENDERS_PARAMETERS = ("self", "crop")
"""The parameters of the compositor's ``_get_renders`` this class replaces."""


def line_runs(regions: Iterable[Region]) -> list[list[Region]]:
    """The changed regions in groups whose lines touch or overlap, top to bottom."""
    runs: list[list[Region]] = []
    bottom = -1
    for region in sorted(regions, key=lambda region: region.y):
        if runs and region.y <= bottom:
            runs[-1].append(region)
            bottom = max(bottom, region.bottom)
        else:
            runs.append([region])
            bottom = region.bottom
    return runs


class LineCompositor(Compositor):
    """A compositor whose partial updates render only the widgets' changed lines."""

    def render_partial_update(self) -> ChopsUpdate | None:
        """The changed spans, each run of changed lines rendered in its own crop."""
        screen = self.size.region
        regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not regions:
            return None
        spans = list(self._regions_to_spans(regions))
        chops: list[Mapping[int, Strip]] | None = None
        for run in line_runs(regions):
            crop = Region.from_union(run).intersection(screen)
            lines = {y for region in run for y in region.line_range}
            rendered = self._render_chops(crop, lines.__contains__)
            if chops is None:
                chops = list(rendered)
            else:
                for y in lines:
                    chops[y] = rendered[y]
        assert chops is not None
        return ChopsUpdate(chops, spans, [cuts[1:] for cuts in self.cuts])

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Strip]]]:
        """Each visible widget's lines inside ``crop`` (all of them without one), with the
        part of the screen they cover and the widget's clip."""
        if crop is None:
            yield from super()._get_renders(crop)
            return
        left, top, right, bottom = crop.x, crop.y, crop.right, crop.bottom
        for widget, (region, clip) in self.visible_widgets.items():
            x, y, width, height = region.intersection(clip)
            first, last = max(y, top), min(y + height, bottom)
            if not width or first >= last or x >= right or x + width <= left:
                continue
            part = Region(x, first, width, last - first)
            yield part, clip, widget.render_lines(part.translate(-region.offset))


def _parameters(method: object) -> Sequence[str]:
    """The names of a plain function's parameters (none for anything else)."""
    code = getattr(method, "__code__", None)
    if code is None:
        return ()
    return tuple(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])


def line_compositor() -> Compositor:
    """A :class:`LineCompositor` where this Textual's compositor has the methods it
    replaces, else Textual's own."""
    fits = (
        _parameters(Compositor.render_partial_update) == PARTIAL_UPDATE_PARAMETERS
        and _parameters(Compositor._get_renders) == RENDERS_PARAMETERS
        and hasattr(Compositor, "_render_chops")
        and hasattr(Compositor, "_regions_to_spans")
    )
    return LineCompositor() if fits else Compositor()


def use_line_compositor(screen: Screen[Any]) -> None:
    """Have a screen repaint with :func:`line_compositor`'s (from its construction on)."""
    screen._compositor = line_compositor()


MAX_CODE_POINT: Final = 0x10FFFF
"""The highest code point Unicode has."""


def guard_input() -> None:
    """Make Textual's input parser ignore key sequences it cannot read (idempotent)."""
    parse: Callable[..., Any] = XTermParser._parse_extended_key
    if getattr(parse, "forage_guarded", False):
        return

    @functools.wraps(parse)
    def guarded(self: XTermParser, sequence: str) -> list[events.Key] | None:
        try:
            found: list[events.Key] | None = parse(self, sequence)
        except (ValueError, OverflowError):  # a code point above MAX_CODE_POINT
            return [events.Key(Keys.Ignore, sequence)]
        return found

    guarded.forage_guarded = True  # type: ignore[attr-defined]
    XTermParser._parse_extended_key = guarded  # type: ignore[method-assign, assignment]


def release_styles_caches() -> None:
    """Let go of the styles caches of widgets no longer shown (what Textual's shared cache
    of inner and outer backgrounds holds on to; it fills again at once, cheaply)."""
    cached = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if callable(cached):
        cached()


class ErrorHookApp(App[ReturnType]):
    """A Textual app told of each error that no handler caught, in :meth:`unhandled_error`."""

    def unhandled_error(self, error: Exception) -> None:
        """An error no handler caught: :func:`end_for_error` (Textual's own handling)."""
        end_for_error(self, error)

    def _handle_exception(self, error: Exception) -> None:
        """Textual's hook for an error no handler caught: :meth:`unhandled_error`."""
        self.unhandled_error(error)


def end_for_error(app: App[Any], error: Exception) -> None:
    """End ``app`` for ``error`` as Textual does: exit code 1, the traceback kept to print
    once the app has ended."""
    App._handle_exception(app, error)


def drop_exit_printout(app: App[Any]) -> None:
    """Drop what Textual would print once ``app`` has ended (a traceback, a panic's text)."""
    app._exit_renderables.clear()


def exit_printout(app: App[Any]) -> list[Any]:
    """What Textual will print once ``app`` has ended (a traceback, a panic's text)."""
    return list(app._exit_renderables)


def on_app_thread(app: App[Any]) -> bool:
    """Whether the caller runs on the thread of ``app``'s event loop."""
    return threading.get_ident() == app._thread_id


def bind_also(node: DOMNode, bindings: Iterable[BindingType]) -> None:
    """Give one node ``bindings`` on top of its class's, as Textual merges a subclass's: a
    key bound again is bound anew where it stood, a new key comes after the others."""
    keys = dict(node._bindings.key_to_bindings)
    keys.update(BindingsMap(bindings).key_to_bindings)
    node._bindings = BindingsMap.from_keys(keys)
