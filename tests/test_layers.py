"""The package's layers (docs/architecture.md): no module imports a layer above its own, and
no import circle, counting imports inside functions and under TYPE_CHECKING."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

SRC: Final = Path(__file__).parent.parent / "src"

LAYER: Final[dict[str, float]] = {
    "forage": 0,
    "forage.exits": 0,
    "forage.sqlite": 0,
    "forage.adapters": 0,
    "forage.files": 0,
    "forage.paths": 0,
    "forage.screen_size": 0,
    "forage.startup": 0,
    "forage.settings": 0.25,
    "forage.i18n": 0.5,
    "forage.wording": 0.75,
    "forage.players": 0.8,
    "forage.engine": 1,
    "forage.carddata": 2,
    "forage.palette": 2,
    "forage.record": 3,
    "forage.render": 3,
    "forage.learn": 3,
    "forage.puzzle": 4,
    "forage.history": 4,
    "forage.ai": 4,
    "forage.net": 5,
    "forage.app": 6,
    "forage.cli": 7,
    "forage.launch": 8,
    "forage.__main__": 9,
}
"""Each part's layer, lowest first; a part may import only parts of a lower layer."""


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    found = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES: Final = _modules()


def _imported(name: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package's modules an import statement of module ``name`` loads."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = name.split(".")
        if MODULES[name].name != "__init__.py":
            base = base[:-1]
        if node.level:
            base = base[: len(base) - node.level + 1]
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        submodules = [f"{module}.{alias.name}" for alias in node.names]
        if all(sub in MODULES for sub in submodules):
            targets = submodules  # `from package import module`
        else:
            targets = [module, *(sub for sub in submodules if sub in MODULES)]
    found = []
    for target in targets:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target.startswith("forage") and target != name:
            found.append(target)
    return found


def _graph() -> dict[str, set[str]]:
    """Which of the package's modules each module imports, anywhere in its code."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = {
            target
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for target in _imported(name, node)
        }
    return graph


def _part(name: str) -> str:
    """The part of the package (a key of LAYER) a module belongs to."""
    parts = name.split(".")
    for size in range(len(parts), 0, -1):
        prefix = ".".join(parts[:size])
        if prefix in LAYER:
            return prefix
    raise AssertionError(f"{name} is in no layer of LAYER")


def test_every_module_is_in_a_layer() -> None:
    assert {_part(name) for name in MODULES} <= set(LAYER)


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = [
        f"{name} imports {target}"
        for name, targets in _graph().items()
        for target in targets
        if _part(name) != _part(target) and LAYER[_part(target)] >= LAYER[_part(name)]
    ]
    assert upward == []


def test_no_import_circle() -> None:
    graph = _graph()
    circles = []
    for start in graph:
        seen: set[str] = set()
        stack = list(graph[start])
        while stack:
            name = stack.pop()
            if name == start:
                circles.append(start)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(graph[name])
    assert circles == []


def test_the_checks_see_an_upward_import_and_a_circle() -> None:
    """The reading of imports finds them where they are (the checks above can fail)."""
    cli = ast.parse("from forage.cli.play import run_game\nimport forage.app.app")
    imports = [node for node in cli.body if isinstance(node, ast.Import | ast.ImportFrom)]
    found = [t for node in imports for t in _imported("forage.engine.game", node)]
    assert found == ["forage.cli.play", "forage.app.app"]
    assert LAYER[_part(found[0])] > LAYER[_part("forage.engine.game")]


WEB_FREE: Final = (
    "forage.net.rooms",
    "forage.net.admission",
    "forage.net.service",
    "forage.net.keeping",
    "forage.net.peer",
    "forage.net.store",
    "forage.net.patience",
)
"""The rooms' rules, their service and their store: no web server in them."""


def _third_party(path: Path) -> set[str]:
    """The top-level packages a module imports that are not the standard library's or ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_rooms_service_and_its_rules_import_no_web_server() -> None:
    for name in WEB_FREE:
        assert "aiohttp" not in _third_party(MODULES[name]), name
    assert "aiohttp" in _third_party(MODULES["forage.net.server"])  # the check sees it
