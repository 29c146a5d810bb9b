"""What start-up loads: ``import castle`` and ``castle --help`` leave the player's modules and
the heavy packages (Textual, rich, Starlette, uvicorn, platformdirs, importlib.metadata) until
something uses them (castle.lazy; castle.cli.commands imports only the command run); every
public name still imports. Each check runs in a fresh interpreter: no timing, what is
loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from types import ModuleType

import castle
import castle.tui
import pytest
from castle.cli import main
from castle.cli.commands import COMMANDS

#: Packages and modules no start-up of ``import castle`` or ``castle --help`` needs.
HEAVY = (
    "textual",
    "rich",
    "starlette",
    "uvicorn",
    "markdown_it",
    "platformdirs",
    "importlib.metadata",
    "castle.reference",
    "castle.game.game",
    "castle.saves.store",
    "castle.table.table",
)

#: Prints, as JSON, the modules that ``python -c LOADED CODE`` loaded after the interpreter
#: started (the site's own imports left out).
LOADED = """\
import json, sys
before = set(sys.modules)
{code}
print(json.dumps(sorted(set(sys.modules) - before)), file=sys.__stderr__)
"""


def loaded(code: str) -> list[str]:
    """The modules ``code`` loads in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED.format(code=code)],
        capture_output=True,
        text=True,
        check=True,
    )
    last: list[str] = json.loads(done.stderr.splitlines()[-1])
    return last


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY)]


def test_import_castle_loads_the_solver_alone() -> None:
    modules = loaded("import castle")
    assert "castle.solving.solve" in modules
    assert heavy(modules) == []


def test_castle_help_loads_no_command_s_module() -> None:
    modules = loaded("from castle.cli import main; main(['--help'])")
    assert heavy(modules) == []
    assert [m for m in modules if m.startswith("castle.cli.")] == [
        "castle.cli.commands",
        "castle.cli.errors",
    ]


def test_version_is_read_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr() == (f"castle {castle.__version__}\n", "")
    modules = loaded("from castle.cli import main; main(['--version'])")
    assert "castle.version" in modules


@pytest.mark.parametrize("command", ["solve", "play"])
def test_a_command_loads_its_own_module_alone(command: str) -> None:
    modules = loaded(f"from castle.cli import main; main([{command!r}, '--help'])")
    assert COMMANDS[command].module in modules
    others = {c.module for name, c in COMMANDS.items() if name != command}
    assert others.isdisjoint(modules)
    # castle play --plain needs no Textual: only the full-screen player loads it.
    assert not [m for m in modules if m.startswith(("textual", "castle.tui."))]


def test_every_public_name_imports_and_solve_is_the_function() -> None:
    code = (
        "import castle, castle.solving.solve, castle.game.game, castle.table.table, castle.tui\n"
        "from castle import *\n"
        "names = {n: getattr(castle, n) for n in castle.__all__}\n"
        "assert callable(castle.solve) and castle.solve is solve, castle.solve\n"
        "assert castle.tui.CastleApp.__module__ == 'castle.tui.app'\n"
        "print(castle.__version__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == castle.__version__


@pytest.mark.parametrize("package", [castle, castle.tui], ids=["castle", "castle.tui"])
def test_an_unknown_name_is_an_attribute_error(package: ModuleType) -> None:
    with pytest.raises(AttributeError, match=f"module '{package.__name__}' has no attribute"):
        _ = package.Nope
