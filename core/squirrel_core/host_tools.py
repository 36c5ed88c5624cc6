"""Which tool calls write a file, edit one, run a command or read a file, for every host.

Each host names its tools its own way: Claude Code's `Write`/`Edit`/`Bash`, the Gemini CLI's
`write_file`/`replace`/`run_shell_command`, Codex's `apply_patch` and shell functions, Cursor's
`edit_file`/`run_terminal_cmd`. Ingest and the extractors ask here rather than keep lists of
their own, so a rule that reads a Claude Code session's edits reads a Codex or Gemini CLI one's
too. What the calls' inputs hold is read by shape elsewhere (`content`, `old_string` and
`new_string`, an `apply_patch` body): this module only says which calls are which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class HostTools:
    """One host's tools by what they do."""

    write: frozenset[str]
    """Write a whole file (its `content` beside its path)."""
    edit: frozenset[str]
    """Change part of a file (`old_string` → `new_string`, several under `edits`, or a form of
    the host's own)."""
    patch: frozenset[str]
    """Change files through an `apply_patch` body (added, updated and deleted files)."""
    delete: frozenset[str]
    """Delete a file."""
    run: frozenset[str]
    """Run a shell command (the command is recorded as its own event)."""
    read: frozenset[str]
    """Return a file's text."""

    @property
    def change(self) -> frozenset[str]:
        """Every tool whose successful call changes files."""
        return self.write | self.edit | self.patch | self.delete


def _tools(
    *,
    write: tuple[str, ...] = (),
    edit: tuple[str, ...] = (),
    patch: tuple[str, ...] = (),
    delete: tuple[str, ...] = (),
    run: tuple[str, ...] = (),
    read: tuple[str, ...] = (),
) -> HostTools:
    return HostTools(*(frozenset(names) for names in (write, edit, patch, delete, run, read)))


#: Every host's tools, by the `SourceTool` value its events carry.
HOSTS: Final = {
    "claude_code": _tools(
        write=("Write",),
        edit=("Edit", "MultiEdit", "NotebookEdit"),
        run=("Bash",),
        read=("Read",),
    ),
    "codex": _tools(
        patch=("apply_patch",),
        run=("shell", "exec_command", "shell_command", "container.exec", "local_shell"),
        # A shell read (`cat a.py`, `sed -n 1,80p a.py`) is recorded as a `read_file` of it.
        read=("read_file",),
    ),
    "gemini_cli": _tools(
        write=("write_file",),
        edit=("replace", "edit"),
        run=("run_shell_command", "shell"),
        read=("read_file",),
    ),
    "cursor": _tools(
        edit=("edit_file", "edit_file_v2", "search_replace"),
        delete=("delete_file",),
        run=("run_terminal_cmd", "run_terminal_command", "run_terminal_command_v2"),
        read=("read_file",),
    ),
}


def _union(part: str) -> frozenset[str]:
    return frozenset().union(*(getattr(tools, part) for tools in HOSTS.values()))


WRITE_TOOLS: Final = _union("write")
EDIT_TOOLS: Final = _union("edit")
PATCH_TOOLS: Final = _union("patch")
RUN_TOOLS: Final = _union("run")
READ_TOOLS: Final = _union("read") | {"view"}
"""Tools of any host whose result is a file's text (and `view`, other assistants' name)."""
CHANGE_TOOLS: Final = _union("change")
"""Tools of any host whose successful call changes files."""
