# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The session-start study's made-up projects whose start is full (`bench/start_study.py`):
several standing preferences, checks run before every finish, and a release in the earlier
sessions, so a release's steps at the start would compete for the room the everyday lines
take. One later session works elsewhere, one releases. Every project, its needs and its
patterns included, was written before any rule ran on it.
"""

from __future__ import annotations

from bench.start_study_types import Need, Project
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session

SWIFT = "/home/noor/dev/Skyline"
SWIFT_TESTS = (
    "swift test",
    "Building for debugging...\nBuild complete! (3.12s)\nTest Suite 'All tests' passed at 2026-05-04 09:01:12.000.\n\t Executed 38 tests, with 0 failures (0 unexpected) in 0.412 (0.420) seconds\n",
)
SWIFT_LINT = (
    "swiftlint --strict",
    "Linting Swift files in current working directory\nDone linting! Found 0 violations, 0 serious in 24 files.\n",
)
SWIFT_RULES = "Never force-unwrap optionals, and always use guard for early exits."


def _swift_work(ask: str, path: str, old: str, new: str, reply: str) -> Session:
    return Session(
        "claude",
        SWIFT,
        (Ask(ask), Edit(path, old, new), Run(*SWIFT_TESTS), Run(*SWIFT_LINT), Say(reply)),
    )


SWIFT_FULL_UNNEEDED = Project(
    "swift-full-unneeded",
    "Swift (SwiftPM, SwiftLint)",
    "standing rules said in three sessions, tests and lint before every finish, one release; the later session adds a flag",
    (
        Session(
            "claude",
            SWIFT,
            (
                Ask(f"Add a --limit option to the list command. {SWIFT_RULES}"),
                Read(
                    "Package.swift",
                    '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "Skyline",\n    platforms: [.macOS(.v13)],\n    products: [.executable(name: "skyline", targets: ["Skyline"])],\n    dependencies: [.package(url: "https://github.com/apple/swift-argument-parser", from: "1.3.0")],\n    targets: [\n        .executableTarget(name: "Skyline", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),\n        .testTarget(name: "SkylineTests", dependencies: ["Skyline"])\n    ]\n)\n',
                ),
                Edit(
                    "Sources/Skyline/List.swift",
                    "@Flag var all = false",
                    "@Flag var all = false\n    @Option var limit: Int?",
                ),
                Run(*SWIFT_TESTS),
                Run(*SWIFT_LINT),
                Say("`skyline list --limit N` works; 38 tests pass and SwiftLint is clean."),
            ),
        ),
        _swift_work(
            f"Sort the list by altitude. {SWIFT_RULES}",
            "Sources/Skyline/List.swift",
            "let rows = store.peaks",
            "let rows = store.peaks.sorted { $0.altitude > $1.altitude }",
            "The list is sorted by altitude, highest first; tests and lint pass.",
        ),
        Session(
            "claude",
            SWIFT,
            (
                Ask("Tag 1.3.0, the changelog is written."),
                Run(*SWIFT_TESTS),
                Run(
                    'git commit -am "Release 1.3.0"',
                    "[main 7e6d5c4] Release 1.3.0\n 1 file changed, 5 insertions(+)\n",
                ),
                Run(
                    "git tag 1.3.0 && git push origin main 1.3.0",
                    " * [new tag]         1.3.0 -> 1.3.0\n",
                ),
                Say("Committed and tagged `1.3.0`, pushed with main."),
            ),
        ),
        _swift_work(
            f"Show the prominence next to each peak. {SWIFT_RULES}",
            "Sources/Skyline/Row.swift",
            'return "\\(peak.name) \\(peak.altitude)m"',
            'return "\\(peak.name) \\(peak.altitude)m (\\(peak.prominence)m)"',
            "Rows show the prominence in brackets; tests and lint pass.",
        ),
    ),
    (Need("release", (r"release", r"git tag 1\.3\.0")),),
    "Add a --json flag to the list command that prints the rows as JSON.",
    (
        Need("test", (r"`swift test`",)),
        Need("lint", (r"swiftlint",)),
        Need("pref", (r"force-unwrap",)),
    ),
)

NODE = "/home/eli/src/mdlint-kit"
NODE_TESTS = (
    "npm test",
    "> mdlint-kit@3.0.2 test\n> node --test\n\n▶ rules\n  ✔ heading-order (1.2ms)\n  ✔ no-bare-urls (0.8ms)\n▶ rules (3.1ms)\nℹ tests 41\nℹ pass 41\nℹ fail 0\n",
)
NODE_LINT = ("npx eslint .", "")
NODE_RULES = "Always write JSDoc for exported functions and never use default exports."


def _node_release(version: str, old: str) -> Session:
    return Session(
        "claude",
        NODE,
        (
            Ask(f"Release {version}."),
            Edit("package.json", f'  "version": "{old}",', f'  "version": "{version}",'),
            Edit("CHANGELOG.md", "# Changelog\n", f"# Changelog\n\n## {version}\n\n- Rule fixes\n"),
            Run(*NODE_TESTS),
            Run(
                f'git commit -am "release {version}"',
                f"[main 2b3c4d5] release {version}\n 2 files changed, 6 insertions(+), 1 deletion(-)\n",
            ),
            Run(
                f"git tag v{version} && git push origin main v{version}",
                f" * [new tag]         v{version} -> v{version}\n",
            ),
            Run(
                "npm publish",
                f"npm notice 📦  mdlint-kit@{version}\nnpm notice Publishing to https://registry.npmjs.org/\n+ mdlint-kit@{version}\n",
            ),
            Say(
                f"Released {version}: bumped, changelog written, tagged `v{version}`, pushed and published to npm."
            ),
        ),
    )


NODE_FULL_RELEASE = Project(
    "node-full-release",
    "JavaScript (npm, ESLint)",
    "standing rules said in two sessions, tests and lint before every finish, two releases; the later session publishes, never saying release",
    (
        Session(
            "claude",
            NODE,
            (
                Ask(f"Add a rule that flags headings that skip a level. {NODE_RULES}"),
                Read(
                    "package.json",
                    '{\n  "name": "mdlint-kit",\n  "version": "3.0.1",\n  "type": "module",\n  "scripts": {\n    "test": "node --test"\n  },\n  "devDependencies": {\n    "eslint": "^9.2.0"\n  }\n}\n',
                ),
                Edit(
                    "src/rules/index.js",
                    "export const rules = [noBareUrls];",
                    "export const rules = [noBareUrls, headingOrder];",
                ),
                Run(*NODE_TESTS),
                Run(*NODE_LINT),
                Say(
                    "`heading-order` added with JSDoc, as a named export; 41 tests pass, ESLint is clean."
                ),
            ),
        ),
        _node_release("3.0.2", "3.0.1"),
        Session(
            "claude",
            NODE,
            (
                Ask(f"Let no-bare-urls ignore URLs inside code spans. {NODE_RULES}"),
                Edit(
                    "src/rules/no-bare-urls.js",
                    "if (URL_RE.test(text))",
                    "if (!node.inCode && URL_RE.test(text))",
                ),
                Run(*NODE_TESTS),
                Run(*NODE_LINT),
                Say("URLs in code spans are ignored now; tests and ESLint pass."),
            ),
        ),
        _node_release("3.0.3", "3.0.2"),
    ),
    (Need("release", (r"release", r"git tag v|npm publish")),),
    "The rule fixes are merged; get 3.1.0 out on npm.",
    (
        Need("test", (r"`npm test`",)),
        Need("release", (r"release", r"git tag v|npm publish")),
    ),
)

PROJECTS = (SWIFT_FULL_UNNEEDED, NODE_FULL_RELEASE)
