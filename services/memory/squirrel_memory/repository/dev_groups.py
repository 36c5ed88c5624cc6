"""Whether a named set of dependencies serves development: a requirements file's name
(`requirements-docs.txt`) or an optional extra's (`test`, `lint`), never a runtime one
(`postgres`, `server`)."""

from __future__ import annotations

import re

#: Words that make a name a development one, each a whole word of it (`docs`, `test-utils`;
#: never "doc" inside `docker`).
DEV_WORDS = frozenset(
    {"dev", "devel", "develop", "development", "test", "tests", "testing", "lint", "linting"}
    | {"linters", "doc", "docs", "documentation", "ci", "check", "checks", "type", "types"}
    | {"typing", "typecheck", "bench", "benchmark", "benchmarks", "mypy", "style", "qa"}
    | {"example", "examples", "demo", "demos"}
)


def is_dev_group(name: str) -> bool:
    """Whether a requirements file's or an optional extra's name says it serves development,
    tests, linting or the docs."""
    return not DEV_WORDS.isdisjoint(re.split(r"[^a-z0-9]+", name.lower()))
