"""What kind of change fixed a failure, in any ecosystem: a line of a configuration file, a
check's own formatter; and one failure per command line (`a && b && c` failed once)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Protocol, TypeVar

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.commit_gates import gated, is_commit
from squirrel_memory.extractors.evidence import Attempt
from squirrel_memory.extractors.evidence.cleared_warnings import is_warning

#: What compiles the code: a compiler's warning comes from one of these, not a formatter.
_COMPILING = frozenset({"build", "test", "typecheck"})


class _Found(Protocol):
    """A failure found, with the fix seen for it (`pitfall_record.Pitfall`)."""

    @property
    def failed(self) -> Attempt: ...

    @property
    def fingerprint(self) -> str: ...

    @property
    def fix(self) -> str | None: ...


P = TypeVar("P", bound=_Found)


def formatter_for(failed: Attempt, other: Attempt) -> bool:
    """Whether `other` is the formatter of the failed lint or format check (`mix format` after
    `mix format --check-formatted`, `./gradlew ktlintFormat` after `ktlintCheck`): it rewrites
    the files the check found wanting."""
    before, after = failed.use, other.use
    return (
        before is not None
        and after is not None
        and before.purpose in ("lint", "format")
        and after.purpose == "format"
        and failed.text != other.text
        and (before.tool == after.tool or failed.program == other.program)
    )


#: Options that make a linter correct what it finds (`rubocop -a`, `eslint --fix`).
_CORRECTING = frozenset(
    {"-a", "-A", "--fix", "--fix-only", "--autocorrect", "--auto-correct", "--autocorrect-all"}
    | {"--write", "-w", "--apply"}
)


def gate_fixer(failed: Attempt, other: Attempt) -> bool:
    """Whether `other` corrects what a commit's gate found: the commit failed, its hooks'
    output names `other`'s tool, and `other` is that formatter or that linter told to correct
    (`bundle exec rubocop -a …` after the hook's rubocop refused the commit)."""
    use = other.use
    if use is None or not other.run.ok or not is_commit(failed) or failed.run.ok is not False:
        return False
    correcting = use.purpose == "format" or (
        use.purpose == "lint" and any(t in _CORRECTING for t in other.tokens[1:])
    )
    told = failed.run.output[:MAX_OUTPUT_SCAN_CHARS]
    return correcting and re.search(rf"(?<![\w-]){re.escape(use.tool)}(?![\w-])", told) is not None


#: Suffixes of files that configure a tool or the build, in any ecosystem.
_CONFIG_SUFFIXES = frozenset(
    {".toml", ".yaml", ".yml", ".json", ".jsonc", ".ini", ".cfg", ".conf", ".config", ".neon"}
    | {".edn", ".xml", ".csproj", ".fsproj", ".props", ".gradle", ".kts", ".cabal", ".nix"}
    | {".zon", ".properties", ".lock"}
)
#: Build files named for their tool, without a telling suffix.
_CONFIG_NAMES = frozenset(
    {"dune", "dune-project", "makefile", "justfile", "package.swift", "build.zig", "mix.exs"}
    | {"rebar.config", "gemfile", "go.mod", "cmakelists.txt", "build.sbt", "project.clj"}
    | {"deps.edn", "dockerfile", "setup.cfg", "composer.json", "cpanfile", "makefile.pl"}
    | {"meson.build", "meson_options.txt", "meson.options", "build.bazel", "module.bazel"}
    | {"containerfile", "gnumakefile", "configure.ac", "podfile", "brewfile"}
)


def configuration_file(path: str) -> bool:
    """Whether `path` configures a tool or the build (`pyproject.toml`, `.credo.exs`, `lib/dune`,
    `build.gradle.kts`, `.perlcriticrc`), not code or prose: a dotfile, a config suffix or a
    build file's own name."""
    parts = PurePosixPath(path).parts
    name = parts[-1].lower() if parts else ""
    if any(p.startswith(".") and p not in (".", "..") for p in parts):
        return True
    return PurePosixPath(name).suffix in _CONFIG_SUFFIXES or name in _CONFIG_NAMES


def one_per_run(found: list[P]) -> list[P]:
    """One pitfall per failed run: of `a && b && c`, one command failed and the others passed
    before it or never ran, so the run is one failure, not one per command. The one kept is the
    first with a fix whose tool the output names (`** (Mix) mix format failed …`), else the
    first with a fix, else the first the output names, else the first. A warning the run
    printed is a compiling command's (a build's, a test run's), not a formatter's; a commit
    whose hooks reported their checks is the one that failed."""
    by_run: dict[str, list[P]] = {}
    for pitfall in found:
        by_run.setdefault(pitfall.failed.run.event_id, []).append(pitfall)
    kept: list[P] = []
    for pitfall in found:
        group = by_run[pitfall.failed.run.event_id]
        if len(group) == 1:
            kept.append(pitfall)
            continue
        if pitfall is not group[0]:
            continue
        if is_warning(pitfall.fingerprint):
            group = [p for p in group if _compiles(p.failed)] or group
        # A commit whose hooks reported their checks is what failed (`git add -A && git commit`)
        group = [p for p in group if is_commit(p.failed) and gated(p.failed.run.output)] or group
        named = [p for p in group if _names_tool(p.failed)]
        fixed = [p for p in group if p.fix is not None]
        both = [p for p in named if p.fix is not None]
        kept.append((both or fixed or named or group)[0])
    return kept


def _compiles(attempt: Attempt) -> bool:
    return attempt.use is not None and attempt.use.purpose in _COMPILING


def _names_tool(attempt: Attempt) -> bool:
    """Whether a run's output names this command's tool (`mix format failed`, `phpstan:`)."""
    output = attempt.run.output[:MAX_OUTPUT_SCAN_CHARS].lower()
    names = {attempt.base.lower()}
    if attempt.use is not None:
        names.add(attempt.use.tool.lower())
    return any(
        len(n) > 2 and re.search(rf"(?<![\w./-]){re.escape(n)}(?![\w.-])", output) for n in names
    )
