"""The edits an `apply_patch` body makes: per hunk, the text it replaced and the text it wrote.

Claude Code and Gemini CLI record an edit as the text replaced and the text written
(`old_string`, `new_string`; a new file's `content`). Codex CLI records a patch instead, in the
body its `apply_patch` tool takes (as the call's own input, or as the argument of a shell-form
call):

    *** Begin Patch
    *** Update File: config/test.toml
    @@
     [pool]
    -timeout = 5
    +timeout = 30
    *** End Patch

Each hunk of an updated file (what follows one `@@`) is one edit, as each pair of a
multi-edit is: its context and `-` lines are the text replaced, its context and `+` lines the
text written. An added file is one edit that replaced nothing; a deleted file is no edit (what
it held is not in the patch). So a pitfall's fix reads a Codex patch as it reads any other
host's edit.
"""

from __future__ import annotations

import re

_BEGIN = "*** Begin Patch"
_FILE = re.compile(r"^\*\*\* (?P<kind>Update|Add|Delete) File: (?P<path>.+?)\s*$")
#: A line a capped tool input ends with: not a line of the patch.
_CUT = re.compile(r"^…\[truncated \d+ chars\]$")


def patch_body(value: object) -> str:
    """The `apply_patch` body a tool call's input holds (from its `*** Begin Patch` line), in a
    string, a list of strings or a mapping's values; "" when it holds none."""
    if isinstance(value, str):
        start = value.find(_BEGIN)
        return value[start:] if start >= 0 else ""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return next((body for item in value if (body := patch_body(item))), "")
    return ""


def patch_edits(patch: str) -> list[tuple[str, str, str]]:
    """(path, text replaced, text written) for each hunk of `patch` (see the module
    docstring), in order."""
    found: list[tuple[str, str, str]] = []
    path, kind = "", ""
    before: list[str] = []
    after: list[str] = []

    def close() -> None:
        if path and kind != "Delete" and (before or after):
            found.append((path, "\n".join(before), "\n".join(after)))
        before.clear()
        after.clear()

    for line in patch.splitlines():
        if line.startswith("*** "):
            if header := _FILE.match(line):
                close()
                path, kind = header.group("path"), header.group("kind")
            continue  # `*** Begin/End Patch`, `*** Move to:`, `*** End of File`
        if not path or kind == "Delete" or _CUT.match(line):
            continue
        if line.startswith("@@"):
            close()  # the next hunk is the next edit
        elif line.startswith("-"):
            before.append(line[1:])
        elif line.startswith("+"):
            after.append(line[1:])
        else:
            context = line[1:] if line.startswith(" ") else line
            if kind == "Update":
                before.append(context)
                after.append(context)
    close()
    return found


def added_files(patch: str) -> list[str]:
    """The paths `patch` adds (`*** Add File:`): files it writes whole, in order."""
    return [
        header.group("path")
        for line in patch.splitlines()
        if (header := _FILE.match(line)) and header.group("kind") == "Add"
    ]
