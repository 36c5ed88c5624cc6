"""How much the two storage backends still say alike: for each module of `storage/sqlite/` with
a namesake in `storage/postgres/`, the lines the two hold in the same order (difflib's matching
blocks over whole lines), beside each module's length. Import lines and signature-only lines
(a `def` header up to its colon) are left out before comparing: both backends importing one
shared name, or declaring the method a contract gives both, is not code said twice, and
counting it made real sharing raise the figure. Information for whoever next changes them: what
the backends say twice belongs in the shared layer (`storage/*.py`) unless they differ in
substance.

Of those lines, `worded` counts the ones that say something: a line with a letter or a digit
(blank lines, and lines of brackets, quotes and commas alone, match wherever two modules are
laid out alike and say nothing twice). `--lines` prints each pair's worded lines.

Run: .venv/bin/python -m bench.backend_likeness [--lines]
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
from dataclasses import dataclass
from pathlib import Path

STORAGE = Path(__file__).resolve().parent.parent / "services/memory/squirrel_memory/storage"
_WORDED = re.compile(r"[A-Za-z0-9]")


@dataclass(frozen=True, slots=True)
class Likeness:
    """One pair of namesake modules: their lengths, the lines they share in order, and those of
    them with a letter or digit (`worded`, listed in `said`)."""

    name: str
    sqlite_lines: int
    postgres_lines: int
    shared: int
    worded: int = 0
    said: tuple[str, ...] = ()


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
    return len(_shared(left, right))


def worded_lines(left: str, right: str) -> list[str]:
    """Those of `shared_lines` that hold a letter or a digit, in `left`'s order."""
    return [line for line in _shared(left, right) if _WORDED.search(line)]


def _shared(left: str, right: str) -> list[str]:
    a, b = unheaded_lines(left), unheaded_lines(right)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [
        line
        for block in matcher.get_matching_blocks()
        for line in a[block.a : block.a + block.size]
    ]


def likeness(storage: Path = STORAGE) -> list[Likeness]:
    """Every pair of namesake modules of the two backends (but their `__init__`), by name."""
    found = []
    for left in sorted((storage / "sqlite").glob("*.py")):
        right = storage / "postgres" / left.name
        if left.name == "__init__.py" or not right.exists():
            continue
        a, b = left.read_text(encoding="utf-8"), right.read_text(encoding="utf-8")
        said = tuple(worded_lines(a, b))
        found.append(
            Likeness(
                left.stem,
                len(a.splitlines()),
                len(b.splitlines()),
                shared_lines(a, b),
                len(said),
                said,
            )
        )
    return found


def table(rows: list[Likeness]) -> str:
    lines = [f"{'module':<14} {'sqlite':>7} {'postgres':>9} {'shared':>7} {'worded':>7}"]
    lines += [
        f"{r.name:<14} {r.sqlite_lines:>7} {r.postgres_lines:>9} {r.shared:>7} {r.worded:>7}"
        for r in rows
    ]
    total, worded = sum(r.shared for r in rows), sum(r.worded for r in rows)
    lines.append(f"{'all pairs':<14} {'':>7} {'':>9} {total:>7} {worded:>7}")
    return "\n".join(lines)


def said_lines(rows: list[Likeness]) -> str:
    """Each pair's worded shared lines, under its name."""
    return "\n".join(
        f"{r.name}:\n" + "\n".join(f"  | {line}" for line in r.said) for r in rows if r.said
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.backend_likeness", description=__doc__)
    parser.add_argument("--lines", action="store_true", help="print each pair's worded lines")
    args = parser.parse_args(argv)
    rows = likeness()
    print(table(rows))
    if args.lines:
        print("\n" + said_lines(rows))


if __name__ == "__main__":
    main()
