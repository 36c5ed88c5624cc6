# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The session-start study's made-up projects whose earlier sessions met a one-off pitfall
(`bench/start_study.py`): a failure whose fix was an edit of the code, which the session start
leaves out unless its trigger recurs. Their later sessions work where the trap lies (and would
walk into it again), or elsewhere; one project's trap was met in two sessions, which the start
already shows. Every project, its needs and its patterns included, was written before any rule
ran on it.
"""

from __future__ import annotations

from bench.start_study_types import Need, Project
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session

KOTLIN = "/home/sven/code/tidepool"
KOTLIN_PASS = (
    "./gradlew test",
    "> Task :compileKotlin\n> Task :test\n\nBUILD SUCCESSFUL in 14s\n5 actionable tasks: 2 executed, 3 up-to-date\n",
)
KOTLIN_FAIL = (
    "./gradlew test",
    "> Task :test FAILED\n\nTideTableTest > parsesLocalTimes() FAILED\n    java.time.format.DateTimeParseException: Text '7:05' could not be parsed at index 0\n        at TideTable.parse(TideTable.kt:48)\n\n12 tests completed, 1 failed\n\nBUILD FAILED in 11s\n",
    1,
)
KOTLIN_TRAP_AGAIN = Project(
    "kotlin-trap-again",
    "Kotlin (Gradle)",
    "a one-off parse failure fixed in the code; the later session changes the same parser",
    (
        Session(
            "claude",
            KOTLIN,
            (
                Ask("Support tide tables that write times without a leading zero."),
                Read(
                    "build.gradle.kts",
                    'plugins {\n    kotlin("jvm") version "1.9.24"\n}\n\ngroup = "dev.sven"\nversion = "0.2.0"\n',
                ),
                Edit(
                    "src/main/kotlin/TideTable.kt",
                    'private val FMT = DateTimeFormatter.ofPattern("HH:mm")',
                    'private val FMT = DateTimeFormatter.ofPattern("HH:mm")\n// TODO single-digit hours',
                ),
                Run(*KOTLIN_FAIL),
                Edit(
                    "src/main/kotlin/TideTable.kt",
                    'DateTimeFormatter.ofPattern("HH:mm")',
                    'DateTimeFormatter.ofPattern("H:mm")',
                ),
                Run(*KOTLIN_PASS),
                Say(
                    "The pattern was `HH:mm`, which needs two hour digits; `H:mm` reads both `7:05` and `17:05`. `./gradlew test` passes."
                ),
            ),
        ),
        Session(
            "claude",
            KOTLIN,
            (
                Ask("Add the moon phase to the daily summary."),
                Edit(
                    "src/main/kotlin/Summary.kt",
                    "val lines = listOf(tides)",
                    "val lines = listOf(tides, moonPhase(day))",
                ),
                Run(*KOTLIN_PASS),
                Say("The summary has a moon phase line; tests pass."),
            ),
        ),
    ),
    (Need("pitfall", (r"could not be parsed|HH:mm", r"H:mm")),),
    "Tide tables from the new provider write times like 7.05 with a dot; make the parser take those too.",
    (
        Need("test", (r"`\./gradlew test`",)),
        Need("pitfall", (r"could not be parsed|HH:mm", r"H:mm")),
    ),
)

DOTNET = "/home/amara/src/Harbor"
DOTNET_PASS = (
    "dotnet test",
    "  Determining projects to restore...\n  All projects are up-to-date for restore.\n  Harbor.Tests -> /home/amara/src/Harbor/tests/Harbor.Tests/bin/Debug/net8.0/Harbor.Tests.dll\nPassed!  - Failed:     0, Passed:    52, Skipped:     0, Total:    52, Duration: 1 s\n",
)
DOTNET_TRAP_UNNEEDED = Project(
    "dotnet-trap-unneeded",
    "C# (.NET)",
    "a one-off null reference fixed in the code; the later session works on the docs site's build",
    (
        Session(
            "claude",
            DOTNET,
            (
                Ask("Berth bookings with no vessel crash the report. Fix it."),
                Run(
                    "dotnet test",
                    "  Harbor.Tests -> /home/amara/src/Harbor/tests/Harbor.Tests/bin/Debug/net8.0/Harbor.Tests.dll\n[xUnit.net 00:00:00.41]     Harbor.Tests.ReportTests.EmptyVessel [FAIL]\n  Failed Harbor.Tests.ReportTests.EmptyVessel [3 ms]\n  Error Message:\n   System.NullReferenceException : Object reference not set to an instance of an object.\n  Stack Trace:\n     at Harbor.Reports.BerthReport.Row(Booking b) in /home/amara/src/Harbor/src/Harbor/Reports/BerthReport.cs:line 37\nFailed!  - Failed:     1, Passed:    51, Skipped:     0, Total:    52, Duration: 1 s\n",
                    1,
                ),
                Edit(
                    "src/Harbor/Reports/BerthReport.cs",
                    "b.Vessel.Name",
                    'b.Vessel?.Name ?? "(none)"',
                ),
                Run(*DOTNET_PASS),
                Say(
                    "`BerthReport.Row` read `b.Vessel.Name` without a null check; it prints `(none)` now. All 52 tests pass."
                ),
            ),
        ),
        Session(
            "claude",
            DOTNET,
            (
                Ask("Add a CSV export to the berth report."),
                Edit(
                    "src/Harbor/Reports/BerthReport.cs",
                    "public string Render()",
                    "public string ToCsv() => string.Join('\\n', Rows.Select(r => r.ToCsv()));\n    public string Render()",
                ),
                Run(*DOTNET_PASS),
                Say("`BerthReport.ToCsv()` added; 52 tests pass."),
            ),
        ),
    ),
    (Need("pitfall", (r"NullReferenceException|Vessel",)),),
    "The API docs page lists the endpoints in random order; sort them by route.",
    (Need("test", (r"`dotnet test`",)),),
)

PHP = "/home/jonas/www/parcelo"
PHP_PASS = (
    "composer test",
    "> phpunit\nPHPUnit 11.1.3 by Sebastian Bergmann and contributors.\n\n..........................................  42 / 42 (100%)\n\nTime: 00:00.188, Memory: 10.00 MB\n\nOK (42 tests, 97 assertions)\n",
)
PHP_TRAP_UNNEEDED = Project(
    "php-trap-unneeded",
    "PHP (Composer, PHPUnit)",
    "a one-off rounding failure fixed in the code; the later session adds a shipping zone",
    (
        Session(
            "claude",
            PHP,
            (
                Ask(
                    "Totals are off by a cent on some orders. Find out why. Always use strict_types in new files."
                ),
                Run(
                    "composer test",
                    "> phpunit\nPHPUnit 11.1.3 by Sebastian Bergmann and contributors.\n\n.........F................................  42 / 42 (100%)\n\nThere was 1 failure:\n\n1) Tests\\OrderTotalTest::testRoundsHalfUp\nFailed asserting that 10.04 is identical to 10.05.\n\n/home/jonas/www/parcelo/tests/OrderTotalTest.php:31\n\nFAILURES!\nTests: 42, Assertions: 97, Failures: 1.\n",
                    1,
                ),
                Edit(
                    "src/OrderTotal.php",
                    "return floor($cents) / 100;",
                    "return round($cents, 0, PHP_ROUND_HALF_UP) / 100;",
                ),
                Run(*PHP_PASS),
                Say(
                    "`OrderTotal` floored the cents instead of rounding half up; fixed, 42 tests pass."
                ),
            ),
        ),
        Session(
            "claude",
            PHP,
            (
                Ask("Add a gift-wrap fee line. Always use strict_types in new files."),
                Edit(
                    "src/OrderTotal.php",
                    "$lines = $this->items;",
                    "$lines = [...$this->items, ...$this->fees()];",
                ),
                Run(*PHP_PASS),
                Say("Gift wrap is a fee line now; 42 tests pass."),
            ),
        ),
    ),
    (Need("pitfall", (r"10\.04|round|floor",)),),
    "Add a shipping zone for the Channel Islands with its own flat rate.",
    (Need("test", (r"`composer test`",)), Need("pref", (r"strict_types",))),
)

PY = "/home/rosa/proj/chorebot"
PY_PASS = (
    "python -m pytest",
    "============================= test session starts ==============================\ncollected 23 items\n\ntests/test_schedule.py ...........                                      [ 47%]\ntests/test_notify.py ............                                        [100%]\n\n============================== 23 passed in 0.61s ==============================\n",
)
PY_DETOUR_AGAIN = Project(
    "python-detour-again",
    "Python (pytest)",
    "a long detour (three failing runs) to a naive/aware datetime mix-up fixed in the code; the later session adds a time-zone option",
    (
        Session(
            "claude",
            PY,
            (
                Ask("Reminders fire an hour late since the clocks changed. Fix it."),
                Run(
                    "python -m pytest",
                    "tests/test_schedule.py ....F......\n\n    def next_run(self, now):\n>       if self.at < now:\nE       TypeError: can't compare offset-naive and offset-aware datetimes\n\nchorebot/schedule.py:58: TypeError\n=========================== 1 failed, 22 passed in 0.70s ===========================\n",
                    1,
                ),
                Edit(
                    "chorebot/schedule.py",
                    "now = datetime.now()",
                    "now = datetime.now().astimezone()",
                ),
                Run(
                    "python -m pytest",
                    "tests/test_schedule.py ....F......\nE       AssertionError: assert datetime.datetime(2026, 3, 29, 9, 0) == datetime.datetime(2026, 3, 29, 8, 0, tzinfo=datetime.timezone.utc)\n=========================== 1 failed, 22 passed in 0.66s ===========================\n",
                    1,
                ),
                Edit(
                    "chorebot/schedule.py",
                    "self.at = datetime.fromisoformat(raw)",
                    "self.at = datetime.fromisoformat(raw).replace(tzinfo=timezone.utc)",
                ),
                Run(*PY_PASS),
                Say(
                    "The schedule mixed naive and aware datetimes: `datetime.now()` was naive while stored times were UTC. Both sides are aware now (UTC); 23 passed."
                ),
            ),
        ),
        Session(
            "claude",
            PY,
            (
                Ask("Send the weekly summary on Sundays instead of Mondays."),
                Edit("chorebot/notify.py", "WEEKLY_DAY = 0", "WEEKLY_DAY = 6"),
                Run(*PY_PASS),
                Say("Weekly summaries go out on Sundays; 23 passed."),
            ),
        ),
    ),
    (Need("pitfall", (r"offset-naive|naive", r"aware|utc|astimezone")),),
    "Let each household set its own time zone for reminders.",
    (
        Need("test", (r"`python -m pytest`",)),
        Need("pitfall", (r"offset-naive|naive", r"aware|utc|astimezone")),
    ),
)

C = "/home/yuki/src/minitar"
C_PASS = (
    "make check",
    "cc -Wall -Wextra -O2 -c src/tar.c -o build/tar.o\ncc -o build/minitar build/tar.o build/main.o\n./tests/run.sh\nok 1 - list empty archive\nok 2 - list three files\nok 3 - extract keeps modes\nok 4 - long names\n4 of 4 passed\n",
)
C_TRAP_UNNEEDED = Project(
    "c-trap-unneeded",
    "C (Make)",
    "a one-off off-by-one in header parsing fixed in the code; the later session writes the man page",
    (
        Session(
            "claude",
            C,
            (
                Ask("Long file names come out truncated by one character. Fix it."),
                Run(
                    "make check",
                    "./tests/run.sh\nok 1 - list empty archive\nok 2 - list three files\nok 3 - extract keeps modes\nnot ok 4 - long names\n#   expected: 'a/very/long/path/to/some/file.txt'\n#        got: 'a/very/long/path/to/some/file.tx'\n3 of 4 passed\nmake: *** [Makefile:22: check] Error 1\n",
                    2,
                ),
                Edit(
                    "src/tar.c",
                    "memcpy(name, hdr->name, len - 1);",
                    "memcpy(name, hdr->name, len);",
                ),
                Run(*C_PASS),
                Say(
                    "The name copy dropped its last byte (`len - 1`); fixed in `src/tar.c`, `make check` passes."
                ),
            ),
        ),
    ),
    (Need("pitfall", (r"long names|len - 1|truncat",)),),
    "Write a man page for minitar covering its three flags.",
    (Need("test", (r"`make check`",)),),
)

JAVA = "/home/ode/work/quarry"
JAVA_PASS = (
    "mvn -q test",
    "[INFO] Tests run: 61, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n",
)
JAVA_FAIL = (
    "mvn -q test",
    "[ERROR] Tests run: 61, Failures: 0, Errors: 1, Skipped: 0\n[ERROR] QueryPlannerTest.joinsThreeTables:88 » ConcurrentModification\n[ERROR]   at java.base/java.util.ArrayList$Itr.checkForComodification(ArrayList.java:1095)\n[ERROR]   at dev.ode.quarry.QueryPlanner.prune(QueryPlanner.java:141)\n[INFO] BUILD FAILURE\n",
    1,
)
JAVA_TRAP_RECURRED = Project(
    "java-trap-recurred",
    "Java (Maven)",
    "the same failure met in two sessions (each fixed in the code); the later session changes the planner again",
    (
        Session(
            "claude",
            JAVA,
            (
                Ask("The planner should drop joins whose table is never read."),
                Read(
                    "pom.xml",
                    "<project>\n  <groupId>dev.ode</groupId>\n  <artifactId>quarry</artifactId>\n  <version>0.4.0</version>\n</project>\n",
                ),
                Edit(
                    "src/main/java/dev/ode/quarry/QueryPlanner.java",
                    "void prune() {",
                    "void prune() {\n    for (Join j : joins) if (!reads(j.table())) joins.remove(j);",
                ),
                Run(*JAVA_FAIL),
                Edit(
                    "src/main/java/dev/ode/quarry/QueryPlanner.java",
                    "    for (Join j : joins) if (!reads(j.table())) joins.remove(j);",
                    "    joins.removeIf(j -> !reads(j.table()));",
                ),
                Run(*JAVA_PASS),
                Say(
                    "Removing from `joins` while iterating it threw `ConcurrentModificationException`; `removeIf` does it safely. 61 tests pass."
                ),
            ),
        ),
        Session(
            "claude",
            JAVA,
            (
                Ask("Also drop filters that are always true."),
                Edit(
                    "src/main/java/dev/ode/quarry/QueryPlanner.java",
                    "void simplify() {",
                    "void simplify() {\n    for (Filter f : filters) if (f.isTautology()) filters.remove(f);",
                ),
                Run(*JAVA_FAIL),
                Edit(
                    "src/main/java/dev/ode/quarry/QueryPlanner.java",
                    "    for (Filter f : filters) if (f.isTautology()) filters.remove(f);",
                    "    filters.removeIf(Filter::isTautology);",
                ),
                Run(*JAVA_PASS),
                Say(
                    "Same trap as last time: removing inside a for-each. `removeIf` again; 61 tests pass."
                ),
            ),
        ),
    ),
    (Need("pitfall", (r"ConcurrentModification",)),),
    "Merge adjacent projections in the planner.",
    (Need("test", (r"`mvn -q test`",)), Need("pitfall", (r"ConcurrentModification",))),
)

PROJECTS = (
    KOTLIN_TRAP_AGAIN,
    DOTNET_TRAP_UNNEEDED,
    PHP_TRAP_UNNEEDED,
    PY_DETOUR_AGAIN,
    C_TRAP_UNNEEDED,
    JAVA_TRAP_RECURRED,
)
