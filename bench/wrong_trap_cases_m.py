# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, thirteenth part: an architecture summary after reading the code — a
clause about the tests' setup that must not become the project's, and a placement of what the
session just wrote (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

_ROOT = "/home/lee/dev/fleetd"
_PLUGINS = "src/main/kotlin/com/fleet/plugins"
_READS = (
    Read(
        "build.gradle.kts",
        'plugins { kotlin("jvm") version "1.9.22"; id("io.ktor.plugin") version "2.3.8" }\ndependencies { implementation("org.jetbrains.exposed:exposed-core:0.47.0"); implementation("org.postgresql:postgresql:42.7.1"); testImplementation("com.h2database:h2:2.2.224") }\n',
    ),
    Read(
        "src/main/kotlin/com/fleet/Application.kt",
        "fun Application.module() {\n    configureDatabase()\n    configureRouting()\n}\n",
    ),
    Read(
        f"{_PLUGINS}/Routing.kt",
        "fun Application.configureRouting() {\n    routing { vehicleRoutes(); driverRoutes() }\n}\n",
    ),
    Read(
        f"{_PLUGINS}/Database.kt",
        'fun Application.configureDatabase() {\n    Database.connect(environment.config.property("db.url").getString(), driver = "org.postgresql.Driver")\n}\n',
    ),
)

SUMMARY_WITH_TEST_CLAUSE = Trap(
    "summary-test-clause",
    "Kotlin",
    "an architecture summary whose last clause is about the tests' database",
    (
        Session(
            "claude",
            _ROOT,
            (
                Ask("How is this service put together? I want to add a trips resource."),
                *_READS,
                Say(
                    "Routes are installed in `plugins/Routing.kt` (`configureRouting`), one extension function per resource; the database is connected in `plugins/Database.kt` with Exposed against PostgreSQL, and the tests point `db.url` at H2 through `application-test.conf`."
                ),
                Ask("Good, go ahead."),
                Run("./gradlew test", "> Task :test\n\nBUILD SUCCESSFUL in 14s"),
                Say("Adding `tripRoutes()` next to the others."),
            ),
        ),
    ),
    wrong=(
        (
            r"database (?:is|uses|runs on) H2|connected .{0,60}\bH2\b|^(?!.*\btests?\b).*\bH2\b",
            "H2 is the tests' database; the application's is PostgreSQL",
        ),
    ),
    may=(r"Routing\.kt.{0,60}one extension function", r"connected in .{0,60}Database\.kt"),
)

PLACED_WHAT_IT_WROTE = Trap(
    "placed-own-change",
    "Kotlin",
    "a present-tense placement of what the session just wrote",
    (
        Session(
            "claude",
            _ROOT,
            (
                Ask("Add a health route."),
                *_READS,
                Write(
                    f"{_PLUGINS}/Health.kt",
                    'fun Route.healthRoutes() { get("/health") { call.respondText("ok") } }\n',
                ),
                Write(
                    f"{_PLUGINS}/Routing.kt",
                    "fun Application.configureRouting() {\n    routing { vehicleRoutes(); driverRoutes(); healthRoutes() }\n}\n",
                ),
                Say(
                    "The health route is defined in `plugins/Health.kt` and installed in `plugins/Routing.kt` with the other resources."
                ),
                Run("./gradlew test", "> Task :test\n\nBUILD SUCCESSFUL in 12s"),
            ),
        ),
    ),
    wrong=((r"health", "the session's own change, not the layout it read"),),
)

CASES = (SUMMARY_WITH_TEST_CLAUSE, PLACED_WHAT_IT_WROTE)
