# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The session-start study's made-up projects whose earlier sessions released the project
(`bench/start_study.py`): a release's steps are stored, and the session start leaves them out
as a task that is not everyday. Their later sessions run the release again (asked in those
words or in others: publish, ship, tag a new version), or do other work where the steps are no
use. Every project, its needs and its patterns included, was written before any rule ran on it.
"""

from __future__ import annotations

from bench.start_study_types import Need, Project
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session


def _release(
    cwd: str,
    ask: str,
    bumps: tuple[tuple[str, str, str], ...],
    check: tuple[str, str],
    commit: str,
    tag: str,
    reply: str,
    *after: Run,
    host: str = "claude",
) -> Session:
    """A session that releases: the user's request, each bump (file, old line, new line), the
    check passing, the commit, the tag and its push, anything after, the reply."""
    version = tag.split()[2]
    return Session(
        host,
        cwd,
        (
            Ask(ask),
            *(Edit(path, old, new) for path, old, new in bumps),
            Run(*check),
            Run(
                f'git commit -am "{commit}"',
                f"[main 4c1d2e9] {commit}\n 2 files changed, 6 insertions(+), 2 deletions(-)\n",
            ),
            Run(tag, f" * [new tag]         {version} -> {version}\n"),
            *after,
            Say(reply),
        ),
    )


RUST = "/home/mara/src/quillmark"
RUST_TESTS = (
    "cargo test",
    "running 14 tests\n..............\ntest result: ok. 14 passed; 0 failed; 0 ignored\n",
)
RUST_RELEASE_AGAIN = Project(
    "rust-release-again",
    "Rust (Cargo)",
    "one release earlier; the later session cuts the next release, asked as such",
    (
        Session(
            "claude",
            RUST,
            (
                Ask("Add a --width flag to the wrap command."),
                Read(
                    "Cargo.toml",
                    '[package]\nname = "quillmark"\nversion = "0.3.1"\nedition = "2021"\n\n[dependencies]\nclap = { version = "4", features = ["derive"] }\n',
                ),
                Edit("src/wrap.rs", "let width = 80;", "let width = args.width.unwrap_or(80);"),
                Run(*RUST_TESTS),
                Say("Added `--width`; all 14 tests pass."),
            ),
        ),
        _release(
            RUST,
            "Release 0.4.0 please.",
            (
                ("Cargo.toml", 'version = "0.3.1"', 'version = "0.4.0"'),
                (
                    "CHANGELOG.md",
                    "## Unreleased",
                    "## Unreleased\n\n## 0.4.0\n\n- `--width` flag for wrap",
                ),
            ),
            RUST_TESTS,
            "release 0.4.0",
            "git tag v0.4.0 && git push origin main v0.4.0",
            "Released 0.4.0: version bumped in Cargo.toml, changelog section added, tagged `v0.4.0` and pushed.",
        ),
    ),
    (Need("release", (r"release", r"git tag v")),),
    "Let's cut the 0.5.0 release.",
    (Need("test", (r"`cargo test`",)), Need("release", (r"release", r"git tag v"))),
)

GO = "/home/ines/work/ferrite"
GO_TESTS = (
    "go test ./...",
    "ok  \tgithub.com/ines/ferrite/cmd/ferrite\t0.010s\nok  \tgithub.com/ines/ferrite/internal/pool\t0.044s\n",
)
GO_RELEASE_UNNEEDED = Project(
    "go-release-unneeded",
    "Go",
    "one release earlier (a tag on a commit naming the version); the later session fixes a bug",
    (
        Session(
            "claude",
            GO,
            (
                Ask(
                    "The pool leaks a connection when Get times out. Fix it and keep the error wrapping with %w."
                ),
                Read("go.mod", "module github.com/ines/ferrite\n\ngo 1.22\n"),
                Edit(
                    "internal/pool/pool.go",
                    "\treturn nil, ctx.Err()\n",
                    '\tp.release(c)\n\treturn nil, fmt.Errorf("get: %w", ctx.Err())\n',
                ),
                Run(*GO_TESTS),
                Say("Fixed the leak in `internal/pool/pool.go`; `go test ./...` passes."),
            ),
        ),
        Session(
            "claude",
            GO,
            (
                Ask("Tag v1.8.0, the changelog is already done."),
                Run(*GO_TESTS),
                Run(
                    'git commit --allow-empty -m "release v1.8.0"',
                    "[main 9a8b7c6] release v1.8.0\n",
                ),
                Run(
                    "git push origin main",
                    "To github.com:ines/ferrite.git\n   1a2b3c4..9a8b7c6  main -> main\n",
                ),
                Run(
                    "git tag v1.8.0 && git push origin v1.8.0",
                    " * [new tag]         v1.8.0 -> v1.8.0\n",
                ),
                Say("Tagged and pushed `v1.8.0`; the release workflow takes it from there."),
            ),
        ),
    ),
    (Need("release", (r"release", r"git tag v1\.8\.0|git push origin v")),),
    "Health checks mark a node dead after one slow ping; make it need three misses in a row.",
    (Need("test", (r"`go test \./\.\.\.`",)),),
)

ELIXIR = "/home/tomas/code/lanyard"
ELIXIR_TESTS = (
    "mix test",
    "Compiling 3 files (.ex)\n...........................\n\nFinished in 0.4 seconds (0.2s async, 0.2s sync)\n27 tests, 0 failures\n",
)
ELIXIR_PUBLISH_AGAIN = Project(
    "elixir-publish-again",
    "Elixir (Mix, Hex)",
    "one release earlier (bump in mix.exs, changelog, tag, hex publish); the later session asks to publish, never saying release",
    (
        Session(
            "claude",
            ELIXIR,
            (
                Ask("Make the badge renderer accept a :size option."),
                Read(
                    "mix.exs",
                    'defmodule Lanyard.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n      app: :lanyard,\n      version: "0.6.2",\n      elixir: "~> 1.16",\n      deps: deps()\n    ]\n  end\nend\n',
                ),
                Edit(
                    "lib/lanyard/badge.ex",
                    "def render(badge) do",
                    "def render(badge, opts \\\\ []) do\n    size = Keyword.get(opts, :size, :medium)",
                ),
                Run(*ELIXIR_TESTS),
                Say("`render/2` takes `:size` now; 27 tests pass."),
            ),
        ),
        _release(
            ELIXIR,
            "Bump to 0.7.0 and release it.",
            (
                ("mix.exs", '      version: "0.6.2",', '      version: "0.7.0",'),
                (
                    "CHANGELOG.md",
                    "# Changelog\n",
                    "# Changelog\n\n## v0.7.0\n\n- `:size` option for badges\n",
                ),
            ),
            ELIXIR_TESTS,
            "Release v0.7.0",
            "git tag v0.7.0 && git push origin main --tags",
            "Released 0.7.0: mix.exs bumped, changelog written, tagged `v0.7.0`, pushed, and published to Hex.",
            Run(
                "mix hex.publish --yes",
                "Building lanyard 0.7.0\n  App: lanyard\n  Version: 0.7.0\nPublishing package...\n[#########################] 100%\nPackage published to https://hex.pm/packages/lanyard/0.7.0\n",
            ),
        ),
    ),
    (Need("release", (r"release|publish", r"git tag v|hex\.publish")),),
    "Everything for 0.8.0 is merged; push the new version out to Hex.",
    (
        Need("test", (r"`mix test`",)),
        Need("release", (r"release|publish", r"git tag v|hex\.publish")),
    ),
)

TS = "/home/priya/dev/fetchkit"
TS_TESTS = (
    "pnpm test",
    "> fetchkit@2.1.0 test /home/priya/dev/fetchkit\n> vitest run\n\n ✓ src/client.test.ts (18 tests) 41ms\n ✓ src/retry.test.ts (6 tests) 12ms\n\n Test Files  2 passed (2)\n      Tests  24 passed (24)\n",
)
TS_RELEASE_UNNEEDED = Project(
    "ts-release-unneeded",
    "TypeScript (pnpm, Vitest)",
    "one release earlier; the later session adds an option to the client",
    (
        Session(
            "claude",
            TS,
            (
                Ask(
                    "Never add a new runtime dependency without asking me first. Now make the client send a User-Agent header."
                ),
                Read(
                    "package.json",
                    '{\n  "name": "fetchkit",\n  "version": "2.1.0",\n  "type": "module",\n  "scripts": {\n    "test": "vitest run",\n    "build": "tsup src/index.ts"\n  },\n  "devDependencies": {\n    "tsup": "^8.0.0",\n    "vitest": "^1.6.0"\n  }\n}\n',
                ),
                Edit(
                    "src/client.ts",
                    "const headers = { ...opts.headers };",
                    "const headers = { 'User-Agent': `fetchkit/${VERSION}`, ...opts.headers };",
                ),
                Run(*TS_TESTS),
                Say(
                    "The client sends `User-Agent: fetchkit/<version>` unless the caller sets one; 24 tests pass."
                ),
            ),
        ),
        _release(
            TS,
            "Release 2.2.0.",
            (
                ("package.json", '  "version": "2.1.0",', '  "version": "2.2.0",'),
                (
                    "CHANGELOG.md",
                    "# Changelog\n",
                    "# Changelog\n\n## 2.2.0\n\n- User-Agent header\n",
                ),
            ),
            TS_TESTS,
            "release 2.2.0",
            "git tag v2.2.0 && git push origin main v2.2.0",
            "Released 2.2.0: package.json bumped, changelog written, tagged `v2.2.0` and pushed; CI publishes to npm from the tag.",
        ),
        Session(
            "claude",
            TS,
            (
                Ask(
                    "Add a timeout option to retry(). Remember: never add a runtime dependency without asking me."
                ),
                Edit(
                    "src/retry.ts",
                    "export function retry(fn, attempts = 3) {",
                    "export function retry(fn, attempts = 3, timeoutMs = 10_000) {",
                ),
                Run(*TS_TESTS),
                Say(
                    "`retry()` takes `timeoutMs` (10 s by default); no new dependency; 24 tests pass."
                ),
            ),
        ),
    ),
    (Need("release", (r"release", r"git tag v")),),
    "Let callers pass an AbortSignal to client.get and cancel the request with it.",
    (Need("test", (r"`pnpm test`",)), Need("pref", (r"dependenc", r"ask"))),
)

PY = "/home/kwame/src/tallyho"
PY_TESTS = (
    "uv run pytest -q",
    "........................................                 [100%]\n40 passed in 1.92s\n",
)
PY_RELEASES_RECUR = Project(
    "python-releases-recur",
    "Python (uv)",
    "two releases in two earlier sessions; the later session says ship, not release",
    (
        _release(
            PY,
            "Cut 2.1.0.",
            (
                ("pyproject.toml", 'version = "2.0.3"', 'version = "2.1.0"'),
                ("src/tallyho/__init__.py", '__version__ = "2.0.3"', '__version__ = "2.1.0"'),
            ),
            PY_TESTS,
            "Release 2.1.0",
            "git tag v2.1.0 && git push origin main v2.1.0",
            "Released 2.1.0: bumped pyproject.toml and `__version__`, tagged `v2.1.0` and pushed.",
        ),
        Session(
            "claude",
            PY,
            (
                Ask("The CSV importer chokes on a BOM. Fix it."),
                Edit(
                    "src/tallyho/importer.py",
                    "open(path, newline='')",
                    "open(path, newline='', encoding='utf-8-sig')",
                ),
                Run(*PY_TESTS),
                Say("The importer opens files as `utf-8-sig`, which drops a BOM; 40 passed."),
            ),
        ),
        _release(
            PY,
            "Release 2.2.0 now.",
            (
                ("pyproject.toml", 'version = "2.1.0"', 'version = "2.2.0"'),
                ("src/tallyho/__init__.py", '__version__ = "2.1.0"', '__version__ = "2.2.0"'),
            ),
            PY_TESTS,
            "Release 2.2.0",
            "git tag v2.2.0 && git push origin main v2.2.0",
            "Released 2.2.0 the same way: both version lines bumped, tagged `v2.2.0`, pushed.",
        ),
    ),
    (Need("release", (r"release", r"git tag v")),),
    "Ship 2.3.0 today, the importer fixes are all in.",
    (
        Need("test", (r"`uv run pytest -q`",)),
        Need("release", (r"release", r"git tag v")),
        Need("version-files", (r"pyproject\.toml", r"__init__\.py")),
    ),
)

RUBY = "/home/odile/gems/ledgerline"
RUBY_TESTS = (
    "bundle exec rake test",
    "Run options: --seed 4711\n\n# Running:\n\n..................................\n\nFinished in 0.21s, 161.9 runs/s\n34 runs, 71 assertions, 0 failures, 0 errors, 0 skips\n",
)
RUBY_RELEASES_UNNEEDED = Project(
    "ruby-releases-unneeded",
    "Ruby (Bundler, Rake)",
    "two releases earlier; the later session fixes the CSV export",
    (
        _release(
            RUBY,
            "Release 1.4.0.",
            (
                ("lib/ledgerline/version.rb", '  VERSION = "1.3.2"', '  VERSION = "1.4.0"'),
                (
                    "CHANGELOG.md",
                    "## [Unreleased]\n",
                    "## [Unreleased]\n\n## [1.4.0]\n\n- Multi-currency totals\n",
                ),
            ),
            RUBY_TESTS,
            "Release 1.4.0",
            "git tag v1.4.0 && git push origin main v1.4.0",
            "Released 1.4.0: VERSION bumped, changelog section added, tag `v1.4.0` pushed.",
            Run(
                "gem build ledgerline.gemspec && gem push ledgerline-1.4.0.gem",
                "  Successfully built RubyGem\n  Name: ledgerline\n  Version: 1.4.0\nPushing gem to https://rubygems.org...\nSuccessfully registered gem: ledgerline (1.4.0)\n",
            ),
        ),
        _release(
            RUBY,
            "Release 1.5.0.",
            (
                ("lib/ledgerline/version.rb", '  VERSION = "1.4.0"', '  VERSION = "1.5.0"'),
                (
                    "CHANGELOG.md",
                    "## [Unreleased]\n",
                    "## [Unreleased]\n\n## [1.5.0]\n\n- Ledger merge\n",
                ),
            ),
            RUBY_TESTS,
            "Release 1.5.0",
            "git tag v1.5.0 && git push origin main v1.5.0",
            "Released 1.5.0 and pushed the gem.",
            Run(
                "gem build ledgerline.gemspec && gem push ledgerline-1.5.0.gem",
                "  Successfully built RubyGem\n  Name: ledgerline\n  Version: 1.5.0\nPushing gem to https://rubygems.org...\nSuccessfully registered gem: ledgerline (1.5.0)\n",
            ),
        ),
    ),
    (Need("release", (r"release", r"git tag v")),),
    "The CSV export drops the header row when the ledger is empty. Fix it.",
    (Need("test", (r"`bundle exec rake test`",)),),
)

DART = "/home/lucia/dev/pinwheel"
DART_TESTS = ("dart test", "00:02 +31: All tests passed!\n")
DART_RELEASE_LATER = Project(
    "dart-release-later",
    "Dart (pub)",
    "one release earlier; the later session opens with a fix and asks for a new version only in its last sentence",
    (
        Session(
            "claude",
            DART,
            (
                Ask("parseColor throws on lowercase hex. Fix it."),
                Read(
                    "pubspec.yaml",
                    "name: pinwheel\ndescription: Colour wheels and palettes for Flutter.\nversion: 0.9.1\n\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n",
                ),
                Edit(
                    "lib/src/color.dart",
                    "final hex = input.substring(1);",
                    "final hex = input.substring(1).toUpperCase();",
                ),
                Run(*DART_TESTS),
                Say("`parseColor` upper-cases the hex first; all 31 tests pass."),
            ),
        ),
        _release(
            DART,
            "Release 0.10.0.",
            (
                ("pubspec.yaml", "version: 0.9.1", "version: 0.10.0"),
                (
                    "CHANGELOG.md",
                    "# Changelog\n",
                    "# Changelog\n\n## 0.10.0\n\n- Lowercase hex colours\n",
                ),
            ),
            DART_TESTS,
            "release 0.10.0",
            "git tag v0.10.0 && git push origin main v0.10.0",
            "Released 0.10.0: pubspec bumped, changelog added, tag `v0.10.0` pushed; the publish workflow runs from the tag.",
        ),
    ),
    (Need("release", (r"release", r"git tag v")),),
    "HSL conversion rounds 0.5 the wrong way, please fix that; once it's green, the usual steps for 0.11.0.",
    (Need("test", (r"`dart test`",)), Need("release", (r"release", r"git tag v"))),
)

PROJECTS = (
    RUST_RELEASE_AGAIN,
    GO_RELEASE_UNNEEDED,
    ELIXIR_PUBLISH_AGAIN,
    TS_RELEASE_UNNEEDED,
    PY_RELEASES_RECUR,
    RUBY_RELEASES_UNNEEDED,
    DART_RELEASE_LATER,
)
