# ruff: noqa: E501  (transcript text: replies and outputs are kept as one string a line)
"""The facts study's fourth session set: a change the user wants, said with a request for a plan
and no change made yet ("I think we can drop X here. Think through a plan and share it.").
What the next session needs is the direction in the user's own words, said as asked for and not
as done: which part goes, what it would become, and what the user has seen work elsewhere. The
must-fire cases are a Django app moving its background jobs, a Go service leaving hand-written
SQL and a Rust CLI whose config parsing is to be replaced (Claude Code and Codex); the traps are
a change the user says is already done before asking for a plan of something else, a plan
dropped a message later, a question that only weighs a change, and a plan asked for with no
change named. Every case, its facts and its `never` patterns included, was written before any
rule ran on it (`python -m bench.facts_study_sessions --set d`).
"""

from __future__ import annotations

from bench.facts_study_session_cases import Case, fact, never
from bench.trap_transcripts import Ask, Read, Run, Say, one_session

#: No memory may say the wanted change was made (it is only planned).
_DONE = r"\b(?:migrated|moved|switched|ported|replaced|removed|dropped)\b[^\n]{0,40}\b(?:to|with|onto)\b"

DJANGO_JOBS = Case(
    "plan-asked-django-jobs",
    "Python (Django, Claude Code)",
    one_session(
        "/home/nia/src/bookings",
        Ask(
            "I'd like us to consider moving the background jobs off Celery. On another project I run a plain Redis queue with RQ and it has been much less hassle. I think we can drop Celery and the RabbitMQ container here. Think through a plan for the switch and share it before changing anything."
        ),
        Read(
            "bookings/celery.py",
            'import os\n\nfrom celery import Celery\n\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookings.settings")\napp = Celery("bookings")\napp.config_from_object("django.conf:settings", namespace="CELERY")\napp.autodiscover_tasks()\n',
        ),
        Run(
            "grep -rn '@shared_task' --include=*.py .",
            "./reminders/tasks.py:8:@shared_task\n./invoices/tasks.py:12:@shared_task\n./invoices/tasks.py:31:@shared_task\n",
        ),
        Say(
            "Here is a plan:\n\n1. Add `django-rq` and a `redis` service to `docker-compose.yml`.\n2. Port the three `@shared_task` functions to plain functions queued with `django_rq.enqueue`.\n3. Replace the beat schedule with `rq-scheduler`.\n4. Remove Celery, `bookings/celery.py` and the RabbitMQ container.\n\nNothing is changed yet; say the word and I'll start with step 1."
        ),
    ),
    (
        fact(
            "the user wants the jobs moved off Celery to RQ, a plan asked first",
            r"celery",
            r"\bRQ\b|redis queue",
        ),
    ),
    (
        never(_DONE, "nothing was moved: the user asked for a plan"),
        never(
            r"\b(?:uses|is using|runs on|runs its jobs (?:on|with))\b[^\n]{0,20}\bRQ\b",
            "RQ is what the user runs in another project",
        ),
    ),
)

GO_SQLC = Case(
    "plan-asked-go-sqlc",
    "Go (Codex)",
    one_session(
        "/home/teo/go/src/ledgerd",
        Ask(
            "We should get rid of the hand-rolled SQL layer in internal/store and generate it with sqlc instead, like we did in the billing service. Come up with a plan for that and show me, no code yet."
        ),
        Run(
            "ls internal/store",
            "accounts.go\naccounts_test.go\nentries.go\nentries_test.go\nstore.go\n",
        ),
        Say(
            "Plan: 1. add `sqlc.yaml` and move the queries into `internal/store/queries/*.sql`; 2. generate the package and swap `accounts.go` and `entries.go` for it; 3. keep the tests and run `go test ./internal/store`. I have not changed anything."
        ),
        host="codex",
    ),
    (
        fact(
            "the user wants the hand-written SQL layer replaced by sqlc, a plan asked first",
            r"sqlc",
            r"hand-rolled|sql layer|internal/store",
        ),
    ),
    (
        never(_DONE, "nothing was replaced: the user asked for a plan"),
        never(
            r"\b(?:uses|is using|generated (?:with|by))\b[^\n]{0,20}\bsqlc\b",
            "sqlc is not used yet",
        ),
    ),
)

RUST_FIGMENT = Case(
    "plan-asked-rust-config",
    "Rust (Claude Code)",
    one_session(
        "/home/ida/src/tidy",
        Ask(
            "I want to replace our own TOML config parsing with figment, so env vars can override the file. Draft a plan first and share it."
        ),
        Read(
            "src/config.rs",
            "use serde::Deserialize;\n\n#[derive(Deserialize)]\npub struct Config {\n    pub root: String,\n    pub keep_days: u32,\n}\n\npub fn load(path: &str) -> anyhow::Result<Config> {\n    Ok(toml::from_str(&std::fs::read_to_string(path)?)?)\n}\n",
        ),
        Say(
            'Plan: add `figment` with the `toml` and `env` features, build the config from `Toml::file` then `Env::prefixed("TIDY_")`, and keep `Config` as it is. Shall I go ahead?'
        ),
    ),
    (
        fact(
            "the user wants the config parsing replaced with figment, a plan asked first",
            r"figment",
            r"config|toml",
        ),
    ),
    (never(_DONE, "nothing was replaced: the user asked for a plan"),),
)

ALREADY_DONE = Case(
    "plan-asked-change-already-done",
    "JavaScript (Node, Claude Code)",
    one_session(
        "/home/lev/src/agenda",
        Ask(
            "I removed the dependency on Moment and switched to date-fns last week. Think through a plan for the remaining timezone bugs and share it."
        ),
        Run(
            "grep -rn 'tz' src --include=*.js | head",
            "src/format.js:4:const tz = process.env.TZ || 'UTC';\nsrc/format.js:19:  return formatInTimeZone(d, tz, 'yyyy-MM-dd');\n",
        ),
        Say(
            "The timezone bugs come from reading `TZ` at import time. Plan: pass the user's zone into `formatDay`, drop the module-level `tz`, and add tests for two zones."
        ),
    ),
    (),
    (
        never(
            r"\b(?:wants?|would like|plan\w*)\b[^\n]{0,80}\b(?:remove|drop|replace)\w*[^\n]{0,40}\bmoment\b",
            "Moment is already gone: the change was made last week",
        ),
    ),
)

DROPPED = Case(
    "plan-asked-then-dropped",
    "C# (.NET, Claude Code)",
    one_session(
        "/home/ro/src/Shipments",
        Ask(
            "I think we can drop AutoMapper here and write the mappings by hand, the profiles are more trouble than they are worth. Think through a plan for that and share it."
        ),
        Say(
            "Plan: list the 14 `CreateMap` calls, write an extension method per mapping next to each DTO, swap the `IMapper` calls, then remove the AutoMapper packages."
        ),
        Ask(
            "Actually never mind, forget the plan. Just fix the null reference in ShipmentController for now."
        ),
        Read(
            "src/Shipments.Api/Controllers/ShipmentController.cs",
            "public IActionResult Get(int id)\n{\n    var s = _db.Shipments.Find(id);\n    return Ok(_mapper.Map<ShipmentDto>(s));\n}\n",
        ),
        Say("`Get` now returns 404 when the shipment is missing instead of mapping null."),
    ),
    (),
    (never(r"automapper", "the user dropped the plan to remove AutoMapper"),),
)

ONLY_A_QUESTION = Case(
    "plan-question-only",
    "Ruby (Rails, Claude Code)",
    one_session(
        "/home/oz/src/pantry",
        Ask(
            "Should we drop MongoDB for Postgres at some point? What would a plan for that even look like? Just curious, no changes."
        ),
        Say(
            "It would mean replacing Mongoid with ActiveRecord models, writing migrations for the four collections and a one-off copy script. It is a few days of work; nothing here forces it now."
        ),
    ),
    (),
    (
        never(
            r"\b(?:wants?|would like|plan\w*|asked)\b[^\n]{0,80}\b(?:drop|replace|remove|move)\w*[^\n]{0,40}\bmongo",
            "the user only asked what such a change would take",
        ),
    ),
)

NO_CHANGE_NAMED = Case(
    "plan-asked-nothing-named",
    "Kotlin (Gradle, Codex)",
    one_session(
        "/home/ev/src/trailmap",
        Ask("Think through a plan for the next release and share it."),
        Run("git log --oneline -5", "a1b2c3d Fix map tiles cache\n9f8e7d6 Add offline mode\n"),
        Say(
            "Plan for 1.4: finish offline mode, ship the tile cache fix, update the store listing."
        ),
        host="codex",
    ),
    (),
    (
        never(
            r"\bthe user\b[^\n]{0,40}\b(?:wants?|would like)\b[^\n]{0,40}\b(?:drop|replace|remove|switch)",
            "the user named no change",
        ),
    ),
)

CASES = (
    DJANGO_JOBS,
    GO_SQLC,
    RUST_FIGMENT,
    ALREADY_DONE,
    DROPPED,
    ONLY_A_QUESTION,
    NO_CHANGE_NAMED,
)
