"""The files a host loads through its instruction files' `@path` imports."""

from __future__ import annotations

import itertools
from pathlib import Path

from squirrel_gateway.host_imports import MAX_HOPS, with_imports

CLAUDE = ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md")


def test_a_claude_md_that_imports_agents_md_loads_it_too(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text("@AGENTS.md\n")
    (tmp_path / "AGENTS.md").write_text("Run the tests with `make test`.\n")

    assert with_imports(str(tmp_path), CLAUDE) == (*CLAUDE, "AGENTS.md")


def test_imports_are_followed_relative_to_the_importing_file(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "CLAUDE.md").write_text("See @docs/agents.md for the rules.\n")
    (tmp_path / "docs" / "agents.md").write_text("Also read @style.md and @../README.md.\n")
    (tmp_path / "docs" / "style.md").write_text("Tabs.\n")
    (tmp_path / "README.md").write_text("A tool.\n")

    loaded = with_imports(str(tmp_path), ("CLAUDE.md",))

    assert loaded == ("CLAUDE.md", "docs/agents.md", "docs/style.md", "README.md")


def test_imports_stop_after_the_hosts_depth(tmp_path: Path) -> None:
    names = [f"f{n}.md" for n in range(MAX_HOPS + 2)]
    (tmp_path / "CLAUDE.md").write_text(f"@{names[0]}\n")
    for name, following in itertools.pairwise(names):
        (tmp_path / name).write_text(f"@{following}\n")
    (tmp_path / names[-1]).write_text("the end\n")

    assert with_imports(str(tmp_path), ("CLAUDE.md",)) == ("CLAUDE.md", *names[:MAX_HOPS])


def test_what_is_no_import_adds_nothing(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").write_text(
        "Mail dev@AGENTS.md about it; `@NOTES.md` is quoted; @missing.md does not exist;\n"
        "@../outside.md is not in the project and @~/.claude/mine.md is the user's.\n"
        "```\n@BLOCK.md\n```\n"
    )
    for name in ("AGENTS.md", "NOTES.md", "BLOCK.md"):
        (tmp_path / name).write_text("text\n")
    (tmp_path.parent / "outside.md").write_text("text\n")

    assert with_imports(str(tmp_path), ("CLAUDE.md",)) == ("CLAUDE.md",)


def test_a_project_without_instruction_files_keeps_the_hosts_list(tmp_path: Path) -> None:
    assert with_imports(str(tmp_path / "gone"), CLAUDE) == CLAUDE
