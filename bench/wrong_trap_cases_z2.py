# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z2`: identity facts said from too little: a Swift app whose only root
manifest is a `package.json` of commit hooks, a Java service built by Gradle scripts written in
Kotlin, checkpoint commits (`wip: …`) made in two sessions, prefixed commits made in two
sessions of a project whose printed log shows plain subjects, and a printed log that is mostly a
dependency bot's (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before it first ran. The first
run, with the two rules these traps test already in (root manifests weighed by the code the
session touched, and a commit prefix kept in two sessions read as the convention), found one
wrong fact: `wip-checkpoints-two-sessions` said "Commit subjects start with a Conventional
Commits prefix `type: summary` (wip) — 2 of 2 commits made in sessions follow it." (1 memory,
1 start line). The fix, at its rule: checkpoint subjects (`wip`, `fixup!`, `squash!`, `amend!`)
are no commits of a convention. Run on the rules before this part (main at 6c7076dc), the Swift
trap states "JavaScript or TypeScript and Swift project" (2 memories) and the Java one, once its
pattern was widened (it spared any line naming `.kts`, and so missed "Kotlin and Java project
(build.gradle.kts: Java 21)"), "Kotlin and Java project" (2 memories). After the fixes all four
read 0 wrong.

A fifth, `dependency-bot-log`, was written with the rule it tests already in (plain imperative
subjects read from a log the sessions printed) and its guard (a dependency bot's "Bump x from a
to b" is the bot's wording): it reads 0 wrong; with the guard taken out, the log's eight bumps
beside three subjects of the project's own make "Commit subjects are plain sentences in the
imperative mood with no type prefix" (1 memory).
"""

from __future__ import annotations

from bench.facts_study_session_cases import SWIFT_NODE_HOOKS
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Trap, one_session

SWIFT_HOOKS_PACKAGE_JSON = Trap(
    "swift-app-hooks-package-json",
    "Swift (Xcode app)",
    "the root `package.json` only installs commit hooks (husky, commitlint); the app is Swift, "
    "built with Xcode, and has no JavaScript",
    one_session(
        "/Users/noor/dev/Tally",
        Ask("The basket total is wrong after removing an item. Fix it and add a test."),
        # The facts study's case of the same app: the commit-hooks manifest, the model read and
        # edited, a test added; then the test run.
        *SWIFT_NODE_HOOKS.sessions[0].steps[1:6],
        Say("The total is now recomputed on removal; the new test and the other 26 pass."),
    ),
    wrong=(
        (
            r"\b(?:JavaScript|TypeScript|Node(?:\.js)?)\b[^\n]*\bproject\b|\bproject\b[^\n]*\bwritten in\b[^\n]*\b(?:JavaScript|TypeScript)\b",
            "the package.json holds commit hooks only; the app is Swift",
        ),
        (
            r"\b(?:npm|pnpm|yarn)\b[^\n]*\bpackage manager\b",
            "no npm package is built here; the hooks' installer is no package manager of the app",
        ),
    ),
    may=(r"\bSwift\b",),
)

JAVA_GRADLE_KOTLIN_SCRIPTS = Trap(
    "java-gradle-kotlin-scripts",
    "Java (Gradle, Kotlin DSL)",
    "the build scripts are Gradle's Kotlin DSL (`build.gradle.kts`, `settings.gradle.kts`); "
    "every source file is Java",
    one_session(
        "/home/ivo/src/stockroom",
        Ask("Add the Testcontainers dependency for PostgreSQL and write a repository test."),
        Read("settings.gradle.kts", 'rootProject.name = "stockroom"\n'),
        Read(
            "build.gradle.kts",
            'plugins {\n    java\n    id("org.springframework.boot") version "3.3.1"\n}\n\njava {\n    toolchain { languageVersion = JavaLanguageVersion.of(21) }\n}\n\ndependencies {\n    implementation("org.springframework.boot:spring-boot-starter-data-jpa")\n    testImplementation("org.springframework.boot:spring-boot-starter-test")\n}\n',
        ),
        Edit(
            "build.gradle.kts",
            '    testImplementation("org.springframework.boot:spring-boot-starter-test")\n',
            '    testImplementation("org.springframework.boot:spring-boot-starter-test")\n    testImplementation("org.testcontainers:postgresql:1.19.8")\n',
        ),
        Edit(
            "settings.gradle.kts",
            'rootProject.name = "stockroom"\n',
            'rootProject.name = "stockroom"\nenableFeaturePreview("TYPESAFE_PROJECT_ACCESSORS")\n',
        ),
        Read(
            "src/main/java/com/ivo/stockroom/StockRepository.java",
            "package com.ivo.stockroom;\n\ninterface StockRepository extends JpaRepository<Stock, Long> {\n}\n",
        ),
        Edit(
            "src/test/java/com/ivo/stockroom/StockRepositoryTest.java",
            "class StockRepositoryTest {\n",
            '@Testcontainers\nclass StockRepositoryTest {\n    @Container\n    static PostgreSQLContainer<?> db = new PostgreSQLContainer<>("postgres:16");\n',
        ),
        Run(
            "./gradlew test",
            "> Task :compileJava\n> Task :test\n\nBUILD SUCCESSFUL in 41s\n4 actionable tasks: 4 executed\n",
        ),
    ),
    wrong=(
        (
            r"\bKotlin(?: and \w+)* project\b|\bwritten in (?:\w+ and )*Kotlin\b|\b(?:Kotlin and Java|Java and Kotlin)\b|\bKotlin \(\d+ files?\b",
            "the Kotlin files are Gradle build scripts; the code is Java",
        ),
    ),
    may=(r"\bJava\b",),
)

_REPO = "/home/ana/src/pagewright"
_LOG = "9f1c2ab Add a print stylesheet\n8e0b1aa Fix the table of contents anchors\n7d9a0f9 Render footnotes as endnotes\n6c8f9e8 Update the README\n5b7e8d7 Remove the legacy theme\n"

WIP_CHECKPOINTS = Trap(
    "wip-checkpoints-two-sessions",
    "TypeScript",
    "the `wip: …` commits are checkpoints the user squashes before merging; the project's "
    "commits are plain sentences",
    (
        Session(
            "claude",
            _REPO,
            (
                Ask(
                    "Start the footnote renderer rewrite. Checkpoint with a wip commit when you stop, I squash later."
                ),
                Edit(
                    "src/render/footnotes.ts",
                    "export function renderFootnotes(",
                    "export function renderNotes(",
                ),
                Run(
                    'git commit -am "wip: footnote renderer checkpoint"',
                    "[main 1a2b3c4] wip: footnote renderer checkpoint\n 1 file changed, 4 insertions(+), 2 deletions(-)\n",
                ),
            ),
        ),
        Session(
            "claude",
            _REPO,
            (
                Ask("Carry on with the footnote rewrite, wip commit again at the end."),
                Edit(
                    "src/render/notes.ts",
                    "export const NOTE_CLASS = 'fn'",
                    "export const NOTE_CLASS = 'note'",
                ),
                Run(
                    'git commit -am "wip: endnotes half done"',
                    "[main 2b3c4d5] wip: endnotes half done\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"Conventional Commits|`type(?:\(scope\))?: summary`|\bwip\b[^\n]*\bconvention\b",
            "wip commits are checkpoints, squashed before merging",
        ),
    ),
)

PLAIN_LOG_PREFIXED_SESSIONS = Trap(
    "prefixed-commits-plain-log",
    "TypeScript",
    "the project's log shows plain imperative subjects; two sessions' commits carried a "
    "`feat:` prefix the project does not use",
    (
        Session(
            "claude",
            _REPO,
            (
                Ask("What did we ship last week?"),
                Run("git log --oneline -5", _LOG),
                Say(
                    "Last week: a print stylesheet, fixed TOC anchors, endnotes, a README update and the legacy theme removed."
                ),
            ),
        ),
        Session(
            "claude",
            _REPO,
            (
                Ask("Add a dark print theme and commit."),
                Edit(
                    "src/themes/print.ts",
                    "export const print = {",
                    "export const printDark = { background: '#111' }\n\nexport const print = {",
                ),
                Run(
                    'git commit -am "feat: add a dark print theme"',
                    "[main 3c4d5e6] feat: add a dark print theme\n 1 file changed, 2 insertions(+)\n",
                ),
            ),
        ),
        Session(
            "claude",
            _REPO,
            (
                Ask("Make headings anchor links and commit."),
                Edit(
                    "src/render/headings.ts",
                    "return `<h${level}>",
                    'return `<h${level} id="${slug}">',
                ),
                Run(
                    'git commit -am "feat: link headings"',
                    "[main 4d5e6f7] feat: link headings\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"Conventional Commits|`type(?:\(scope\))?: summary`",
            "the project's own log shows plain subjects",
        ),
    ),
)

_BOT_LOG = (
    "".join(
        f"{0xA10 + n:07x} Bump {dep} from {old} to {new}\n"
        for n, (dep, old, new) in enumerate(
            [
                ("serde", "1.0.200", "1.0.201"),
                ("tokio", "1.37.0", "1.38.0"),
                ("clap", "4.5.4", "4.5.7"),
                ("anyhow", "1.0.82", "1.0.86"),
                ("regex", "1.10.4", "1.10.5"),
                ("toml", "0.8.12", "0.8.14"),
                ("tracing", "0.1.39", "0.1.40"),
                ("thiserror", "1.0.59", "1.0.61"),
            ]
        )
    )
    + "0000b21 feat(cli): add --json output\n0000b22 fix(parser): keep trailing comments\n0000b23 Update the README\n"
)

BOT_BUMPS_LOG = Trap(
    "dependency-bot-log",
    "Rust",
    "the log the session printed is mostly a dependency bot's `Bump x from a to b`; the project's "
    "own commits use Conventional Commits prefixes",
    one_session(
        "/home/lea/src/tomlfmt",
        Ask("What landed on main since the release? Just summarise."),
        Run("git log --oneline -11", _BOT_LOG),
        Say(
            "Since the release: eight dependency bumps from the bot, `--json` output, a parser fix for trailing comments, and a README update."
        ),
    ),
    wrong=(
        (
            r"plain sentences|no type prefix|imperative mood",
            "the plain subjects are the bot's; the project's own carry a prefix",
        ),
    ),
)

CASES = (
    SWIFT_HOOKS_PACKAGE_JSON,
    JAVA_GRADLE_KOTLIN_SCRIPTS,
    WIP_CHECKPOINTS,
    PLAIN_LOG_PREFIXED_SESSIONS,
    BOT_BUMPS_LOG,
)
