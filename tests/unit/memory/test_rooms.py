"""The memory package reads like its architecture: a listed set of top-level modules beside
rooms (subpackages), each saying in its docstring what it holds, all named in the module map of
docs/architecture.md ("Where the code lives")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "services" / "memory" / "squirrel_memory"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

TOP_LEVEL = frozenset(
    {
        "__init__",
        "__main__",
        # the service's edge and composition
        "bootstrap",
        "convert",
        "engine",
        "models",
        "registry",
        "server",
        "servicer",
        # the processor and what it calls
        "anchors",
        "candidate_decisions",
        "code_files",
        "dedup",
        "episodes",
        "instruction_meaning",
        "loaded_sources",
        "markdown_links",
        "pass_report",
        "pass_writes",
        "processor",
        "processor_settings",
        "project_evidence",
        "project_work",
        "promotion",
        "recipe_join",
        "recurrence",
        "session_readiness",
        "status",
        "style_scope",
        # the read side
        "indexer",
        "readside",
        "scoring",
        "task_context",
        "task_subjects",
        "view_order",
        "heap",
    }
)
"""Only shrinks: a new module goes into the room it belongs to. One added here must also be named
in the module map of docs/architecture.md."""


def rooms() -> list[Path]:
    """Every subpackage of the memory package, nested ones included (a folder holding Python)."""
    return sorted(
        folder
        for folder in PACKAGE.rglob("*")
        if folder.is_dir() and folder.name != "__pycache__" and any(folder.glob("*.py"))
    )


def module_map() -> str:
    text = ARCHITECTURE.read_text()
    start = text.index("\n## Where the code lives\n")
    return text[start : text.index("\n## ", start + 1)]


def test_the_top_level_modules_are_the_listed_ones() -> None:
    found = {path.stem for path in PACKAGE.glob("*.py")}
    assert sorted(found - TOP_LEVEL) == [], "put a new module into its room (a subpackage)"
    assert sorted(TOP_LEVEL - found) == [], "a module that moved into a room leaves the list"


def test_every_room_says_what_it_holds() -> None:
    assert rooms(), "the memory package has subpackages"
    for folder in rooms():
        init = folder / "__init__.py"
        assert init.is_file(), f"{folder.relative_to(ROOT)} is a package"
        docstring = ast.get_docstring(ast.parse(init.read_text()))
        assert docstring, f"{init.relative_to(ROOT)} says what the room holds"


def test_the_module_map_names_every_room_and_every_top_level_module() -> None:
    text = module_map()
    named_rooms = set(re.findall(r"^\| `([a-z_]+)/` \|", text, flags=re.MULTILINE))
    top_rooms = {folder.name for folder in rooms() if folder.parent == PACKAGE}
    assert named_rooms == top_rooms
    for module in TOP_LEVEL - {"__init__", "__main__"}:
        assert f"`{module}`" in text, module
