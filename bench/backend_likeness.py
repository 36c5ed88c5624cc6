"""How much the two storage backends still say alike: for each module of `storage/sqlite/` with
a namesake in `storage/postgres/`, the lines the two hold in the same order (difflib's matching
blocks over whole lines), beside each module's length. Import lines and signature-only lines
(a `def` header up to its colon) are left out before comparing: both backends importing one
shared name, or declaring the method a contract gives both, is not code said twice, and
counting it made real sharing raise the figure. Information for whoever next changes them: what
the backends say twice belongs in the shared layer (`storage/*.py`) unless they differ in
substance.

Run: .venv/bin/python -m bench.backend_likeness
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass
from pathlib import Path

STORAGE = Path(__file__).resolve().parent.parent / "services/memory/squirrel_memory/storage"


@dataclass(frozen=True, slots=True)
class Likeness:
    """One pair of namesake modules: their lengths and the lines they share in order."""

    name: str
    sqlite_lines: int
    postgres_lines: int
    shared: int


def unheaded_lines(source: str) -> list[str]:
    """`source`'s lines but its imports and its functions' signature-only lines (from `def` to
    the line before the body; a one-line `def f(): ...` keeps its line). Text that does not
    parse as Python is kept whole."""
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return lines
    dropped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            dropped.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            dropped.update(range(node.lineno, node.body[0].lineno))
    return [line for number, line in enumerate(lines, 1) if number not in dropped]


def shared_lines(left: str, right: str) -> int:
    """The lines of `left` that `right` holds in the same order (whole lines, blank ones too),
    but imports and signatures (`unheaded_lines`)."""
    a, b = unheaded_lines(left), unheaded_lines(right)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


def likeness(storage: Path = STORAGE) -> list[Likeness]:
    """Every pair of namesake modules of the two backends (but their `__init__`), by name."""
    found = []
    for left in sorted((storage / "sqlite").glob("*.py")):
        right = storage / "postgres" / left.name
        if left.name == "__init__.py" or not right.exists():
            continue
        a, b = left.read_text(encoding="utf-8"), right.read_text(encoding="utf-8")
        found.append(
            Likeness(left.stem, len(a.splitlines()), len(b.splitlines()), shared_lines(a, b))
        )
    return found


def table(rows: list[Likeness]) -> str:
    lines = [f"{'module':<14} {'sqlite':>7} {'postgres':>9} {'shared':>7}"]
    lines += [f"{r.name:<14} {r.sqlite_lines:>7} {r.postgres_lines:>9} {r.shared:>7}" for r in rows]
    total = sum(r.shared for r in rows)
    lines.append(f"{'all pairs':<14} {'':>7} {'':>9} {total:>7}")
    return "\n".join(lines)


def main() -> None:
    print(table(likeness()))


if __name__ == "__main__":
    main()
