"""Speed and size figures quoted in the docs, and whether each names the run that printed it.

A quoted figure (milliseconds, seconds, a rate per second, bytes, a ratio such as `2.3x`, in a
paragraph that speaks of measuring: "took", "p50", "faster", a rate...; a setting such as "times
out after 120 s" is not one) should name the command in the repository that prints it and the
load it ran at. This reads
docs/*.md, README.md and CHANGELOG.md's `## Unreleased` paragraph by paragraph (a table is one
paragraph, fenced code is skipped) and sorts each paragraph holding such a figure:

- `named`: it names a command (`bench.<module>`, `bench/<file>`, `python -m ...`) and the load;
- `continued`: it names neither or only one, but with the paragraphs before it in the same
  section (under the same heading) both are named (a command, then its table with a load
  column): it reads as more of that run's figures;
- `unnamed`: up to it, its section names no command or no load.

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


def paragraphs(text: str, *, items_are_sections: bool = False) -> Iterator[tuple[int, str, bool]]:
    """(first line number, text, starts a section) of each paragraph outside fenced code. A
    list item at the margin (`- `) is a paragraph of its own; with `items_are_sections` (a
    changelog, whose entries are unrelated) each one also starts a section."""
    block: list[str] = []
    start = 0
    fenced = False
    heading = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.startswith("- ") and block:
            yield start, "\n".join(block), heading
            heading = items_are_sections
            block = []
        elif line.startswith("- ") and items_are_sections:
            heading = True
        if line.startswith("#"):
            if block:
                yield start, "\n".join(block), False
                block = []
            heading = True
            continue
        if not line.strip():
            if block:
                yield start, "\n".join(block), heading
                heading = False
                block = []
            continue
        if not block:
            start = number
        block.append(line)
    if block:
        yield start, "\n".join(block), heading


def judged(path: Path, text: str, *, items_are_sections: bool = False) -> list[Paragraph]:
    """Every paragraph of `text` that quotes a speed or size figure, with its verdict."""
    found: list[Paragraph] = []
    command_seen = load_seen = False
    for line, body, new_section in paragraphs(text, items_are_sections=items_are_sections):
        if new_section:
            command_seen = load_seen = False
        header = body.splitlines()[0]
        table_load = header.startswith("|") and "load" in header.lower()
        command, load = bool(COMMAND.search(body)), bool(LOAD.search(body)) or table_load
        command_seen, load_seen = command_seen or command, load_seen or load
        if not (FIGURE.search(body) and MEASURED.search(body)):
            continue
        verdict = (
            NAMED if command and load else CONTINUED if command_seen and load_seen else UNNAMED
        )
        found.append(Paragraph(path, line, body, verdict))
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
