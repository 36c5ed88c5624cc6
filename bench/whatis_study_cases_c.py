# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The "what is this project" study's third set: a project document other than the README (an
onboarding or context note, a brief, a PRD) read in the session, whose labelled lines name the
project and say what it is ("**Project Name**: Tidewater", "**Vision**: A self-hosted status
page …", "Description: A command-line tool …"). The must-fire cases are an Elixir service, a
Python command-line tool and a Kotlin app (Claude Code and Codex); the traps are a document whose
labelled name is another project's, a feature's brief labelled like a project's, a template
whose fields are still placeholders, and a labelled description that says what the project is
no longer. Every case, its facts and its `never` patterns included, was written before any rule
ran on it (`python -m bench.whatis_study --set c`)."""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, one_session
from bench.whatis_study_cases import Case, fact, never

ELIXIR_CONTEXT = Case(
    "doc-labelled-elixir-context",
    "doc",
    "Elixir (Phoenix, Claude Code)",
    one_session(
        "/home/ana/src/tidewater",
        Ask("Read docs/context.md and tell me where to start on the incident timeline."),
        Read(
            "docs/context.md",
            "# Tidewater - Project Context\n\n## Overview\n**Project Name**: Tidewater\n**Vision**: A self-hosted status page for small teams that checks HTTP endpoints every minute and posts incidents to Slack.\n**Current Phase**: beta\n\n## Stack\n- Elixir 1.17, Phoenix LiveView\n- Postgres\n\n## Workflow\n- `mix test` before every push\n",
        ),
        Say(
            "Start in `lib/tidewater/incidents.ex`: the timeline would be a list of state changes per incident."
        ),
    ),
    (fact("Tidewater is a self-hosted status page", r"tidewater", r"status page"),),
)

PYTHON_BRIEF = Case(
    "doc-labelled-python-brief",
    "doc",
    "Python (Codex)",
    one_session(
        "/home/bo/code/fernleaf",
        Ask("Have a look at planning/brief.md, then add a --dry-run flag."),
        Run(
            "cat planning/brief.md",
            "Project: Fernleaf\nDescription: A command-line tool that renames photos and videos by the date they were taken, read from their EXIF data.\nOwner: bo\nStatus: in use\n\nOpen questions\n- HEIC support?\n",
        ),
        Read(
            "fernleaf/cli.py",
            "import argparse\n\n\ndef main() -> None:\n    parser = argparse.ArgumentParser()\n    parser.add_argument('folder')\n",
        ),
        Say("Added `--dry-run`: it prints each rename without touching the files."),
        host="codex",
    ),
    (fact("Fernleaf renames photos by the date taken", r"fernleaf", r"renames? photos"),),
)

KOTLIN_PRD = Case(
    "doc-labelled-kotlin-prd",
    "doc",
    "Kotlin (Android, Claude Code)",
    one_session(
        "/home/kim/src/packrat",
        Ask("What does the PRD say about sharing lists? Don't change anything."),
        Read(
            "docs/PRD.md",
            "# PRD\n\n**Name:** Packrat\n**Purpose:** An Android app that keeps packing lists for trips and reminds you of what you forgot last time.\n**Audience:** people who travel a few times a year\n\n## Sharing\nLists can be shared read-only by link.\n",
        ),
        Say("The PRD only allows read-only sharing by link; editing together is not planned."),
    ),
    (fact("Packrat is an Android app for packing lists", r"packrat", r"packing"),),
)

OTHER_PROJECT = Case(
    "doc-labelled-other-project",
    "trap",
    "Go (Claude Code)",
    one_session(
        "/home/eli/src/gateway",
        Ask(
            "The billing team sent their context doc, docs/vendor/billing-context.md. Does our gateway need to change for it?"
        ),
        Read(
            "docs/vendor/billing-context.md",
            "**Project Name**: Ledgerline\n**Vision**: A double-entry ledger service that books every payment the gateway forwards.\n",
        ),
        Say("The gateway already forwards `payment_id`; Ledgerline needs nothing new from us."),
    ),
    (),
    (
        never(
            r"double-entry|ledger service",
            "the document describes the billing team's project, not this gateway",
        ),
    ),
)

FEATURE_BRIEF = Case(
    "doc-labelled-feature-brief",
    "trap",
    "Ruby (Rails, Claude Code)",
    one_session(
        "/home/ivy/src/larder",
        Ask("Implement what docs/features/dark-mode.md describes."),
        Read(
            "docs/features/dark-mode.md",
            "**Feature Name**: Dark mode\n**Description**: A toggle in the header that switches the whole app to a dark palette and remembers the choice.\n",
        ),
        Say("Added the header toggle; the choice is kept in a cookie."),
    ),
    (),
    (
        never(
            r"\b(?:larder|the project|this project|it)\b[^\n]{0,30}\bis a toggle\b|what (?:the|this) project is[^\n]*toggle",
            "the document describes one feature, not the project",
        ),
    ),
)

TEMPLATE_FIELDS = Case(
    "doc-labelled-template",
    "trap",
    "C++ (CMake, Codex)",
    one_session(
        "/home/jo/src/meshkit",
        Ask("Fill in docs/PROJECT.md for me later, first fix the build warning in src/mesh.cpp."),
        Run(
            "cat docs/PROJECT.md",
            "**Project Name**: [Your project name]\n**Vision**: [One sentence: what it is and who it is for]\n",
        ),
        Run("cmake --build build 2>&1 | tail -3", "[100%] Built target meshkit\n"),
        Say("The warning was an unused variable in `src/mesh.cpp`; the build is clean now."),
        host="codex",
    ),
    (),
    (never(r"your project name|one sentence", "the document's fields are still placeholders"),),
)

NO_LONGER = Case(
    "doc-labelled-no-longer",
    "trap",
    "Python (Claude Code)",
    one_session(
        "/home/ula/src/quill",
        Ask("Read NOTES.md and update the description, it's stale."),
        Read(
            "NOTES.md",
            "**Project Name**: Quill\n**Description**: Originally a Markdown blog engine; it is no longer that, the blog parts were removed in 2.0.\n",
        ),
        Say("I'll update the description once you tell me what Quill is now."),
    ),
    (),
    (
        never(
            r"\bquill\b[^\n]{0,40}\b(?:is )?a markdown blog engine",
            "the document says Quill is no longer a blog engine",
        ),
    ),
)

CASES = (
    ELIXIR_CONTEXT,
    PYTHON_BRIEF,
    KOTLIN_PRD,
    OTHER_PROJECT,
    FEATURE_BRIEF,
    TEMPLATE_FIELDS,
    NO_LONGER,
)
