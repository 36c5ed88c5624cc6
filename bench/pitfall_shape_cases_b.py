# ruff: noqa: E501  (transcript text: outputs are kept as one string a line)
"""A second set of made-up pitfall sessions (`bench/pitfall_shapes.py --set b` runs them alone),
across more ecosystems and the three hosts: a flag or environment variable that fixed a command,
another argument, a config line in another file (edited, or written whole after a read), a
service started first, a tool installed, a cause the assistant states in its next reply (also
after a look or two), one cause behind several failing commands or a commit gate's checks, real
output with progress and summary lines around the error; and must-not-fire cases (a network
blip, a TDD red step, a failure the user says to leave, a hedged guess never confirmed, a
failure in another checkout, a typo corrected). Every case, its patterns included, was written
before any rule ran on it.
"""

from __future__ import annotations

from bench.pitfall_shape_cases import Shape
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Write, one_session


def _junk(*more: str) -> tuple[str, ...]:
    return (*Shape.junk, *more)


RUST_ENV = Shape(
    "cargo-openssl-env",
    "fails, then passes with an environment variable set",
    "Rust/cargo",
    one_session(
        "/home/mia/src/feedhub",
        Ask("Build the crawler crate."),
        Run(
            "cargo build -p crawler",
            "   Compiling libc v0.2.153\n   Compiling cc v1.0.90\n   Compiling pkg-config v0.3.30\n   Compiling openssl-sys v0.9.101\nerror: failed to run custom build command for `openssl-sys v0.9.101`\n\nCaused by:\n  process didn't exit successfully: `/home/mia/src/feedhub/target/debug/build/openssl-sys-5b1c0e7f/build-script-main` (exit status: 101)\n  --- stderr\n  thread 'main' panicked at /home/mia/.cargo/registry/src/index.crates.io-6f17d22bba15001f/openssl-sys-0.9.101/build/find_normal.rs:190:5:\n\n  Could not find directory of OpenSSL installation, and this `-sys` crate cannot\n  proceed without this knowledge. If OpenSSL is installed and this crate had\n  trouble finding it,  you can set the `OPENSSL_DIR` environment variable for the\n  compilation process.\nwarning: build failed, waiting for other jobs to finish...",
            101,
        ),
        Run(
            "OPENSSL_DIR=/opt/homebrew/opt/openssl@3 cargo build -p crawler",
            "   Compiling openssl-sys v0.9.101\n   Compiling openssl v0.10.64\n   Compiling reqwest v0.12.2\n   Compiling crawler v0.4.0 (/home/mia/src/feedhub/crawler)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 48.20s",
        ),
        Say("The crawler builds once `OPENSSL_DIR` points at Homebrew's OpenSSL 3."),
        host="codex",
    ),
    trigger=r"cargo build",
    cause=r"OpenSSL installation|openssl-sys",
    fix=r"OPENSSL_DIR=",
    junk=_junk(r"waiting for other jobs", r"build failed, waiting"),
)

MAVEN_ARG = Shape(
    "maven-also-make",
    "fails, then passes with another argument; download lines around the error",
    "Java/Maven",
    one_session(
        "/home/raj/src/payments",
        Ask("Package the api module."),
        Run(
            "mvn -pl api package",
            "[INFO] Scanning for projects...\n[INFO] \n[INFO] ------------------------< com.acme:api >-------------------------\n[INFO] Building api 1.4.0-SNAPSHOT\n[INFO]   from api/pom.xml\n[INFO] --------------------------------[ jar ]---------------------------------\nDownloading from central: https://repo.maven.apache.org/maven2/com/acme/core/1.4.0-SNAPSHOT/maven-metadata.xml\nDownloading from central: https://repo.maven.apache.org/maven2/com/acme/core/1.4.0-SNAPSHOT/core-1.4.0-SNAPSHOT.pom\n[INFO] ------------------------------------------------------------------------\n[INFO] BUILD FAILURE\n[INFO] ------------------------------------------------------------------------\n[INFO] Total time:  3.412 s\n[INFO] Finished at: 2026-05-04T09:12:44Z\n[INFO] ------------------------------------------------------------------------\n[ERROR] Failed to execute goal on project api: Could not resolve dependencies for project com.acme:api:jar:1.4.0-SNAPSHOT: Could not find artifact com.acme:core:jar:1.4.0-SNAPSHOT in central (https://repo.maven.apache.org/maven2) -> [Help 1]\n[ERROR] \n[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.\n[ERROR] Re-run Maven using the -X switch to enable full debug logging.",
            1,
        ),
        Run(
            "mvn -pl api -am package",
            "[INFO] Reactor Build Order:\n[INFO] \n[INFO] core                                                               [jar]\n[INFO] api                                                                [jar]\n[INFO] Building core 1.4.0-SNAPSHOT                                       [1/2]\n[INFO] Tests run: 64, Failures: 0, Errors: 0, Skipped: 0\n[INFO] Building api 1.4.0-SNAPSHOT                                        [2/2]\n[INFO] Tests run: 31, Failures: 0, Errors: 0, Skipped: 0\n[INFO] ------------------------------------------------------------------------\n[INFO] BUILD SUCCESS\n[INFO] ------------------------------------------------------------------------",
        ),
        Say(
            "Packaged: api needs core built in the same reactor run, so `-am` (also make) does it."
        ),
    ),
    trigger=r"mvn .*package",
    cause=r"Could not (?:resolve dependencies|find artifact)|com\.acme:core|\bcore\b",
    fix=r"-am\b|also[- ]make",
    junk=_junk(
        r"Scanning for projects",
        r"BUILD FAILURE",
        r"Total time",
        r"Re-run Maven",
        r"full stack trace",
    ),
)

DOTNET_TOOL = Shape(
    "dotnet-ef-tool-installed",
    "a missing tool installed first",
    "C#/dotnet",
    one_session(
        "/home/lee/src/clinic-portal",
        Ask("Add a migration for the new Invoices table."),
        Run(
            "dotnet ef migrations add AddInvoices --project src/Clinic.Data",
            "Could not execute because the specified command or file was not found.\nPossible reasons for this include:\n  * You misspelled a built-in dotnet command.\n  * You intended to execute a .NET program, but dotnet-ef does not exist.\n  * You intended to run a global tool, but a dotnet-prefixed executable with this name could not be found on the PATH.",
            1,
        ),
        Run(
            "dotnet tool install --global dotnet-ef --version 8.0.4",
            "You can invoke the tool using the following command: dotnet-ef\nTool 'dotnet-ef' (version '8.0.4') was successfully installed.",
        ),
        Run(
            "dotnet ef migrations add AddInvoices --project src/Clinic.Data",
            "Build started...\nBuild succeeded.\nDone. To undo this action, use 'ef migrations remove'",
        ),
        Say("The migration `AddInvoices` is added under src/Clinic.Data/Migrations."),
        host="gemini",
    ),
    trigger=r"dotnet ef",
    cause=r"dotnet-ef does not exist|could not be found|not found",
    fix=r"dotnet tool install",
    junk=_junk(r"misspelled a built-in"),
)

SWIFT_TOOLS = Shape(
    "swift-tools-version-after-look",
    "the cause stated after a look (one tool call), fixed by a config line (Edit)",
    "Swift",
    one_session(
        "/home/kim/src/weatherkit-cli",
        Ask("Run the tests."),
        Run(
            "swift test",
            "error: 'weatherkit-cli': package 'weatherkit-cli' is using Swift tools version 5.9.0 but the installed version is 5.8.1",
            1,
        ),
        Run(
            "swift --version",
            "Swift version 5.8.1 (swift-5.8.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu",
        ),
        Say(
            "The toolchain on this machine is 5.8.1, while Package.swift declares tools version 5.9; nothing in the manifest needs 5.9, so I'm lowering the declared tools version to 5.8."
        ),
        Edit("Package.swift", "// swift-tools-version:5.9", "// swift-tools-version:5.8"),
        Run(
            "swift test",
            "Building for debugging...\n[42/42] Linking weatherkit-cliPackageTests.xctest\nBuild complete! (31.07s)\nTest Suite 'All tests' passed at 2026-05-04 09:14:02.113.\n\t Executed 18 tests, with 0 failures (0 unexpected) in 0.412 (0.415) seconds",
        ),
        Say("All 18 tests pass."),
    ),
    trigger=r"swift test",
    cause=r"tools version|5\.9|5\.8",
    fix=r"swift-tools-version:?\s*5\.8|tools version (?:to )?5\.8",
    junk=_junk(r"Building for debugging", r"Build complete"),
)

FLUTTER_DIAGNOSIS = Shape(
    "flutter-dev-dependency-diagnosed",
    "the cause stated in the next reply ('Root cause: …'), a package added",
    "Dart/Flutter",
    one_session(
        "/home/ola/src/tally_app",
        Ask("Run the widget tests."),
        Run(
            "flutter test",
            "00:01 +0: loading /home/ola/src/tally_app/test/counter_test.dart\ntest/counter_test.dart:3:8: Error: Couldn't resolve the package 'mocktail' in 'package:mocktail/mocktail.dart'.\nimport 'package:mocktail/mocktail.dart';\n       ^\n00:02 +0 -1: loading /home/ola/src/tally_app/test/counter_test.dart [E]\n  Failed to load \"/home/ola/src/tally_app/test/counter_test.dart\": Compilation failed for testPath=/home/ola/src/tally_app/test/counter_test.dart\n00:02 +0 -1: Some tests failed.",
            1,
        ),
        Say(
            "Root cause: the tests import mocktail, but it was never listed under dev_dependencies in pubspec.yaml. Adding it as a dev dependency."
        ),
        Run(
            "flutter pub add --dev mocktail",
            "Resolving dependencies...\n+ mocktail 1.0.3\nChanged 1 dependency!",
        ),
        Run(
            "flutter test",
            "00:01 +0: loading /home/ola/src/tally_app/test/counter_test.dart\n00:03 +9: All tests passed!",
        ),
        Say("The nine widget tests pass."),
        host="codex",
    ),
    trigger=r"flutter test",
    cause=r"mocktail|dev_dependenc",
    fix=r"pub add --dev mocktail|dev_dependencies",
    junk=_junk(r"\d\d:\d\d \+\d", r"Some tests failed", r"Failed to load"),
)

CABAL_COMPILER = Shape(
    "cabal-compiler-flag",
    "fails, then passes with a flag choosing the compiler",
    "Haskell/cabal",
    one_session(
        "/home/ivo/src/ledger-hs",
        Ask("Build the project."),
        Run(
            "cabal build",
            "Resolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__0] trying: ledger-hs-0.1.0.0 (user goal)\n[__1] next goal: base (dependency of ledger-hs)\n[__1] rejecting: base-4.17.2.1/installed-4.17.2.1 (conflict: ledger-hs => base>=4.19 && <5)\n[__1] skipping: base-4.20.0.0, base-4.19.1.0 (has the same characteristics that caused the previous version to fail: excluded by constraint '>=4.19 && <5' from 'ledger-hs')\n[__1] fail (backjumping, conflict set: base, ledger-hs)\nAfter searching the rest of the dependency tree exhaustively, these were the goals I've had most trouble fulfilling: base, ledger-hs",
            1,
        ),
        Run(
            "ghcup list -t ghc -c installed",
            "✔ ghc  9.4.8  base-4.17.2.1\n✔✔ ghc  9.8.2  base-4.19.1.0  recommended",
        ),
        Run(
            "cabal build -w ghc-9.8.2",
            "Resolving dependencies...\nBuild profile: -w ghc-9.8.2 -O1\nIn order, the following will be built (use -v for more details):\n - ledger-hs-0.1.0.0 (lib) (first run)\n[1 of 6] Compiling Ledger.Types\n[6 of 6] Compiling Ledger\nLinking dist-newstyle/build/x86_64-linux/ghc-9.8.2/ledger-hs-0.1.0.0/x/ledger/build/ledger/ledger ...",
        ),
        Say(
            "It builds with GHC 9.8.2; the default `ghc` on PATH is 9.4.8, whose base is too old for the package's `base >=4.19` bound."
        ),
        host="codex-shell",
    ),
    trigger=r"cabal build",
    cause=r"base\s*>=\s*4\.19|base-4\.17|Could not resolve dependencies|too old",
    fix=r"-w ghc-9\.8\.2|ghc-9\.8",
    junk=_junk(r"\[__\d\] (?:trying|next goal)", r"backjumping"),
)

DUNE_LIBRARY = Shape(
    "dune-library-installed",
    "a missing library installed first",
    "OCaml/dune",
    one_session(
        "/home/noe/src/taskq",
        Ask("Build the CLI."),
        Run(
            "dune build",
            'File "bin/dune", line 4, characters 13-21:\n4 |  (libraries cmdliner taskq))\n                 ^^^^^^^^\nError: Library "cmdliner" not found.\n-> required by _build/default/bin/main.exe\n-> required by @@default',
            1,
        ),
        Run(
            "opam install cmdliner -y",
            "The following actions will be performed:\n=== install 1 package\n  - install cmdliner 1.3.0\n\n<><> Processing actions <><><><><><><><><><><><><><><><><><><><><><><><><><><><>\n⬇ retrieved cmdliner.1.3.0  (https://erratique.ch/software/cmdliner/releases/cmdliner-1.3.0.tbz)\n∗ installed cmdliner.1.3.0\nDone.",
        ),
        Run("dune build", ""),
        Say("The CLI builds now."),
    ),
    trigger=r"dune build",
    cause=r'Library "?cmdliner"? not found|cmdliner',
    fix=r"opam install cmdliner",
    junk=_junk(r"Processing actions", r"required by @@default"),
)

ZIG_OPTION = Shape(
    "zig-build-option",
    "fails, then passes with a build option (-D)",
    "Zig",
    one_session(
        "/home/ada/src/notes-zig",
        Ask("Build it."),
        Run(
            "zig build",
            "install\n└─ install notes\n   └─ zig build-exe notes Debug native 1 errors\nerror: error: unable to find dynamic system library 'sqlite3' using strategy 'paths_first'. searched paths: none\n\nerror: the following command failed with 1 compilation errors:\n/usr/local/zig/zig build-exe -lsqlite3 /home/ada/src/notes-zig/src/main.zig --cache-dir /home/ada/src/notes-zig/.zig-cache --name notes --listen=-\nBuild Summary: 0/3 steps succeeded; 1 failed (disable with --summary none)\ninstall transitive failure\n└─ install notes transitive failure\n   └─ zig build-exe notes Debug native 1 errors",
            1,
        ),
        Read(
            "build.zig",
            'const std = @import("std");\n\npub fn build(b: *std.Build) void {\n    const bundled = b.option(bool, "bundle-sqlite", "Compile SQLite from the vendored amalgamation") orelse false;\n    const exe = b.addExecutable(.{ .name = "notes", .root_source_file = b.path("src/main.zig"), .target = b.standardTargetOptions(.{}), .optimize = b.standardOptimizeOption(.{}) });\n    if (bundled) exe.addCSourceFile(.{ .file = b.path("vendor/sqlite3.c") }) else exe.linkSystemLibrary("sqlite3");\n    b.installArtifact(exe);\n}\n',
        ),
        Run("zig build -Dbundle-sqlite=true", ""),
        Say(
            "Built: there's no system SQLite here, so I built with the vendored amalgamation (`-Dbundle-sqlite=true`)."
        ),
    ),
    trigger=r"zig build",
    cause=r"sqlite3|system library|no system SQLite",
    fix=r"-Dbundle-sqlite=true",
    junk=_junk(r"Build Summary", r"transitive failure", r"install notes"),
)

MESON_WRITE = Shape(
    "meson-dependency-written",
    "a config line in another file, written whole after a read",
    "C/meson",
    one_session(
        "/home/eli/src/tinyhttpd",
        Ask("Compile the server."),
        Run(
            "meson compile -C build",
            "INFO: autodetecting backend as ninja\nINFO: calculating backend command to run: /usr/bin/ninja -C /home/eli/src/tinyhttpd/build\nninja: Entering directory `/home/eli/src/tinyhttpd/build'\n[1/4] Compiling C object tinyhttpd.p/src_main.c.o\n[2/4] Compiling C object tinyhttpd.p/src_tls.c.o\nFAILED: tinyhttpd.p/src_tls.c.o\ncc -Itinyhttpd.p -I. -I.. -fdiagnostics-color=always -Wall -Winvalid-pch -Wextra -std=c11 -O0 -g -MD -MQ tinyhttpd.p/src_tls.c.o -MF tinyhttpd.p/src_tls.c.o.d -o tinyhttpd.p/src_tls.c.o -c ../src/tls.c\n../src/tls.c:3:10: fatal error: openssl/ssl.h: No such file or directory\n    3 | #include <openssl/ssl.h>\n      |          ^~~~~~~~~~~~~~~\ncompilation terminated.\nninja: build stopped: subcommand failed.",
            1,
        ),
        Read(
            "meson.build",
            "project('tinyhttpd', 'c', version : '0.3.0', default_options : ['c_std=c11', 'warning_level=2'])\n\nthreads = dependency('threads')\n\nexecutable('tinyhttpd', 'src/main.c', 'src/tls.c', dependencies : [threads], install : true)\n",
        ),
        Write(
            "meson.build",
            "project('tinyhttpd', 'c', version : '0.3.0', default_options : ['c_std=c11', 'warning_level=2'])\n\nthreads = dependency('threads')\nssl = dependency('openssl', version : '>=3.0')\n\nexecutable('tinyhttpd', 'src/main.c', 'src/tls.c', dependencies : [threads, ssl], install : true)\n",
        ),
        Run(
            "meson compile -C build",
            "INFO: autodetecting backend as ninja\nninja: Entering directory `/home/eli/src/tinyhttpd/build'\n[0/1] Regenerating build files.\nFound pkg-config: YES (/usr/bin/pkg-config) 1.8.1\nRun-time dependency openssl found: YES 3.0.13\n[4/4] Linking target tinyhttpd",
        ),
        Say(
            "The server compiles: tls.c includes OpenSSL, but meson.build never declared the openssl dependency, so its include path was missing."
        ),
        host="gemini",
    ),
    trigger=r"meson compile",
    cause=r"openssl/ssl\.h|openssl",
    fix=r"dependency\('openssl'",
    junk=_junk(
        r"ninja: Entering", r"autodetecting backend", r"build stopped", r"compilation terminated"
    ),
)

MAKE_ONE_CAUSE = Shape(
    "make-one-cause-two-commands",
    "one root cause behind several failing commands; a package installed",
    "C++/make",
    one_session(
        "/home/ben/src/csvq",
        Ask("Build and run the tests."),
        Run(
            "make",
            "mkdir -p build\ng++ -std=c++17 -O2 -Wall -Iinclude -c src/main.cpp -o build/main.o\ng++ -std=c++17 -O2 -Wall -Iinclude -c src/format.cpp -o build/format.o\nsrc/format.cpp:2:10: fatal error: fmt/core.h: No such file or directory\n    2 | #include <fmt/core.h>\n      |          ^~~~~~~~~~~~\ncompilation terminated.\nmake: *** [Makefile:18: build/format.o] Error 1",
            2,
        ),
        Run(
            "make test",
            "g++ -std=c++17 -O2 -Wall -Iinclude -c src/format.cpp -o build/format.o\nsrc/format.cpp:2:10: fatal error: fmt/core.h: No such file or directory\n    2 | #include <fmt/core.h>\n      |          ^~~~~~~~~~~~\ncompilation terminated.\nmake: *** [Makefile:18: build/format.o] Error 1",
            2,
        ),
        Say(
            "Both fail the same way: the {fmt} headers aren't installed on this machine. Installing libfmt-dev."
        ),
        Run(
            "sudo apt-get install -y libfmt-dev",
            "Reading package lists... Done\nBuilding dependency tree... Done\nThe following NEW packages will be installed:\n  libfmt-dev libfmt9\nSetting up libfmt9:amd64 (9.1.0+ds1-2) ...\nSetting up libfmt-dev:amd64 (9.1.0+ds1-2) ...",
        ),
        Run(
            "make && make test",
            "g++ -std=c++17 -O2 -Wall -Iinclude -c src/format.cpp -o build/format.o\ng++ -o build/csvq build/main.o build/format.o -lfmt\n./build/csvq_tests\n===============================================================================\nAll tests passed (212 assertions in 37 test cases)",
        ),
        Say("Built, and all 37 test cases pass."),
    ),
    trigger=r"\bmake\b",
    cause=r"fmt/core\.h|\{?fmt\}? headers",
    fix=r"libfmt-dev",
    junk=_junk(r"compilation terminated", r"mkdir -p build", r"make: \*\*\*"),
)

GO_RACE_ENV = Shape(
    "go-race-needs-cgo",
    "fails, then passes with an environment variable set",
    "Go",
    one_session(
        "/home/tom/src/ratelimit",
        Ask("Run the tests with the race detector."),
        Run(
            "go test -race ./...", "go: -race requires cgo; enable cgo by setting CGO_ENABLED=1", 2
        ),
        Run(
            "CGO_ENABLED=1 go test -race ./...",
            "ok  \tgithub.com/tomk/ratelimit\t1.284s\nok  \tgithub.com/tomk/ratelimit/bucket\t2.031s\n?   \tgithub.com/tomk/ratelimit/cmd/rlctl\t[no test files]",
        ),
        Say(
            "Race-enabled tests pass; this shell has CGO_ENABLED=0 exported, so it has to be set for -race."
        ),
        host="gemini",
    ),
    trigger=r"go test -race",
    cause=r"requires cgo|CGO_ENABLED=0",
    fix=r"CGO_ENABLED=1",
    junk=_junk(r"no test files", r"^ok\b"),
)

DENO_FLAG = Shape(
    "deno-permission-flag",
    "fails, then passes with a permission flag",
    "Deno",
    one_session(
        "/home/sol/src/release-notes",
        Ask("Run the script that drafts the release notes."),
        Run(
            "deno run main.ts --since v2.3.0",
            'Download https://jsr.io/@std/cli/1.0.6/parse_args.ts\nerror: Uncaught (in promise) NotCapable: Requires net access to "api.github.com:443", run again with the --allow-net flag\n    const res = await fetch(`https://api.github.com/repos/${repo}/releases`);\n                      ^\n    at fetch (ext:deno_fetch/26_fetch.js:160:7)\n    at main (file:///home/sol/src/release-notes/main.ts:14:23)',
            1,
        ),
        Run(
            "deno run --allow-net=api.github.com main.ts --since v2.3.0",
            "## v2.4.0\n- Faster cold start (#412)\n- Fix timezone in changelog dates (#409)",
        ),
        Say("Drafted the notes; the script needs network access to api.github.com."),
    ),
    trigger=r"deno run",
    cause=r"net access|NotCapable",
    fix=r"--allow-net",
    junk=_junk(r"Download https://", r"at fetch \("),
)

UV_AFTER_LOOK = Shape(
    "uv-cause-after-two-looks",
    "the cause stated after two tool calls ('That explains it: …'), a dev dependency added",
    "Python/uv",
    one_session(
        "/home/zoe/src/invoicer",
        Ask("Run the test suite."),
        Run(
            "uv run pytest",
            "Resolved 41 packages in 2ms\nInstalled 3 packages in 11ms\nImportError while loading conftest '/home/zoe/src/invoicer/tests/conftest.py'.\ntests/conftest.py:4: in <module>\n    from freezegun import freeze_time\nE   ModuleNotFoundError: No module named 'freezegun'",
            4,
        ),
        Run("grep -n freezegun pyproject.toml", "", 1),
        Read(
            "pyproject.toml",
            '[project]\nname = "invoicer"\nversion = "0.6.0"\nrequires-python = ">=3.11"\ndependencies = ["httpx>=0.27", "pydantic>=2.6"]\n\n[dependency-groups]\ndev = ["pytest>=8.1", "pytest-cov>=5"]\n',
        ),
        Say(
            "That explains it: conftest.py imports freezegun, yet the dev group in pyproject.toml never declared it. Adding it to the dev group."
        ),
        Run(
            "uv add --dev freezegun",
            "Resolved 42 packages in 311ms\nPrepared 1 package in 88ms\nInstalled 1 package in 4ms\n + freezegun==1.5.1",
        ),
        Run(
            "uv run pytest",
            "============================= test session starts ==============================\ncollected 58 items\n\ntests/test_totals.py ....................                                 [ 34%]\ntests/test_pdf.py ......................................                  [100%]\n\n============================== 58 passed in 1.93s ==============================",
        ),
        Say("All 58 tests pass."),
    ),
    trigger=r"uv run pytest|pytest",
    cause=r"freezegun",
    fix=r"uv add --dev freezegun|dev group",
    junk=_junk(
        r"Resolved \d+ packages", r"Installed \d+ packages", r"ImportError while loading conftest"
    ),
)

TOX_EDIT = Shape(
    "tox-allowlist-edit",
    "a config line in another file (Edit); a summary line after the error",
    "Python/tox",
    one_session(
        "/home/pia/src/slugkit",
        Ask("Run the lint environment."),
        Run(
            "tox -e lint",
            "lint: install_deps> python -I -m pip install ruff==0.4.4\nlint: commands[0]> ruff check src tests\nlint: failed with ruff is not allowed, use allowlist_externals to allow it\n  lint: FAIL code 1 (2.31 seconds)\n  evaluation failed :( (2.44 seconds)",
            1,
        ),
        Edit(
            "tox.ini",
            "[testenv:lint]\nskip_install = true\ndeps = ruff==0.4.4\n",
            "[testenv:lint]\nskip_install = true\ndeps = ruff==0.4.4\nallowlist_externals = ruff\n",
        ),
        Run(
            "tox -e lint",
            "lint: commands[0]> ruff check src tests\nAll checks passed!\n  lint: OK (0.41=setup[0.30]+cmd[0.11] seconds)\n  congratulations :) (0.52 seconds)",
        ),
        Say("Lint passes."),
        host="codex",
    ),
    trigger=r"tox -e lint",
    cause=r"not allowed|allowlist_externals",
    fix=r"allowlist_externals\s*=\s*ruff",
    junk=_junk(r"evaluation failed", r"FAIL code 1", r"install_deps>"),
)

TERRAFORM_UPGRADE = Shape(
    "terraform-init-upgrade",
    "the fix the error names, run as another command; progress lines around it",
    "Terraform",
    one_session(
        "/home/ugo/src/infra-live",
        Ask("Plan the staging changes."),
        Run(
            "terraform plan -var-file=staging.tfvars",
            '╷\n│ Error: Inconsistent dependency lock file\n│ \n│ The following dependency selections recorded in the lock file are\n│ inconsistent with the current configuration:\n│   - provider registry.terraform.io/hashicorp/aws: locked version selection 5.31.0 doesn\'t match the updated version constraints "~> 5.40"\n│ \n│ To update the locked dependency selections to match a changed\n│ configuration, run:\n│   terraform init -upgrade\n╵',
            1,
        ),
        Run(
            "terraform init -upgrade",
            'Initializing the backend...\nInitializing provider plugins...\n- Finding hashicorp/aws versions matching "~> 5.40"...\n- Installing hashicorp/aws v5.46.0...\n- Installed hashicorp/aws v5.46.0 (signed by HashiCorp)\nTerraform has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file.\n\nTerraform has been successfully initialized!',
        ),
        Run(
            "terraform plan -var-file=staging.tfvars",
            "aws_s3_bucket.assets: Refreshing state... [id=acme-staging-assets]\n\nPlan: 2 to add, 1 to change, 0 to destroy.",
        ),
        Say(
            "The plan adds 2 resources and changes 1; the lock file was re-pinned to aws 5.46 after the constraint moved to ~> 5.40."
        ),
        host="gemini",
    ),
    trigger=r"terraform plan",
    cause=r"lock file|5\.31\.0|~> 5\.40",
    fix=r"terraform init -upgrade|init -upgrade",
    junk=_junk(r"Initializing provider plugins", r"Refreshing state", r"Finding hashicorp"),
)

DOCKER_DAEMON = Shape(
    "docker-daemon-started",
    "a missing service started first",
    "Docker",
    one_session(
        "/home/joy/src/orders-api",
        Ask("Build the image."),
        Run(
            "docker build -t orders-api:dev .",
            "ERROR: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
            1,
        ),
        Run("sudo systemctl start docker", ""),
        Run(
            "docker build -t orders-api:dev .",
            '#0 building with "default" instance using docker driver\n#1 [internal] load build definition from Dockerfile\n#1 transferring dockerfile: 612B done\n#5 [2/6] RUN pip install --no-cache-dir -r requirements.txt\n#9 exporting to image\n#9 naming to docker.io/library/orders-api:dev done\n#9 DONE 1.4s',
        ),
        Say("The image orders-api:dev is built."),
        host="codex",
    ),
    trigger=r"docker build",
    cause=r"Docker daemon|docker\.sock",
    fix=r"systemctl start docker",
    junk=_junk(r"#\d+ \[", r"load build definition"),
)

NIX_CONF = Shape(
    "nix-conf-written",
    "a config line in a file outside the project, written whole after a read",
    "Nix",
    one_session(
        "/home/max/src/dotfiles-flake",
        Ask("Build the flake's default package."),
        Run(
            "nix build .#default",
            "error: experimental Nix feature 'nix-command' is disabled; add '--extra-experimental-features nix-command' to enable it",
            1,
        ),
        Read("/home/max/.config/nix/nix.conf", "max-jobs = 4\n"),
        Write(
            "/home/max/.config/nix/nix.conf",
            "max-jobs = 4\nexperimental-features = nix-command flakes\n",
        ),
        Run("nix build .#default", ""),
        Say(
            "Built ./result; flakes and the nix command are now enabled in ~/.config/nix/nix.conf."
        ),
    ),
    trigger=r"nix build",
    cause=r"experimental Nix feature|nix-command.*disabled|is disabled",
    fix=r"experimental-features\s*=\s*nix-command flakes",
)

PHP_GATE = Shape(
    "composer-gate-one-cause",
    "one root cause behind a commit gate's several checks",
    "PHP/composer",
    one_session(
        "/home/val/src/tickets",
        Ask("Commit the refund endpoint."),
        Run(
            'git commit -am "Add refund endpoint"',
            "pre-commit: running composer lint, composer analyse, composer test\n> vendor/bin/php-cs-fixer fix --dry-run --diff\nsh: 1: vendor/bin/php-cs-fixer: not found\nScript vendor/bin/php-cs-fixer fix --dry-run --diff handling the lint event returned with error code 127\n> vendor/bin/phpstan analyse --memory-limit=1G\nsh: 1: vendor/bin/phpstan: not found\nScript vendor/bin/phpstan analyse --memory-limit=1G handling the analyse event returned with error code 127\n> vendor/bin/phpunit\nsh: 1: vendor/bin/phpunit: not found\nScript vendor/bin/phpunit handling the test event returned with error code 127\npre-commit: 3 checks failed, commit aborted",
            1,
        ),
        Say(
            "All three checks fail for one reason: vendor/ is empty because composer install was never run in this checkout, so none of the dev tools exist yet."
        ),
        Run(
            "composer install",
            "Installing dependencies from lock file (including require-dev)\nVerifying lock file contents can be installed on current platform.\nPackage operations: 84 installs, 0 updates, 0 removals\n  - Installing symfony/polyfill-mbstring (v1.29.0): Extracting archive\nGenerating optimized autoload files\n62 packages you are using are looking for funding.",
        ),
        Run(
            'git commit -am "Add refund endpoint"',
            'pre-commit: running composer lint, composer analyse, composer test\n> vendor/bin/php-cs-fixer fix --dry-run --diff\nLoaded config default from "/home/val/src/tickets/.php-cs-fixer.dist.php".\n> vendor/bin/phpstan analyse --memory-limit=1G\n [OK] No errors\n> vendor/bin/phpunit\nOK (143 tests, 402 assertions)\n[main 91d0e3a] Add refund endpoint\n 4 files changed, 118 insertions(+)',
        ),
        Say("Committed; lint, phpstan and phpunit all pass in the hook."),
    ),
    trigger=r"commit|pre-commit",
    cause=r"vendor/?|composer install was never|not found",
    fix=r"composer install",
    junk=_junk(r"3 checks failed", r"handling the \w+ event", r"looking for funding"),
)

CARGO_BLIP = Shape(
    "cargo-network-blip",
    "must not fire: a transient network error, same command passes",
    "Rust/cargo",
    one_session(
        "/home/mia/src/feedhub",
        Ask("Build the workspace."),
        Run(
            "cargo build",
            "    Updating crates.io index\n  Downloaded tokio v1.37.0\nerror: failed to download from `https://static.crates.io/crates/hyper/1.3.1/download`\n\nCaused by:\n  [28] Timeout was reached (Operation too slow. Less than 10 bytes/sec transferred the last 30 seconds)",
            101,
        ),
        Run(
            "cargo build",
            "  Downloaded hyper v1.3.1\n   Compiling hyper v1.3.1\n   Compiling feedhub v0.4.0 (/home/mia/src/feedhub)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1m 02s",
        ),
        Say("The workspace builds (the first attempt timed out downloading a crate)."),
        host="codex",
    ),
    fires=False,
    expect="none: a download timeout, the same command passes next",
)

MIX_TDD = Shape(
    "mix-tdd-red-green",
    "must not fire: a test written first fails, then passes once implemented",
    "Elixir/mix",
    one_session(
        "/home/ines/src/relay",
        Ask("Write a failing test for the retry backoff first, then make it pass."),
        Write(
            "test/relay/backoff_test.exs",
            'defmodule Relay.BackoffTest do\n  use ExUnit.Case, async: true\n\n  test "doubles the delay up to the cap" do\n    assert Relay.Backoff.delays(5, base: 100, cap: 1000) == [100, 200, 400, 800, 1000]\n  end\nend\n',
        ),
        Run(
            "mix test test/relay/backoff_test.exs",
            "Compiling 1 file (.ex)\n\n  1) test doubles the delay up to the cap (Relay.BackoffTest)\n     test/relay/backoff_test.exs:4\n     ** (UndefinedFunctionError) function Relay.Backoff.delays/2 is undefined (module Relay.Backoff is not available)\n     code: assert Relay.Backoff.delays(5, base: 100, cap: 1000) == [100, 200, 400, 800, 1000]\n\nFinished in 0.04 seconds (0.04s async, 0.00s sync)\n1 test, 1 failure",
            2,
        ),
        Say("Red, as intended: `Relay.Backoff.delays/2` doesn't exist yet. Writing it now."),
        Write(
            "lib/relay/backoff.ex",
            "defmodule Relay.Backoff do\n  def delays(n, opts) do\n    base = Keyword.fetch!(opts, :base)\n    cap = Keyword.fetch!(opts, :cap)\n    for i <- 0..(n - 1), do: min(base * Integer.pow(2, i), cap)\n  end\nend\n",
        ),
        Run(
            "mix test test/relay/backoff_test.exs",
            "Compiling 1 file (.ex)\n.\nFinished in 0.03 seconds (0.03s async, 0.00s sync)\n1 test, 0 failures",
        ),
        Say("Green: the backoff test passes."),
    ),
    fires=False,
    expect="none: the red step of test-first work",
)

RAILS_LEFT_ALONE = Shape(
    "rails-failure-left-alone",
    "must not fire: a failure the user says to leave",
    "Ruby/Rails",
    one_session(
        "/home/ana/src/bookings",
        Ask("Run the whole test suite."),
        Run(
            "bin/rails test:all",
            "Running 214 tests in parallel using 4 processes\nRun options: --seed 40211\n\n# Running:\n\n.......E\n\nError:\nBookingsFlowTest#test_guest_books_a_room:\nSelenium::WebDriver::Error::SessionNotCreatedError: session not created: This version of ChromeDriver only supports Chrome version 122\nCurrent browser version is 125.0.6422.60\n    test/system/bookings_flow_test.rb:9:in `block in <class:BookingsFlowTest>'\n\nFinished in 18.402s, 11.6293 runs/s\n214 runs, 611 assertions, 0 failures, 1 errors, 0 skips",
            1,
        ),
        Say(
            "One system test errors: ChromeDriver 122 doesn't match the installed Chrome 125. Want me to update the driver?"
        ),
        Ask(
            "No, leave the system tests alone, the CI image handles those. Just make sure the rest passes."
        ),
        Run(
            "bin/rails test",
            "Running 201 tests in parallel using 4 processes\n\nFinished in 6.118s, 32.8540 runs/s\n201 runs, 574 assertions, 0 failures, 0 errors, 0 skips",
        ),
        Say("The 201 non-system tests pass; I left the system test as it is."),
        host="gemini",
    ),
    fires=False,
    expect="none: the user said to leave the failure alone; nothing was fixed",
)

MAVEN_HEDGED = Shape(
    "maven-hedged-guess",
    "must not fire: a hedged guess, never confirmed, nothing changed",
    "Java/Maven",
    one_session(
        "/home/raj/src/payments",
        Ask("Run the webhook tests."),
        Run(
            "mvn -pl webhooks test",
            "[INFO] Running com.acme.webhooks.DeliveryTest\n[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 4.218 s <<< FAILURE! -- in com.acme.webhooks.DeliveryTest\n[ERROR] com.acme.webhooks.DeliveryTest.retriesOnServerError -- Time elapsed: 2.011 s <<< FAILURE!\norg.opentest4j.AssertionFailedError: expected: <3> but was: <2>\n\tat com.acme.webhooks.DeliveryTest.retriesOnServerError(DeliveryTest.java:77)\n[INFO] BUILD FAILURE",
            1,
        ),
        Say(
            "One test fails: retriesOnServerError saw 2 attempts instead of 3. It might be a timing issue with the mock server's delay, but I'm not sure; I haven't changed anything."
        ),
        Ask("OK, I'll look at it later. Can you summarise what the webhooks module does?"),
        Say(
            "It queues outgoing webhook deliveries, signs each payload with the tenant's secret and retries failed deliveries with backoff."
        ),
        host="codex",
    ),
    fires=False,
    expect="none: a hedged guess, nothing confirmed or fixed",
)

GRADLE_OTHER_CHECKOUT = Shape(
    "gradle-other-checkout",
    "must not fire: the failure was in another checkout, not this project",
    "Kotlin/Gradle",
    one_session(
        "/home/lin/src/courier-app",
        Ask("Does the old courier-legacy repo still build? Then build this one."),
        Run(
            "cd /home/lin/src/courier-legacy && ./gradlew assemble",
            "FAILURE: Build failed with an exception.\n\n* What went wrong:\nCould not determine the dependencies of task ':app:compileDebugJavaWithJavac'.\n> SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable or by setting the sdk.dir path in your project's local properties file at '/home/lin/src/courier-legacy/local.properties'.\n\nBUILD FAILED in 4s",
            1,
        ),
        Say(
            "The legacy repo doesn't build on this machine: it has no local.properties with an SDK path. Leaving it as it is and building this project."
        ),
        Run(
            "./gradlew assemble",
            "> Task :app:assembleDebug\n> Task :app:assembleRelease\n\nBUILD SUCCESSFUL in 1m 3s\n88 actionable tasks: 88 executed",
        ),
        Say("courier-app builds; courier-legacy doesn't (no SDK location), I didn't change it."),
    ),
    fires=False,
    expect="none for this project: the failure was in another repository and was left alone",
)

BUN_TYPO = Shape(
    "bun-typo-corrected",
    "must not fire: a typo in the command, corrected",
    "Bun",
    one_session(
        "/home/eva/src/shortlinks",
        Ask("Run the tests."),
        Run("bun tset", 'error: Script not found "tset"', 1),
        Run(
            "bun test",
            "bun test v1.1.8 (89d25807)\n\nsrc/slug.test.ts:\n✓ slug > is 7 characters [0.41ms]\n✓ slug > avoids lookalike letters [0.08ms]\n\n 12 pass\n 0 fail\n 31 expect() calls\nRan 12 tests across 3 files. [48.00ms]",
        ),
        Say("All 12 tests pass."),
        host="codex",
    ),
    fires=False,
    expect="none: a typo in the command",
)

CASES: tuple[Shape, ...] = (
    RUST_ENV,
    MAVEN_ARG,
    DOTNET_TOOL,
    SWIFT_TOOLS,
    FLUTTER_DIAGNOSIS,
    CABAL_COMPILER,
    DUNE_LIBRARY,
    ZIG_OPTION,
    MESON_WRITE,
    MAKE_ONE_CAUSE,
    GO_RACE_ENV,
    DENO_FLAG,
    UV_AFTER_LOOK,
    TOX_EDIT,
    TERRAFORM_UPGRADE,
    DOCKER_DAEMON,
    NIX_CONF,
    PHP_GATE,
    CARGO_BLIP,
    MIX_TDD,
    RAILS_LEFT_ALONE,
    MAVEN_HEDGED,
    GRADLE_OTHER_CHECKOUT,
    BUN_TYPO,
)
