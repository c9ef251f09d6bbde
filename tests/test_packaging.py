"""The built wheel carries the card data, and an installed forage finds it."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import packages_distributions, version
from itertools import chain
from pathlib import Path

import pytest

from forage.carddata import parse_card_file, standard_deck

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [uv, "build", "--wheel", "--out-dir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("*.whl")
    return built


def test_wheel_ships_the_card_data(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read("forage/_data/cards.json").decode("utf-8")
    assert parse_card_file(text) == standard_deck()


def test_installed_wheel_finds_the_card_data(wheel: Path, tmp_path: Path) -> None:
    """Unpacked away from the checkout, the package loads its deck from inside itself."""
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path)
    code = (
        "import forage.carddata as c, pathlib, sys;"
        "assert pathlib.Path(c.__file__).is_relative_to(sys.argv[1]), c.__file__;"
        "print(len(c.standard_deck()))"
    )
    assert run_installed(code, tmp_path) == "18"


def run_installed(code: str, folder: Path) -> str:
    """What Python code prints when run with only the unpacked wheel in ``folder`` to import."""
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder)],
        cwd=folder,
        env={"PYTHONPATH": str(folder), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_wheel_ships_the_achievements(wheel: Path, tmp_path: Path) -> None:
    """achievements.json travels in the wheel and an installed forage reads it from there."""
    from forage.history.achievements import all_achievements, parse_achievements

    with zipfile.ZipFile(wheel) as archive:
        text = archive.read("forage/_data/achievements.json").decode("utf-8")
        archive.extractall(tmp_path)
    assert tuple(parse_achievements(text)) == all_achievements()
    code = (
        "import forage.history.achievements as a, pathlib, sys;"
        "assert pathlib.Path(a.__file__).is_relative_to(sys.argv[1]), a.__file__;"
        "print(len(a.all_achievements()))"
    )
    assert run_installed(code, tmp_path) == str(len(all_achievements()))


def test_wheel_ships_the_puzzles(wheel: Path, tmp_path: Path) -> None:
    """puzzles.json travels in the wheel and an installed forage reads it from there."""
    from forage.puzzle import parse_puzzles, puzzles

    with zipfile.ZipFile(wheel) as archive:
        text = archive.read("forage/_data/puzzles.json").decode("utf-8")
        archive.extractall(tmp_path)
    assert tuple(parse_puzzles(text).puzzles) == puzzles()
    code = (
        "import forage.puzzle as p, pathlib, sys;"
        "assert pathlib.Path(p.__file__).is_relative_to(sys.argv[1]), p.__file__;"
        "print(len(p.puzzles()))"
    )
    assert run_installed(code, tmp_path) == str(len(puzzles()))


def imported_at_run_time(tree: ast.Module) -> set[str]:
    """The top-level modules a module imports, other than for type checking only."""
    checking = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and ast.unparse(branch.test).endswith("TYPE_CHECKING")
        for statement in branch.body
        for node in ast.walk(statement)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.partition(".")[0])
    return found


def test_every_library_forage_imports_is_declared_with_bounds() -> None:
    """Each library imported at run time is a dependency of forage's own (an optional one
    for PostgreSQL), not one that only comes with another; aiohttp is bound to the major
    version tested."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = [*project["dependencies"], *chain(*project["optional-dependencies"].values())]
    names = {re.split(r"[\[<>=!~; ]", spec, maxsplit=1)[0].lower() for spec in declared}
    modules: set[str] = set()
    for path in (ROOT / "src").rglob("*.py"):
        modules |= imported_at_run_time(ast.parse(path.read_text(encoding="utf-8")))
    distributions = packages_distributions()
    undeclared = sorted(
        f"{module} ({', '.join(distributions.get(module, ['?']))})"
        for module in modules - set(sys.stdlib_module_names) - {"forage"}
        if not {name.lower() for name in distributions.get(module, [module])} & names
    )
    assert undeclared == [], "imported but not declared in pyproject.toml"
    assert "aiohttp>=3.10,<4" in project["dependencies"]
    assert version("aiohttp").split(".")[0] == "3"


def test_wheel_ships_the_compiled_catalogues_and_speaks_japanese_from_them(
    wheel: Path, tmp_path: Path
) -> None:
    """Each language's .mo travels in the wheel; an installed forage translates from it."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path)
    assert "forage/locale/ja/LC_MESSAGES/forage.mo" in names
    code = (
        "import forage.i18n as i, pathlib, sys;"
        "assert pathlib.Path(i.__file__).is_relative_to(sys.argv[1]), i.__file__;"
        "i.use('ja'); print(i._('Scores'))"
    )
    shown = run_installed(code, tmp_path)
    assert shown != "Scores" and not shown.isascii()
