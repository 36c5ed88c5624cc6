"""The stack a root README's introduction names, stated only where the session's files agree."""

from __future__ import annotations

from squirrel_memory.extractors.facts import project_facts
from squirrel_memory.extractors.readme_stack import README_STACK_KEY, readme_stack, stated_stack
from squirrel_memory.models import StoredEvent
from tests.unit.memory.test_session_about import _numbered, _reads

README = """# Lantern - Desktop Feed Reader

<p align="center"><img src="icon.png" alt="Lantern icon" /></p>

**Lantern** is a reader for RSS and Atom feeds.

The application is a cross-platform desktop app built with Electron and Vue.

## Features

- Built with love and written in Rust for speed.
"""


def _paths(events: list[StoredEvent], *extra: tuple[str, str]) -> list[tuple[str, str]]:
    return [(p, e.id) for e in events for p in e.file_paths] + list(extra)


def _session(readme: str, path: str = "README.md") -> list[StoredEvent]:
    return _reads((path, _numbered(readme)))


def test_the_readme_introduction_names_the_stack() -> None:
    assert stated_stack(README) == ["Electron", "Vue"]  # never the Features section's Rust


def test_a_stack_the_touched_code_agrees_with_is_stated() -> None:
    events = _session(README)
    fact = readme_stack(events, _paths(events, ("src/renderer/feeds.ts", "e9")))
    assert fact is not None
    assert fact.content == (
        "README.md says the project is built with Electron and Vue; the files worked on "
        "agree (TypeScript: `src/renderer/feeds.ts`)."
    )
    assert "e9" in fact.event_ids


def test_a_root_manifest_read_agrees_too() -> None:
    events = _session("# Shop\n\nA web shop written in Ruby on Rails.\n")
    fact = readme_stack(events, _paths(events, ("Gemfile", "e9")))
    assert fact is not None
    assert "built with Ruby and Rails" in fact.content


def test_prose_alone_or_code_of_another_family_says_nothing() -> None:
    events = _session(README)
    assert readme_stack(events, _paths(events)) is None
    assert readme_stack(events, _paths(events, ("tools/gen.py", "e9"))) is None


def test_vendored_code_or_a_sub_folder_manifest_does_not_agree() -> None:
    events = _session(README)
    vendored = ("node_modules/electron/index.ts", "e9")
    nested = ("docs/package.json", "e8")
    assert readme_stack(events, _paths(events, vendored, nested)) is None


def test_a_dependency_or_sub_folder_readme_says_nothing() -> None:
    for path in ("node_modules/electron/README.md", "packages/ui/README.md", "../other/README.md"):
        events = _session(README, path)
        assert readme_stack(events, _paths(events, ("src/main.ts", "e9"))) is None, path


def test_a_fork_notice_or_template_names_another_projects_stack() -> None:
    fork = "# Tuner\n\n> This is a fork of Player, which is built with Electron and Vue.\n"
    template = "# App\n\nThis template is built with Electron and Vue.\n"
    for readme in (fork, template):
        assert stated_stack(readme) == [], readme


def test_a_question_a_past_stack_or_a_comparison_is_not_the_stack() -> None:
    for sentence in (
        "Why is it built with Electron?",
        "It was originally written in Angular, now in plain DOM.",
        "Unlike tools built with Electron, it is native.",
        "It used to be built with Django.",
    ):
        assert stated_stack(f"# T\n\n{sentence}\n") == [], sentence


def test_a_language_already_stated_needs_a_framework_to_say_more() -> None:
    events = _session("Tool\n====\n\nA command-line tool written in Rust.\n\nUsage\n-----\n")
    paths = _paths(events, ("src/main.rs", "e9"))
    assert readme_stack(events, paths) is not None
    assert readme_stack(events, paths, frameworks_only=True) is None


def test_project_facts_state_it_beside_the_about_fact() -> None:
    events = _session(README)
    facts = {f.key: f for f in project_facts(events, [], repository=False)}
    assert README_STACK_KEY not in facts  # no code touched yet
    edit = _reads(("src/renderer/feeds.ts", _numbered("export const x = 1;\n")))
    facts = {f.key: f for f in project_facts(events + edit, [], repository=False)}
    assert "Electron and Vue" in facts[README_STACK_KEY].content
