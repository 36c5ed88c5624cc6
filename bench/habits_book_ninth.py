"""The ninth habits phrasebook: a ban scoped to a kind of code rather than to a spot of the task
("no unwrap or panic in production code", "no console.log in prod code", "no `any` in non-test
code"), said by the user in a message or written as a line of the text of a custom command the
user runs (or a skill the assistant launches): a quality gate the user wrote down once ("- Safety
scan (no unwrap/panic in production code)"); and the one-offs that look like it (a sweep done
once, a question, a statement of how things are, quoted words, a line of a code block, a step of
what to do when the gate fails, the assistant's own words). Written from general knowledge of how
people write such gates, before the rule that reads them. Read by `bench.habits_phrasebook`.
"""

from __future__ import annotations

#: Bans over every later piece of a kind of code, said in a message.
HABITS_NINTH: tuple[str, ...] = (
    "No unwrap or panic in production code.",
    "no console.log in production code",
    "Zero TODO comments in production code, please.",
    "no print statements in prod code",
    "No `any` types in non-test code.",
    "no hardcoded URLs in production code, read them from the config",
    "no System.out.println in production code, use the logger",
    "No !! operators in production code.",
    "no dbg! calls in production code",
    "no mocks or test doubles in production code",
)

#: One-offs in the same shape: a sweep done once, questions, statements, quoted words, a spot of
#: the task.
ONE_OFFS_NINTH: tuple[str, ...] = (
    "remove the unwrap calls in production code",
    "fix the panic in production code that crashed the worker last night",
    "Is there any console.log left in production code?",
    "there's no logging in production code yet, add some to the importer",
    "replace the print statements in production code with the logger",
    "> no unwrap or panic in production code",
    "find every TODO in production code and list them",
    "count the unwrap calls in production code for the report",
    "no unwrap in production code for this PR, we'll relax it later",
    'the reviewer wrote "no console.log in production code", do you agree?',
    "we had an outage in production yesterday, check the logs",
)

#: (command, its text) of a custom command the user runs: a line of the text bans something in
#: a kind of code, and a standing user_style memory must say what (`the banned word`).
COMMAND_HABITS_NINTH: tuple[tuple[str, str, str], ...] = (
    (
        "/commit",
        "# Smart Commit\n\n## Quality Gates\n- Formatting: `cargo fmt --all`\n"
        "- Lint: `cargo clippy -- -D warnings`\n"
        "- Safety scan (no unwrap/panic in production code)\n\n"
        "Only commit when every gate passes.\n\nARGUMENTS: ",
        "unwrap",
    ),
    (
        "/ship",
        "Before pushing this branch:\n\n1. Run `npm test`\n2. Run `npm run lint`\n\n"
        "Rules:\n- No console.log in production code\n- Keep each commit to one concern\n",
        "console.log",
    ),
    (
        "/ready",
        "## Review the diff\n\nCheck the staged diff for:\n"
        "- zero print() calls in production code\n"
        "- type hints on every public function\n\nThen write a short summary.",
        "print()",
    ),
    (
        "/pre-pr",
        "# Pre-PR check\n\n- **Build**: `./gradlew build`\n"
        "- **Null safety**: no `!!` in production code\n- **Tests**: `./gradlew test`\n",
        "!!",
    ),
    (
        "/tidy",
        "Tidy the package before a release:\n\n- run `go vet ./...`\n"
        "- no fmt.Println in production code (use the structured logger)\n"
        "- keep exported names documented\n",
        "fmt.Println",
    ),
)

#: (command, its text) where no ban must be read: the words sit in a code block, in what to do
#: when something fails, in a description of the code as it is, or in a task of the command.
COMMAND_ONE_OFFS_NINTH: tuple[tuple[str, str], ...] = (
    (
        "/scan",
        "Run the scanner and show its output:\n\n```\n$ ./scan.sh\n"
        "FAIL: no unwrap in production code (src/io.rs:12)\n```\n\nSummarise the findings.",
    ),
    (
        "/audit",
        "# Audit\n\nThere is no logging in production code yet; list the modules that would "
        "need it.\n",
    ),
    (
        "/sweep",
        "1. Find every TODO in production code\n2. Open one issue per TODO\n",
    ),
    (
        "/count",
        "Report how many unwrap calls remain in production code, per crate.",
    ),
)

#: The assistant's own words that hold the shape: never a habit of the user's.
ASSISTANT_SAYS_NINTH: tuple[str, ...] = (
    "I checked the diff: no unwrap or panic in production code.",
    "Done. There are zero console.log calls in production code now.",
)
