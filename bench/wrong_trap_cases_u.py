# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `u`: the stack said in the user's words where stating it would be
wrong: a choice of tools changed in a later session, a choice only for now, another project's
stack, a hedged description against the manifest, a program not found and then started after
sourcing its environment (`bench/wrong_traps.py` runs them).

These traps were written after the rules they check (the stated choice of tools, the described
stack, a run that failed although its shell exited 0): they guard those rules' edges.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap

CHOICE_CHANGED = Trap(
    "stack-choice-changed",
    "Node/TypeScript",
    "the user chooses Jest in one session and switches to Vitest instead of Jest in the next",
    (
        Session(
            "claude",
            "/home/vi/code/ledgerly",
            (
                Ask("Let's set the project up. I want to use Jest for the tests."),
                Run("npm init -y", "Wrote to /home/vi/code/ledgerly/package.json\n"),
                Say("Good choice. I'll add a Jest config and a first test."),
            ),
        ),
        Session(
            "claude",
            "/home/vi/code/ledgerly",
            (
                Ask("Jest is too slow with ESM. Let's switch to Vitest instead of Jest."),
                Run("npm uninstall jest", "removed 270 packages in 2s\n"),
                Say("Switching to Vitest: replacing the Jest config with `vitest.config.ts`."),
            ),
        ),
    ),
    wrong=((r"use Jest for the tests", "a choice of tools the user changed in a later session"),),
    may=(r"Vitest",),
)

CHOICE_FOR_NOW = Trap(
    "stack-choice-for-now",
    "Python",
    "the user picks a database only until the real one is set up",
    (
        Session(
            "codex",
            "/home/vi/code/roster",
            (
                Ask("Let's use SQLite for now, we'll move to Postgres once the schema settles."),
                Run("ls", "README.md\nroster\n"),
                Say("Understood: SQLite for the prototype."),
            ),
        ),
    ),
    wrong=((r"SQLite", "a database chosen only for now"),),
)

OTHER_PROJECT = Trap(
    "stack-of-another-project",
    "Go",
    "the user compares with another project's stack before describing this one without naming it",
    (
        Session(
            "claude",
            "/home/vi/code/beacon",
            (
                Ask(
                    "My other project uses Django and Celery. This one should stay small, add a health endpoint."
                ),
                Read("go.mod", "module example.com/beacon\n\ngo 1.22\n"),
                Run("go build ./...", ""),
                Say("Added `GET /healthz` in `cmd/beacon/main.go`."),
            ),
        ),
    ),
    wrong=(
        (r"Django", "another project's framework"),
        (r"Celery", "another project's job queue"),
    ),
)

HEDGED_DESCRIPTION = Trap(
    "stack-description-hedged",
    "Node/React",
    "the user thinks the app is built with Vue; the manifest says React",
    (
        Session(
            "claude",
            "/home/vi/code/atrium",
            (
                Ask("I think the app is built with Vue, but check package.json before you start."),
                Read(
                    "package.json",
                    '{\n  "name": "atrium",\n  "dependencies": { "react": "^18.3.1", "react-dom": "^18.3.1" }\n}\n',
                ),
                Run("npm ls react", "atrium@0.1.0\n└── react@18.3.1\n"),
                Say("It's React 18, not Vue: `react` and `react-dom` are the dependencies."),
            ),
        ),
    ),
    wrong=((r"\bVue\b", "a framework the user guessed and the manifest contradicts"),),
    may=(r"React",),
)

SOURCED_ENVIRONMENT = Trap(
    "not-found-then-sourced",
    "Java/Gradle",
    "java is not found until SDKMAN's init script is sourced; a listing after the failure exits 0",
    (
        Session(
            "claude",
            "/home/vi/code/drills",
            (
                Ask("Check which Java and Gradle we have."),
                Run(
                    "java -version 2>&1; gradle --version 2>&1 | head -3; ls",
                    "/bin/bash: line 1: java: command not found\n/bin/bash: line 1: gradle: command not found\nREADME.md\n",
                ),
                Run(
                    'source "$HOME/.sdkman/bin/sdkman-init.sh" && java -version 2>&1',
                    'openjdk version "21.0.6" 2025-01-21 LTS\n',
                ),
                Say("Java 21 is there once SDKMAN's init script is sourced."),
            ),
        ),
    ),
    wrong=((r"; ls`? worked", "a run whose program was not found, taken for the fix"),),
    may=(r"sdkman",),
)

CASES: tuple[Trap, ...] = (
    CHOICE_CHANGED,
    CHOICE_FOR_NOW,
    OTHER_PROJECT,
    HEDGED_DESCRIPTION,
    SOURCED_ENVIRONMENT,
)
