"""The files a host loads through its instruction files' `@path` imports."""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

from squirrel_gateway.host_imports import MAX_HOPS, bare_importers, with_imports
from tests.pipes import finished_on, make_fifo

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


def test_fences_are_read_in_one_pass_over_the_lines(tmp_path: Path) -> None:
    # Thousands of fences opened and never closed: each once made the file be read to its end.
    (tmp_path / "CLAUDE.md").write_text("```x\n" * 12_000 + "@AGENTS.md\n")
    (tmp_path / "AGENTS.md").write_text("text\n")
    (tmp_path / "CLAUDE.local.md").write_text("~~~\n@BLOCK.md\n```  \n@NOTES.md\n```sh\n")
    for name in ("BLOCK.md", "NOTES.md"):
        (tmp_path / name).write_text("text\n")

    started = time.process_time()
    loaded = with_imports(str(tmp_path), ("CLAUDE.md", "CLAUDE.local.md"))
    spent = time.process_time() - started

    assert loaded == ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "NOTES.md")
    assert spent < 1.0  # CPU time of this process, not wall-clock: the quadratic read took ~5 s


def test_a_symlink_out_of_the_project_is_no_import(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "secret.md").write_text("text\n")
    (project / "link.md").symlink_to(tmp_path / "secret.md")
    (project / "docs").symlink_to(tmp_path)
    (project / "CLAUDE.md").write_text("@link.md @docs/secret.md @/etc/hostname @CLAUDE.md\n")

    assert with_imports(str(project), ("CLAUDE.md",)) == ("CLAUDE.md",)


def test_a_named_pipe_where_an_instruction_file_was_is_skipped_without_waiting(
    tmp_path: Path,
) -> None:
    fifo = make_fifo(tmp_path / "CLAUDE.md")
    (tmp_path / "CLAUDE.local.md").write_text("@AGENTS.md\n")
    (tmp_path / "AGENTS.md").write_text("Tabs.\n")

    loaded = finished_on(fifo, lambda: with_imports(str(tmp_path), CLAUDE))

    assert loaded == (*CLAUDE, "AGENTS.md")


def _importing_agents_md(root: Path) -> tuple[Path, tuple[str, ...]]:
    """A CLAUDE.md importing AGENTS.md (STYLE.md beside them), and what it loads."""
    claude = root / "CLAUDE.md"
    claude.write_text("@AGENTS.md\n")
    (root / "AGENTS.md").write_text("Tabs.\n")
    (root / "STYLE.md").write_text("Spaces.\n")
    return claude, with_imports(str(root), ("CLAUDE.md",))


def test_an_edited_instruction_file_is_read_again(tmp_path: Path) -> None:
    claude, first = _importing_agents_md(tmp_path)

    claude.write_text("@STYLE.md\n")

    assert first == ("CLAUDE.md", "AGENTS.md")
    assert with_imports(str(tmp_path), ("CLAUDE.md",)) == ("CLAUDE.md", "STYLE.md")


def test_an_unchanged_instruction_file_is_not_read_again(tmp_path: Path) -> None:
    claude, first = _importing_agents_md(tmp_path)
    kept = claude.stat()

    claude.write_text("@STYLE.md \n")  # as long as before
    os.utime(claude, ns=(kept.st_atime_ns, kept.st_mtime_ns))  # and as old

    assert claude.stat().st_size == kept.st_size
    assert with_imports(str(tmp_path), ("CLAUDE.md",)) == first


def test_an_instruction_file_of_imports_alone_is_a_bare_importer(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "CLAUDE.md").write_text("@AGENTS.md\n")
    (tmp_path / "GEMINI.md").write_text("\n@docs/rules.md\n\n  @STYLE.md\n")

    assert bare_importers(str(tmp_path), ("CLAUDE.md", "GEMINI.md")) == ("CLAUDE.md", "GEMINI.md")


def test_an_instruction_file_with_words_of_its_own_is_no_bare_importer(tmp_path: Path) -> None:
    texts = {
        "prose.md": "See @AGENTS.md for the rules.\n",
        "rules.md": "@AGENTS.md\nRun the tests with `make test`.\n",
        "fenced.md": "```\n@AGENTS.md\n```\n",
        "quoted.md": "`@AGENTS.md`\n",
        "empty.md": "\n\n",
    }
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "folder.md").mkdir()

    assert bare_importers(str(tmp_path), (*texts, "folder.md", "missing.md")) == ()


def test_a_named_pipe_is_no_bare_importer_and_is_not_waited_on(tmp_path: Path) -> None:
    fifo = make_fifo(tmp_path / "CLAUDE.md")

    assert finished_on(fifo, lambda: bare_importers(str(tmp_path), ("CLAUDE.md",))) == ()
