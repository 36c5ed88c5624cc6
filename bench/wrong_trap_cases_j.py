# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, tenth part: a step tried between two identical failures did not fix
anything (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

_STALE = 'lib/models/user.g.dart:9:7: Error: Too few positional arguments: 2 required, 1 given.\n    User(\n      ^\n00:03 +0 -1: loading /home/li/apps/tidepool/test/user_test.dart [E]\n  Failed to load "/home/li/apps/tidepool/test/user_test.dart": Compilation failed\n00:03 +0 -1: Some tests failed.'

CLEAN_DID_NOT_FIX = Trap(
    "clean-did-not-fix",
    "Dart",
    "a clean-up run between two identical failures; a code generator run after the second fixes it",
    (
        Session(
            "claude",
            "/home/li/apps/tidepool",
            (
                Ask("Add an email field to the User model and make the tests pass."),
                Read(
                    "lib/models/user.dart",
                    "import 'package:json_annotation/json_annotation.dart';\npart 'user.g.dart';\n@JsonSerializable()\nclass User { final String name; User(this.name); }\n",
                ),
                Write(
                    "lib/models/user.dart",
                    "import 'package:json_annotation/json_annotation.dart';\npart 'user.g.dart';\n@JsonSerializable()\nclass User { final String name; final String email; User(this.name, this.email); }\n",
                ),
                Run("flutter test", _STALE, 1),
                Run(
                    "flutter clean",
                    "Deleting build...                12ms\nDeleting .dart_tool...           4ms",
                ),
                Run("flutter test", _STALE, 1),
                Say(
                    "user.g.dart is generated and stale after the model change; it must be regenerated before the tests compile."
                ),
                Run(
                    "dart run build_runner build --delete-conflicting-outputs",
                    "[INFO] Running build completed, took 6.1s\n[INFO] Succeeded after 6.2s with 3 outputs (7 actions)",
                ),
                Run("flutter test", "00:04 +9: All tests passed!"),
                Say("Regenerated the code; all 9 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"flutter clean.{0,40}(fixed|worked)|(fixed|worked).{0,60}flutter clean",
            "`flutter clean` ran before the same failure again: it fixed nothing",
        ),
    ),
    may=(r"flutter test",),
)

CASES = (CLEAN_DID_NOT_FIX,)
