# ruff: noqa: E501  (transcript text: outputs are kept as one string a line)
"""A fourth set of made-up pitfall sessions (`bench/pitfall_shapes.py --set d` runs them alone),
in tools and shapes the first three sets lack: a dependency's repository declared in another
build file, an import the compiler asks for, a package feed missing from a config file, an SDK
pin relaxed, warnings treated as errors, a build target's dependency list, code signing turned
off by a build setting, a build argument an image needs, a migration whose column already
exists, a port already taken, an environment variable a fixture reads, the same failure and fix
in two sessions (one memory, not two), a type checker's setting in the project's config, a
hedged guess the assistant takes back before the real fix, a library added to a dependency
file, an import remapping file, a chart's dependencies fetched first; and must-not-fire cases (a
warning that did not fail the run, a failure the user refused to have fixed followed by another
command that passes, an interrupted command followed by a narrower one, a failure the user asked
to reproduce with the fix stashed). Every case, its patterns included, was written before any
rule was read or run on it.
"""

from __future__ import annotations

from bench.pitfall_shape_cases import Shape
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Write, one_session


def _junk(*more: str) -> tuple[str, ...]:
    return (*Shape.junk, *more)


GRADLE_REPOSITORY = Shape(
    "gradle-jitpack-repository",
    "a dependency not found: its repository added in another build file (settings) than the one declaring it",
    "Android/Gradle",
    one_session(
        "/home/ola/src/pulse-android",
        Ask("Build the debug APK."),
        Run(
            "./gradlew :app:assembleDebug",
            "> Task :app:preBuild UP-TO-DATE\n> Task :app:checkDebugAarMetadata FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:checkDebugAarMetadata'.\n> Could not resolve all files for configuration ':app:debugRuntimeClasspath'.\n   > Could not find com.github.PhilJay:MPAndroidChart:v3.1.0.\n     Searched in the following locations:\n       - https://dl.google.com/dl/android/maven2/com/github/PhilJay/MPAndroidChart/v3.1.0/MPAndroidChart-v3.1.0.pom\n       - https://repo.maven.apache.org/maven2/com/github/PhilJay/MPAndroidChart/v3.1.0/MPAndroidChart-v3.1.0.pom\n     Required by:\n         project :app\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n> Run with --info or --debug option to get more log output.\n\nBUILD FAILED in 6s",
            1,
        ),
        Say(
            "MPAndroidChart is published on JitPack, not on Maven Central, and this project declares its repositories in settings.gradle.kts (dependencyResolutionManagement), so I'm adding JitPack there rather than in app/build.gradle.kts."
        ),
        Edit(
            "settings.gradle.kts",
            "    repositories {\n        google()\n        mavenCentral()\n    }",
            '    repositories {\n        google()\n        mavenCentral()\n        maven { url = uri("https://jitpack.io") }\n    }',
        ),
        Run(
            "./gradlew :app:assembleDebug",
            "> Task :app:checkDebugAarMetadata\n> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 48s\n36 actionable tasks: 36 executed",
        ),
        Say("The debug APK builds."),
    ),
    trigger=r"assembleDebug|gradlew",
    cause=r"MPAndroidChart|Could not find com\.github|not on Maven Central",
    fix=r"jitpack",
    junk=_junk(r"Run with --stacktrace", r"Searched in the following", r"preBuild UP-TO-DATE"),
)

KOTLIN_IMPORT = Shape(
    "kotlin-unresolved-launch-import",
    "a compile error fixed by an import (Edit); a second error line follows from the first",
    "Kotlin/Gradle",
    one_session(
        "/home/ola/src/tickets",
        Ask("Compile the server module."),
        Run(
            "./gradlew :server:compileKotlin",
            "> Task :server:compileKotlin FAILED\ne: file:///home/ola/src/tickets/server/src/main/kotlin/tickets/Jobs.kt:18:9 Unresolved reference: launch\ne: file:///home/ola/src/tickets/server/src/main/kotlin/tickets/Jobs.kt:19:13 Suspension functions can be called only within coroutine body\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':server:compileKotlin'.\n> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction\n   > Compilation error. See log for more details\n\nBUILD FAILED in 3s",
            1,
        ),
        Say(
            "`launch` is an extension on CoroutineScope that lives in kotlinx.coroutines and has to be imported by name; the second error only follows from the first."
        ),
        Edit(
            "server/src/main/kotlin/tickets/Jobs.kt",
            "import kotlinx.coroutines.CoroutineScope\n",
            "import kotlinx.coroutines.CoroutineScope\nimport kotlinx.coroutines.launch\n",
        ),
        Run(
            "./gradlew :server:compileKotlin",
            "> Task :server:compileKotlin\n\nBUILD SUCCESSFUL in 7s\n4 actionable tasks: 1 executed, 3 up-to-date",
        ),
        Say("The server module compiles."),
        host="codex",
    ),
    trigger=r"compileKotlin|gradlew",
    cause=r"Unresolved reference:? `?launch|launch`? (?:is|must|has to be) (?:an extension|imported)",
    fix=r"import kotlinx\.coroutines\.launch",
    junk=_junk(r"Suspension functions can be called", r"See log for more details"),
)

DOTNET_FEED = Shape(
    "dotnet-nu1101-feed",
    "NU1101 (package not found): the private feed added to nuget.config, not to the project the error names",
    ".NET/NuGet",
    one_session(
        "/home/sam/src/fleet",
        Ask("Build it."),
        Run(
            "dotnet build",
            "  Determining projects to restore...\n/home/sam/src/fleet/src/Fleet.Api/Fleet.Api.csproj : error NU1101: Unable to find package Contoso.Telemetry. No packages exist with this id in source(s): nuget.org\n  Failed to restore /home/sam/src/fleet/src/Fleet.Api/Fleet.Api.csproj (in 1.21 sec).\n\nBuild FAILED.\n\n/home/sam/src/fleet/src/Fleet.Api/Fleet.Api.csproj : error NU1101: Unable to find package Contoso.Telemetry. No packages exist with this id in source(s): nuget.org\n    0 Warning(s)\n    1 Error(s)",
            1,
        ),
        Read(
            "nuget.config",
            '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n    <clear />\n    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />\n  </packageSources>\n</configuration>\n',
        ),
        Say(
            "Contoso.Telemetry only exists on the company's internal feed, and nuget.config clears the sources and lists nuget.org alone."
        ),
        Edit(
            "nuget.config",
            '    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />\n',
            '    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />\n    <add key="contoso-internal" value="https://pkgs.dev.azure.com/contoso/_packaging/internal/nuget/v3/index.json" />\n',
        ),
        Run(
            "dotnet build",
            "  Determining projects to restore...\n  Restored /home/sam/src/fleet/src/Fleet.Api/Fleet.Api.csproj (in 2.8 sec).\n  Fleet.Api -> /home/sam/src/fleet/src/Fleet.Api/bin/Debug/net8.0/Fleet.Api.dll\n\nBuild succeeded.\n    0 Warning(s)\n    0 Error(s)",
        ),
        Say("It builds."),
    ),
    trigger=r"dotnet build",
    cause=r"NU1101|Contoso\.Telemetry|internal feed",
    fix=r"nuget\.config|contoso-internal|pkgs\.dev\.azure\.com",
    junk=_junk(r"Determining projects to restore", r"Failed to restore"),
)

DOTNET_SDK_PIN = Shape(
    "dotnet-global-json-rollforward",
    "a missing SDK version: the pin in global.json relaxed (Edit) instead of installing that SDK",
    ".NET SDK",
    one_session(
        "/home/sam/src/ledger",
        Ask("Run the tests."),
        Run(
            "dotnet test",
            "The command could not be loaded, possibly because:\n  * You intended to execute a .NET application:\n      The application 'test' does not exist.\n  * You intended to execute a .NET SDK command:\n      A compatible .NET SDK was not found.\n\nRequested SDK version: 8.0.100\nglobal.json file: /home/sam/src/ledger/global.json\n\nInstalled SDKs:\n8.0.404 [/usr/share/dotnet/sdk]\n\nInstall the [8.0.100] .NET SDK or update [/home/sam/src/ledger/global.json] to match an installed SDK.",
            145,
        ),
        Edit(
            "global.json",
            '    "version": "8.0.100"\n',
            '    "version": "8.0.100",\n    "rollForward": "latestFeature"\n',
        ),
        Run(
            "dotnet test",
            "  Determining projects to restore...\n  All projects are up-to-date for restore.\n  Ledger.Tests -> /home/sam/src/ledger/tests/Ledger.Tests/bin/Debug/net8.0/Ledger.Tests.dll\nTest run for /home/sam/src/ledger/tests/Ledger.Tests/bin/Debug/net8.0/Ledger.Tests.dll (.NETCoreApp,Version=v8.0)\n\nPassed!  - Failed:     0, Passed:    64, Skipped:     0, Total:    64, Duration: 1 s - Ledger.Tests.dll (net8.0)",
        ),
        Say(
            "global.json pinned SDK 8.0.100 and only 8.0.404 is installed; with `rollForward: latestFeature` it uses 8.0.404 and all 64 tests pass."
        ),
        host="codex",
    ),
    trigger=r"dotnet test",
    cause=r"8\.0\.100|compatible \.NET SDK was not found|SDK",
    fix=r"rollForward|latestFeature",
    junk=_junk(r"The command could not be loaded", r"You intended to execute"),
)

MIX_WARNINGS = Shape(
    "mix-warnings-as-errors",
    "warnings as errors: an unused variable fails the compile, fixed by an underscore (Edit)",
    "Elixir/mix",
    one_session(
        "/home/noor/src/courier",
        Ask("Compile it the way CI does before I push."),
        Run(
            "mix compile --warnings-as-errors",
            'Compiling 3 files (.ex)\n    warning: variable "opts" is unused (if the variable is not meant to be used, prefix it with an underscore)\n    │\n 14 │   def handle_call(:flush, _from, opts) do\n    │                                  ~~~~\n    │\n    └─ lib/courier/buffer.ex:14:34: Courier.Buffer.handle_call/3\n\nCompilation failed due to warnings while using the --warnings-as-errors option',
            1,
        ),
        Edit(
            "lib/courier/buffer.ex",
            "  def handle_call(:flush, _from, opts) do",
            "  def handle_call(:flush, _from, _opts) do",
        ),
        Run("mix compile --warnings-as-errors", "Compiling 3 files (.ex)\nGenerated courier app"),
        Say("It compiles cleanly with warnings as errors."),
        host="gemini",
    ),
    trigger=r"mix compile",
    cause=r"unused|warnings[- ]as[- ]errors",
    fix=r"_opts|underscore",
    junk=_junk(r"Generated courier app"),
)

BAZEL_DEPS = Shape(
    "bazel-missing-dep",
    "a header not found in a .cc file: the fix is a deps entry in the BUILD file, not the file the error names",
    "C++/Bazel",
    one_session(
        "/home/rui/src/relay",
        Ask("Build the server target."),
        Run(
            "bazel build //cmd/server:server",
            'INFO: Analyzed target //cmd/server:server (2 packages loaded, 9 targets configured).\nINFO: Found 1 target...\nERROR: /home/rui/src/relay/cmd/server/BUILD.bazel:3:10: Compiling cmd/server/main.cc failed: (Exit 1): gcc failed: error executing CppCompile command (from target //cmd/server:server) /usr/bin/gcc -U_FORTIFY_SOURCE -fstack-protector -Wall -fno-omit-frame-pointer -MD -MF bazel-out/k8-fastbuild/bin/cmd/server/_objs/server/main.pic.d ... (remaining 21 arguments skipped)\ncmd/server/main.cc:4:10: fatal error: lib/codec/frame.h: No such file or directory\n    4 | #include "lib/codec/frame.h"\n      |          ^~~~~~~~~~~~~~~~~~~\ncompilation terminated.\nTarget //cmd/server:server failed to build\nUse --verbose_failures to see the command lines of failed build steps.\nINFO: Elapsed time: 1.284s, Critical Path: 0.41s\nINFO: 3 processes: 3 internal.\nERROR: Build did NOT complete successfully',
            1,
        ),
        Edit(
            "cmd/server/BUILD.bazel",
            '    deps = ["//lib/net"],',
            '    deps = [\n        "//lib/codec",\n        "//lib/net",\n    ],',
        ),
        Run(
            "bazel build //cmd/server:server",
            "INFO: Analyzed target //cmd/server:server (1 packages loaded, 12 targets configured).\nINFO: Found 1 target...\nTarget //cmd/server:server up-to-date:\n  bazel-bin/cmd/server/server\nINFO: Elapsed time: 2.071s, Critical Path: 1.63s\nINFO: Build completed successfully, 5 total actions",
        ),
        Say("The server target builds: it needed `//lib/codec` in its deps."),
    ),
    trigger=r"bazel build",
    cause=r"frame\.h|No such file",
    fix=r"//lib/codec|deps",
    junk=(r"INFO: ", r"--verbose_failures", r"remaining \d+ arguments"),
)

XCODE_SIGNING = Shape(
    "xcodebuild-signing-off",
    "fails, then passes with a build setting turning code signing off; a long preamble before the error",
    "Swift/Xcode",
    one_session(
        "/Users/kai/src/tally",
        Ask("Check that the iOS target still builds."),
        Run(
            "xcodebuild -scheme Tally -destination 'generic/platform=iOS' build",
            "Command line invocation:\n    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -scheme Tally -destination generic/platform=iOS build\n\nUser defaults from command line:\n    IDEPackageSupportUseBuiltinSCM = YES\n\nPrepare packages\n\nComputeTargetDependencyGraph\nnote: Building targets in dependency order\nnote: Target dependency graph (1 target)\n    Target 'Tally' in project 'Tally' (no dependencies)\n\n/Users/kai/src/tally/Tally.xcodeproj: error: Signing for \"Tally\" requires a development team. Select a development team in the Signing & Capabilities editor. (in target 'Tally' from project 'Tally')\n** BUILD FAILED **\n\n\nThe following build commands failed:\n\tBuilding project Tally with scheme Tally\n(1 failure)",
            65,
        ),
        Run(
            "xcodebuild -scheme Tally -destination 'generic/platform=iOS' build CODE_SIGNING_ALLOWED=NO",
            "Command line invocation:\n    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -scheme Tally -destination generic/platform=iOS build CODE_SIGNING_ALLOWED=NO\n\nPrepare packages\n\nComputeTargetDependencyGraph\nnote: Building targets in dependency order\n\n** BUILD SUCCEEDED **",
        ),
        Say("The iOS target builds with signing off (no development team is set on this machine)."),
    ),
    trigger=r"xcodebuild",
    cause=r"development team|Signing for",
    fix=r"CODE_SIGNING_ALLOWED=NO",
    junk=_junk(
        r"Command line invocation",
        r"User defaults from command line",
        r"Prepare packages",
        r"ComputeTargetDependencyGraph",
        r"Building targets in dependency order",
    ),
)

DOCKER_BUILD_ARG = Shape(
    "docker-build-arg",
    "an image build fails on an empty base image name, passes with --build-arg; BuildKit progress lines around it",
    "Docker",
    one_session(
        "/home/lena/src/storefront",
        Ask("Build the api image."),
        Run(
            "docker build -t storefront-api -f api/Dockerfile .",
            '#0 building with "default" instance using docker driver\n\n#1 [internal] load build definition from Dockerfile\n#1 transferring dockerfile: 412B done\n#1 DONE 0.0s\n\n 1 warning found (use docker --debug to expand):\n - InvalidDefaultArgInFrom: Default value for ARG node:${NODE_VERSION}-alpine results in empty or invalid base image name (line 2)\napi/Dockerfile:2\n--------------------\n   1 |     ARG NODE_VERSION\n   2 | >>> FROM node:${NODE_VERSION}-alpine AS build\n   3 |     WORKDIR /app\n--------------------\nERROR: failed to solve: failed to parse stage name "node:-alpine": invalid reference format',
            1,
        ),
        Run(
            "docker build --build-arg NODE_VERSION=20 -t storefront-api -f api/Dockerfile .",
            '#0 building with "default" instance using docker driver\n\n#1 [internal] load build definition from Dockerfile\n#1 DONE 0.0s\n\n#2 [internal] load metadata for docker.io/library/node:20-alpine\n#2 DONE 1.1s\n\n#9 exporting to image\n#9 writing image sha256:4be1c0a3e5 done\n#9 naming to docker.io/library/storefront-api done\n#9 DONE 0.3s',
        ),
        Say(
            "The image builds with `--build-arg NODE_VERSION=20` (the Dockerfile's ARG has no default)."
        ),
        host="codex",
    ),
    trigger=r"docker build",
    cause=r"NODE_VERSION|node:-alpine|invalid reference format|base image name",
    fix=r"--build-arg NODE_VERSION=20",
    junk=_junk(
        r"#\d+ \[internal\]", r"load build definition", r"#\d+ DONE", r"building with \"default\""
    ),
)

ALEMBIC_COLUMN = Shape(
    "alembic-column-exists",
    "a migration fails on a column that already exists; the revision stamped, then the upgrade passes",
    "Python/Alembic",
    one_session(
        "/home/arjun/src/notes",
        Ask("Apply the migrations to my dev database."),
        Run(
            "alembic upgrade head",
            'INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\nINFO  [alembic.runtime.migration] Running upgrade 41b2c9d0e7aa -> 9e3f7c21ab04, add archived_at to notes\nTraceback (most recent call last):\n  File "/home/arjun/src/notes/.venv/lib/python3.12/site-packages/sqlalchemy/engine/base.py", line 1967, in _exec_single_context\n    self.dialect.do_execute(\npsycopg2.errors.DuplicateColumn: column "archived_at" of relation "notes" already exists\n\nThe above exception was the direct cause of the following exception:\n\nsqlalchemy.exc.ProgrammingError: (psycopg2.errors.DuplicateColumn) column "archived_at" of relation "notes" already exists\n\n[SQL: ALTER TABLE notes ADD COLUMN archived_at TIMESTAMP WITHOUT TIME ZONE]',
            1,
        ),
        Say(
            "The dev database already has `notes.archived_at`: it was added by hand while prototyping, so the migration's ALTER fails. I'll mark that revision as applied instead of running it."
        ),
        Run(
            "alembic stamp 9e3f7c21ab04",
            "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\nINFO  [alembic.runtime.migration] Running stamp_revision 41b2c9d0e7aa -> 9e3f7c21ab04",
        ),
        Run(
            "alembic upgrade head",
            "INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.",
        ),
        Say("The dev database is at head (9e3f7c21ab04)."),
    ),
    trigger=r"alembic upgrade",
    cause=r"archived_at|already exists|DuplicateColumn",
    fix=r"alembic stamp",
    junk=_junk(r"Context impl", r"Will assume transactional DDL", r"The above exception"),
)

JEKYLL_PORT = Shape(
    "jekyll-port-in-use",
    "a port already in use, fixed by another port flag; site-generation progress lines before the error",
    "Ruby/Jekyll",
    one_session(
        "/home/ines/src/handbook",
        Ask("Serve the site so I can look at the new page."),
        Run(
            "bundle exec jekyll serve --detach",
            "Configuration file: /home/ines/src/handbook/_config.yml\n            Source: /home/ines/src/handbook\n       Destination: /home/ines/src/handbook/_site\n Incremental build: disabled. Enable with --incremental\n      Generating... \n                    done in 1.412 seconds.\n Auto-regeneration: disabled when running server detached.\n                    ------------------------------------------------\n      Jekyll 4.3.3   Please append `--trace` to the `serve` command \n                     for any additional information or backtrace. \n                    ------------------------------------------------\n/home/ines/.gem/ruby/3.2.0/gems/webrick-1.8.1/lib/webrick/utils.rb:67:in `bind': Address already in use - bind(2) for 127.0.0.1:4000 (Errno::EADDRINUSE)",
            1,
        ),
        Run(
            "bundle exec jekyll serve --detach --port 4001",
            "Configuration file: /home/ines/src/handbook/_config.yml\n            Source: /home/ines/src/handbook\n       Destination: /home/ines/src/handbook/_site\n Incremental build: disabled. Enable with --incremental\n      Generating... \n                    done in 1.388 seconds.\n Auto-regeneration: disabled when running server detached.\n    Server address: http://127.0.0.1:4001/\nServer detached with pid '48213'. Run `pkill -f jekyll' or `kill -9 48213' to stop the server.",
        ),
        Say("The site is up at http://127.0.0.1:4001/ (port 4000 is taken on this machine)."),
    ),
    trigger=r"jekyll serve",
    cause=r"Address already in use|EADDRINUSE|4000",
    fix=r"--port 4001",
    junk=_junk(
        r"Generating\.\.\.", r"Auto-regeneration", r"Incremental build", r"append `--trace`"
    ),
)

POETRY_ENV = Shape(
    "poetry-fixture-env-var",
    "a fixture reads an environment variable: fails without it, passes with it set on the command",
    "Python/Poetry",
    one_session(
        "/home/arjun/src/digest",
        Ask("Run the mailer tests."),
        Run(
            "poetry run pytest tests/test_mailer.py",
            "============================= test session starts ==============================\nplatform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0\nrootdir: /home/arjun/src/digest\nconfigfile: pyproject.toml\ncollected 6 items\n\ntests/test_mailer.py EEEEEE                                              [100%]\n\n==================================== ERRORS ====================================\n______________________ ERROR at setup of test_send_digest ______________________\n\n    @pytest.fixture\n    def mailer():\n>       return Mailer(host=os.environ[\"SMTP_HOST\"])\n\nE       KeyError: 'SMTP_HOST'\n\ntests/conftest.py:9: KeyError\n=========================== short test summary info ============================\nERROR tests/test_mailer.py::test_send_digest - KeyError: 'SMTP_HOST'\nERROR tests/test_mailer.py::test_send_empty - KeyError: 'SMTP_HOST'\n============================== 6 errors in 0.08s ===============================",
            1,
        ),
        Run(
            "SMTP_HOST=localhost poetry run pytest tests/test_mailer.py",
            "============================= test session starts ==============================\nplatform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0\nrootdir: /home/arjun/src/digest\nconfigfile: pyproject.toml\ncollected 6 items\n\ntests/test_mailer.py ......                                              [100%]\n\n============================== 6 passed in 0.11s ===============================",
        ),
        Say("The 6 mailer tests pass with SMTP_HOST set (the mailer fixture reads it)."),
        host="codex-shell",
    ),
    trigger=r"pytest",
    cause=r"SMTP_HOST|KeyError",
    fix=r"SMTP_HOST=localhost",
    junk=_junk(r"test session starts", r"collected \d+ items", r"rootdir:", r"short test summary"),
)

_ANDROID_FAIL = "\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nCould not determine the dependencies of task ':app:compileDebugJavaWithJavac'.\n> SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable or by setting the sdk.dir path in your project's local properties file at '/home/kai/src/tally-mobile/android/local.properties'.\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n\nBUILD FAILED in 2s"

ANDROID_TWO_SESSIONS = Shape(
    "android-home-two-sessions",
    "the same failure and the same fix (an environment variable) in two sessions: one memory",
    "React Native/Android",
    (
        Session(
            "claude",
            "/home/kai/src/tally-mobile",
            (
                Ask("Build the Android debug app."),
                Run("cd android && ./gradlew assembleDebug", _ANDROID_FAIL, 1),
                Run(
                    "cd android && ANDROID_HOME=$HOME/Android/Sdk ./gradlew assembleDebug",
                    "> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 1m 12s\n412 actionable tasks: 412 executed",
                ),
                Say("The debug app builds with ANDROID_HOME pointing at ~/Android/Sdk."),
            ),
        ),
        Session(
            "claude",
            "/home/kai/src/tally-mobile",
            (
                Ask("Rebuild the Android app after the navigation change."),
                Run("cd android && ./gradlew assembleDebug", _ANDROID_FAIL, 1),
                Run(
                    "cd android && ANDROID_HOME=$HOME/Android/Sdk ./gradlew assembleDebug",
                    "> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 58s\n412 actionable tasks: 37 executed, 375 up-to-date",
                ),
                Say("Rebuilt; it again needed ANDROID_HOME set."),
            ),
        ),
    ),
    trigger=r"assembleDebug|gradlew",
    cause=r"SDK location not found|ANDROID_HOME|sdk\.dir",
    fix=r"ANDROID_HOME=\$HOME/Android/Sdk|ANDROID_HOME=.{0,10}Android/Sdk",
    junk=_junk(r"Run with --stacktrace"),
    most=1,
)

MYPY_CONFIG = Shape(
    "mypy-overrides-in-pyproject",
    "a type checker's error in a module, fixed by a setting in the project's config file (Edit)",
    "Python/mypy",
    one_session(
        "/home/arjun/src/archive",
        Ask("Type-check the package."),
        Run(
            "mypy src",
            'src/archive/store.py:3: error: Skipping analyzing "boto3": module is installed, but missing library stubs or py.typed marker  [import-untyped]\nsrc/archive/store.py:3: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports\nFound 1 error in 1 file (checked 14 source files)',
            1,
        ),
        Edit(
            "pyproject.toml",
            "[tool.mypy]\nstrict = true\n",
            '[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = ["boto3.*", "botocore.*"]\nignore_missing_imports = true\n',
        ),
        Run("mypy src", "Success: no issues found in 14 source files"),
        Say("mypy passes: boto3 ships no type hints, so pyproject.toml now tells mypy to skip it."),
        host="gemini",
    ),
    trigger=r"mypy",
    cause=r"boto3|missing library stubs|import-untyped",
    fix=r"ignore_missing_imports|tool\.mypy\.overrides",
    junk=_junk(r"See https://mypy", r"checked \d+ source files"),
)

ANSIBLE_HEDGE = Shape(
    "ansible-hedge-taken-back",
    "a hedged guess checked and taken back; the real cause stated, fixed by an inventory line",
    "Ansible",
    one_session(
        "/home/mara/src/infra",
        Ask("Run the site playbook against staging."),
        Run(
            "ansible-playbook -i inventories/staging site.yml",
            '\nPLAY [web] *********************************************************************\n\nTASK [Gathering Facts] *********************************************************\nfatal: [web1]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh: root@10.0.4.11: Permission denied (publickey).", "unreachable": true}\n\nPLAY RECAP *********************************************************************\nweb1                       : ok=0    changed=0    unreachable=1    failed=0    skipped=0    rescued=0    ignored=0',
            4,
        ),
        Say("This might be the SSH agent not holding the deploy key. Let me check."),
        Run(
            "ssh-add -l",
            "256 SHA256:Jq2m0Wb9xS1x8l0hY7kqGQz3b2Vx0aQfY1m2n3o4p5Q deploy@infra (ED25519)",
        ),
        Read(
            "inventories/staging/hosts.ini",
            "[web]\nweb1 ansible_host=10.0.4.11\n\n[all:vars]\nansible_user=root\n",
        ),
        Say(
            "Not the agent after all: the key is loaded. The staging inventory logs in as `root`, but the deploy key is only authorized for the `deploy` user. Switching `ansible_user` to deploy."
        ),
        Edit("inventories/staging/hosts.ini", "ansible_user=root", "ansible_user=deploy"),
        Run(
            "ansible-playbook -i inventories/staging site.yml",
            "\nPLAY [web] *********************************************************************\n\nTASK [Gathering Facts] *********************************************************\nok: [web1]\n\nPLAY RECAP *********************************************************************\nweb1                       : ok=9    changed=2    unreachable=0    failed=0    skipped=1    rescued=0    ignored=0",
        ),
        Say("The playbook ran cleanly on staging."),
        host="gemini",
    ),
    trigger=r"ansible-playbook",
    cause=r"Permission denied \(publickey\)|UNREACHABLE|root",
    fix=r"ansible_user=deploy|`?deploy`? user",
    junk=_junk(r"ssh.agent|ssh-add", r"PLAY RECAP", r"Gathering Facts"),
)

CLOJURE_DEPS = Shape(
    "clojure-deps-edn-library",
    "a namespace not on the classpath: a library added to deps.edn (Edit)",
    "Clojure",
    one_session(
        "/home/pia/src/ledger-clj",
        Ask("Run the tests."),
        Run(
            "clojure -M:test",
            "Execution error (FileNotFoundException) at ledger.report/eval138$loading (report.clj:1).\nCould not locate clojure/data/json__init.class, clojure/data/json.clj or clojure/data/json.cljc on classpath.\n\nFull report at:\n/tmp/clojure-8120394875632164412.edn",
            1,
        ),
        Edit(
            "deps.edn",
            '{:deps {org.clojure/clojure {:mvn/version "1.11.1"}}',
            '{:deps {org.clojure/clojure {:mvn/version "1.11.1"}\n        org.clojure/data.json {:mvn/version "2.5.0"}}',
        ),
        Run(
            "clojure -M:test",
            'Downloading: org/clojure/data.json/2.5.0/data.json-2.5.0.pom from central\nDownloading: org/clojure/data.json/2.5.0/data.json-2.5.0.jar from central\n\nRunning tests in #{"test"}\n\nTesting ledger.report-test\n\nRan 9 tests containing 21 assertions.\n0 failures, 0 errors.',
        ),
        Say("All 9 tests pass; data.json was missing from deps.edn."),
    ),
    trigger=r"clojure -M:test",
    cause=r"clojure/data/json|data\.json|classpath",
    fix=r"deps\.edn|org\.clojure/data\.json",
    junk=_junk(r"Full report at", r"Execution error \(FileNotFoundException\) at"),
)

FOUNDRY_REMAPPING = Shape(
    "forge-remappings",
    "an import not found in a contract: fixed by a remappings file written whole, not in the contract",
    "Solidity/Foundry",
    one_session(
        "/home/lee/src/vault",
        Ask("Build the contracts."),
        Run(
            "forge build",
            '[⠊] Compiling...\n[⠒] Compiling 14 files with Solc 0.8.24\n[⠢] Solc 0.8.24 finished in 1.02s\nError: Compiler run failed:\nError (6275): Source "@openzeppelin/contracts/token/ERC20/ERC20.sol" not found: File not found. Searched the following locations: "/home/lee/src/vault".\nParserError: Source "@openzeppelin/contracts/token/ERC20/ERC20.sol" not found: File not found.\n --> src/VaultToken.sol:4:1:\n  |\n4 | import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";\n  | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
            1,
        ),
        Run("ls lib", "forge-std\nopenzeppelin-contracts"),
        Write("remappings.txt", "@openzeppelin/contracts/=lib/openzeppelin-contracts/contracts/\n"),
        Run(
            "forge build",
            "[⠊] Compiling...\n[⠒] Compiling 31 files with Solc 0.8.24\n[⠢] Solc 0.8.24 finished in 2.41s\nCompiler run successful!",
        ),
        Say("The contracts build: the OpenZeppelin import needed a remapping to lib/."),
        host="codex",
    ),
    trigger=r"forge build",
    cause=r"@openzeppelin|ERC20\.sol|not found",
    fix=r"remapping",
    junk=_junk(r"\[⠊\]", r"Solc [\d.]+ finished"),
)

HELM_DEPENDENCIES = Shape(
    "helm-dependency-build",
    "a chart's dependencies fetched first (the error's hint), then the install passes",
    "Kubernetes/Helm",
    one_session(
        "/home/mara/src/infra",
        Ask("Install the api chart into staging."),
        Run(
            "helm install api ./deploy/chart -n staging",
            "Error: INSTALLATION FAILED: An error occurred while checking for chart dependencies. You may need to run `helm dependency build` to fetch missing dependencies: found in Chart.yaml, but missing in charts/ directory: postgresql, redis",
            1,
        ),
        Run(
            "helm dependency build ./deploy/chart",
            'Hang tight while we grab the latest from your chart repositories...\n...Successfully got an update from the "bitnami" chart repository\nUpdate Complete. ⎈Happy Helming!⎈\nSaving 2 charts\nDownloading postgresql from repo https://charts.bitnami.com/bitnami\nDownloading redis from repo https://charts.bitnami.com/bitnami\nDeleting outdated charts',
        ),
        Run(
            "helm install api ./deploy/chart -n staging",
            "NAME: api\nLAST DEPLOYED: Tue May 12 10:41:07 2026\nNAMESPACE: staging\nSTATUS: deployed\nREVISION: 1\nTEST SUITE: None",
        ),
        Say("The api chart is installed in staging."),
    ),
    trigger=r"helm install",
    cause=r"missing in charts/|chart dependencies|postgresql, redis",
    fix=r"helm dependency build",
    junk=_junk(r"Hang tight", r"Happy Helming", r"Saving \d+ charts"),
)

PIP_WARNING = Shape(
    "pip-deprecation-warning-passes",
    "must not fire: a deprecation warning in a run that passed, then tests that pass",
    "Python/pip",
    one_session(
        "/home/arjun/src/scraper",
        Ask("Install the package in editable mode and run the tests."),
        Run(
            "pip install -e .",
            "Obtaining file:///home/arjun/src/scraper\n  Preparing metadata (setup.py) ... done\nInstalling collected packages: scraper\n  Running setup.py develop for scraper\nDEPRECATION: Legacy editable install of scraper==0.4.0 from file:///home/arjun/src/scraper (setup.py develop) is deprecated. pip 25.0 will enforce this behaviour change. A possible replacement is to add a pyproject.toml or enable --use-pep517, and use setuptools >= 64. If the resulting installation is not behaving as expected, try using --config-settings editable_mode=compat. Discussion can be found at https://github.com/pypa/pip/issues/11457\nSuccessfully installed scraper-0.4.0",
        ),
        Run(
            "pytest -q",
            "........................                                     [100%]\n24 passed in 0.61s",
        ),
        Say("Installed in editable mode; the 24 tests pass."),
    ),
    fires=False,
    expect="nothing: the warning failed nothing and nothing was done about it",
)

REBAR_REFUSED = Shape(
    "rebar3-fix-refused",
    "must not fire: a failure the user refuses to have fixed, then another command that passes",
    "Erlang/rebar3",
    one_session(
        "/home/ivo/src/cachex",
        Ask("Run the unit tests."),
        Run(
            "rebar3 eunit",
            "===> Verifying dependencies...\n===> Analyzing applications...\n===> Compiling cachex\n===> Performing EUnit tests...\n.......F..........................\nFailures:\n\n  1) cachex_ttl_tests:expiry_test/0: module 'cachex_ttl_tests'\n     Failure/Error: ?assertEqual(expired, cachex_ttl:state(Entry))\n       expected: expired\n            got: live\n     %% test/cachex_ttl_tests.erl:22:in `cachex_ttl_tests:-expiry_test/0-fun-0-/0`\n\nFinished in 0.412 seconds\n34 tests, 1 failures\n===> Error running tests",
            1,
        ),
        Say(
            "One failure: `expiry_test` builds its entry from a hard-coded date that has now passed. I can make the test use a fixed clock."
        ),
        Ask(
            "No, leave that test alone, someone else is rewriting the TTL module this week. Just run dialyzer."
        ),
        Run(
            "rebar3 dialyzer",
            "===> Verifying dependencies...\n===> Analyzing applications...\n===> Compiling cachex\n===> Dialyzer starting, this may take a while...\n===> Updating plt...\n===> Resolving project files...\n===> Checking 14 files in _build/default/cachex_14.plt...\n===> Doing success typing analysis...\n===> Resolving project warning files...\n===> Analyzing 14 files with _build/default/cachex_14.plt...",
        ),
        Say("Dialyzer finds nothing. I left the failing TTL test alone."),
        host="codex",
    ),
    fires=False,
    expect="nothing: the user refused the fix and the passing command is another check",
)

CARGO_INTERRUPTED = Shape(
    "cargo-test-interrupted",
    "must not fire: a long run interrupted by the user, then a narrower run that passes",
    "Rust/cargo",
    one_session(
        "/home/tomas/src/logship",
        Ask("Run the whole test suite."),
        Run(
            "cargo test --workspace",
            "   Compiling logship v0.2.0 (/home/tomas/src/logship)\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 14.2s\n     Running tests/end_to_end.rs (target/debug/deps/end_to_end-8c1f0a2b3d4e5f60)\n\nrunning 212 tests\ntest api::list_orders ... ok\ntest api::export_all ... has been running for over 60 seconds\n^C",
            130,
        ),
        Ask("[Request interrupted by user for tool use]"),
        Ask("That one takes forever. Just run the tailer's tests."),
        Run(
            "cargo test -p tailer",
            "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.41s\n     Running unittests src/lib.rs (target/debug/deps/tailer-3f2a9c1d0e7b6a55)\n\nrunning 11 tests\ntest result: ok. 11 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s",
        ),
        Say("The tailer's 11 tests pass."),
    ),
    fires=False,
    expect="nothing: the first run was stopped by the user, not failed; the second is a narrower ask",
)

DUNE_STASHED = Shape(
    "dune-fails-with-fix-stashed",
    "must not fire: the user asks to see the test fail with the fix stashed; it passes once restored",
    "OCaml/dune",
    one_session(
        "/home/yan/src/sexp-lite",
        Ask(
            "Before I open the PR, check that the new test fails without my fix: stash lib/parser.ml, run the tests, then bring it back."
        ),
        Run(
            "git stash push lib/parser.ml",
            "Saved working directory and index state WIP on main: 3c1d2e0 Add nested comment test",
        ),
        Run(
            "dune test",
            'File "test/test_parser.ml", line 31, characters 2-58:\nFAIL nested block comments\n  expected: (Ok [Atom "a"])\n  got:      (Error "unterminated comment at 1:4")\nTest Failed. 1 of 18 tests failed.',
            1,
        ),
        Run(
            "git stash pop",
            "On branch main\nChanges not staged for commit:\n\tmodified:   lib/parser.ml\nDropped refs/stash@{0} (a81f3c2d9e0b7c6a5f4e3d2c1b0a9f8e7d6c5b4a)",
        ),
        Run("dune test", "Test Successful in 0.004s. 18 tests run."),
        Say(
            "Confirmed: the nested comment test fails without your parser change and passes with it."
        ),
        host="gemini",
    ),
    fires=False,
    expect="nothing: the failure was asked for, to show the new test catches the bug",
)

CASES: tuple[Shape, ...] = (
    GRADLE_REPOSITORY,
    KOTLIN_IMPORT,
    DOTNET_FEED,
    DOTNET_SDK_PIN,
    MIX_WARNINGS,
    BAZEL_DEPS,
    XCODE_SIGNING,
    DOCKER_BUILD_ARG,
    ALEMBIC_COLUMN,
    JEKYLL_PORT,
    POETRY_ENV,
    ANDROID_TWO_SESSIONS,
    MYPY_CONFIG,
    ANSIBLE_HEDGE,
    CLOJURE_DEPS,
    FOUNDRY_REMAPPING,
    HELM_DEPENDENCIES,
    PIP_WARNING,
    REBAR_REFUSED,
    CARGO_INTERRUPTED,
    DUNE_STASHED,
)
