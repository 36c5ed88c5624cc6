"""A word meant for the program that the shell expanded and stopped on becomes one lesson per
cause, in any ecosystem, with the quoted form that passed when the session shows it; a path
glob that matched no file, a line printed from a log, a missing command and a quoted word say
nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.shell_expansions import EQUALS_KEY, GLOB_KEY, shell_expansions
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 7, 10, 0, tzinfo=UTC)


def _session(root: str = "/home/dev/feeds") -> Session:
    session = Session(root, "s1", T0)
    session.add("user_message", {"text": "Find where the footer is rendered."}, origin="typed")
    return session


def test_an_option_glob_in_a_rust_project_is_a_lesson_with_the_quoted_fix() -> None:
    session = _session()
    session.run(
        "grep -rn footer --include=*.rs . | head",
        0,
        "(eval):1: no matches found: --include=*.rs\n",
    )
    session.run("grep -rn footer --include='*.rs' .", 0, "src/web.rs:12: footer\n")
    session.run("cargo build", 0, "Finished dev profile\n")

    [found] = shell_expansions(session.events)

    assert found.key == GLOB_KEY
    assert "`no matches found: --include=*.rs`" in found.content
    assert found.content.endswith("quoting it, `--include='*.rs'`, worked.")
    assert len(found.event_ids) == 2


def test_extras_in_a_python_install_are_a_lesson_too() -> None:
    session = _session("/home/dev/tool")
    session.run("pip install -e .[dev]", 1, "zsh:1: no matches found: .[dev]\n")
    session.run('pip install -e ".[dev]"', 0, "Successfully installed tool-0.1\n")

    [found] = shell_expansions(session.events)

    assert found.content.startswith("In this shell (zsh), `pip install -e .[dev]` failed")
    assert found.content.endswith('quoting it, `".[dev]"`, worked.')


def test_a_url_with_a_question_mark_in_fish_is_a_lesson_without_a_fix_seen() -> None:
    session = _session("/srv/site")
    session.run(
        "curl -s https://example.org/api?page=2",
        127,
        "fish: No matches for wildcard 'https://example.org/api?page=2'. See `help wildcards`.\n",
    )

    [found] = shell_expansions(session.events)

    assert found.content.startswith("In this shell (fish), `curl -s https://example.org/api")
    assert found.content.endswith("a pattern meant for the program has to be quoted.")


def test_a_word_starting_with_equals_in_a_typescript_project_is_its_own_cause() -> None:
    session = _session("/home/dev/dashboard")
    session.run(
        "grep -n input src/app/form.tsx; echo ====; npx tsc --noEmit",
        1,
        "src/app/form.tsx:3: <input />\n(eval):1: === not found\n",
    )
    session.run(
        "grep -n select src/app/form.tsx; echo ----; ls src/app",
        1,
        "(eval):1: no matches found: --x*\n",
    )

    [found] = shell_expansions(session.events)

    assert found.key == EQUALS_KEY
    assert found.content.startswith("In this shell (zsh), `echo ====` failed with `=== not found`")


def test_failures_of_one_cause_make_one_memory_the_one_with_a_fix() -> None:
    session = _session()
    session.run("grep -rl todo --include=*.go .", 0, "(eval):1: no matches found: --include=*.go\n")
    session.run("rg -l todo -g *.go", 1, "(eval):1: no matches found: *.go\n")
    session.run("find . -name x --exclude=*.md", 1, "(eval):1: no matches found: --exclude=*.md\n")
    session.run("find . -name x '--exclude=*.md'", 0, "./x\n")

    [found] = shell_expansions(session.events)

    assert "--exclude=*.md" in found.content
    assert found.content.endswith("quoting it, `'--exclude=*.md'`, worked.")


def test_a_path_glob_that_matched_no_file_says_nothing() -> None:
    session = _session()
    session.run(
        "ls -lh ~/.cache/runs/*/a1b2* 2>/dev/null | head",
        0,
        "(eval):1: no matches found: /home/dev/.cache/runs/*/a1b2*\n",
    )
    session.run("cat logs/*.json", 1, "zsh:1: no matches found: logs/*.json\n")

    assert shell_expansions(session.events) == []


def test_a_line_printed_from_a_log_or_a_quoted_word_or_a_missing_command_says_nothing() -> None:
    session = _session()
    session.run("cat notes/shell.md", 0, "(eval):1: no matches found: --include=*.rs\n")
    session.run("grep -rn x '--include=*.rs' .", 1, "(eval):1: no matches found: --include=*.rs\n")
    session.run("ruff check .", 127, "(eval):1: command not found: ruff\n")
    session.run("echo done", 0, "(eval):1: foo not found\n")

    assert shell_expansions(session.events) == []


def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    session = _session()
    session.run(
        "grep -rn footer --include=*.rs .", 1, "(eval):1: no matches found: --include=*.rs\n"
    )

    kept = [c for c in session.extracted() if c.key == GLOB_KEY]

    assert [c.type for c in kept] == [MemoryType.PITFALL]
