"""Speed and size figures quoted in the docs, and whether each names the run that printed it.

A quoted figure (milliseconds, seconds, a rate per second, bytes, a ratio such as `2.3x`, in a
paragraph that speaks of measuring: "took", "p50", "faster", a rate...; a setting such as "times
out after 120 s" is not one) should name the command in the repository that prints it and the
load it ran at. This reads
docs/*.md, README.md and CHANGELOG.md's `## Unreleased` paragraph by paragraph (a table is one
paragraph, fenced code is skipped) and sorts each paragraph holding such a figure:

- `named`: it names a command (`bench.<module>`, `bench/<file>`, `python -m ...`) and the load;
- `continued`: it names neither or only one, but its section (under the same heading) names
  both, in one paragraph or across several (a command in a code block, then its table with a
  load column): it reads as more of that run's figures;
- `unnamed`: its section names no command or no load.

Run: python -m bench.quoted_figures [--list unnamed|continued|all] [ROOT]

It prints the counts per file and, with `--list`, each listed paragraph's file, line and opening
words. It judges words, not truth: a `named` paragraph may still quote a figure its command does
not print, so read what it lists.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

FIGURE = re.compile(
    r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?"
    r"(?:ms|µs|us|s|sec|seconds?|minutes?|min|hours?|h|MB|GB|KB|kB|MiB|GiB|KiB|bytes|x|×"
    r"|/s|(?:\s?\w+)?/s)(?![\w])"
)
COMMAND = re.compile(r"bench\.[a-z_]+|bench/[a-z_]+\.py|python -m [\w.]+|scripts/[\w./-]+")
#: The load named with its value ("load 2.1", "at load 17-21", "1-minute load 9.6 -> 12.6", a
#: table's load column); "the load was not recorded" does not name one.
LOAD = re.compile(r"\bload\b[^.;\n]{0,40}?\d", re.IGNORECASE)
#: Words that make a figure a measurement rather than a setting or a limit ("times out after
#: 120 s" is a setting; "took 120 s" a measurement).
MEASURED = re.compile(
    r"\b(?:measured|took|takes|taking|p50|p95|p99|median|faster|slower|throughput|per second"
    r"|latency|resident|RSS|in process|benchmark|bench)\b|\d/s\b",
    re.IGNORECASE,
)
NAMED, CONTINUED, UNNAMED = "named", "continued", "unnamed"


@dataclass(frozen=True)
class Paragraph:
    path: Path
    line: int
    text: str
    verdict: str


@dataclass(frozen=True)
class Block:
    """A paragraph, a table or a fenced block, and whether a section starts with it."""

    line: int
    text: str
    new_section: bool
    code: bool = False


def paragraphs(text: str, *, items_are_sections: bool = False) -> Iterator[Block]:
    """Each paragraph, table and fenced code block of `text`. A list item at the margin (`- `)
    is a paragraph of its own; with `items_are_sections` (a changelog, whose entries are
    unrelated) each one also starts a section."""
    block: list[str] = []
    start = 0
    code: list[str] | None = None
    heading = False

    def flush(section: bool) -> Iterator[Block]:
        if block:
            yield Block(start, "\n".join(block), section)
            block.clear()

    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            if code is None:
                yield from flush(heading)
                heading = False
                code = []
                start = number
            else:
                yield Block(start, "\n".join(code), False, code=True)
                code = None
            continue
        if code is not None:
            code.append(line)
            continue
        if line.startswith("- ") and block:
            yield from flush(heading)
            heading = items_are_sections
        elif line.startswith("- ") and items_are_sections:
            heading = True
        if line.startswith("#"):
            yield from flush(False)
            heading = True
            continue
        if not line.strip():
            if block:
                yield from flush(heading)
                heading = False
            continue
        if not block:
            start = number
        block.append(line)
    yield from flush(heading)


def _names(block: Block) -> tuple[bool, bool]:
    """(names a command, names a load with its value or a table's load column)."""
    header = block.text.splitlines()[0] if block.text else ""
    table_load = header.startswith("|") and "load" in header.lower()
    return bool(COMMAND.search(block.text)), bool(LOAD.search(block.text)) or table_load


def judged(path: Path, text: str, *, items_are_sections: bool = False) -> list[Paragraph]:
    """Every paragraph of `text` that quotes a speed or size figure, with its verdict."""
    sections: list[list[Block]] = []
    for block in paragraphs(text, items_are_sections=items_are_sections):
        if block.new_section or not sections:
            sections.append([])
        sections[-1].append(block)
    found: list[Paragraph] = []
    for section in sections:
        named = [_names(b) for b in section]
        run = any(c for c, _ in named) and any(load for _, load in named)
        for block, (command, load) in zip(section, named, strict=True):
            if block.code or not (FIGURE.search(block.text) and MEASURED.search(block.text)):
                continue
            verdict = NAMED if command and load else CONTINUED if run else UNNAMED
            found.append(Paragraph(path, block.line, block.text, verdict))
    return found


def unreleased(changelog: str) -> str:
    """CHANGELOG's `## Unreleased` section, blank lines standing in for the rest (so line
    numbers hold)."""
    lines = changelog.splitlines()
    out: list[str] = []
    inside = False
    for line in lines:
        if line.startswith("## "):
            inside = line.strip() == "## Unreleased"
        out.append(line if inside else "")
    return "\n".join(out)


def audit(root: Path) -> list[Paragraph]:
    found: list[Paragraph] = []
    for path in [*sorted((root / "docs").glob("*.md")), root / "README.md"]:
        if path.is_file():
            found += judged(path.relative_to(root), path.read_text(encoding="utf-8"))
    changelog = root / "CHANGELOG.md"
    if changelog.is_file():
        found += judged(
            Path("CHANGELOG.md"),
            unreleased(changelog.read_text(encoding="utf-8")),
            items_are_sections=True,
        )
    return found


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("root", nargs="?", type=Path, default=Path.cwd())
    options.add_argument("--list", choices=(UNNAMED, CONTINUED, "all"), default=None)
    args = options.parse_args(argv)
    found = audit(args.root)
    counts = Counter((p.path, p.verdict) for p in found)
    print("| file | named | continued | unnamed |")
    print("|---|---|---|---|")
    for path in sorted({p.path for p in found}):
        row = " | ".join(str(counts[(path, v)]) for v in (NAMED, CONTINUED, UNNAMED))
        print(f"| {path} | {row} |")
    totals = Counter(p.verdict for p in found)
    print(f"| all | {totals[NAMED]} | {totals[CONTINUED]} | {totals[UNNAMED]} |")
    if args.list:
        for p in found:
            if args.list in ("all", p.verdict):
                opening = " ".join(p.text.split())[:110]
                print(f"{p.path}:{p.line}: {p.verdict}: {opening}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
