"""How a recipe is said: the sentence for the command chosen for a purpose ("To run the tests:
`pytest` (e.g. `pytest -k slow`)"), where it holds (a folder, another ecosystem's part, one
package), which of its runs is shown as the command and which as examples, and how important
it is. `recipe_forms` says what a command does when its words say more than its purpose."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from squirrel_core.commands import runs_a_gate
from squirrel_memory.extractors.evidence.attempts import Finding
from squirrel_memory.extractors.evidence.command_picks import (
    FORMAT_CHECK,
    MARKER_PICK,
    PACKAGE_PURPOSES,
    file_template,
    package_template,
    picks_package,
    picks_packages_below_root,
    picks_tests,
    whole_with_options,
)
from squirrel_memory.extractors.evidence.recipe_forms import migration_template, several_tasks

if TYPE_CHECKING:
    from squirrel_memory.extractors.evidence.recipes import RecipeGroup

#: The slot of a gate task when a command running only the tests holds the test slot.
GATE_SLOT = "recipe:gate"
_PURPOSE_WORDING = {
    "test": "to run the tests",
    "lint": "to lint",
    "format": "to format",
    "typecheck": "to type-check",
    "install": "to install dependencies",
    "build": "to build",
    "run": "to run the app",
    "migrate": "to migrate the database",
    "docs": "to build the documentation",
    "release": "to release",
    "deploy": "to deploy",
}
#: A gate task run for the tests (`mix precommit`, `make check`, `just ci`): said as what it is.
_GATE_WORDING = "to run the checks"
_ECOSYSTEM_NAMES = {
    "python": "Python",
    "javascript": "JavaScript/TypeScript",
    "go": "Go",
    "rust": "Rust",
    "jvm": "JVM",
    "dotnet": ".NET",
    "ruby": "Ruby",
    "php": "PHP",
    "elixir": "Elixir",
    "swift": "Swift",
    "c": "C/C++",
    "dart": "Dart",
    "zig": "Zig",
    "haskell": "Haskell",
    "gleam": "Gleam",
    "ocaml": "OCaml",
    "erlang": "Erlang",
    "clojure": "Clojure",
    "r": "R",
    "julia": "Julia",
    "lua": "Lua",
    "perl": "Perl",
    "nix": "Nix",
    "terraform": "Terraform",
    "docs": "documentation site",
}
_ABSOLUTE_PATH = re.compile(r"""(?:^|[\s='"])(?:/(?!dev/null)[\w.-]|~/)""")
#: Options that leave the tests out of a build (`mvn package -DskipTests`, `gradle build -x
#: test`): a quicker build, not the project's whole one.
_SKIPS_TESTS = re.compile(
    r"(?:^|\s)(?:-DskipTests\b|-Dmaven\.test\.skip\b|(?:-x|--exclude-task)[\s=]+\S*test\b)",
    re.IGNORECASE,
)


def recipe_finding(slot: str, group: RecipeGroup) -> Finding:
    """The recipe `group`'s runs give for `slot`, in words."""
    head = group.base
    # An example naming a path outside the project's folders (a home folder, another
    # checkout) after its head is one machine's: it is not shown. A path in the head (a
    # container's own folder, `-w /app`) is shown with the head whichever is chosen.
    examples = [
        (v, n)
        for v, n in group.examples.most_common()
        if not _ABSOLUTE_PATH.search(v.removeprefix(group.base))
    ]
    top, top_count = examples[0] if examples else (head, 0)
    if group.purpose in PACKAGE_PURPOSES and picks_package(top):
        # `cargo test --workspace` beside `cargo test -p core`: the whole project's run is the
        # project's command; one package's is an example of it.
        whole = next((v for v, _ in examples if not picks_package(v)), None)
        if whole is not None:
            top, top_count = whole, group.successes
    if group.purpose == "test" and picks_tests(top, group.base):
        # `go test -tags integration ./...` beside a run of one test: the whole run, with the
        # options it needs, is the command (not the bare head)
        whole = next((v for v, _ in examples if whole_with_options(v, group.base)), None)
        if whole is not None:
            top, top_count = whole, group.successes
    if group.purpose == "format" and FORMAT_CHECK.search(f" {top} "):
        # "To format" is the run that formats (`vendor/bin/pint`), not its check (`--test`).
        writer = next((v for v, _ in examples if not FORMAT_CHECK.search(f" {v} ")), None)
        if writer is not None:
            top, top_count = writer, group.successes
    per_file = not group.whole_run and group.purpose != "test"  # a test recipe runs them all
    template = file_template([v for v, _ in examples]) if per_file else None
    # A check or build only ever run on one package at a time, on several: how a package is
    # checked. (A run or deploy command's `-p` is as often a profile or a port.)
    if template is None and group.purpose in PACKAGE_PURPOSES:
        template = package_template([v for v, _ in examples])
    if template is not None:
        # A check only ever run on one file at a time, on several files: how a file is checked.
        head = template
    elif top_count * 2 >= group.successes and not (
        group.purpose == "test" and head and picks_tests(top, head)
    ):
        head = top  # what the user types most of the time, flags included (not a selection)
    # A run that selects tests by marker (`-m "not slow"`) names a set the project defines,
    # worth showing before a run of one file or test.
    variants = sorted(
        (v for v, _ in examples if v not in (head, group.base)),
        key=lambda v: not MARKER_PICK.search(v.removeprefix(group.base)),
    )[:2]
    text = f"`{head}`" + (
        " (e.g. " + ", ".join(f"`{v}`" for v in variants) + ")" if variants else ""
    )
    wording = _PURPOSE_WORDING[group.purpose]
    if slot.split(":")[1] == "new_migration" and (made := migration_template(top)) is not None:
        text, wording = f"`{made}`", "to create a migration"
    elif (tasks := several_tasks(head)) is not None:
        wording = tasks  # `sbt scalafmtCheckAll test`: every task it runs, not the first
    if group.purpose == "format" and FORMAT_CHECK.search(f" {head} "):
        wording = "to check the formatting"  # only the check was seen run: it formats nothing
    if group.purpose == "test" and runs_a_gate(head):
        wording = _GATE_WORDING  # more than the tests: the project's checks, as one command
    one_package = (
        template is None
        and group.purpose in PACKAGE_PURPOSES
        and (picks_package(head) or picks_packages_below_root(group.base))
    )
    if one_package:
        # `mvn -pl router -am test`, `go test ./internal/zone` only: how one package is
        # checked, not the whole project
        wording = f"{wording}, for one package"
    elif group.purpose == "build" and _SKIPS_TESTS.search(head):
        wording = f"{wording} without running the tests"
    parts = slot.split(":")
    if group.scope:
        content = f"In `{group.scope}/`, {wording}: {text}."
    elif len(parts) == 3:
        name = _ECOSYSTEM_NAMES.get(group.ecosystem, group.ecosystem)
        content = f"For the {name} part, {wording}: {text}."
    else:
        content = f"{wording[0].upper()}{wording[1:]}: {text}."
    sessions = len(group.sessions)
    if sessions >= 2:
        content = content[:-1] + f" (worked in {sessions} sessions)."
    importance = 0.4 + 0.04 * min(group.successes, 5) + 0.06 * min(sessions - 1, 4)
    if group.scope or len(parts) == 3 or one_package:
        importance -= 0.1
    elif group.purpose == "test" and not slot.startswith(GATE_SLOT) and not one_package:
        importance = max(importance, 0.5)  # the project's test command, as its fact had
    return Finding(
        "recipe",
        slot,
        content,
        ("recipe", group.purpose, group.ecosystem, *([group.scope] if group.scope else [])),
        round(min(0.8, importance), 3),
        tuple(group.event_ids[-20:]),
    )
