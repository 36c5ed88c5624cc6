"""What the assistant's closing report of a turn states about the code becomes a project fact,
in any ecosystem, when the session's own tools show what it names; plans, questions, guesses,
steps told as done, advice to the user, the user's own words, a file's words, names the session
never saw, a reply with no work behind it and work the user says did not hold do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.closing_reports import PREFIX, closing_reports
from squirrel_memory.extractors.report_sentences import clauses, stated_shape
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"

#: A Go service: the report explains why a handler hung, after reading the file.
GO_FILE = "package api\n\nfunc Serve() {\n\tmu.Lock()\n\tdefer mu.Unlock()\n}\n"
GO_REPORT = (
    "Done. Summary:\n\n"
    "- **Root cause:** `Serve` takes `mu` twice, so the second request blocks forever.\n"
    "- The `defer mu.Unlock()` line releases the lock only when `Serve` returns.\n"
)
#: A Python package: the report explains its import layout after a test run.
PY_FILE = "from shop.cart import price_of\n"
PY_REPORT = (
    "All 12 tests pass.\n\n"
    "The `shop/__init__.py` module imports `price_of` eagerly, so importing `shop` loads the "
    "whole cart.\n"
)


def _turn(
    report: str,
    *,
    read: str = GO_FILE,
    path: str = "api/serve.go",
    ask: str = "Why does the server hang on the second request?",
    after: str = "",
) -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": ask}, origin="typed")
    session.add("tool_call", {"tool": "Read", "input": {"file_path": f"{ROOT}/{path}"}})
    session.add("tool_result", {"tool": "Read", "output": read}, (f"{ROOT}/{path}",))
    session.add("assistant_response", {"text": report})
    if after:
        session.add("user_message", {"text": after}, origin="typed")
    return session


def _said(report: str, **given: str) -> list[str]:
    return [found.content for found in closing_reports(_turn(report, **given).events)]


def test_a_go_services_closing_report_gives_its_labelled_cause_and_statement() -> None:
    assert _said(GO_REPORT) == [
        f"{PREFIX} (Root cause): `Serve` takes `mu` twice, so the second request blocks forever.",
        f"{PREFIX}: The `defer mu.Unlock()` line releases the lock only when `Serve` returns.",
    ]


def test_a_python_packages_closing_report_gives_its_paragraph_statement() -> None:
    found = closing_reports(
        _turn(PY_REPORT, read=PY_FILE, path="shop/__init__.py", ask="Why is import slow?").events
    )

    assert [f.content for f in found] == [
        f"{PREFIX}: The `shop/__init__.py` module imports `price_of` eagerly, so importing "
        "`shop` loads the whole cart."
    ]
    assert found[0].files == ("shop/__init__.py",)


def test_the_rules_extractor_keeps_it_as_a_project_fact_citing_the_report() -> None:
    session = _turn(GO_REPORT)

    found = [c for c in session.extracted() if c.key.startswith("project:closing:")]

    assert {c.type for c in found} == {MemoryType.PROJECT_FACT}
    assert all(c.source_event_ids == (session.events[-1].id,) for c in found)
    assert len(found) == 2


def test_a_labels_sentence_opening_in_lower_case_is_read_as_its_own() -> None:
    report = "- **Root cause:** the `Serve` handler takes `mu` twice, so a request blocks.\n"

    assert _said(report) == [
        f"{PREFIX} (Root cause): The `Serve` handler takes `mu` twice, so a request blocks."
    ]


def test_an_unlabelled_line_opening_in_lower_case_is_still_a_cut_sentence() -> None:
    # no label before it: the rest of a sentence cut at an abbreviation, not a statement
    assert _said("- the `Serve` handler takes `mu` twice, so a request blocks.\n") == []
    # a label does not lift a plan, a guess or a step told as done
    assert _said("- **Next:** the `Serve` handler will take `mu` once.\n") == []
    assert _said("- **Cause:** the `Serve` handler probably takes `mu` twice.\n") == []


def test_a_typographic_apostrophe_reads_as_a_plain_one() -> None:
    report = "- The `Serve` handler doesn\u2019t release `mu` before it returns.\n"

    assert _said(report) == [
        f"{PREFIX}: The `Serve` handler doesn't release `mu` before it returns."
    ]


def test_a_files_words_with_a_typographic_apostrophe_are_still_the_files() -> None:
    line = "The `Serve` handler doesn\u2019t release `mu` before it returns."
    read = f"// {line}\n" + GO_FILE

    assert _said(f"- {line}\n", read=read) == []


def test_a_name_the_session_never_saw_is_not_stated() -> None:
    report = "- `Serve` takes `mutexPool` twice, so the second request blocks forever.\n"

    assert _said(report) == []


#: A Go package whose functions are read by their bare names: the report qualifies them.
FX_FILE = "package fx\nfunc Rate(cur string) float64 { return rates[cur] }\nfunc Refresh() {}\n"


def test_a_qualified_name_is_shown_when_each_part_was_seen() -> None:
    report = "`fx.Rate` falls back to the base rate, and `fx.Refresh` only fills listed currencies."
    assert _said(report, read=FX_FILE, path="internal/fx/cache.go") == [f"{PREFIX}: {report}"]


@pytest.mark.parametrize(
    "report",
    [
        # one part never seen: `fx.Lookup` is no name the file holds
        "`fx.Lookup` falls back to the base rate when a currency is missing from the cache.",
        # a part seen only inside a longer word: `Rat` is no name of `Rate`
        "`fx.Rat` falls back to the base rate when a currency is missing from the cache.",
    ],
)
def test_a_qualified_name_with_a_part_never_seen_is_not_shown(report: str) -> None:
    assert _said(report, read=FX_FILE, path="internal/fx/cache.go") == []


def test_plans_questions_and_guesses_are_not_statements() -> None:
    report = (
        "- `Serve` will take `mu` once after the next change.\n"
        "- Does `Serve` take `mu` twice?\n"
        "- `Serve` probably takes `mu` twice.\n"
        "- `Serve` might block when `mu` is held.\n"
        "- `Serve` takes `mu` twice (needs verification).\n"
        "- `Serve` holds `mu` while it writes, not yet verified.\n"
        "- **Lock order:** `mu` before `db` (unverified).\n"
    )

    assert _said(report) == []


def test_steps_told_as_done_and_progress_lines_are_not_statements() -> None:
    report = (
        "- Added a second `mu.Lock()` check in `Serve`.\n"
        "- Removing the extra `mu` lock from `Serve` fixed it.\n"
        "- `Serve` has been updated and is ready to commit.\n"
        "- `go test ./...` passes with no failures.\n"
        "- Support for `mu` in `Serve`.\n"
        "- `go build ./...` is clean and `go vet ./...` stays green.\n"
    )

    assert _said(report) == []


def test_advice_to_the_user_is_not_a_statement() -> None:
    report = "- You can call `Serve` once `mu` is free, and your `defer` line stays.\n"

    assert _said(report) == []


def test_a_files_own_words_and_the_users_own_words_are_not_the_reports() -> None:
    quoted = "- `Serve` takes `mu` and `defer` releases it.\n"
    read = "// `Serve` takes `mu` and `defer` releases it\n" + GO_FILE

    assert _said(quoted, read=read) == []
    restated = "`Serve` takes `mu` twice, so the second request blocks forever."
    assert _said(restated) == [f"{PREFIX}: {restated}"]
    assert _said(restated, ask=f"{restated} Why?") == []


def test_a_reply_with_no_work_behind_it_is_no_closing_report() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "How does Serve lock?"}, origin="typed")
    session.add("assistant_response", {"text": GO_REPORT})

    assert closing_reports(session.events) == []


def test_only_the_last_reply_of_the_turn_is_the_report() -> None:
    session = _turn(GO_REPORT)
    session.add("tool_call", {"tool": "Bash", "input": {"command": "go test ./..."}})
    session.add("tool_result", {"tool": "Bash", "output": "ok  shop/api"})
    session.add("assistant_response", {"text": "Tests pass."})

    assert closing_reports(session.events) == []


def test_work_the_user_says_did_not_hold_is_not_kept() -> None:
    assert _said(GO_REPORT, after="It still hangs on the second request.") == []
    assert _said(GO_REPORT, after="No, that's not it.") == []
    assert len(_said(GO_REPORT, after="Thanks, now add a metrics endpoint.")) == 2


def test_a_subagents_report_relayed_is_left_to_the_subagent_rule() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Look at the locking."}, origin="typed")
    session.add("tool_call", {"tool": "Agent", "input": {"prompt": "Read api/serve.go"}})
    session.add("tool_result", {"tool": "Agent", "output": GO_FILE + GO_REPORT})
    session.add("assistant_response", {"text": GO_REPORT})

    assert closing_reports(session.events) == []


def test_a_statement_whose_subject_is_only_a_pronoun_names_nothing() -> None:
    report = "This is the `Serve` handler — it takes `mu` twice.\nIt holds `mu` in `Serve`.\n"

    assert _said(report) == []


#: A Rust crate: the pull request body the assistant wrote explains the change's cause.
RUST_FILE = "pub fn parse(input: &str) -> Result<Config, Error> {\n    toml::from_str(input)\n}\n"
PR_COMMAND = (
    "gh pr create --title 'Config errors name the line' --body \"$(cat <<'EOF'\n"
    "## Why\n\n"
    "- `parse` returns the `toml::from_str` error unchanged, so a bad key names no line.\n"
    "- Will add a test for nested tables next.\n"
    "EOF\n"
    ')"'
)
#: A Python project: a commit body written in a here-document.
COMMIT_COMMAND = (
    "git commit -m \"$(cat <<'EOF'\n"
    "cart: price lines once\n\n"
    "The `price_of` helper reads `TAX_TABLE` on every call, so a long cart re-reads it.\n"
    "EOF\n"
    ')"'
)


def _written(
    command: str, read: str, path: str, *, failed: bool = False, after: str = ""
) -> list[str]:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Open it."}, origin="typed")
    session.add("tool_call", {"tool": "Read", "input": {"file_path": f"{ROOT}/{path}"}})
    session.add("tool_result", {"tool": "Read", "output": read}, (f"{ROOT}/{path}",))
    session.add("tool_call", {"tool": "Bash", "input": {"command": command}})
    output = "error: not a git repository" if failed else "https://example.test/pull/7"
    session.add("tool_result", {"tool": "Bash", "output": output, "is_error": failed})
    session.add("assistant_response", {"text": "Opened."})
    if after:
        session.add("user_message", {"text": after}, origin="typed")
    return [found.content for found in closing_reports(session.events)]


def test_a_pull_request_body_the_assistant_wrote_is_read_as_its_report() -> None:
    assert _written(PR_COMMAND, RUST_FILE, "src/config.rs") == [
        f"{PREFIX}: `parse` returns the `toml::from_str` error unchanged, so a bad key "
        "names no line."
    ]


def test_a_commit_body_in_a_here_document_is_read_as_its_report() -> None:
    source = "TAX_TABLE = load()\n\ndef price_of(line):\n    return TAX_TABLE[line.kind]\n"

    assert _written(COMMIT_COMMAND, source, "shop/cart.py") == [
        f"{PREFIX}: The `price_of` helper reads `TAX_TABLE` on every call, so a long cart "
        "re-reads it."
    ]


def test_a_body_of_a_command_that_failed_or_was_undone_is_not_read() -> None:
    assert _written(PR_COMMAND, RUST_FILE, "src/config.rs", failed=True) == []
    assert _written(PR_COMMAND, RUST_FILE, "src/config.rs", after="No, revert that PR.") == []


def test_a_here_document_that_creates_nothing_is_no_report() -> None:
    notes = PR_COMMAND.replace("gh pr create --title 'Config errors name the line' --body", "echo")

    assert _written(notes, RUST_FILE, "src/config.rs") == []


def test_a_body_naming_code_the_session_never_saw_states_nothing() -> None:
    assert _written(PR_COMMAND, "fn main() {}\n", "src/main.rs") == []


#: A Django project's settings, read before the report.
SETTINGS = "EMAIL_BACKEND = 'smtp'\n# clinic/settings/base.py and clinic/settings/local.py\n"


@pytest.mark.parametrize(
    ("report", "said"),
    [
        (  # a short lead-in's colon: what follows is the statement
            "Settings are split: `settings/base.py` holds the shared values and "
            "`settings/local.py` overrides them; `manage.py` picks the local one.",
            "`settings/base.py` holds the shared values and `settings/local.py` overrides them.",
        ),
        (  # too long to quote whole: its first clause
            "`settings/base.py` holds every shared value the project reads at start-up, from "
            "the mail backend to the cache, and `settings/local.py` imports it and overrides "
            "the few values a developer's machine needs; `manage.py` picks the local one unless "
            "told otherwise by the environment.",
            "`settings/base.py` holds every shared value the project reads at start-up, from "
            "the mail backend to the cache, and `settings/local.py` imports it and overrides "
            "the few values a developer's machine needs.",
        ),
    ],
)
def test_the_first_clause_of_a_long_or_led_in_sentence_is_a_statement(
    report: str, said: str
) -> None:
    found = _said(report, read=SETTINGS, path="settings/base.py", ask="Where is mail set?")
    assert found == [f"{PREFIX}: {said}"]


def test_a_short_sentence_is_judged_whole_not_by_its_clauses() -> None:
    # whole, it is advice to the user; its first clause alone would pass
    assert _said("`Serve` takes `mu` twice; you should call it once.") == []
    assert clauses("`Serve` takes `mu` twice; you should call it once.") == []
    assert clauses("The lock is held twice: `Serve` takes `mu` twice; you call it once.") == [
        "`Serve` takes `mu` twice"
    ]


def test_a_code_span_opening_the_sentence_is_its_subject() -> None:
    report = "- **Routes:** `Serve` locks `mu` before it writes the response.\n"
    assert _said(report) == [
        f"{PREFIX} (Routes): `Serve` locks `mu` before it writes the response."
    ]


def test_a_span_then_a_plural_noun_is_no_statement() -> None:
    # "`mu` locks" would be a verb; "`Serve` handlers" with no verb after is a fragment
    assert _said("- `Serve` handlers in the `api` package.\n") == []


def test_a_product_name_with_a_plan_word_is_no_plan() -> None:
    report = "`Serve` is the Next.js entry point and takes `mu` first.\n"
    # The read shows the framework: a stack named in passing and never shown is not quoted.
    assert _said(report, read=f"// behind Next.js\n{GO_FILE}") == [f"{PREFIX}: {report.strip()}"]
    assert _said(report) == []


def test_a_plan_word_ending_the_sentence_is_still_a_plan() -> None:
    assert _said("`Serve` should take `mu` once, and that comes next.\n") == []
    assert _said("`Serve` takes `mu` once; the lock goes next.\n") == []


def test_advice_that_follows_from_a_statement_is_left_off() -> None:
    report = (
        "`settings/local.py` overrides `EMAIL_BACKEND` and never reads the environment, so a "
        "new mail setting would belong in `settings/base.py`."
    )
    found = _said(report, read=SETTINGS, path="settings/base.py", ask="Where is mail set?")
    assert found == [
        f"{PREFIX}: `settings/local.py` overrides `EMAIL_BACKEND` and never reads the environment."
    ]


@pytest.mark.parametrize(
    "report",
    [
        # the statement itself guesses
        "`settings/local.py` probably overrides `EMAIL_BACKEND`, so a new setting would go in "
        "`settings/base.py`.",
        # advice to the user, with nothing stated before it
        "So you would put it in `settings/base.py`.",
    ],
)
def test_no_statement_when_what_precedes_the_advice_guesses_or_nothing_does(report: str) -> None:
    assert _said(report, read=SETTINGS, path="settings/base.py", ask="Where is mail set?") == []


#: A file the user attached (`@AGENTS.md`), as the host wrote it into the message.
AGENTS = (
    "# AGENTS.md\n\n- `tq_core`: the parser and the `Rule` trait.\n"
    "- `tq_rules`: every rule; each registers itself with `inventory`.\n"
    "- `tq_cli`: the binary.\n\nSnapshot tests use `insta`; run `cargo insta review`.\n"
)


def _attached_turn(reply: str, attached: str = AGENTS) -> list[str]:
    lines = "\n".join(f"{n}: {line}" for n, line in enumerate(attached.splitlines(), 1))
    path = f"{ROOT}/AGENTS.md"
    session = Session(ROOT, "s1", T0)
    session.add(
        "user_message",
        {
            "text": "Check @AGENTS.md to understand the structure\n"
            f'Called the Read tool with the following input: {{"filePath":"{path}"}}\n'
            f"<path>{path}</path>\n<type>file</type>\n<content>\n{lines}\n</content>"
        },
        origin="typed",
    )
    session.add("assistant_response", {"text": reply})
    return [found.content for found in closing_reports(session.events)]


def test_the_first_replys_summary_of_an_attached_file_is_what_the_session_read() -> None:
    reply = (
        "Read it. Summary:\n\n"
        "- 3 crates: `tq_core` (parser, `Rule` trait), `tq_rules` (the rules, registered "
        "through `inventory`), `tq_cli` (the binary)\n"
        "- Snapshot tests use `insta`, and changed snapshots are reviewed with "
        "`cargo insta review`.\n\nWhat would you like to work on?"
    )
    assert _attached_turn(reply) == [
        f"{PREFIX}: 3 crates: `tq_core` (parser, `Rule` trait), `tq_rules` (the rules, "
        "registered through `inventory`), `tq_cli` (the binary).",
        f"{PREFIX}: Snapshot tests use `insta`, and changed snapshots are reviewed with "
        "`cargo insta review`.",
    ]


@pytest.mark.parametrize(
    "reply",
    [
        # what the attached file never names
        "- `tq_rules` talks to GitHub through `octocrab` and retries every request.",
        "I'll add a `Rule` for `tq_rules` in `tq_core`, then wire it into `tq_cli`.",
        "Should `tq_rules` keep using `inventory`, or do you want `tq_core` to list the rules?",
        "Your next step is to run `cargo insta review` on what `insta` changed.",
    ],
)
def test_an_unseen_name_a_plan_a_question_or_advice_after_an_attached_file_say_nothing(
    reply: str,
) -> None:
    assert _attached_turn(reply) == []


def test_a_name_the_attached_file_holds_is_kept() -> None:
    reply = "- `tq_rules` talks to GitHub through `octocrab` and retries every request."
    assert _attached_turn(reply, AGENTS + "`octocrab` calls the API.\n") == [
        f"{PREFIX}: `tq_rules` talks to GitHub through `octocrab` and retries every request."
    ]


def test_a_reply_after_a_message_that_attaches_nothing_still_reports_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Check AGENTS.md for `tq_core`"}, origin="typed")
    session.add("assistant_response", {"text": "- Snapshot tests use `insta` via `tq_core`."})
    assert closing_reports(session.events) == []


@pytest.mark.parametrize(
    "text",
    [
        "Modules: `core`, `data`, `app`.",  # names the parts, says nothing of them
        "Changed modules: `core` (the model), `app` (the screens).",  # the session's own work
        "3 crates: `tq_core` (parser).",  # one part is no list of parts
    ],
)
def test_a_list_of_parts_needs_two_parts_each_with_what_it_is(text: str) -> None:
    assert stated_shape(text, "") == ""


def test_a_list_of_parts_each_with_what_it_is_is_a_statement() -> None:
    text = "Modules: `:core` (domain, no Android), `:data` (Room repositories), `:app` (UI)."
    assert stated_shape(text, "") == text


CONFIG = "MAX_RETRIES = 1\n\ndef fetch_all(urls):\n    return [get(u) for u in urls]\n"
NOW_REPORT = "`fetch_all` now retries three times: `MAX_RETRIES = 3` in `src/core.py`."
SED = "sed -i 's/MAX_RETRIES = 1/MAX_RETRIES = 3/' src/core.py"


def _edit_turn(code: int | None, *, edited: bool = False) -> list[str]:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Make fetch_all retry three times."}, origin="typed")
    session.read("src/core.py", CONFIG)
    session.run(SED, code, "" if code == 0 else "sed: -e expression #1: unterminated `s'")
    if edited:
        session.edit_lines("src/core.py", "MAX_RETRIES = 1", "MAX_RETRIES = 3")
    session.say(NOW_REPORT)
    return [found.content for found in closing_reports(session.events)]


@pytest.mark.parametrize("code", [1, None])
def test_a_changes_result_is_not_stated_when_the_edit_failed_or_was_refused(
    code: int | None,
) -> None:
    assert _edit_turn(code) == []


def test_a_changes_result_is_stated_when_the_edit_landed() -> None:
    assert _edit_turn(0) == [f"{PREFIX}: {NOW_REPORT}"]
    assert _edit_turn(1, edited=True) == [f"{PREFIX}: {NOW_REPORT}"]


def test_a_finding_without_a_change_is_still_stated_after_a_failed_edit() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Why does it retry once?"}, origin="typed")
    session.read("src/core.py", CONFIG)
    session.run(SED, 1, "sed: -e expression #1: unterminated `s'")
    session.say("`fetch_all` retries once because `MAX_RETRIES = 1` in `src/core.py`.")
    assert len(closing_reports(session.events)) == 1


CACHE_FILE = "export function handler() {\n  return fetchRates();\n}\n"
CACHE_REPORT = (
    "Nothing caches the rates: `handler` calls `fetchRates` on every request (src/handler.ts).\n"
)


def test_a_statement_about_a_file_a_later_turn_changed_is_not_kept() -> None:
    # How the code stood before the session's own later change: kept, it would say so after.
    session = _turn(
        CACHE_REPORT, read=CACHE_FILE, path="src/handler.ts", ask="Does anything cache the rates?"
    )
    assert len(closing_reports(session.events)) == 1
    session.user("Add a cache for the rates.")
    session.edit("src/handler.ts", "const cache = new Map();\n")
    assert closing_reports(session.events) == []


def test_a_later_change_elsewhere_leaves_the_statement() -> None:
    session = _turn(
        CACHE_REPORT, read=CACHE_FILE, path="src/handler.ts", ask="Does anything cache the rates?"
    )
    session.user("Now update the README.")
    session.edit("README.md", "# Rates\n")
    (found,) = closing_reports(session.events)
    assert "Nothing caches the rates" in found.content
