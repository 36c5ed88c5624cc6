"""What the project's build makes, as the build's own output says.

A project whose build prints what it made ("✅ Go binary built: dist/app", "Signed shortcut
built: Daily Backup.shortcut") states its parts in its own words: a server binary beside a
shortcut, a library beside its command-line tool. When no README says what the project is,
those lines are the surest account of what it consists of. The rule, the same for every
ecosystem:

- a command that passed (exit 0), run by the assistant or typed by the user;
- output lines of the shape "<what> built: <artifact>" (a short label, then the file or folder
  made), markers and colour codes aside; a status ("Successfully built: …", "was built: …") is
  not a product; "Building …" (a step begun) and "built in 3s" (a
  timing) are not such lines;
- at least two distinct artifacts in one run: one line alone may be a step's log, two or more
  are the build's own list of what it makes.

The memory names the command and lists the labels and artifacts in the order printed.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.project_fact import Fact

KEY = "build_products"
MIN_PRODUCTS = 2
MAX_PRODUCTS = 6
MAX_COMMAND_CHARS = 80

#: Last words of a label that make "… built:" a status, not a product ("Successfully built:").
_NOT_PRODUCT = frozenset({"was", "were", "been", "be", "is", "are", "has", "have", "not", "just"})
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_PRODUCT = re.compile(
    r"^[^\w]*(?P<label>[A-Za-z][\w .+/-]{0,40}?)\s+built:\s+(?P<artifact>[^\s:][^:]{0,119}?)\s*$",
    re.IGNORECASE,
)


def products(output: str) -> list[tuple[str, str]]:
    """The (label, artifact) pairs a build's output says it made, in order, without repeats."""
    found: list[tuple[str, str]] = []
    for raw in _ANSI.sub("", output).replace("\r", "").splitlines():
        match = _PRODUCT.match(raw.strip())
        if match is None:
            continue
        last = match.group("label").split()[-1].lower()
        if last in _NOT_PRODUCT or last.endswith("ly"):
            continue
        pair = (match.group("label").strip(), match.group("artifact").strip().strip("`'\""))
        if pair[1] and pair not in found:
            found.append(pair)
    return found


def build_products(runs: list[CommandRun]) -> Fact | None:
    """What the first passing build that lists two or more products makes, or None."""
    for run in runs:
        command = " ".join(run.command.split())
        if run.ok is not True or not command or len(command) > MAX_COMMAND_CHARS:
            continue
        made = products(run.output)
        if len(made) < MIN_PRODUCTS:
            continue
        listed = "; ".join(f"{label} `{artifact}`" for label, artifact in made[:MAX_PRODUCTS])
        content = f"`{command}` builds, as its output says: {listed}."
        return Fact(KEY, content, ("build", "artifacts"), 0.6, (run.event_id,))
    return None
