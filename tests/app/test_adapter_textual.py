"""forage's one adapter to Textual's private names (``forage/adapters/textual.py``): each
name is still there as used, nothing else reaches for one, and what each use does holds.

The line compositor writes exactly what Textual's own compositor writes, for any set of
changed regions, on the screens of a standard game and of a recipe challenge; widgets of
screens opened and closed again and again are let go.
"""

from __future__ import annotations

import gc
import importlib
import random
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from app_helpers import settled, sync
from textual._compositor import Compositor
from textual._styles_cache import StylesCache
from textual.geometry import Region

from forage.adapters.textual import PRIVATE_NAMES, LineCompositor, line_compositor, line_runs
from forage.app.app import ForageApp
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


SRC = Path(__file__).parent.parent.parent / "src"
ADAPTERS = SRC / "forage" / "adapters"


NO_CODE = compile("", "", "exec")
"""The code of a class with no constructor of its own (it names nothing)."""


@pytest.mark.parametrize(("where", "name"), PRIVATE_NAMES)
def test_each_private_name_the_adapter_uses_is_still_there(where: str, name: str) -> None:
    module, _, owner = where.rpartition(".")
    found = getattr(importlib.import_module(module), owner)
    kept_by_constructor = any(  # an attribute a constructor sets on each instance
        name in getattr(vars(cls).get("__init__"), "__code__", NO_CODE).co_names
        for cls in found.__mro__
    )
    assert hasattr(found, name) or kept_by_constructor, (
        f"Textual {version('textual')} changed: {where}.{name} is gone (forage/adapters/textual.py)"
    )


def test_textual_is_bound_to_the_major_version_tested() -> None:
    pyproject = (SRC.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"textual>=8.2,<9"' in pyproject
    assert version("textual").split(".")[0] == "8"


def test_only_the_adapters_reach_into_textuals_private_modules() -> None:
    users = [
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if ADAPTERS not in path.parents
        and re.search(r"\btextual\._", path.read_text(encoding="utf-8"))
    ]
    assert users == [], "Textual's private names belong in forage/adapters/textual.py"


def styles_caches() -> int:
    """How many widgets' styles caches are alive."""
    gc.collect()
    return sum(isinstance(o, StylesCache) for o in gc.get_objects())


@sync
async def test_dialogs_opened_and_closed_again_and_again_are_let_go(forage_home: Path) -> None:
    app = ForageApp(seed=3, offer_resume=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        counts = []
        for _ in range(3):
            for _ in range(20):
                for key in ("question_mark", "escape", "s", "escape"):
                    await pilot.press(key)
            await pilot.pause()
            counts.append(styles_caches())
    assert counts[-1] <= counts[0] + 20, counts
