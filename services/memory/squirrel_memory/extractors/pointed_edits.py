"""The change an edit made at the line an error pointed at: the fix's content, said exactly.

Compilers, linters and test runners quote the source line they complain about, each in its
own frame but in a few shapes shared across ecosystems:

- a numbered gutter (`22 | const LIMIT: usize = 32;` from rustc, gcc, clang, ruff, swiftc;
  `12 │ def run` from Elixir; `151 | >>> RUN apt-get install …` from Docker BuildKit);
- the line under a traceback's frame (`File "app.py", line 12, in total` then the code);
- the line a caret row underlines (javac, older gcc: the code, then `^~~~`; tsc: its line
  number, the code, then `~~~`);
- the line a test runner marks as the failing one (`>       assert total(2) == 3`).

When an edit between the failure and the pass changed such a line, or put a line or two
right above or below it, that change is what got past the error, even inside a hunk too large
to quote whole: "adding `#[cfg(target_os = "linux")]` above `const LIMIT: usize = 32;`",
"changing `return a / b` to `return a / b if b else 0`". An edit elsewhere in the file, or a
quoted line the edit left as it was with nothing added next to it, says nothing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import replace

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.differences import Edit, difference

_GUTTER = re.compile(r"^\s*(?:>\s*)?\d+\s*[|│]\s?(?:>>>\s*)?(?P<code>.*\S)\s*$")
_FRAME = re.compile(r"^\s*File \"[^\"]+\", line \d+")
_CARETS = re.compile(r"^\s*\^[\^~\s]*$")
#: tsc underlines its numbered line (`4 const x = 1;`) with a row of `~`.
_TILDES = re.compile(r"^\s*~[~\s]*$")
_NUMBERED = re.compile(r"^\s*\d+\s+(?=\S)")
_MARKED = re.compile(r"^>\s+(?P<code>\S.*)$")
#: A quoted line worth matching: long enough to be one line of one file, with a name in it.
_MIN_CODE_CHARS = 10
_NAME = re.compile(r"[A-Za-z_]\w{2,}")
#: At most this many lines put next to the pointed line, or put in its place.
MAX_LINES = 2
MAX_SHOWN_CHARS = 80


def pointed_lines(output: str) -> list[str]:
    """The source lines `output` quotes as where its error is, stripped, in order."""
    lines = output[:MAX_OUTPUT_SCAN_CHARS].splitlines()
    found: list[str] = []
    for index, line in enumerate(lines):
        code = ""
        if gutter := _GUTTER.match(line):
            code = gutter["code"]
        elif marked := _MARKED.match(line):
            code = marked["code"]
        elif index > 0 and _FRAME.match(lines[index - 1]):
            code = line
        elif index + 1 < len(lines) and line.strip():
            below = lines[index + 1]
            if _CARETS.match(below):
                code = line
            elif _TILDES.match(below) and _NUMBERED.match(line):
                code = _NUMBERED.sub("", line, count=1)
        code = code.strip()
        if len(code) >= _MIN_CODE_CHARS and _NAME.search(code) and code not in found:
            found.append(code)
    return found


def pointed_change(found: Sequence[Edit], output: str) -> tuple[Edit, str] | None:
    """The first edit of `found` that changed a line `output` points at, or put a line or
    two right next to it, with that change said as a reader would ("adding `x` above `y`",
    "changing `a` to `b`"); None when no edit touched a pointed line."""
    pointed = set(pointed_lines(output))
    if not pointed:
        return None
    for edit in found:
        if not edit.before:
            continue
        said = _change_at(edit, pointed)
        if said:
            return edit, said
    return None


def _change_at(edit: Edit, pointed: set[str]) -> str:
    before = [line.strip() for line in edit.before.splitlines()]
    after = [line.strip() for line in edit.after.splitlines()]
    marks = [i for i, line in enumerate(before) if line in pointed]
    if not marks:
        return ""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed = [line for line in before[i1:i2] if line]
        added = [line for line in after[j1:j2] if line]
        hit = next((m for m in marks if i1 <= m < i2), None)
        if tag == "replace" and hit is not None and i2 - i1 == j2 - j1:
            # Lines replaced one for one: the pointed line's own replacement is the change.
            removed, added = [before[hit]], [after[j1 + hit - i1]]
        if len(removed) > MAX_LINES or len(added) > MAX_LINES:
            continue
        said = ""
        if tag in ("replace", "delete") and hit is not None:
            part = replace(edit, before="\n".join(removed), after="\n".join(added))
            said = difference(part) if added else _removing(removed)
        elif tag == "insert" and added:
            mark = next((m for m in marks if i1 in (m, m + 1)), None)
            if mark is not None:
                said = _adding(added, before[mark], "above" if i1 == mark else "below")
        if said:
            return said
    return ""


def _shown(line: str) -> bool:
    return "`" not in line and len(line) <= MAX_SHOWN_CHARS


def _adding(added: list[str], anchor: str, where: str) -> str:
    if not all(_shown(line) for line in added):
        return ""
    lines = " and ".join(f"`{line}`" for line in added)
    if _shown(anchor):
        return f"adding {lines} {where} `{anchor}`"
    return f"adding {lines} {where} the line the error pointed at"


def _removing(removed: list[str]) -> str:
    if not all(_shown(line) for line in removed):
        return ""
    return " and ".join(f"removing `{line}`" for line in removed)
