# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, fourteenth part: a command run once as the repair of a failure (a wiped
build folder, a forced update of cached dependencies) said as the way the project is built
(`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Run, Say, Session, Trap, Write

_STALE = "ERROR: Build directory has been generated with Meson version 1.2.3, which is incompatible with the current version 1.4.0."

WIPE_AS_BUILD = Trap(
    "wipe-as-build",
    "C",
    "a build folder wiped once to fix a version mismatch, beside the ordinary setup and compile",
    (
        Session(
            "claude",
            "/home/mj/c/quill",
            (
                Ask("Build the project and run the tests."),
                Run(
                    "meson setup build",
                    "The Meson build system\nVersion: 1.2.3\nBuild dir: /home/mj/c/quill/build\nProject name: quill\nBuild targets in project: 4",
                ),
                Run(
                    "meson compile -C build",
                    "[1/6] Compiling C object libquill.a.p/src_parse.c.o\nFAILED: libquill.a.p/src_parse.c.o\n../src/parse.c:88:5: error: implicit declaration of function 'qstr_len' [-Werror=implicit-function-declaration]\nninja: build stopped: subcommand failed.",
                    1,
                ),
                Write(
                    "src/parse.c",
                    '#include "qstr.h"\nint parse(const char *s) { return qstr_len(s); }\n',
                ),
                Run("meson compile -C build", "[6/6] Linking target quill"),
                Run(
                    "meson test -C build",
                    "1/3 quill:parse OK\n2/3 quill:lex OK\n3/3 quill:cli OK\n\nOk: 3\nFail: 0",
                ),
                Say("Fixed the missing include in src/parse.c; the build and all 3 tests pass."),
            ),
        ),
        Session(
            "claude",
            "/home/mj/c/quill",
            (
                Ask("Run the tests."),
                Run("meson test -C build", _STALE, 1),
                Run("meson setup --reconfigure build", _STALE, 1),
                Run(
                    "meson setup --wipe build",
                    "The Meson build system\nVersion: 1.4.0\nBuild targets in project: 4",
                ),
                Run(
                    "meson test -C build",
                    "1/3 quill:parse OK\n2/3 quill:lex OK\n3/3 quill:cli OK\n\nOk: 3\nFail: 0",
                ),
                Say(
                    "The build folder was made by an older Meson; `--wipe` instead of `--reconfigure` worked. All 3 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"To build[^\n]{0,40}--wipe",
            "wiping the build folder fixed a stale folder once: the build is `meson setup build` then `meson compile -C build`",
        ),
    ),
    may=(r"--wipe",),
)

FORCED_UPDATE_AS_BUILD = Trap(
    "forced-update-as-build",
    "Java",
    "a forced update of cached snapshots once after a failed build, beside the ordinary build",
    (
        Session(
            "claude",
            "/home/mj/java/pike",
            (
                Ask("Build and install the modules."),
                Run(
                    "mvn install",
                    "[INFO] Tests run: 64, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
                ),
                Say("Installed; 64 tests pass."),
            ),
        ),
        Session(
            "claude",
            "/home/mj/java/pike",
            (
                Ask("Build again."),
                Run(
                    "mvn install",
                    "[ERROR] Failed to execute goal on project pike-web: Could not resolve dependencies for project com.mj:pike-web:jar:0.9-SNAPSHOT: The following artifacts could not be resolved: com.mj:pike-core:jar:0.9-SNAPSHOT (absent): com.mj:pike-core:jar:0.9-SNAPSHOT was cached in the local repository, resolution will not be reattempted until the update interval of snapshots has elapsed -> [Help 1]",
                    1,
                ),
                Run(
                    "mvn -U clean install",
                    "[INFO] Tests run: 64, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
                ),
                Say("A cached missing snapshot; forcing updates with `-U` fixed it."),
            ),
        ),
    ),
    wrong=(
        (
            r"To (build|install)[^\n]{0,30}`mvn -U",
            "the forced update repaired a cached missing snapshot once: the build is `mvn install`",
        ),
    ),
    may=(r"mvn install",),
)

CASES = (WIPE_AS_BUILD, FORCED_UPDATE_AS_BUILD)
