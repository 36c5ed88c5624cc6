"""What the assistant says about a folder after reading several of its files becomes a project
fact with its source, in any ecosystem, when every code span it names was in what the tools
showed; a plan, a guess, a question, a name never shown, one file read, the turn's closing
report and a reply the user takes back do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.read_findings import read_findings
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"

#: A TypeScript web app: two route files that hand requests to handlers.
TS_FILES = {
    "src/routes/users.ts": "import { listUsers } from '../handlers/users'\n"
    "router.get('/users', listUsers)\n",
    "src/routes/orders.ts": "import { listOrders } from '../handlers/orders'\n"
    "router.get('/orders', listOrders)\n",
}
TS_SAID = "Each file in `src/routes/` maps one URL to a function of `handlers/`, via `router.get`."
#: A Python plugin host: plugins register themselves through one decorator.
PY_FILES = {
    "ledger/plugins/__init__.py": "REGISTRY = {}\n\ndef register(cls):\n    REGISTRY[cls.name] = cls\n",
    "ledger/plugins/csv_export.py": "@register\nclass CsvExport:\n    name = 'csv'\n",
}
PY_SAID = "Plugins are added to `REGISTRY` by the `register` decorator in `ledger/plugins/`."


def _session(
    files: dict[str, str], said: str, *, closing: str = "Ready.", after: str = ""
) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("How is this organised?")
    for path, text in files.items():
        session.read(path, text)
    session.say(said)
    session.run("git status", 0, "nothing to commit")
    session.say(closing)
    if after:
        session.user(after)
    return session


@pytest.mark.parametrize(
    ("files", "said", "expected"),
    [
        (TS_FILES, TS_SAID, "Read in `src/routes/`: Each file in `src/routes/` maps"),
        (PY_FILES, PY_SAID, "Read in `ledger/plugins/`: Plugins are added to `REGISTRY`"),
    ],
)
def test_a_statement_about_a_folder_read_is_a_fact(
    files: dict[str, str], said: str, expected: str
) -> None:
    session = _session(files, f"I've read the folder.\n\n{said}")
    (found,) = read_findings(session.events)
    assert found.content.startswith(expected)
    facts = [c for c in session.extracted() if c.type == MemoryType.PROJECT_FACT]
    assert any(c.content.startswith(expected) for c in facts)


@pytest.mark.parametrize(
    "said",
    [
        # a plan
        "Next I'll check how `src/routes/` hands requests to `handlers/`.",
        # a guess
        "`src/routes/` probably maps each URL to `handlers/`.",
        # a question
        "Does each file in `src/routes/` map one URL to `handlers/`?",
        # a name the tools never showed
        "Each file in `src/routes/` maps one URL to a function of `controllers/`.",
        # a statement about no folder read
        "The `listUsers` function is exported by `handlers/users`.",
    ],
)
def test_no_fact_from_a_plan_a_guess_a_question_or_an_unshown_name(said: str) -> None:
    assert read_findings(_session(TS_FILES, said).events) == []


def test_one_file_read_is_not_a_folder_learned() -> None:
    one = dict(list(TS_FILES.items())[:1])
    assert read_findings(_session(one, TS_SAID).events) == []


def test_the_turns_last_reply_is_left_to_the_closing_reports() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("How is this organised?")
    for path, text in TS_FILES.items():
        session.read(path, text)
    session.say(TS_SAID)
    assert read_findings(session.events) == []


def test_a_reply_the_user_takes_back_is_not_kept() -> None:
    session = _session(TS_FILES, TS_SAID, after="No, that's wrong: routes are generated.")
    assert read_findings(session.events) == []


def test_a_hidden_folder_holds_settings_not_code() -> None:
    files = {
        ".claude/settings.json": '{"hooks": {"Stop": []}}\n',
        ".claude/settings.local.json": '{"permissions": {"allow": []}}\n',
    }
    said = "`settings.json` holds the `hooks` while `settings.local.json` holds `permissions`."
    assert read_findings(_session(files, said).events) == []
