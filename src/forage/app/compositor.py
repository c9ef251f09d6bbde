"""Textual's compositor, with partial updates that render only the lines that changed.

Textual repaints a screen after a key press by rendering every widget that meets the box
around all the changed regions, each widget whole, and then writing only the changed
spans. Moving a card changes a few woodland lines and the status bar's first lines, whose
box covers nearly the whole screen, so every widget is rendered again for a handful of
changed lines. :class:`LineCompositor` crops each run of changed lines on its own and has
each widget render only its lines inside that crop; what it writes is the same.

It builds on two private methods of Textual's compositor (``render_partial_update`` and
``_get_renders``). :func:`line_compositor` checks that they are there and take what they
took when this was written, and gives Textual's own compositor otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

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
