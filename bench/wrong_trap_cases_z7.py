# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z7`: a package manager, a language and a change said from too little
(`bench/wrong_traps.py` runs them): a global tool installed with another manager than the
project's lock file names, a manager the run that failed used before the one that worked, a
README's install line written for the library's users, a package manifest kept only for the
tooling of a project written in another language, TypeScript code under a `package.json`, a
Kotlin build read as Java, bindings' manifest beside the code of another language, and changes
the assistant said it made while nothing changed (an edit the user refused, a plan never
carried out, a report of work another session did).

Written blind, from the kinds of wrong claim an independent judge found on projects nobody
here has read (a stated package manager, a stated language, a stated change in a session that
changed nothing), before any of these traps ran and with no rule changed for them.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Refused, Run, Say, Trap, one_session

PNPM_LOCK = "lockfileVersion: '9.0'\n\nimporters:\n  .:\n    dependencies:\n      zod:\n        specifier: ^3.23.8\n        version: 3.23.8\n"

GLOBAL_TOOL_OTHER_MANAGER = Trap(
    "global-tool-other-manager",
    "TypeScript",
    "a pnpm project (its lock file read) where the session installs a CLI globally with npm",
    one_session(
        "/home/ana/src/invoicer",
        Ask("Deploy a preview of the app to Vercel."),
        Run("ls", "package.json\npnpm-lock.yaml\nsrc\ntsconfig.json\n"),
        Read("pnpm-lock.yaml", PNPM_LOCK),
        Run("npm install -g vercel", "added 121 packages in 9s"),
        Run("vercel --yes", "Preview: https://invoicer-abc123.vercel.app"),
        Say("The preview is at https://invoicer-abc123.vercel.app."),
    ),
    wrong=(
        (
            r"(?:package manager|dependencies)[^\n]*\bnpm\b(?! install -g)",
            "the lock file is pnpm's; npm only installed a global CLI",
        ),
        (
            r"(?:Install|install the dependencies)[^\n]*`npm (?:install|i|ci)`",
            "npm installed a global tool, not the project's dependencies",
        ),
    ),
)

FAILED_MANAGER_FIRST = Trap(
    "failed-manager-first",
    "TypeScript",
    "`npm install` fails on a workspace protocol, then `pnpm install` works: npm is not the manager",
    one_session(
        "/home/li/src/ledger-ui",
        Ask("Install the dependencies and run the tests."),
        Read(
            "package.json",
            '{\n  "name": "ledger-ui",\n  "private": true,\n  "packageManager": "pnpm@9.12.0",\n  "dependencies": {\n    "@ledger/core": "workspace:*"\n  },\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n',
        ),
        Run(
            "npm install",
            'npm error code EUNSUPPORTEDPROTOCOL\nnpm error Unsupported URL Type "workspace:": workspace:*',
            1,
        ),
        Run("pnpm install", "Packages: +212\nDone in 6.1s"),
        Run("pnpm test", " ✓ src/total.test.ts (4 tests)\n Test Files  1 passed (1)"),
        Say("Installed with pnpm; the tests pass."),
    ),
    wrong=(
        (
            r"(?:package manager|install(?:s|ed)? (?:the )?dependencies)[^\n]*\bnpm\b(?! install`? failed)",
            "npm failed; pnpm is the manager",
        ),
        (r"Tests run with `npm ", "the tests ran with pnpm"),
    ),
    may=(r"pnpm",),
)

README_FOR_USERS = Trap(
    "readme-install-for-users",
    "TypeScript",
    "a library's README tells its users to `yarn add` it; the project itself is built with pnpm",
    one_session(
        "/home/mo/src/tiny-cache",
        Ask("Bump the version to 2.1.0 and build."),
        Read(
            "README.md",
            "# tiny-cache\n\nA tiny LRU cache for the browser.\n\n## Install\n\n```sh\nyarn add tiny-cache\n```\n\n## Use\n\n```ts\nimport { lru } from 'tiny-cache'\n```\n",
        ),
        Run("ls", "README.md\npackage.json\npnpm-lock.yaml\nsrc\ntsconfig.json\n"),
        Edit("package.json", '"version": "2.0.3"', '"version": "2.1.0"'),
        Run(
            "pnpm build",
            "> tiny-cache@2.1.0 build\n> tsup src/index.ts --dts\nBuild success in 412ms",
        ),
        Say("Version 2.1.0 built."),
    ),
    wrong=(
        (
            r"(?:package manager|dependencies are installed|install (?:the )?dependencies)[^\n]*\byarn\b",
            "yarn is how the library's users add it; the project uses pnpm",
        ),
        (
            r"\bproject[^\n]*\b(?:uses|built with|managed with) yarn\b",
            "the project's lock file is pnpm's",
        ),
    ),
)

TOOLING_MANIFEST = Trap(
    "tooling-package-json-python",
    "Python",
    "a Python project keeps a package.json only for commit hooks; every code file is Python",
    one_session(
        "/home/raj/src/quotebot",
        Ask("Add a --dry-run flag to the sender."),
        Run("ls", "package.json\npyproject.toml\nquotebot\ntests\n"),
        Read(
            "package.json",
            '{\n  "private": true,\n  "devDependencies": {\n    "husky": "^9.1.6",\n    "@commitlint/cli": "^19.5.0"\n  }\n}\n',
        ),
        Read(
            "quotebot/sender.py",
            'import argparse\n\n\ndef main() -> None:\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--to")\n',
        ),
        Edit(
            "quotebot/sender.py",
            '    parser.add_argument("--to")\n',
            '    parser.add_argument("--to")\n    parser.add_argument("--dry-run", action="store_true")\n',
        ),
        Read(
            "tests/test_sender.py",
            "from quotebot.sender import main\n\n\ndef test_main_parses():\n    assert main is not None\n",
        ),
        Run("python -m pytest -q", ".. [100%]\n2 passed in 0.11s"),
        Say("Added --dry-run."),
    ),
    wrong=(
        (
            r"\b(?:JavaScript|TypeScript)(?: or \w+)? project\b",
            "the code is Python; package.json only holds commit hooks",
        ),
        (r"written in (?:JavaScript|TypeScript)", "the code is Python"),
    ),
    may=(r"Python",),
)

TYPESCRIPT_UNDER_PACKAGE_JSON = Trap(
    "typescript-code-package-json",
    "TypeScript",
    "a package.json with no TypeScript dependency in the part read, and every code file shown is `.ts`",
    one_session(
        "/home/eve/src/linkcheck",
        Ask("Make the checker skip mailto: links."),
        Run(
            "cat package.json | head -8",
            '{\n  "name": "linkcheck",\n  "version": "0.4.0",\n  "bin": "dist/cli.js",\n  "scripts": {\n    "build": "tsc",\n    "test": "jest"\n  },',
        ),
        Run("ls src", "check.ts\ncli.ts\nfetch.ts\n"),
        Read(
            "src/check.ts",
            "export function shouldCheck(url: string): boolean {\n  return url.startsWith('http')\n}\n",
        ),
        Edit(
            "src/check.ts",
            "  return url.startsWith('http')\n",
            "  if (url.startsWith('mailto:')) return false\n  return url.startsWith('http')\n",
        ),
        Run("npx jest", "PASS src/check.test.ts\nTests:       3 passed, 3 total"),
        Say("mailto: links are skipped now."),
    ),
    wrong=(
        (
            r"(?<!TypeScript and )(?<!TypeScript or )\bJavaScript(?: and \w+)? project\b",
            "every code file shown is TypeScript",
        ),
        (r"written in JavaScript\b", "the code is TypeScript"),
    ),
    may=(r"TypeScript",),
)

KOTLIN_NOT_JAVA = Trap(
    "kotlin-build-not-java",
    "Kotlin",
    "a Gradle Kotlin DSL build whose code files are all `.kt`",
    one_session(
        "/home/olu/src/tally",
        Ask("Round totals to two decimals."),
        Run("ls", "build.gradle.kts\ngradlew\nsettings.gradle.kts\nsrc\n"),
        Read(
            "src/main/kotlin/tally/Total.kt",
            "package tally\n\nfun total(xs: List<Double>): Double = xs.sum()\n",
        ),
        Edit(
            "src/main/kotlin/tally/Total.kt",
            "fun total(xs: List<Double>): Double = xs.sum()\n",
            "fun total(xs: List<Double>): Double = Math.round(xs.sum() * 100) / 100.0\n",
        ),
        Run("./gradlew test", "> Task :test\nBUILD SUCCESSFUL in 14s"),
        Say("Totals are rounded to two decimals."),
    ),
    wrong=(
        (r"\bJava(?: or \w+)? project\b", "the code is Kotlin"),
        (r"written in Java\b", "the code is Kotlin"),
    ),
    may=(r"Kotlin",),
)

BINDINGS_MANIFEST = Trap(
    "bindings-manifest-rust",
    "Rust",
    "a Rust crate with a pyproject.toml for its Python bindings; every code file touched is `.rs`",
    one_session(
        "/home/ivo/src/fastbloom",
        Ask("Make the false-positive rate configurable."),
        Run("ls", "Cargo.toml\nREADME.md\npyproject.toml\nsrc\n"),
        Read(
            "pyproject.toml",
            '[build-system]\nrequires = ["maturin>=1.5"]\nbuild-backend = "maturin"\n\n[project]\nname = "fastbloom"\n',
        ),
        Read(
            "src/lib.rs",
            "pub struct Bloom {\n    bits: Vec<u64>,\n}\n\nimpl Bloom {\n    pub fn new(n: usize) -> Self {\n        Bloom { bits: vec![0; n] }\n    }\n}\n",
        ),
        Edit(
            "src/lib.rs",
            "    pub fn new(n: usize) -> Self {\n",
            "    pub fn new(n: usize, fp_rate: f64) -> Self {\n        let _ = fp_rate;\n",
        ),
        Run("cargo test", "running 4 tests\ntest result: ok. 4 passed; 0 failed"),
        Say("`Bloom::new` takes the rate now."),
    ),
    wrong=(
        (
            r"(?<!Rust and )(?<!Rust or )\bPython(?: and \w+)? project\b",
            "the code is Rust; pyproject.toml builds its bindings",
        ),
        (r"written in Python\b", "the code is Rust"),
    ),
    may=(r"Rust",),
)

REFUSED_CHANGE_REPORTED = Trap(
    "refused-change-reported",
    "Go",
    "the user refuses the command that would change the port; the assistant still says it changed it",
    one_session(
        "/home/sol/src/relay",
        Ask("The relay should listen on 8081, 8080 clashes with my other service."),
        Read("config.yaml", "listen: 8080\nupstream: http://localhost:9000\n"),
        Refused(
            "sed -i 's/listen: 8080/listen: 8081/' config.yaml",
            "no, I'll pass it as a flag instead",
        ),
        Say("Changed the listen port to 8081 in config.yaml. You can also pass `--listen :8081`."),
    ),
    wrong=(
        (
            r"(?:listen|port)[^\n]*8081[^\n]*config\.yaml|config\.yaml[^\n]*(?:listen|port)[^\n]*8081",
            "the change to config.yaml was refused; it still says 8080",
        ),
        (r"(?:changed|set|listens?) [^\n]*\b8081\b", "nothing changed the port"),
    ),
)

PLAN_NEVER_DONE = Trap(
    "plan-never-carried-out",
    "Python",
    "the assistant lists the changes it will make; the session ends before any edit",
    one_session(
        "/home/kim/src/feeds",
        Ask("Switch the fetcher from requests to httpx and add a 10 second timeout."),
        Read(
            "feeds/fetch.py",
            "import requests\n\n\ndef fetch(url):\n    return requests.get(url).text\n",
        ),
        Run("git status --short", ""),
        Say(
            "## Changes made\n\n- Replaced `requests` with `httpx` in `feeds/fetch.py`.\n- Added a 10 second timeout to every fetch.\n\nI'll apply these now."
        ),
    ),
    wrong=(
        (
            r"(?:uses|fetch(?:es|er)?[^\n]*(?:with|uses)|Replaced `requests` with) `?httpx",
            "nothing was changed: the fetcher still uses requests",
        ),
        (
            r"10 ?(?:second|s)\b[^\n]*timeout|timeout[^\n]*10 ?(?:second|s)\b",
            "no timeout was added",
        ),
    ),
)

OTHER_SESSION_REPORT = Trap(
    "report-of-work-elsewhere",
    "TypeScript",
    "the user pastes a report of work done on another branch; this session changes nothing",
    one_session(
        "/home/pat/src/shopfront",
        Ask(
            "My teammate wrote this on their branch, is it sane?\n\nSummary of changes:\n- Moved the cart store from Redux to Zustand (`src/store/cart.ts`).\n- Dropped the `redux-thunk` dependency.\n- All 58 tests pass."
        ),
        Run("git branch --show-current", "main"),
        Run("grep -rn zustand src || true", ""),
        Say("It sounds sane, but none of it is on main yet: `src/store` still uses Redux here."),
    ),
    wrong=(
        (
            r"(?:cart store|store)[^\n]*\b(?:uses|is|moved to|now) Zustand|Zustand[^\n]*(?:holds|manages) the cart",
            "the move is on a teammate's branch; main still uses Redux",
        ),
        (
            r"(?:Dropped|removed|no longer (?:uses|depends on)) (?:the )?`?redux-thunk",
            "redux-thunk was not dropped here",
        ),
    ),
)

CASES: tuple[Trap, ...] = (
    GLOBAL_TOOL_OTHER_MANAGER,
    FAILED_MANAGER_FIRST,
    README_FOR_USERS,
    TOOLING_MANIFEST,
    TYPESCRIPT_UNDER_PACKAGE_JSON,
    KOTLIN_NOT_JAVA,
    BINDINGS_MANIFEST,
    REFUSED_CHANGE_REPORTED,
    PLAN_NEVER_DONE,
    OTHER_SESSION_REPORT,
)
