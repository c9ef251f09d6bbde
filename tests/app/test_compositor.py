"""The line compositor writes exactly what Textual's own compositor writes, for any set of
changed regions, on the screens of a standard game and of a recipe challenge."""

from __future__ import annotations

import random

import pytest
from app_helpers import settled, sync
from textual._compositor import Compositor
from textual.geometry import Region

from forage.app.app import ForageApp
from forage.app.compositor import LineCompositor, line_compositor, line_runs
from forage.app.widgets.lines import line_regions


def test_line_runs_group_touching_lines_top_to_bottom() -> None:
    """Regions whose lines touch or overlap form one run; a gap starts another."""
    a, b, c, d = Region(0, 5, 10, 1), Region(3, 6, 4, 2), Region(0, 9, 80, 1), Region(2, 1, 3, 1)
    assert line_runs([c, a, d, b]) == [[d], [a, b], [c]]


def test_the_line_compositor_is_used_with_this_textual() -> None:
    """The installed Textual has the methods the line compositor replaces."""
    assert isinstance(line_compositor(), LineCompositor)


def random_regions(rng: random.Random, width: int, height: int) -> list[Region]:
    """A few changed regions: single lines (as widgets refresh them) and boxes."""
    regions = []
    for _ in range(rng.randint(1, 8)):
        x, y = rng.randrange(width), rng.randrange(height)
        w = rng.randint(1, width - x)
        h = 1 if rng.random() < 0.7 else rng.randint(1, height - y)
        regions.append(Region(x, y, w, h))
    return regions


@pytest.mark.parametrize(("size", "recipes"), [((80, 24), False), ((120, 40), True)])
@sync
async def test_partial_updates_write_what_textual_writes(
    size: tuple[int, int], recipes: bool
) -> None:
    """For 200 random sets of changed regions, the spans written are the same text and
    styles as Textual's compositor writes."""
    app = ForageApp(seed=4, recipes=recipes)
    async with app.run_test(size=size) as pilot:
        await settled(pilot, app)
        await pilot.press("left", "left", "r")
        await settled(pilot, app)
        compositor = app.screen._compositor
        assert isinstance(compositor, LineCompositor)
        rng = random.Random(7)
        for _ in range(200):
            regions = random_regions(rng, *size)
            compositor._dirty_regions.update(regions)
            ours = compositor.render_partial_update()
            compositor._dirty_regions.update(regions)
            theirs = Compositor.render_partial_update(compositor)
            assert ours is not None and theirs is not None
            assert ours.render_segments(app.console) == theirs.render_segments(app.console)


def test_line_regions_cover_each_run_of_lines_once() -> None:
    """Lines next to each other share one region; the regions cover exactly the lines."""
    regions = line_regions([9, 3, 4, 5, 11, 10, 0], 50)
    assert regions == [Region(0, 0, 50, 1), Region(0, 3, 50, 3), Region(0, 9, 50, 3)]
    assert sorted(y for region in regions for y in region.line_range) == [0, 3, 4, 5, 9, 10, 11]
