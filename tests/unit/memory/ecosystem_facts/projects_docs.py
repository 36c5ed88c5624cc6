"""Imagined projects for the matrix whose sessions read documents only: a Lua script (busted
specs) and an Elixir library, each drawn in its README's layout block, no code file touched.

The language is what the README draws; the traps: a helper script of another language drawn
beside the code, a spec template's README in a sub-folder drawing another language's test
paths, a shell block's script and a code block's `require`, and spec files named like
another tool's (`*_spec.lua` is busted's, not RSpec's).
"""

from __future__ import annotations

from tests.unit.memory.ecosystem_facts.matrix import Project

LUA_SCRIPT = Project(
    "pulse",
    (
        (
            "read",
            "README.md",
            "# pulse\n\nA step sequencer script for a grid controller.\n\n"
            "## Running\n\n```bash\n./scripts/render.py docs/\nseamless pulse.lua\n```\n\n"
            "## Layout\n\n```\n"
            "pulse.lua              entry point (thin global hooks)\n"
            "lib/\n"
            "  clock.lua            tempo and swing\n"
            "  pattern.lua          step data and loops\n"
            "spec/\n"
            "  pattern_spec.lua     busted specs of the loops\n"
            "scripts/\n"
            "  render.py            renders the docs pages\n"
            "```\n\n"
            '```lua\nlocal app = require("lib/app.lua")\n```\n',
        ),
        (
            "read",
            "templates/README.md",
            "# Spec template\n\n```\ntests/\n  unit/test_feature.py     unit tests\n"
            "  unit/test_parser.py      parser tests\n  conftest.py              fixtures\n```\n",
        ),
        ("write", "specs/swing/rough-idea.md", "Swing per track.\n"),
    ),
    stated=(("language", "Lua"),),
    traps=(("language", "Python"), ("testing", "RSpec"), ("testing", "pytest")),
)

ELIXIR_LIBRARY = Project(
    "ledger",
    (
        (
            "read",
            "README.md",
            "# ledger\n\nDouble-entry bookkeeping for small shops.\n\n"
            "## Layout\n\n```text\n"
            "ledger/\n"
            "├── lib/\n"
            "│   ├── ledger.ex          public API\n"
            "│   └── ledger/\n"
            "│       └── posting.ex     one posting of a journal entry\n"
            "├── c_src/\n"
            "│   └── checksum.c         a NIF for the journal's checksum\n"
            "├── test/\n"
            "│   └── ledger_test.exs    ExUnit tests\n"
            "└── Makefile               release helpers\n"
            "```\n",
        ),
        ("write", "docs/ROADMAP.md", "# Roadmap\n\n- multi-currency\n"),
    ),
    stated=(("language", "Elixir"),),
    traps=(("language", "C"), ("language", "Erlang")),
)

DOCS_PROJECTS = (LUA_SCRIPT, ELIXIR_LIBRARY)
