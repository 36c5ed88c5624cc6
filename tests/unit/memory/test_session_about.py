"""What the project is, from the README or manifest the assistant read in a session."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from squirrel_core.events import SourcePosition
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.about import session_about
from squirrel_memory.extractors.file_reads import file_text
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import read_instruction_file
from squirrel_memory.repository.snapshot import TextFile
from tests.unit.memory.test_rules_extractor import PROJECT, T0, Stream


def _event(kind: str, content: dict[str, Any], paths: tuple[str, ...] = ()) -> StoredEvent:
    """One event of a session at the project, as the other rules-extractor tests build them."""
    stream = Stream()
    stream.add(kind, content, paths)
    return stream.events[0]


def _numbered(text: str) -> str:
    """The file as Claude Code's Read tool returns it: `     1→line`, plus a reminder."""
    lines = [f"{n:>6}→{line}" for n, line in enumerate(text.splitlines(), 1)]
    return "\n".join(lines) + "\n\n<system-reminder>\nConsider whether it is malicious.\n"


def _reads(*files: tuple[str, str], is_error: bool = False) -> list[StoredEvent]:
    stream = Stream()
    stream.user("have a look at the project")
    for path, text in files:
        use_id = f"t{len(stream.events)}"
        stream.add("tool_call", {"tool": "Read", "tool_use_id": use_id}, (path,))
        stream.add(
            "tool_result",
            {"tool": "Read", "tool_use_id": use_id, "output": text, "is_error": is_error},
            (path,),
        )
    return stream.events


README = """JSSoundRecorder
===============

Record sounds around you and turn them into music.

It is a work in progress: it records live audio straight from your browser and saves WAV files.

## Usage

Open index.html.
"""


def test_a_root_readme_read_in_a_session_says_what_the_project_is() -> None:
    found = session_about(_reads(("README.md", _numbered(README))))
    assert found is not None
    text, source, event_ids = found
    assert text == (
        "What this project (JSSoundRecorder) is and does, per its README.md: Record sounds around you and turn them "
        "into music. It is a work in progress: it records live audio straight from your "
        "browser and saves WAV files."
    )
    assert source == "README.md"
    assert event_ids == ("evt_0003",)  # the tool result, not the call


async def test_the_rules_extractor_keeps_it_as_an_overview_fact() -> None:
    events = _reads((f"{PROJECT}/README.md", _numbered(README)))
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    found = {c.key: c for c in await RulesExtractor().extract(episode, events)}
    about = found["about"]
    assert about.type is MemoryType.PROJECT_FACT
    assert about.content.startswith(
        "What this project (JSSoundRecorder) is and does, per its README.md: Record sounds"
    )
    assert "overview" in about.tags
    assert about.file_paths == ("README.md",)


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        (
            "pyproject.toml",
            '[project]\nname = "claude-log"\ndescription = "Convert transcript JSONL files to HTML"\n',
            "What this project (claude-log) is and does, per its pyproject.toml: Convert transcript JSONL files to HTML.",
        ),
        (
            "package.json",
            '{"name": "tally", "description": "Counts words in Markdown files", "version": "1"}',
            "What this project (tally) is and does, per its package.json: Counts words in Markdown files.",
        ),
        (
            "mix.exs",
            "defmodule Heron.MixProject do\n  def project do\n    [\n      app: :heron,\n"
            '      description: "Bird sighting log for birdwatching clubs",\n',
            "What this project (heron) is and does, per its mix.exs: Bird sighting log for birdwatching clubs.",
        ),
        (
            "Cargo.toml",
            '[package]\nname = "ripcount"\ndescription = "A fast line counter for big trees"\n',
            "What this project (ripcount) is and does, per its Cargo.toml: A fast line counter for big trees.",
        ),
    ],
)
def test_a_root_manifest_description_says_what_it_is(path: str, text: str, expected: str) -> None:
    found = session_about(_reads((path, _numbered(text))))
    assert found is not None
    assert found[0] == expected


def test_the_readme_wins_over_a_manifest_description() -> None:
    manifest = '[project]\nname = "recorder"\ndescription = "Audio things"\n'
    for order in ((0, 1), (1, 0)):
        files = [("pyproject.toml", _numbered(manifest)), ("README.md", _numbered(README))]
        found = session_about(_reads(*(files[i] for i in order)))
        assert found is not None
        assert "per its README.md: Record sounds" in found[0]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # A dependency's or sub-folder's README says nothing about this project.
        ("node_modules/left-pad/README.md", "# left-pad\n\nPads strings on the left side.\n"),
        ("assets/README.md", "# Assets\n\nThe images and fonts of the web site are here.\n"),
        ("/home/dev/other-repo/README.md", "# other\n\nA different project entirely here.\n"),
        # A README whose opening is only steps to follow describes nothing.
        (
            "README.md",
            "# Heron\n\nTo start your Phoenix server:\n\n  * Run `mix setup`\n\n"
            "Now you can visit localhost:4000 from your browser.\n\n## Learn more\n\n"
            "The project is great.\n",
        ),
        # A manifest without a description, a partial (unparsable) one, a source file.
        ("package.json", '{"name": "starter-blog", "private": true}'),
        ("package.json", '{"name": "x", "description": "A cut-off read of the fi'),
        ("pyproject.toml", '[project\nname = "broken"\ndescription = "Oops no closing'),
        ("main.py", '"""A tool that converts things into other things."""\n'),
        ("README.md", ""),
    ],
)
def test_reads_that_say_nothing_about_the_project_give_no_fact(path: str, text: str) -> None:
    assert session_about(_reads((path, _numbered(text)))) is None


def test_a_failed_read_gives_no_fact() -> None:
    assert session_about(_reads(("README.md", "File does not exist."), is_error=True)) is None


def test_a_huge_readme_is_read_without_failing() -> None:
    text = README + ("filler line of the readme\n" * 200_000)
    found = session_about(_reads(("README.md", text)))
    assert found is not None and "Record sounds" in found[0]


def test_file_text_strips_numbering_only_when_the_output_is_numbered() -> None:
    assert file_text(_numbered("a\nb")) == "a\nb\n"
    assert file_text("plain output\nwith 2→ arrows inside") == "plain output\nwith 2→ arrows inside"
    assert file_text("     1\tcat -n line\n     2\tsecond") == "cat -n line\nsecond"


@pytest.mark.parametrize(
    ("readme", "description"),
    [
        # A blockquote tagline under badges is the description.
        (
            "# Tool\n\n[![npm](https://x/y.svg)](https://x)\n\n"
            "> **One CLI** - Manage coding agents from one command-line interface.\n\n---\n",
            "One CLI - Manage coding agents from one command-line interface.",
        ),
        # A paragraph under an Overview heading still counts; one under Installation does not.
        (
            "# Tool\n\n## Overview\n\nThe tool indexes photos by the faces in them.\n",
            "The tool indexes photos by the faces in them.",
        ),
        ("# Tool\n\n## Installation\n\nThe tool installs with pip from PyPI.\n", ""),
        # A short tagline followed by steps keeps only the tagline.
        (
            "# X\n\nA tiny tool for counting words.\n\nTo install it:\n\n```\npip install x\n```\n",
            "A tiny tool for counting words.",
        ),
    ],
)
def test_readme_descriptions(readme: str, description: str) -> None:
    out = Readings()
    read_instruction_file(TextFile.of("README.md", readme), out, "readme")
    assert out.description == description


def _partial_read(path: str, output: str, lines: list[int]) -> list[StoredEvent]:
    stream = Stream()
    stream.user("have a look at the project")
    stream.add("tool_call", {"tool": "read_file", "tool_use_id": "t1"}, (path,))
    result = {"tool": "read_file", "tool_use_id": "t1", "output": output, "is_error": False}
    stream.add("tool_result", result | {"partial": True, "lines": lines}, (path,))
    return stream.events


def test_a_paragraph_a_partial_read_cut_short_is_not_taken_for_the_description() -> None:
    cut = "JSSoundRecorder\n===============\n\nRecord sounds around you and turn\n"
    assert session_about(_partial_read("README.md", cut, [1, 4])) is None


def test_a_partial_read_still_says_what_it_shows_in_full() -> None:
    shown = "\n".join(README.splitlines()[:6]) + "\n"
    found = session_about(_partial_read("README.md", shown, [1, 6]))
    assert found is not None
    assert found[0].endswith("Record sounds around you and turn them into music.")


def test_a_read_from_the_middle_of_the_readme_says_nothing_about_the_project() -> None:
    middle = "\n".join(f"{n:>6}→{line}" for n, line in enumerate(README.splitlines()[3:], 4))
    assert session_about(_partial_read("README.md", middle, [4, 10])) is None


def _claude_session(tool: str, tool_input: dict[str, Any], output: str) -> list[StoredEvent]:
    """The stored events of a Claude Code session at the project that made one tool call."""
    claude = pytest.importorskip("squirrel_ingest.parsers.claude")
    parser = claude.ClaudeFileParser("s.jsonl")
    base = {"sessionId": "sess", "cwd": PROJECT, "timestamp": T0.isoformat()}
    use = {"type": "tool_use", "id": "toolu_1", "name": tool, "input": tool_input}
    answer = {"type": "tool_result", "tool_use_id": "toolu_1", "content": output}
    records = [
        {"type": "user", "uuid": "u0", "message": {"role": "user", "content": "what is this?"}},
        {"type": "assistant", "uuid": "a1", "message": {"role": "assistant", "content": [use]}},
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": [answer]}},
    ]
    stream = Stream()
    for offset, record in enumerate(records):
        for event in parser.feed(
            json.dumps(base | record).encode(), SourcePosition("s", 1, offset)
        ):
            stream.add(event.event_type.value, event.content, event.file_paths)
    return stream.events


@pytest.mark.parametrize(
    "command", ["cat README.md", f"cat {PROJECT}/README.md", "head -n 40 README.md"]
)
def test_a_readme_printed_by_a_claude_code_bash_call_says_what_a_read_of_it_says(
    command: str,
) -> None:
    read = session_about(
        _claude_session("Read", {"file_path": f"{PROJECT}/README.md"}, _numbered(README))
    )
    printed = session_about(_claude_session("Bash", {"command": command}, README))

    assert read is not None and printed is not None
    assert printed[:2] == read[:2] == (read[0], "README.md")
    assert read[0].startswith("What this project (JSSoundRecorder) is and does, per its README.md")


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        (
            "tally.gemspec",
            'Gem::Specification.new do |spec|\n  spec.name = "tally"\n'
            '  spec.summary = "Counts words in Markdown files"\n'
            '  spec.description = "A longer text about counting."\nend\n',
            "What this project (tally) is and does, per its tally.gemspec: Counts words in Markdown files.",
        ),
        (
            "tally.nimble",
            'version = "0.1.0"\ndescription = "Counts words in Markdown files"\nlicense = "MIT"\n',
            "What this project (tally) is and does, per its tally.nimble: Counts words in Markdown files.",
        ),
        (
            "pixi.toml",
            '[workspace]\r\nname = "tally"\r\ndescription = "Counts words in Markdown files"\r\n'
            'channels = ["conda-forge"]\r\n\r\n[dependencies]\r\npython = ">=3.12"\r\n',
            "What this project (tally) is and does, per its pixi.toml: Counts words in Markdown files.",
        ),
        (
            "pixi.toml",
            '[project]\nname = "tally"\ndescription = "Counts words in Markdown files"\n',
            "What this project (tally) is and does, per its pixi.toml: Counts words in Markdown files.",
        ),
        (
            "build.sbt",
            'name := "tally"\ndescription := "Counts words in Markdown files"\n',
            "What this project (tally) is and does, per its build.sbt: Counts words in Markdown files.",
        ),
        (
            "project.clj",
            '(defproject tally "0.1.0"\n  :description "Counts words in Markdown files"\n)',
            "What this project (tally) is and does, per its project.clj: Counts words in Markdown files.",
        ),
        (
            "tally.opam",
            'opam-version: "2.0"\nsynopsis: "Counts words in Markdown files"\n',
            "What this project (tally) is and does, per its tally.opam: Counts words in Markdown files.",
        ),
        (
            "shard.yml",
            "name: tally\nversion: 0.1.0\ndescription: Counts words in Markdown files\n",
            "What this project (tally) is and does, per its shard.yml: Counts words in Markdown files.",
        ),
        (
            "elm.json",
            '{"type": "package", "name": "dev/tally", "summary": "Counts words in Markdown files"}',
            "What this project (dev/tally) is and does, per its elm.json: Counts words in Markdown files.",
        ),
        (
            "setup.py",
            "from setuptools import setup\n\nsetup(\n    name='tally',\n"
            "    description='Counts words in Markdown files',\n)\n",
            "What this project (tally) is and does, per its setup.py: Counts words in Markdown files.",
        ),
        (
            "DESCRIPTION",
            "Package: tally\nTitle: Count Words in Markdown Files\nVersion: 0.1.0\n"
            "Description: Counts the words of each section of Markdown files and\n"
            "    reports them per heading.\n",
            "What this project (tally) is and does, per its DESCRIPTION: Counts the words of each section of Markdown files and reports them per heading.",
        ),
        (
            "pom.xml",
            "<project><artifactId>tally</artifactId>"
            "<description>Counts words in Markdown files</description></project>",
            "What this project (tally) is and does, per its pom.xml: Counts words in Markdown files.",
        ),
        (
            "tally-0.1-1.rockspec",
            'package = "tally"\nversion = "0.1-1"\ndescription = {\n'
            '   summary = "Counts words in Markdown files", -- shown by luarocks\n'
            "   detailed = [[\n      Long text.\n   ]],\n}\n",
            "What this project (tally) is and does, per its tally-0.1-1.rockspec: Counts words in Markdown files.",
        ),
        (
            ".claude-plugin/plugin.json",
            '{"name": "tally", "version": "0.1.1", "description": "Slash commands and skills '
            'that count words in Markdown files"}',
            "What this project (tally) is and does, per its .claude-plugin/plugin.json: Slash commands and skills that count words in Markdown files.",
        ),
        (
            "gemini-extension.json",
            '{"name": "tally", "version": "1.0.0", "description": "Counts words in Markdown files"}',
            "What this project (tally) is and does, per its gemini-extension.json: Counts words in Markdown files.",
        ),
    ],
)
def test_a_manifest_of_any_ecosystem_says_what_the_project_is(
    path: str, text: str, expected: str
) -> None:
    found = session_about(_reads((path, _numbered(text))))
    assert found is not None
    assert found[0] == expected


@pytest.mark.parametrize(
    ("manifest", "name"),
    [
        ("go.mod", "module example.com/dev/tally\n\ngo 1.22\n"),
        ("Package.swift", 'let package = Package(\n    name: "Tally",\n    products: []\n)\n'),
        ("build.zig.zon", '.{\n    .name = .tally,\n    .version = "0.1.0",\n}\n'),
        ("Project.toml", 'name = "Tally"\nuuid = "1234"\n'),
    ],
)
def test_a_manifest_that_only_names_the_project_names_what_the_readme_describes(
    manifest: str, name: str
) -> None:
    readme = "# Counter\n\nCounts the words of Markdown files, section by section.\n"
    alone = session_about(_reads((manifest, _numbered(name))))
    found = session_about(_reads((manifest, _numbered(name)), ("README.md", _numbered(readme))))

    assert alone is None  # a name alone says nothing of what the project is
    assert found is not None
    assert found[0].startswith("What this project (")
    assert "Counter" not in found[0].split(")")[0]  # the manifest's name, not the title
    assert found[0].endswith(
        "per its README.md: Counts the words of Markdown files, section by section."
    )


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # Manifests of dependencies and vendored code describe those, not this project.
        (
            "node_modules/left-pad/package.json",
            '{"name": "left-pad", "description": "Pads strings left"}',
        ),
        ("vendor/bundle/tally.gemspec", 'spec.name = "x"\nspec.summary = "A vendored gem here"\n'),
        ("../sibling/shard.yml", "name: sibling\ndescription: A sibling repository's shard\n"),
        # A plugin manifest away from its fixed place: another plugin's, or another tool's file.
        (
            "plugins/other/.claude-plugin/plugin.json",
            '{"name": "other", "description": "Another plugin kept in this repository"}',
        ),
        ("plugin.json", '{"name": "x", "description": "Some tool reads this config file"}'),
        (
            "vendor/lpeg/lpeg-1.0.rockspec",
            'package = "lpeg"\nsummary = "Parsing Expression Grammars"\n',
        ),
        # A README of a sibling folder outside the project.
        ("../other/README.md", "# other\n\nA different project entirely, next door.\n"),
        # A summary that is not a literal says nothing.
        ("tally.gemspec", 'spec.name = "tally"\nspec.summary = "#{NAME} counts words in files"\n'),
        ("Package.swift", 'let package = Package(name: "Tally")\n'),
        # a pixi manifest of a sub-folder, or one whose description is not its workspace's
        (
            "tools/env/pixi.toml",
            '[workspace]\nname = "env"\ndescription = "A helper environment"\n',
        ),
        ("pixi.toml", '[feature.docs]\ndescription = "The documentation build environment"\n'),
        # a pixi manifest cut or malformed: it says nothing, and nothing fails
        ("pixi.toml", '[workspace\nname = "tally"\ndescription = "Counts words in files"\n'),
        ("pixi.toml", '[workspace]\ndescription = ["not", "a string"]\n'),
    ],
)
def test_manifests_outside_the_project_or_without_a_literal_summary_say_nothing(
    path: str, text: str
) -> None:
    assert session_about(_reads((path, _numbered(text)))) is None


@pytest.mark.parametrize(
    "readme",
    [
        "# web\n\nThis is a [Next.js](https://nextjs.org) project bootstrapped with "
        "[`create-next-app`](https://github.com/vercel/next.js).\n\n## Getting Started\n",
        "# README\n\nThis README would normally document whatever steps are necessary to get the\n"
        "application up and running.\n\nThings you may want to cover:\n",
        "# Tally\n\nA description of this package.\n",
        "# Tally\n\nWelcome to your new gem! In this directory, you'll find the files you need to "
        "be able to package up your Ruby library into a gem.\n\nTODO: Delete this and the text "
        "below, and describe your gem\n",
        "# React + Vite\n\nThis template provides a minimal setup to get React working in Vite "
        "with HMR and some ESLint rules.\n",
        "# Tally\n\nThis project was generated with the framework's command-line tool, "
        "version 17.0.3.\n\n## Development server\n",
    ],
)
def test_a_template_readme_says_nothing_about_the_project(readme: str) -> None:
    assert session_about(_reads(("README.md", _numbered(readme)))) is None


def test_a_readme_of_a_template_engine_says_what_the_project_is() -> None:
    readme = "# Mold\n\nThis template engine renders Mustache templates without allocating.\n"
    found = session_about(_reads(("README.md", _numbered(readme))))
    assert found is not None
    assert found[0].endswith("This template engine renders Mustache templates without allocating.")


@pytest.mark.parametrize(
    "readme",
    [
        '<h1 align="center">Tally</h1>\n<p align="center">A desktop app that counts the words '
        'of Markdown files.</p>\n\n<p align="center"><img src="shot.png"></p>\n',
        '<div align="center">\n  <img src="logo.svg" width="96">\n\n# Tally\n\n<p align="center">\n'
        "  A desktop app that counts the words of Markdown files.\n</p>\n</div>\n\n## Install\n",
    ],
)
def test_a_readme_with_a_centred_html_opening_says_what_the_project_is(readme: str) -> None:
    found = session_about(_reads(("README.md", _numbered(readme))))
    assert found is not None
    assert found[0] == (
        "What this project (Tally) is and does, per its README.md: "
        "A desktop app that counts the words of Markdown files."
    )


@pytest.mark.parametrize(
    "said",
    [
        "A todo list app that syncs between phones and laptops.",
        "A terminal TODO list manager that syncs with your calendar.",
        "Lists the TODO and FIXME comments of a codebase as one report.",
    ],
)
def test_a_todo_app_is_no_placeholder(said: str) -> None:
    found = session_about(_reads(("README.md", _numbered(f"# Tasks\n\n{said}\n"))))
    assert found is not None and found[0].endswith(said)


def test_a_readme_printed_in_another_folder_says_nothing_about_this_project() -> None:
    printed = _claude_session("Bash", {"command": "cd ../other && cat README.md"}, README)
    assert session_about(printed) is None


@pytest.mark.parametrize(
    "path", ["README.markdown", "readme.rst", "ReadMe.md", "README.MD", "readme"]
)
def test_a_readme_spelt_any_way_says_what_the_project_is(path: str) -> None:
    found = session_about(_reads((path, _numbered(README))))
    assert found is not None and found[1] == path


@pytest.mark.parametrize(
    "path", ["README.adoc", "README-dev.md", "readme_old.md", "docs/README.md"]
)
def test_other_files_named_like_a_readme_say_nothing(path: str) -> None:
    assert session_about(_reads((path, _numbered(README)))) is None
