# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, sixth part: a global tool installed with another package manager than the
project's, an old base image against the project's declared Python, and a helper script in
another language than the project's (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

GLOBAL_TOOL_MANAGER = Trap(
    "global-npm-tool-in-pnpm-project",
    "Node/TypeScript",
    "a pnpm project whose session installs a diagram tool globally with npm and runs it with npx",
    (
        Session(
            "claude",
            "/home/dev/src/atlas",
            (
                Ask("Render docs/arch.mmd to an SVG and make sure the tests still pass."),
                Run("ls", "README.md\ndocs\npackage.json\npnpm-lock.yaml\nsrc\ntests"),
                Run(
                    "npm install -g @mermaid-js/mermaid-cli",
                    "added 312 packages in 21s",
                ),
                Run(
                    "npx mmdc -i docs/arch.mmd -o docs/arch.svg",
                    "Generating single mermaid chart",
                ),
                Run(
                    "pnpm test",
                    "> atlas@1.2.0 test /home/dev/src/atlas\n> vitest run\n\n ✓ tests/graph.test.ts (7)\n\n Test Files  1 passed (1)\n      Tests  7 passed (7)",
                ),
                Say("`docs/arch.svg` is rendered; `pnpm test` passes (7 tests)."),
            ),
        ),
    ),
    wrong=(
        (
            r"run through npm\b|\bnpm,? its package manager|package manager\W+(\w+\W+){0,3}npm\b|(installed|managed) with npm\b",
            "the project uses pnpm; npm only installed a global tool",
        ),
    ),
    may=(r"pnpm",),
)

OLD_BASE_IMAGE = Trap(
    "old-base-image-python",
    "Python",
    "a Dockerfile on an old Python base image, against the project's declared and running Python",
    (
        Session(
            "codex",
            "/home/dev/src/ferry",
            (
                Ask("Why does the container crash on startup with a SyntaxError?"),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "ferry"\nversion = "1.3.0"\nrequires-python = ">=3.12"\ndependencies = ["httpx>=0.27"]\n',
                ),
                Read(
                    "Dockerfile",
                    'FROM python:3.9-slim\nWORKDIR /app\nCOPY . .\nRUN pip install .\nCMD ["python", "-m", "ferry"]\n',
                ),
                Run("python --version", "Python 3.12.4"),
                Run(
                    "python -m pytest -q",
                    "...............                                                          [100%]\n15 passed in 0.44s",
                ),
                Say(
                    "The image still starts from `python:3.9-slim`, but the code uses `match` "
                    'statements and needs 3.12 (`requires-python = ">=3.12"`); move the base '
                    "image to `python:3.12-slim`."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"python\W+(version\W+)?3\.9\b(?!-slim)(?! base)|requires python 3\.9|runs on python 3\.9",
            "3.9 is only the stale base image; the project declares and runs 3.12",
        ),
    ),
    may=(r"3\.12|pytest",),
)

HELPER_SCRIPT_LANGUAGE = Trap(
    "python-helper-in-go-project",
    "Go",
    "the assistant writes and runs a one-off Python script to make test data in a Go project",
    (
        Session(
            "claude",
            "/home/dev/src/tollgate",
            (
                Ask("Make a fixture with 500 random toll events for the parser tests."),
                Read(
                    "go.mod",
                    "module example.com/tollgate\n\ngo 1.22\n",
                ),
                Write(
                    "gen_events.py",
                    "import json, random\n\nevents = [{'plate': f'AB{random.randint(100, 999)}', 'lane': random.randint(1, 6)} for _ in range(500)]\n"
                    "json.dump(events, open('internal/parse/testdata/events.json', 'w'))\n",
                ),
                Run("python3 gen_events.py && rm gen_events.py", ""),
                Run(
                    "go test ./internal/parse/...",
                    "ok  \texample.com/tollgate/internal/parse\t0.218s",
                ),
                Say(
                    "Wrote `internal/parse/testdata/events.json` (500 events); the parser tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(written in|project is|code is|language)\W+(\w+\W+){0,3}python|python's\W|python (project|code)",
            "the project is Go; a throwaway script was Python",
        ),
    ),
    may=(r"\bgo\b",),
)

CASES = (GLOBAL_TOOL_MANAGER, OLD_BASE_IMAGE, HELPER_SCRIPT_LANGUAGE)
