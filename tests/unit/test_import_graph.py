"""The layers import only downwards: protos -> core -> ingest / memory / gateway -> cli.

Read from the source with `ast` (every `import` and `from … import`, at the top or inside a
function), so a lazy import cannot slip past. The command line reaches a service through its
contracts only: a gRPC call, or a service's own program run as a process.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("squirrel_ingest", "squirrel_memory", "squirrel_gateway")
PACKAGES = {
    "squirrel_core": ROOT / "core" / "squirrel_core",
    "squirrel_ingest": ROOT / "services" / "ingest" / "squirrel_ingest",
    "squirrel_memory": ROOT / "services" / "memory" / "squirrel_memory",
    "squirrel_gateway": ROOT / "services" / "gateway" / "squirrel_gateway",
    "squirrel_cli": ROOT / "cli" / "squirrel_cli",
}
CLI_ENTRY_POINTS = frozenset({"squirrel_gateway.stdio"})
"""Whole programs the command line may run in its own process, not internals: `sqrl mcp` serves
the gateway's MCP program in-process when no gateway is running (`mcp_bridge`)."""


def imported_modules(source: str) -> Iterator[tuple[int, str]]:
    """(line, module) of every absolute import in `source`; relative ones stay in the package."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def forbidden_imports(
    source: str, forbidden: tuple[str, ...], allowed: frozenset[str] = frozenset()
) -> list[tuple[int, str]]:
    """The imports of `source` that reach into a `forbidden` top-level package, save `allowed`."""
    return [
        (line, module)
        for line, module in imported_modules(source)
        if module.split(".")[0] in forbidden and module not in allowed
    ]


def leaks(package: str, forbidden: tuple[str, ...], allowed: frozenset[str]) -> list[str]:
    found = []
    for path in sorted(PACKAGES[package].rglob("*.py")):
        for line, module in forbidden_imports(path.read_text(), forbidden, allowed):
            found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return found


def test_the_command_line_imports_no_service_internals() -> None:
    assert leaks("squirrel_cli", SERVICES, CLI_ENTRY_POINTS) == []


@pytest.mark.parametrize("service", SERVICES)
def test_a_service_imports_neither_another_service_nor_the_command_line(service: str) -> None:
    others = (*(s for s in SERVICES if s != service), "squirrel_cli")
    assert leaks(service, others, frozenset()) == []


def test_core_imports_no_service_and_not_the_command_line() -> None:
    assert leaks("squirrel_core", (*SERVICES, "squirrel_cli"), frozenset()) == []


def test_every_package_is_read() -> None:
    for package, folder in PACKAGES.items():
        assert (folder / "__init__.py").is_file(), package


CASES = """
import squirrel_memory
import os, squirrel_ingest.sources as sources
from squirrel_memory.bootstrap import init_user_db
from squirrel_core.errors import SquirrelError
from . import sibling
from .storage import memories

def later() -> None:
    from squirrel_gateway.server import serve
    from squirrel_gateway.stdio import serve_stdio
"""


def test_the_check_finds_every_form_of_import_and_no_other() -> None:
    found = forbidden_imports(CASES, SERVICES, CLI_ENTRY_POINTS)
    assert found == [
        (2, "squirrel_memory"),
        (3, "squirrel_ingest.sources"),
        (4, "squirrel_memory.bootstrap"),
        (10, "squirrel_gateway.server"),
    ]


def test_the_check_lets_through_core_relative_and_named_entry_points() -> None:
    source = (
        "from squirrel_core.store_paths import ProjectPaths\n"
        "from . import memory\n"
        "import squirrel_memoryless\n"
        "from squirrel_gateway.stdio import serve_stdio\n"
    )
    assert forbidden_imports(source, SERVICES, CLI_ENTRY_POINTS) == []
    assert forbidden_imports(source, SERVICES) == [(4, "squirrel_gateway.stdio")]
