"""The packages' declared surfaces (`__all__`) hold: every name resolves, none twice, and the
storage package's three lists of its lazy names (type-checking imports, the loader's table,
`__all__`) name the same things from the same modules."""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest

import squirrel_memory.storage as storage

PACKAGES = (
    "squirrel_memory.storage",
    "squirrel_memory.retrieval",
    "squirrel_memory.views",
    "squirrel_memory.extractors",
    "squirrel_memory.extractors.evidence",
    "squirrel_memory.index",
    "squirrel_memory.repository",
    "squirrel_memory.updates",
)


@pytest.mark.parametrize("name", PACKAGES)
def test_every_declared_name_resolves_once(name: str) -> None:
    package = importlib.import_module(name)
    declared = list(package.__all__)
    assert len(declared) == len(set(declared)), name
    for member in declared:
        assert getattr(package, member) is not None, f"{name}.{member}"


def _type_checking_imports() -> dict[str, tuple[str, ...]]:
    tree = ast.parse(inspect.getsource(storage))
    found: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    found[statement.module] = tuple(alias.name for alias in statement.names)
    return found


def test_storage_lazy_names_agree_with_its_declared_surface() -> None:
    homes = storage._HOMES
    assert _type_checking_imports() == {module: tuple(names) for module, names in homes.items()}
    assert sorted(storage._MODULE_OF) == sorted(storage.__all__)
    for module, names in homes.items():
        loaded = importlib.import_module(module)
        for member in names:
            assert getattr(storage, member) is getattr(loaded, member), member
