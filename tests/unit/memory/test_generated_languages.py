"""Vendored, generated and build-output code beside a root manifest is not the project's
language (`language_fact`), in any ecosystem; the same language in the project's own folders
still is."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.language_fact import language_fact


def _said(manifest: str, files: list[str]) -> str:
    paths = [(manifest, "e0"), *((f, f"e{i}") for i, f in enumerate(files, 1))]
    fact = language_fact(paths, {})
    assert fact is not None
    return fact.content


@pytest.mark.parametrize(
    ("manifest", "foreign", "language"),
    [
        ("go.mod", ["gen/python/geo/v1/geo_pb2.py", "gen/python/geo/v1/geo_pb2_grpc.py"], "Python"),
        ("Cargo.toml", ["vendor/lua/lapi.lua", "vendor/lua/lcode.lua"], "Lua"),
        (
            "CMakeLists.txt",
            ["third_party/lua/etc/bench.js", "third_party/lua/etc/run.js"],
            "JavaScript",
        ),
    ],
)
def test_generated_or_vendored_code_names_no_language(
    manifest: str, foreign: list[str], language: str
) -> None:
    assert language not in _said(manifest, foreign)


@pytest.mark.parametrize(
    ("manifest", "own", "language"),
    [
        ("go.mod", ["internal/ml/score.py", "internal/ml/train.py"], "Python"),
        ("Cargo.toml", ["src/scripts_lua/init.lua", "src/scripts_lua/keys.lua"], "Lua"),
    ],
)
def test_the_same_language_in_the_projects_own_folders_is_named(
    manifest: str, own: list[str], language: str
) -> None:
    assert language in _said(manifest, own)
