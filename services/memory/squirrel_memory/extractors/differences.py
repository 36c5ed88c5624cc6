"""What differs between a failing try and the passing one: the edits the assistant made
(`edits`, on every host: an edit's old and new text, a multi-edit, an `apply_patch` hunk, a
file written whole after it was read), what a small edit changed as a reader would say it
(`difference`: "adding `x: 1`", "changing `a` to `b`"), the edit that touches what the failure
was about (`related_edit`, `naming_edit`), and the arguments that differ between the failing
and the passing command (`argument_change`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import cut_at_ingest, file_text, whole_read_output
from squirrel_memory.extractors.patch_edits import patch_body, patch_edits
from squirrel_memory.models import StoredEvent

#: An edit says its difference when it changed at most this many lines, none longer than this.
MAX_DIFF_LINES = 2
MAX_DIFF_LINE_CHARS = 80
#: A replaced line longer than this is shown by the words that changed in it.
MAX_WHOLE_LINE_CHARS = 60


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit by the assistant: the file, the text replaced and the text written."""

    event_id: str
    timestamp: datetime
    session_id: str | None
    path: str
    before: str
    after: str


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


#: A small edit changes at most this many lines, none longer than this (characters).
MAX_CHANGED_LINES = 2
MAX_CHANGED_LINE_CHARS = 80


def changed_lines(edit: Edit) -> tuple[list[str], list[str]]:
    """The lines `edit` removed and added (stripped, in order), or two empty lists when it is
    not small: more than `MAX_CHANGED_LINES` on a side, a line longer than
    `MAX_CHANGED_LINE_CHARS`, or a backquote (which could not be quoted in a code span)."""
    removed, added = _changed_lines(edit)
    if not (removed or added) or max(len(removed), len(added)) > MAX_CHANGED_LINES:
        return [], []
    if any("`" in line or len(line) > MAX_CHANGED_LINE_CHARS for line in removed + added):
        return [], []
    return removed, added


def edits(events: list[StoredEvent]) -> list[Edit]:
    """The edits the assistant's tool calls of `events` made, with the text they replaced and
    wrote (an edit's `old_string`/`new_string`, each of a multi-edit, a new file's content,
    each hunk of an `apply_patch` body: `patch_edits`). A file written whole that the session
    read whole before (and did not change since) replaced the text that read showed, as a
    patch rewriting it says: what such a write changed is told the same on every host."""
    found: list[Edit] = []
    # The text of each file as its session last read it whole, by (session, path).
    shown: dict[tuple[str | None, str], str] = {}
    for event in events:
        if event.event_type == EventType.TOOL_RESULT:
            text = whole_read_output(event)
            if text is not None and event.file_paths and not cut_at_ingest(event):
                where = relative_path(event.file_paths[0], event.project_id)
                shown[(event.session_id, where)] = file_text(text)
            continue
        if event.event_type != EventType.TOOL_CALL:
            continue
        data = event.content.get("input")
        if not isinstance(data, dict):
            continue
        path = _text(data.get("file_path")) or _text(data.get("path"))
        if not path:
            hunks = [
                Edit(event.id, event.timestamp, event.session_id, relative, before, after)
                for patched, before, after in patch_edits(patch_body(data))
                if (relative := relative_path(patched, event.project_id))
            ]
            for hunk in hunks:
                shown.pop((event.session_id, hunk.path), None)
            found.extend(hunks)
            continue
        pairs: list[tuple[str, str]] = []
        if "old_string" in data or "new_string" in data:
            pairs.append((_text(data.get("old_string")), _text(data.get("new_string"))))
        for item in data.get("edits") or []:
            if isinstance(item, dict):
                pairs.append((_text(item.get("old_string")), _text(item.get("new_string"))))
        relative = relative_path(path, event.project_id)
        if not pairs and isinstance(data.get("content"), str):
            pairs.append((shown.get((event.session_id, relative), ""), data["content"]))
        shown.pop((event.session_id, relative), None)  # changed since it was read
        found.extend(
            Edit(event.id, event.timestamp, event.session_id, relative, before, after)
            for before, after in pairs
        )
    return found


def _changed_lines(edit: Edit) -> tuple[list[str], list[str]]:
    """The lines `edit` removed and added (stripped, in order), whatever their number. A line
    only of brackets and separators (`],`) says nothing, and a line that only gained or lost
    its trailing separator or closing bracket (`"version": "8.0.100"` then `…,` before a new
    entry) did not change: neither is part of what changed."""
    before = [line.strip() for line in edit.before.splitlines() if line.strip()]
    after = [line.strip() for line in edit.after.splitlines() if line.strip()]
    removed = [line for line in before if line not in after and not _PUNCTUATION.match(line)]
    added = [line for line in after if line not in before and not _PUNCTUATION.match(line)]
    kept = {_bare(line) for line in removed} & {_bare(line) for line in added}
    if kept:
        removed = [line for line in removed if _bare(line) not in kept]
        added = [line for line in added if _bare(line) not in kept]
    return removed, added


#: A line of brackets and separators only.
_PUNCTUATION = re.compile(r"^[\[\]{}(),;]+$")


def _bare(line: str) -> str:
    """`line` without its trailing separators and closing brackets."""
    return line.rstrip(" \t,;)]}")


def difference(edit: Edit) -> str:
    """What a small edit changed, as a reader would say it ("adding `x: 1`", "changing `a` to
    `b`"); "" for a new file, a large edit or one whose lines cannot be shown in a code span."""
    if not edit.before:
        return ""
    removed, added = _changed_lines(edit)
    if not removed and len(added) > 1 and _SECTION.match(added[0]):
        added = added[1:]  # a new section's heading: the lines are said as added under it
    if len(removed) + len(added) > MAX_DIFF_LINES:
        return _added_items(removed, added)
    if not (removed or added):
        return ""
    if any("`" in line for line in removed + added):
        return ""
    if any(len(line) > MAX_DIFF_LINE_CHARS for line in removed + added):
        # One long line changed in a few words: those words say it (`["Reader"])` to
        # `["Reader"], resources: [.copy("Fixtures")])`); else it is too long to say.
        if not (len(removed) == len(added) == 1):
            return ""
        old, new = _changed_words(removed[0], added[0])
        if old == removed[0] or max(len(old), len(new)) > MAX_DIFF_LINE_CHARS:
            return ""
        return f"changing `{old}` to `{new}`"
    if removed and added:
        old, new = _changed_words(removed[0], added[0])
        return f"changing `{old}` to `{new}`"
    if added:
        section = _section(edit.after, added[0])
        under = f" under `{section}`" if section else ""
        return " and ".join(f"adding `{line}`" for line in added) + under
    return " and ".join(f"removing `{line}`" for line in removed)


#: An item of a list or a mapping: a quoted string, else a run of what no bracket, separator,
#: quote or blank ends (`"//lib/codec"`, `org.clojure/data.json`).
_ITEM = re.compile(r'"[^"\n]{0,200}"|\'[^\'\n]{0,200}\'|[^\s\[\]{}(),;="\']{1,200}')
#: An edit that only put items into a list said as them, at most this many.
MAX_ADDED_ITEMS = 2


def _added_items(removed: list[str], added: list[str]) -> str:
    """A list rewritten across lines to hold one or two more items (`deps = ["//lib/net"],`
    spread over four lines with `"//lib/codec"` among them), said as the items added
    ("adding `"//lib/codec"`"); "" when anything was taken out or more was put in."""
    if len(removed) + len(added) > 3 * MAX_DIFF_LINES:
        return ""
    gone = _ITEM.findall(" ".join(removed))
    new = _ITEM.findall(" ".join(added))
    for item in gone:
        if item not in new:
            return ""
        new.remove(item)
    if not new or len(new) > MAX_ADDED_ITEMS or any(len(i) > MAX_DIFF_LINE_CHARS for i in new):
        return ""
    return " and ".join(f"adding `{item}`" for item in new)


#: A section's heading in an INI or TOML file (`[dev-dependencies]`, `[tool.ruff]`).
_SECTION = re.compile(r"^\[\[?[\w.-]+\]\]?$")


def _section(text: str, line: str) -> str:
    """The heading of the section `line` was added under in `text` (`[dev-dependencies]`),
    when the edit shows it above the line; "" else."""
    heading = ""
    for raw in text.splitlines():
        here = raw.strip()
        if here == line:
            return heading
        if _SECTION.match(here):
            heading = here
    return ""


def _changed_words(old: str, new: str) -> tuple[str, str]:
    """The words that differ between a long line and its replacement (`ktn::path()` to
    `crate::path()` in a template's line), or the two lines whole when they are short or
    differ in more than a few words: a short line is its own context (`timeout = 30`)."""
    if max(len(old), len(new)) <= MAX_WHOLE_LINE_CHARS:
        return old, new
    before, after = old.split(), new.split()
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    middle_old = before[start : len(before) - end]
    middle_new = after[start : len(after) - end]
    if not middle_old or not middle_new or max(len(middle_old), len(middle_new)) > 3:
        return old, new
    return " ".join(middle_old), " ".join(middle_new)


def related_edit(found: list[Edit], words: set[str]) -> Edit | None:
    """The small edit that most touches what the failure was about, or None: each of `words`
    (from the error or the diagnosis) its lines name counts, a name only code would use
    (`POOL_TIMEOUT`, `user_id`) three times a plain word, a changed line twice the lines
    around the change it quotes; the earlier edit wins a tie."""
    best: tuple[int, Edit | None] = (0, None)
    for edit in found:
        if not difference(edit):
            continue
        removed, added = _changed_lines(edit)
        changed = " ".join(removed + added).lower()
        around = f"{edit.before}\n{edit.after}".lower()
        score = 0
        for word in words:
            pattern = rf"(?<![\w-]){re.escape(word)}(?![\w-])"
            weight = 3 if re.search(r"[_.\d]", word) else 1
            if re.search(pattern, changed):
                score += 2 * weight
            elif re.search(pattern, around):
                score += weight
        if score > best[0]:
            best = (score, edit)
    return best[1]


def naming_lines(found: list[Edit], words: set[str]) -> tuple[Edit, str] | None:
    """(the first change to a file that existed, too large to quote whole, whose added lines
    name `words`, and those lines said as added: "adding `ssl = dependency('openssl')`"), or
    None: one or two such lines, each short enough to quote. A build file rewritten to
    declare what the error said was missing is told by the line that declares it."""
    for edit in found:
        if difference(edit) or not edit.before:
            continue
        removed, added = _changed_lines(edit)
        # A line that replaced one with the same head (`executable(…)`) was changed, not added.
        heads = {_head(line) for line in removed}
        added = [line for line in added if _head(line) not in heads]
        named = {w for w in words if _names(" ".join(added).lower(), w)}
        naming = [line for line in added if any(_names(line.lower(), w) for w in named)]
        if not naming or len(naming) > MAX_DIFF_LINES:
            continue
        if any(_names(" ".join(removed).lower(), w) for w in named):
            continue  # what the error names was there before, changed: not a line added
        if any("`" in line or len(line) > MAX_DIFF_LINE_CHARS for line in naming):
            continue
        return edit, " and ".join(f"adding `{line}`" for line in naming)
    return None


def _head(line: str) -> str:
    """A line's head: what comes before its first bracket, `=` or `:` (`executable`, `ssl`)."""
    return re.split(r"[(\[{=:]", line, maxsplit=1)[0].strip()


def _names(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def naming_edit(found: list[Edit], words: set[str]) -> Edit | None:
    """The first edit too large to quote whose changed lines name one of `words` that only
    code would use (`report_tool`, `POOL_TIMEOUT`, `v2.1`), or None: the change that was about
    the failure, said by its file when its lines cannot be."""
    names = [w for w in words if re.search(r"[_.\d]", w) and len(w) >= 5]
    for edit in found:
        if difference(edit) or not edit.before:
            continue
        removed, added = _changed_lines(edit)
        changed = " ".join(removed + added).lower()
        if any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", changed) for n in names):
            return edit
    return None


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD = re.compile(r"[A-Za-z_][\w-]{3,}")
_COMMON = _words(
    "error errors failed failure fails failing with from that this there have when which while "
    "file files line lines command found none true false null undefined check checks test tests "
    "expected actual should could would because type types value values name names module "
    "function called call calls used using into only your their about"
)


def telling(text: str) -> set[str]:
    """The words of an error or a diagnosis that could name what a fix changed."""
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _COMMON}


def argument_change(failed: tuple[str, ...], passed: tuple[str, ...]) -> str:
    """What differs between a failing command's words and the passing one's, said as a change
    of arguments ("with `-f` added", "with `--x` instead of `--y`", "without `--z`"); ""
    when the words are the same or everything changed. When free text changed as well (a
    prompt, a message), the options that changed are the difference (`--profile fast`
    added), each with its value: a re-run is not explained by the words it was asked."""
    before, after = list(failed), list(passed)
    if before == after or not before or not after or before[0] != after[0]:
        return ""
    added = [t for t in after if t not in before]
    removed = [t for t in before if t not in after]
    if not added and not removed:
        return "with its arguments in another order"
    changed = added + removed
    if len(changed) > 3 or any(len(t) > 60 or "`" in t or " " in t.strip() for t in changed):
        added, removed = _options(after, added), _options(before, removed)
        if not (added or removed) or len(added) + len(removed) > 4:
            return ""
        if any(len(t) > 60 or "`" in t for t in added + removed):
            return ""
    if added and removed:
        new = _joined(added)
        old = _joined(removed)
        return f"with `{new}` instead of `{old}`"
    if added:
        return f"with `{_joined(added)}` added"
    return f"without `{_joined(removed)}`"


def _joined(words: list[str]) -> str:
    """Words as typed: one holding a space keeps its quotes (`--features 'a b'`)."""
    return " ".join(f"'{w}'" if " " in w and "'" not in w else w for w in words)


def _options(words: list[str], changed: list[str]) -> list[str]:
    """The options among `changed` words of a command, each followed by its value when the
    value changed too (`--profile fast`), in the command's order."""
    changed_set = set(changed)
    found: list[str] = []
    for index, word in enumerate(words):
        if word not in changed_set or not word.startswith("-") or word in ("-", "--"):
            continue
        found.append(word)
        value = words[index + 1] if index + 1 < len(words) else ""
        if value and value in changed_set and not value.startswith("-") and "=" not in word:
            found.append(value)
    return found
