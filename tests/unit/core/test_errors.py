"""The error tree in `squirrel_core.errors`' docstring stays true: every domain error, its status,
and every subclass the services define under it."""

from __future__ import annotations

import ast
import functools
import inspect
from pathlib import Path

import squirrel_core.errors as errors

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ("core", "services", "cli")


def _core_errors() -> dict[str, type[errors.SquirrelError]]:
    return {
        name: cls
        for name, cls in vars(errors).items()
        if inspect.isclass(cls) and issubclass(cls, errors.SquirrelError)
    }


def _tree_lines() -> list[str]:
    doc = errors.__doc__ or ""
    return [line.strip() for line in doc.splitlines() if line.startswith("    ")]


@functools.cache
def _subclasses_in_sources() -> dict[str, str]:
    """Each class in the project's sources deriving from a domain error: name → parent name."""
    found: dict[str, str] = {}
    known = set(_core_errors())
    bases: dict[str, list[str]] = {}
    for top in SOURCES:
        for path in (ROOT / top).rglob("*.py"):
            if "_pb2" in path.name or path.match("core/squirrel_core/errors.py"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    names = [
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    ]
                    bases[node.name] = names
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            parent = next((p for p in parents if p in known), None)
            if parent is not None and name not in found:
                found[name] = parent
                known.add(name)
                grew = True
    return found


def test_every_domain_error_is_in_the_tree_with_its_status() -> None:
    lines = _tree_lines()
    for name, cls in _core_errors().items():
        line = next((ln for ln in lines if ln.lstrip("│├└─ ").startswith(name + " ")), None)
        assert line is not None, name
        assert cls.status in line.split(), (name, line)


def test_every_service_subclass_is_named_in_the_tree() -> None:
    doc = errors.__doc__ or ""
    subclasses = _subclasses_in_sources()
    assert subclasses, "the scan found no subclasses: it no longer reads the sources"
    for name in subclasses:
        assert f" {name}," in doc or f" {name}]" in doc, name


def test_the_tree_names_no_subclass_that_is_gone() -> None:
    doc = errors.__doc__ or ""
    listed = {
        word.strip(",]")
        for line in doc.splitlines()
        if "[" in line
        for word in line.split("[", 1)[1].split()[1:]
    }
    assert listed <= set(_subclasses_in_sources())
