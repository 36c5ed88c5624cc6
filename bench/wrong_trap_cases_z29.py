# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z29`: conversations that plan, weigh or question work rather than do
it, where a naive reading of a doubt, a plan or a project document would say something wrong,
each written in several ecosystems and hosts (`bench/wrong_traps.py` runs them), beside sessions
where the same rules must still fire:

- a doubt about over-engineering that is not the user's: the assistant's own rhetorical
  question, or the brief the assistant wrote for a subagent, kept as the user's habit; and a
  user's question that only weighs a tool ("is Redis overkill for this, or is it the usual
  choice?") kept as a push back;
- a change the user asks a plan for, with what they use in another project, kept as done or
  as this project's stack ("the project uses Drizzle", "migrated to Drizzle"); the assistant's
  planned steps kept as done; a plan the user drops a message later kept;
- a project document's labelled name and description kept as what this project is when the
  name is another project's, or when the fields are still a template's placeholders.

Written blind, before any rule for them and before any of them ran.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Delegate, Read, Run, Say, Trap, one_session

#: A user_style memory (or start line) saying the user pushes back on over-engineering.
_PUSHBACK = r"\buser\b[^\n]{0,80}\b(?:over-?engineer|overkill|overdo|over-?complicat|simplest)"

# -- a doubt about over-engineering that is not the user's ----------------------------------

ASSISTANT_ASKS_ITSELF = Trap(
    "assistant-rhetorical-overengineering",
    "Go",
    "the assistant asks itself whether it is over-engineering; the user only asked for a fix",
    one_session(
        "/home/ren/src/feedcache",
        Ask("The feed cache returns stale items after a restart, please fix it."),
        Read(
            "internal/cache/cache.go",
            "package cache\n\ntype Cache struct {\n\titems map[string][]byte\n}\n",
        ),
        Say(
            "Are we over-engineering this? No: the cache only needs to load the snapshot on start. I added `Load` and call it from `main`."
        ),
        Run("go test ./...", "ok  \tgithub.com/ren/feedcache/internal/cache\t0.011s\n"),
        Say("Fixed: the cache loads its snapshot at start; `go test ./...` passes."),
    ),
    wrong=((_PUSHBACK, "the doubt was the assistant's own question, not the user's"),),
)

SUBAGENT_BRIEF_DOUBT = Trap(
    "subagent-brief-overengineering",
    "Python",
    "the assistant's brief to a subagent asks it to check for over-engineering; the user said nothing of it",
    one_session(
        "/home/sol/src/pollster",
        Ask("Review the new plugin loader and tell me if anything is broken."),
        Delegate(
            "Review `pollster/plugins/loader.py`. Check whether we are over-engineering the plugin discovery, and list any bugs.",
            "The loader is fine; one bug: entry points are loaded twice when a plugin is installed in editable mode.",
        ),
        Run(
            "git diff --stat main",
            " pollster/plugins/loader.py | 42 ++++++++++++++++++++++++------\n 1 file changed, 34 insertions(+), 8 deletions(-)\n",
        ),
        Say("One bug: editable installs load their entry points twice. Nothing else is broken."),
    ),
    wrong=((_PUSHBACK, "the brief was the assistant's, written for a subagent"),),
)

WEIGHS_A_TOOL = Trap(
    "question-weighs-a-tool",
    "Rust",
    "the user asks whether a tool is overkill or the usual choice: a question, no push back",
    one_session(
        "/home/ada/src/tallyd",
        Ask(
            "Is Redis overkill for caching a few hundred rows here, or is it the usual choice? Just want to understand."
        ),
        Run("grep -n 'redis\\|moka' Cargo.toml", '14:redis = "0.25"\n'),
        Say(
            "For a few hundred rows an in-process cache such as `moka` is the usual choice; Redis pays off when several processes share the cache."
        ),
        host="codex",
    ),
    wrong=((_PUSHBACK, "the user asked a question about a tool's fit, nothing more"),),
)

# -- a plan asked for, kept as done or as the stack ------------------------------------------

PLAN_OTHER_PROJECT_STACK = Trap(
    "plan-other-project-stack-kept-as-this",
    "Python",
    "the user asks for a plan to leave SQLAlchemy for what they use in another project; nothing changes",
    one_session(
        "/home/ola/src/ticketdesk",
        Ask(
            "I think we can remove the dependency on SQLAlchemy here. In another project I use Piccolo and its migrations are much simpler. Think through a plan for the change and share it."
        ),
        Read(
            "ticketdesk/db.py",
            "from sqlalchemy import create_engine\nfrom sqlalchemy.orm import sessionmaker\n\nengine = create_engine('postgresql://localhost/ticketdesk')\nSession = sessionmaker(engine)\n",
        ),
        Run("ls migrations/versions | wc -l", "23\n"),
        Say(
            "Plan: 1. Install Piccolo and define the four tables. 2. Port the queries in `ticketdesk/repo.py`. 3. Replace Alembic migrations with Piccolo's. 4. Remove SQLAlchemy. Nothing is changed yet."
        ),
    ),
    wrong=(
        (
            r"\b(?:ticketdesk|the project|this project|the app|it)\b[^\n]{0,30}\b(?:uses|is using|is built on|runs on)\b[^\n]{0,20}\bpiccolo\b",
            "Piccolo is what the user uses in another project",
        ),
        (
            r"\b(?:migrated|moved|switched|ported)\b[^\n]{0,40}\b(?:to|onto)\b[^\n]{0,20}\bpiccolo\b|\bsqlalchemy\b[^\n]{0,20}\b(?:was|has been|is now) (?:removed|replaced|dropped)",
            "nothing was migrated: a plan was asked for",
        ),
        (
            r"\b(?:installed|added)\b[^\n]{0,20}\bpiccolo\b",
            "the assistant's plan only lists installing it",
        ),
    ),
)

PLAN_DROPPED_LATER = Trap(
    "plan-asked-then-dropped-kept",
    "TypeScript",
    "the user asks for a plan to drop a library, then drops the plan",
    one_session(
        "/home/kit/src/shelfapi",
        Ask(
            "I want to get rid of Express and move the API to Fastify, like in my other services. Draft a plan first and share it."
        ),
        Say(
            "Plan: swap the router, port the 12 middlewares, move the error handler, then remove Express."
        ),
        Ask("Hmm, scratch that, change of plans. Just bump the body size limit to 5mb."),
        Read("src/app.ts", "app.use(express.json({ limit: '1mb' }));\n"),
        Run('grep -rn "limit: \'" src', "src/app.ts:1:app.use(express.json({ limit: '1mb' }));\n"),
        Say("The JSON body limit is 5mb now."),
        host="gemini",
    ),
    wrong=((r"\bfastify\b", "the user dropped the plan to move to Fastify"),),
)

PLAN_SAID_AS_WISH = Trap(
    "plan-asked-said-as-asked",
    "Elixir",
    "must fire: the user wants Oban in place of a hand-made job queue and asks for a plan; nothing changes",
    one_session(
        "/home/max/src/courier",
        Ask(
            "I'd like us to replace the hand-made GenServer job queue with Oban, it keeps losing jobs on deploys. Come up with a plan for that and show me, no code yet."
        ),
        Read(
            "lib/courier/queue.ex",
            "defmodule Courier.Queue do\n  use GenServer\n\n  def enqueue(job), do: GenServer.cast(__MODULE__, {:enqueue, job})\nend\n",
        ),
        Run("grep -rn 'Courier.Queue.enqueue' lib | wc -l", "7\n"),
        Say(
            "Plan: add `oban` and its migration, turn each job into an `Oban.Worker`, then delete `Courier.Queue`. No code changed."
        ),
    ),
    wrong=(
        (
            r"\b(?:courier|the project|this project|the app|it)\b[^\n]{0,30}\b(?:uses|is using|runs on)\b[^\n]{0,20}\boban\b",
            "Oban is not in the project yet",
        ),
        (
            r"\b(?:migrated|moved|switched|replaced)\b[^\n]{0,40}\b(?:to|with)\b[^\n]{0,20}\boban\b",
            "nothing was replaced: a plan was asked for",
        ),
    ),
    may=(r"\boban\b",),
)

# -- a project document that is not about this project --------------------------------------

DOC_OF_ANOTHER_PROJECT = Trap(
    "doc-labelled-another-project",
    "Java",
    "a context document of a partner team's service is read; its labelled name is not this project's",
    one_session(
        "/home/pia/src/orderflow",
        Ask(
            "Read the partner's context in docs/partners/stockwatch.md; do we call their API right?"
        ),
        Read(
            "docs/partners/stockwatch.md",
            "# Stockwatch context\n\n**Project Name**: Stockwatch\n**Vision**: A warehouse stock service that reserves items for open orders and releases them after 30 minutes.\n",
        ),
        Run(
            "grep -rn 'stockwatch' src/main/java | head -3",
            'src/main/java/com/pia/orderflow/StockClient.java:12:  private static final String BASE = "https://stockwatch.internal";\n',
        ),
        Say(
            "`StockClient` calls `/reserve` and never `/release`; reservations simply time out. That matches their 30-minute window."
        ),
    ),
    wrong=(
        (
            r"\b(?:orderflow|the project|this project)\b[^\n]{0,40}\bwarehouse stock\b|what (?:the|this) project is[^\n]*warehouse stock",
            "the document describes another team's service",
        ),
    ),
)

DOC_TEMPLATE_PLACEHOLDERS = Trap(
    "doc-labelled-placeholders",
    "PHP",
    "a project document whose labelled fields are still a template's placeholders",
    one_session(
        "/home/rae/src/invoicer",
        Ask("Fix the rounding in the VAT total, then we'll fill in CONTEXT.md together."),
        Read(
            "CONTEXT.md",
            "**Project Name**: <project name>\n**Description**: <what the project does, in one sentence>\n",
        ),
        Read(
            "src/Vat.php",
            "<?php\nfunction vat_total(array $lines): float {\n    return array_sum($lines) * 0.2;\n}\n",
        ),
        Run("vendor/bin/phpunit tests/VatTest.php", "OK (3 tests, 3 assertions)\n"),
        Say("The VAT total now rounds to cents with `round(..., 2)`."),
    ),
    wrong=(
        (
            r"<project name>|what the project does, in one sentence",
            "the fields are a template's placeholders",
        ),
    ),
)

CASES: tuple[Trap, ...] = (
    ASSISTANT_ASKS_ITSELF,
    SUBAGENT_BRIEF_DOUBT,
    WEIGHS_A_TOOL,
    PLAN_OTHER_PROJECT_STACK,
    PLAN_DROPPED_LATER,
    PLAN_SAID_AS_WISH,
    DOC_OF_ANOTHER_PROJECT,
    DOC_TEMPLATE_PLACEHOLDERS,
)
