# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z8`: a fix, a way to run, a release and a kind of project said from
the wrong thing (`bench/wrong_traps.py` runs them): a look at the state between a failure and
the pass (`git diff`, `pkg-config --libs`), a command the user refused before the pass, the
tests run when the user asked to run the app, a checklist of what to verify before a release
read as how to release, a package manager only a tool of the project runs for its own
plugins, and a `packages/` folder of one package read as a monorepo.

Written blind, from the kinds of wrong claim an independent judge found on the held-out
projects (a fix credited to a command that only looked or was refused, the test runner stated
as the way to run the app, a verification checklist stated as the release procedure, a
package manager the tool only runs as a helper, a stated kind of repository), before any of
these traps ran and with no rule changed for them.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Refused, Run, Say, Trap, one_session

LOOK_BETWEEN = Trap(
    "look-between-failure-and-pass",
    "Python",
    "pytest fails, the assistant only looks (`git diff`, `cat`), the user fixes it by hand, pytest passes",
    one_session(
        "/home/ida/src/meter",
        Ask("Run the tests."),
        Run(
            "python -m pytest -q",
            "E   ModuleNotFoundError: No module named 'meter.units'\n1 error in 0.20s",
            1,
        ),
        Run("git diff --stat", ""),
        Run("cat meter/__init__.py", "from .core import read\n"),
        Ask("I had a stale branch checked out, switched it myself. Try again."),
        Run("python -m pytest -q", "........ [100%]\n8 passed in 0.31s"),
        Say("All 8 pass now."),
    ),
    wrong=(
        (
            r"(?:`git diff[^`]*`|`cat meter/__init__\.py`)[^\n]*(?:fixed|worked)|(?:running|after) `(?:git diff|cat )",
            "a look fixed nothing; the user switched the branch",
        ),
    ),
)

PKG_CONFIG_LOOK = Trap(
    "pkg-config-look-then-env",
    "Rust",
    "a link error; the assistant looks with `pkg-config`, then the build passes with `PQ_LIB_DIR` set",
    one_session(
        "/home/ida/src/archiver",
        Ask("Build it."),
        Run(
            "cargo build",
            "error: linking with `cc` failed: exit status: 1\n  = note: ld: library not found for -lpq",
            101,
        ),
        Run("pkg-config --libs libpq", "-L/opt/homebrew/opt/libpq/lib -lpq"),
        Run(
            "PQ_LIB_DIR=/opt/homebrew/opt/libpq/lib cargo build",
            "   Compiling archiver v0.3.0\n    Finished `dev` profile in 21.4s",
        ),
        Say("Built with `PQ_LIB_DIR` pointing at Homebrew's libpq."),
    ),
    wrong=(
        (
            r"`pkg-config --libs libpq`[^\n]*(?:fixed|worked)|running `pkg-config",
            "pkg-config only printed where libpq is",
        ),
    ),
    may=(r"PQ_LIB_DIR",),
)

REFUSED_BEFORE_PASS = Trap(
    "refused-before-the-pass",
    "TypeScript",
    "jest fails; a clean reinstall is refused; the run passes with `--runInBand`",
    one_session(
        "/home/ida/src/widgets",
        Ask("The tests hang on CI, see if they pass locally."),
        Run(
            "npx jest",
            "FAIL src/db.test.ts\n  ● Test suite failed to run: SQLITE_BUSY: database is locked",
            1,
        ),
        Refused("rm -rf node_modules && npm ci", "no need to reinstall"),
        Run("npx jest --runInBand", "PASS src/db.test.ts\nTests:       12 passed, 12 total"),
        Say("Run serially (`--runInBand`) the database is no longer locked and all 12 pass."),
    ),
    wrong=(
        (
            r"(?:rm -rf node_modules|npm ci)[^\n]*(?:fixed|worked)|running `(?:rm -rf node_modules|npm ci)",
            "the reinstall was refused and never ran",
        ),
    ),
    may=(r"--runInBand",),
)

TESTS_FOR_RUN = Trap(
    "tests-run-when-asked-to-run",
    "Go",
    "the user asks to run the app; the assistant runs the tests instead and reports them",
    one_session(
        "/home/ida/src/pinger",
        Ask("Can you run it and check it works?"),
        Run("ls", "go.mod\nmain.go\nmain_test.go\n"),
        Run("go test ./...", "ok  \tgithub.com/ida/pinger\t0.412s"),
        Say("Everything works: the tests pass."),
    ),
    wrong=(
        (
            r"(?:To run(?! the tests)|run the (?:app|program|server)|start(?:s)? (?:it|the app))[^\n]*`go test",
            "`go test` runs the tests, not the app",
        ),
    ),
    may=(r"go test",),
)

CHECKLIST_NOT_RELEASE = Trap(
    "checklist-is-not-release",
    "JavaScript",
    "a README section lists what to verify before a release; how to release is nowhere in the session",
    one_session(
        "/home/ida/src/gallery",
        Ask("What do I need to check before the next release?"),
        Read(
            "README.md",
            "# gallery\n\nA static photo gallery.\n\n## Before a release\n\n- `npm test` passes\n- `npm run lint` is clean\n- the demo page renders on a phone\n- the changelog has an entry for the version\n",
        ),
        Run("npm test", "> gallery@1.4.0 test\n> node --test\n# pass 14\n# fail 0"),
        Say(
            "Per the README: tests (they pass), lint, the demo page on a phone, and the changelog entry."
        ),
    ),
    wrong=(
        (
            r"(?:To release|release (?:steps|procedure)|releases? (?:is|are) (?:made|cut|done|published))[^\n]*(?:`npm test`|`npm run lint`|demo page|changelog)",
            "the README lists checks to make before a release, not how to release",
        ),
    ),
)

HELPER_MANAGER = Trap(
    "manager-only-a-tool-runs",
    "Rust",
    "a Rust CLI installs its web plugins with npm; the session runs the CLI, whose output shows npm",
    one_session(
        "/home/ida/src/deckctl",
        Ask("Install the default plugins and make sure the CLI still works."),
        Run("ls", "Cargo.lock\nCargo.toml\nREADME.md\nsrc\n"),
        Run(
            "cargo run -- plugins install --defaults",
            "   Compiling deckctl v0.9.1\n    Finished `dev` profile in 9.8s\n     Running `target/debug/deckctl plugins install --defaults`\n> npm install --prefix ~/.deckctl/plugins deck-clock deck-weather\nadded 38 packages in 3s\ninstalled 2 plugins",
        ),
        Run("cargo test", "test result: ok. 31 passed; 0 failed"),
        Say("Both default plugins are installed and the tests pass."),
    ),
    wrong=(
        (
            r"(?:package manager|dependencies)[^\n]*\bnpm\b|\bnpm\b[^\n]*(?:package manager|installs? (?:the|its) dependencies)",
            "npm only installs the CLI's plugins; the project is built with Cargo",
        ),
        (r"\b(?:JavaScript|TypeScript)(?: or \w+)? project\b", "the project is Rust"),
    ),
    may=(r"Rust|cargo",),
)

ONE_PACKAGE_FOLDER = Trap(
    "one-package-not-monorepo",
    "TypeScript",
    "a `packages/` folder holding one package, no workspace file: not a monorepo",
    one_session(
        "/home/ida/src/relay-sdk",
        Ask("Add a timeout option to the client."),
        Run("ls", "README.md\npackage.json\npackage-lock.json\npackages\n"),
        Run("ls packages", "client\n"),
        Read(
            "packages/client/src/index.ts",
            "export function connect(url: string) {\n  return fetch(url)\n}\n",
        ),
        Edit(
            "packages/client/src/index.ts",
            "export function connect(url: string) {\n  return fetch(url)\n}\n",
            "export function connect(url: string, timeoutMs = 5000) {\n  return fetch(url, { signal: AbortSignal.timeout(timeoutMs) })\n}\n",
        ),
        Run("npm test", "> relay-sdk@0.2.0 test\n> vitest run\n Test Files  2 passed (2)"),
        Say("`connect` takes a timeout now (5 s by default)."),
    ),
    wrong=(
        (
            r"\bmonorepo\b|\bworkspaces?\b(?! file)",
            "one package in packages/, no workspace file: nothing says monorepo",
        ),
    ),
)

DEV_SECTION_RUN_AND_TEST = Trap(
    "dev-section-run-and-test",
    "TypeScript",
    "a README's development section names how to run the app and how to test it in one paragraph",
    one_session(
        "/home/ida/src/notes-web",
        Ask("How do I start this locally?"),
        Read(
            "README.md",
            "# notes-web\n\nA notes app.\n\n## Development\n\nInstall with `npm install`. Start the app with `npm run dev`, then open http://localhost:5173. Run the tests with `npm test`.\n",
        ),
        Run(
            "npm run dev -- --port 5173 & sleep 3; curl -s localhost:5173 | head -1",
            "<!doctype html>",
        ),
        Say("Start it with `npm run dev` and open http://localhost:5173."),
    ),
    wrong=(
        (
            r"(?:To run(?! the tests)|start(?:s)? the app|To start)[^\n]*`npm test`",
            "`npm test` runs the tests; `npm run dev` starts the app",
        ),
        (r"(?:To run the tests|Tests run with)[^\n]*`npm run dev", "`npm run dev` starts the app"),
    ),
)

RELEASE_CHECKLIST_FILE = Trap(
    "release-checklist-file",
    "Rust",
    "a RELEASING.md of boxes to tick before publishing; the publish itself is a CI job on a tag",
    one_session(
        "/home/ida/src/tinyjson",
        Ask("Is the crate ready for 0.5.0?"),
        Read(
            "RELEASING.md",
            "# Releasing\n\nBefore tagging, check:\n\n- [ ] `cargo test --all-features` passes\n- [ ] `cargo clippy -- -D warnings` is clean\n- [ ] CHANGELOG.md has the version's entry\n- [ ] the README's version badge is updated\n\nPushing a `v*` tag runs the publish workflow.\n",
        ),
        Run("cargo test --all-features", "test result: ok. 58 passed; 0 failed"),
        Run("cargo clippy -- -D warnings", "    Finished `dev` profile in 4.2s"),
        Say("Tests and clippy are clean; the CHANGELOG still needs the 0.5.0 entry."),
    ),
    wrong=(
        (
            r"(?:To release|release (?:steps|procedure)|(?:is|are) released (?:by|with))[^\n]*`cargo (?:test|clippy)",
            "tests and clippy are checked before a release; they do not release",
        ),
        (r"cargo publish", "nothing in the session runs or names cargo publish"),
    ),
)

CASES: tuple[Trap, ...] = (
    LOOK_BETWEEN,
    PKG_CONFIG_LOOK,
    REFUSED_BEFORE_PASS,
    TESTS_FOR_RUN,
    CHECKLIST_NOT_RELEASE,
    HELPER_MANAGER,
    ONE_PACKAGE_FOLDER,
    DEV_SECTION_RUN_AND_TEST,
    RELEASE_CHECKLIST_FILE,
)
