"""What the assistant learned in a session: its findings said once, causes stated after trouble
with the fix made, rules of named things the session saw, and insight blocks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.learned import learned
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _reply(n: int, text: str) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n}",
        project_id="/home/dev/app",
        user_id="dev",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0 + timedelta(seconds=n),
        event_type="assistant_response",
        content={"text": text},
        file_paths=(),
        hash=f"h{n}",
    )


def test_the_same_finding_in_other_words_is_kept_once() -> None:
    events = [
        _reply(1, "The issue is that the server doesn't serve `index.html` from sub-folders."),
        _reply(
            2, "OK. The problem is that the server doesn't serve `index.html` from sub-folders."
        ),
        _reply(3, "```\nThe issue is that code blocks are never read as prose.\n```"),
    ]
    found = learned(events)
    assert [f.content for f in found] == [
        "Found in a session: the server doesn't serve `index.html` from sub-folders."
    ]
    assert found[0].key == "pitfall:learned:server_doesn_serve_index" and found[0].event_ids == (
        "evt_1",
    )


def test_different_findings_keep_their_own_keys() -> None:
    events = [
        _reply(1, "The issue is that the server doesn't serve `index.html` from sub-folders."),
        _reply(2, "This is because the bundler requires an explicit `exports` entry."),
    ]
    assert len({f.key for f in learned(events)}) == 2


# --- causes stated after trouble ------------------------------------------------------------


def _session(*steps: tuple[str, dict[str, object]]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{n}",
            project_id="/p",
            user_id="u",
            source_tool="claude_code",
            session_id="s",
            timestamp=T0 + timedelta(seconds=n),
            event_type=kind,
            content=dict(content),
            file_paths=(),
            hash=f"h{n}",
            origin="typed" if kind == "user_message" else "",
        )
        for n, (kind, content) in enumerate(steps, 1)
    ]


def _edit(path: str, old: str, new: str) -> tuple[str, dict[str, object]]:
    return (
        "tool_call",
        {"tool": "Edit", "input": {"file_path": path, "old_string": old, "new_string": new}},
    )


@pytest.mark.parametrize(
    ("report", "reply"),
    [
        ("Still doesn't work after the deploy", "The host doesn't automatically fetch submodules."),
        ("the build is broken again", "The runner does not load `.env` on its own."),
        ("why does this fail on CI?", "Composer won't install dev packages by default here."),
    ],
)
def test_a_tools_behaviour_stated_after_a_report_is_a_pitfall_with_its_fix(
    report: str, reply: str
) -> None:
    events = _session(
        ("user_message", {"text": report}),
        ("assistant_response", {"text": f"{reply} Let me update the config:"}),
        _edit("deploy.json", '{\n  "a": 1\n}', '{\n  "setup": "fetch-all --init",\n  "a": 1\n}'),
    )

    [found] = learned(events)

    assert found.content == (
        f"Found in a session: {reply.rstrip('.')}; the fix made: "
        '`"setup": "fetch-all --init"` in deploy.json.'
    )
    assert found.event_ids == ("evt_2", "evt_3")


def test_a_failed_command_is_trouble_too() -> None:
    events = _session(
        ("user_message", {"text": "ship it"}),
        ("command_run", {"command": "make release", "exit_code": 2, "output": "no tag"}),
        ("assistant_response", {"text": "The release script doesn't create the tag by itself."}),
    )

    assert [f.content for f in learned(events)] == [
        "Found in a session: The release script doesn't create the tag by itself."
    ]


@pytest.mark.parametrize(
    "reply",
    [
        "Those diagnostics are just your local language server not finding the headers - not "
        "real issues.",
        "The deprecation warning printed by the installer is harmless.",
        "The two `summary` failures are only aggregate failures of the jobs above.",
        "The `deploy` error is only a downstream error of the failed build.",
    ],
)
def test_a_dismissal_after_trouble_is_a_pitfall(reply: str) -> None:
    events = _session(
        ("user_message", {"text": "I see errors in the editor, any other issues?"}),
        ("assistant_response", {"text": reply}),
    )

    [found] = learned(events)

    assert "your" not in found.content and found.content.startswith("Found in a session: ")


@pytest.mark.parametrize(
    ("report", "reply"),
    [
        # no trouble before it: a remark, not a cause
        ("add a dark mode toggle", "The theme provider doesn't persist the choice automatically."),
        ("add a dark mode toggle", "Those warnings in the editor are not real issues."),
        # trouble, but a guess, a plan, or the assistant's own conduct
        ("it still fails", "This might not run automatically on the server."),
        ("it still fails", "Let me check whether it does not build automatically."),
        ("it still fails", "I don't push automatically, so nothing was deployed."),
        # a subject that is only a pronoun names nothing a later reader could recognise
        ("it still fails", "It doesn't restart the worker automatically after a deploy."),
        ("any other issues?", "Those are just warnings from the editor, not real errors."),
        # a failure said to echo another, but with no trouble before it, or said of nothing
        ("add a summary job", "The `summary` failures are only aggregate failures of the jobs."),
        ("why is CI failing?", "They are only aggregate failures of the jobs above."),
        # "only" that narrows what fails is no dismissal
        ("why is CI failing?", "The `lint` job is only failing on the generated files."),
    ],
)
def test_remarks_guesses_and_plans_are_not_stated_causes(report: str, reply: str) -> None:
    events = _session(("user_message", {"text": report}), ("assistant_response", {"text": reply}))

    assert learned(events) == []


def test_a_fix_in_a_file_outside_the_root_is_named_by_its_file() -> None:
    events = _session(
        ("user_message", {"text": "still not working"}),
        ("assistant_response", {"text": "The host doesn't automatically fetch submodules."}),
        _edit("/home/someone/site/deploy.json", "{\n}", '{\n  "setup": "fetch-all",\n}'),
    )

    [found] = learned(events)

    assert found.content.endswith('`"setup": "fetch-all"` in deploy.json.')
    assert "/home/" not in found.content


def test_stated_causes_do_not_take_the_room_of_explanations() -> None:
    events = _session(
        (
            "assistant_response",
            {"text": "The issue is that the server doesn't serve `index.html`."},
        ),
        (
            "assistant_response",
            {"text": "This is because the bundler requires an `exports` entry."},
        ),
        ("assistant_response", {"text": "It turns out the cache is never invalidated on deploy."}),
        ("user_message", {"text": "still broken"}),
        ("assistant_response", {"text": "The host doesn't automatically fetch submodules."}),
    )

    found = learned(events)

    assert len(found) == 4 and found[-1].content.endswith("fetch submodules.")


# --- a rule of a named thing, stated after trouble -------------------------------------------


@pytest.mark.parametrize(
    ("report", "ran", "reply", "said"),
    [
        (  # a Rust project's release tool
            "this didn't work, why?",
            "git show HEAD:release-plz.toml",
            "Release-plz requires a change to packaged files before creating a release PR; the "
            "commit message alone doesn't force a bump. [docs](https://release-plz.dev/docs)",
            "Release-plz requires a change to packaged files before creating a release PR; the "
            "commit message alone doesn't force a bump.",
        ),
        (  # a list item of a summary, in a project of another ecosystem
            "investigate the linter report from the issue tracker",
            "mise x aqua:fmtcheck/fmtcheck-cli@4.0.1 -- fmtcheck-cli --version",
            "- fmtcheck-cli v4 installs only `fmtcheck`, not `fc`.",
            "fmtcheck-cli v4 installs only `fmtcheck`, not `fc`.",
        ),
        (  # a program the session ran, named as the sentence's first word
            "composer install fails on CI",
            "composer install --no-dev",
            "Composer won't install the dev packages when `--no-dev` is given.",
            "Composer won't install the dev packages when `--no-dev` is given.",
        ),
    ],
)
def test_a_rule_of_a_named_thing_the_session_saw_is_a_finding_after_trouble(
    report: str, ran: str, reply: str, said: str
) -> None:
    events = _session(
        ("user_message", {"text": report}),
        ("command_run", {"command": ran, "exit_code": 0, "output": ""}),
        ("assistant_response", {"text": reply}),
    )

    assert [f.content for f in learned(events)] == [f"Found in a session: {said}"]


@pytest.mark.parametrize(
    ("report", "reply"),
    [
        # no trouble before it: a remark
        ("add a changelog entry", "Release-plz requires a change to packaged files first."),
        # a plain noun names the work at hand, not a tool
        ("it still fails", "The function doesn't handle an empty list of packaged files."),
        # a thing the session never ran or read is a claim, not a finding
        ("it still fails", "Webpack requires an explicit entry for every page it builds."),
        # a capitalised common noun the session saw, a label, an exclamation
        ("it still fails", "Release metadata doesn't reflect the packaged files at all."),
        ("it still fails", "Critical finding: release-plz requires a change to packaged files."),
        ("it still fails", "Release-plz does NOT bump the version on an empty commit! 🔍"),
        # a guess, and a pronoun for a subject
        ("it still fails", "Release-plz probably requires a change to packaged files."),
        ("it still fails", "It requires a change to packaged files before a release."),
    ],
)
def test_no_rule_of_a_thing_without_trouble_a_name_or_evidence(report: str, reply: str) -> None:
    events = _session(
        ("user_message", {"text": report}),
        ("command_run", {"command": "git show HEAD:release-plz.toml", "exit_code": 0}),
        ("command_run", {"command": "cat release metadata.txt", "exit_code": 0}),
        ("assistant_response", {"text": reply}),
    )

    assert learned(events) == []


def test_a_named_things_rule_gives_way_to_the_same_finding_said_as_a_cause() -> None:
    events = _session(
        ("user_message", {"text": "the deploy is broken, the build can't clone the submodule"}),
        ("command_run", {"command": "cat vercel.json", "exit_code": 0, "output": "{}"}),
        (
            "assistant_response",
            {
                "text": "`vercel` needs to check out the submodule during the build. "
                "`vercel` doesn't check out submodules automatically."
            },
        ),
    )

    assert [f.content for f in learned(events)] == [
        "Found in a session: `vercel` doesn't check out submodules automatically."
    ]


def test_an_acronym_is_no_name() -> None:
    events = _session(
        ("user_message", {"text": "the redirect still fails"}),
        ("command_run", {"command": "curl -I https://example.test/old-url", "exit_code": 0}),
        ("assistant_response", {"text": "The old URL won't break once the redirect is deployed."}),
    )

    assert learned(events) == []


@pytest.mark.parametrize(
    ("report", "reply", "said"),
    [
        (
            "this is a problem for us",
            "**Having `TOKEN` set doesn\u2019t by itself authenticate a plain `fetch`.**",
            "Having `TOKEN` set doesn't by itself authenticate a plain `fetch`.",
        ),
        (
            "the build is broken again",
            "The runner doesn\u2019t load `.env` on its own.",
            "The runner doesn't load `.env` on its own.",
        ),
    ],
)
def test_a_typographic_apostrophe_reads_as_a_plain_one(report: str, reply: str, said: str) -> None:
    events = _session(("user_message", {"text": report}), ("assistant_response", {"text": reply}))

    assert [f.content for f in learned(events)] == [f"Found in a session: {said}"]


@pytest.mark.parametrize(
    ("report", "reply"),
    [
        # no trouble before it: a remark, however its apostrophe is written
        ("add a dark mode toggle", "The theme provider doesn\u2019t persist it automatically."),
        # a guess and the assistant's own conduct stay out with a typographic apostrophe too
        ("it still fails", "This might not run automatically on the server, I\u2019d say."),
        ("it still fails", "I don\u2019t push automatically, so nothing was deployed."),
        ("it still fails", "It doesn\u2019t restart the worker automatically after a deploy."),
    ],
)
def test_a_typographic_apostrophe_lets_no_remark_or_guess_through(report: str, reply: str) -> None:
    events = _session(("user_message", {"text": report}), ("assistant_response", {"text": reply}))

    assert learned(events) == []


def test_a_rule_of_a_named_thing_in_the_answer_to_a_question_is_a_finding() -> None:
    events = _session(
        ("user_message", {"text": "How do I run only the feature tests here?"}),
        (
            "tool_result",
            {"tool": "Read", "output": '<testsuite name="Feature"><env name="DB_CONNECTION"/>'},
        ),
        (
            "assistant_response",
            {
                "text": "Run `vendor/bin/phpunit --testsuite Feature`. The Feature suite needs "
                "the `pdo_sqlite` extension, because `phpunit.xml` sets `DB_CONNECTION=sqlite`."
            },
        ),
    )

    assert [f.content for f in learned(events)] == [
        "Found in a session: The Feature suite needs the `pdo_sqlite` extension, because "
        "`phpunit.xml` sets `DB_CONNECTION=sqlite`."
    ]


@pytest.mark.parametrize(
    ("ask", "reply"),
    [
        # no question asked: a remark
        ("Add the feature tests to CI.", "The Feature suite needs the `pdo_sqlite` extension."),
        # a status line behind a mark, in an answer
        ("What is wrong with the packaging?", "❌ Module name doesn't match the Feature suite."),
        # a guess in an answer
        ("Why is it slow?", "The Feature suite probably needs the `pdo_sqlite` extension."),
    ],
)
def test_no_named_rule_without_a_question_or_behind_a_mark_or_guessed(ask: str, reply: str) -> None:
    events = _session(
        ("user_message", {"text": ask}),
        ("tool_result", {"tool": "Read", "output": '<testsuite name="Feature"> Module'}),
        ("assistant_response", {"text": reply}),
    )

    assert learned(events) == []


# --- an explanation behind "That's why:", an answer's lead word, a lower-case program ---------


@pytest.mark.parametrize(
    ("ask", "reply", "said"),
    [
        (  # an answer's lead word before the rule
            "Why do the admin-ui tests never run?",
            "Right: `pnpm -r test` only visits the packages listed in `pnpm-workspace.yaml`.",
            "`pnpm -r test` only visits the packages listed in `pnpm-workspace.yaml`.",
        ),
        (  # a program's name opening the rule in lower case, seen in the question
            "Can I publish 1.2.0 again? It is already on npm.",
            "No: npm never lets one version number be published twice.",
            "npm never lets one version number be published twice.",
        ),
    ],
)
def test_a_rule_after_an_answers_lead_word_is_a_finding(ask: str, reply: str, said: str) -> None:
    events = _session(
        ("user_message", {"text": ask}),
        ("command_run", {"command": "pnpm -r test", "exit_code": 0, "output": "2 passed"}),
        ("assistant_response", {"text": reply}),
    )

    assert [f.content for f in learned(events)] == [f"Found in a session: {said}"]


@pytest.mark.parametrize(
    ("ask", "reply"),
    [
        # a common word opening the answer in lower case names nothing
        ("Can the page load twice? It loads the file.", "No: the file never loads twice here."),
        ("Can the page load twice? It loads the file.", "No: everything never loads twice."),
        # a lower-case word the session never saw
        ("Can I publish again?", "No: bower never lets one version be published twice."),
    ],
)
def test_no_rule_of_a_common_or_unseen_lower_case_word(ask: str, reply: str) -> None:
    events = _session(
        ("user_message", {"text": ask}),
        ("assistant_response", {"text": reply}),
    )

    assert learned(events) == []


def test_a_search_that_came_back_empty_explained_after_it_failed_is_a_finding() -> None:
    events = _session(
        ("user_message", {"text": "Find where the generated client defines fetch_stock."}),
        ("command_run", {"command": "rg -n 'def fetch_stock'", "exit_code": 1, "output": ""}),
        (
            "command_run",
            {
                "command": "grep -rn fetch_stock .",
                "exit_code": 0,
                "output": "./out/gen/client.py:88",
            },
        ),
        (
            "assistant_response",
            {
                "text": "`rg` found nothing because the client is written to `out/gen/`, which "
                "is listed in `.gitignore`."
            },
        ),
    )

    assert [f.content for f in learned(events)] == [
        "Found in a session: `rg` found nothing because the client is written to `out/gen/`, "
        "which is listed in `.gitignore`."
    ]


@pytest.mark.parametrize(
    "reply",
    [
        "`rg` found nothing because I searched the wrong folder for `out/gen/`.",  # a step
        "`rg` found nothing because `out/gen/` might be ignored somewhere.",  # a guess
    ],
)
def test_an_empty_search_put_down_to_a_step_or_a_guess_is_no_finding(reply: str) -> None:
    events = _session(
        ("user_message", {"text": "Find where the generated client defines fetch_stock."}),
        ("command_run", {"command": "rg -n 'def fetch_stock'", "exit_code": 1, "output": ""}),
        ("command_run", {"command": "ls out/gen/", "exit_code": 0, "output": "client.py"}),
        ("assistant_response", {"text": reply}),
    )

    assert learned(events) == []


# --- an insight block --------------------------------------------------------------------------

INSIGHT = "`★ Insight ─────────────────────────────────────`"
RULE = "`─────────────────────────────────────────────────`"


def test_the_sentences_of_an_insight_block_are_findings_in_any_language() -> None:
    reply = "\n".join(
        [
            "The release is out.",
            INSIGHT,
            "The git override in `[tool.sources]` is used locally but left out of the published "
            "package. Очереди ревью раздельны по платформам, и первая версия идёт как новая.",
            RULE,
            "Everything else passed.",
        ]
    )
    events = _session(
        ("user_message", {"text": "ship it"}), ("assistant_response", {"text": reply})
    )

    assert [f.content for f in learned(events)] == [
        "Found in a session: The git override in `[tool.sources]` is used locally but left out "
        "of the published package.",
        "Found in a session: Очереди ревью раздельны по платформам, и первая версия идёт как новая.",
    ]


@pytest.mark.parametrize(
    "inside",
    [
        "The cache probably kept the old copy of the package.",  # a guess
        "I reinstalled the package with the new flag.",  # the session's own step
        "Let me check the lock file next.",  # a plan
        "What did the resolver pick here?",  # a question
        "This means the package has been broken for every consumer since then.",  # a pronoun
    ],
)
def test_a_guess_a_step_a_plan_or_a_question_in_an_insight_block_is_no_finding(
    inside: str,
) -> None:
    reply = "\n".join([INSIGHT, inside, RULE])
    events = _session(
        ("user_message", {"text": "ship it"}), ("assistant_response", {"text": reply})
    )

    assert learned(events) == []


def test_a_sentence_after_the_insight_block_is_read_as_any_other() -> None:
    reply = "\n".join([INSIGHT, RULE, "The release notes were copied from the changelog file."])
    events = _session(
        ("user_message", {"text": "ship it"}), ("assistant_response", {"text": reply})
    )

    assert learned(events) == []


# --- in a language other than English --------------------------------------------------------


def test_an_insight_block_in_russian_keeps_the_cause_and_leaves_out_the_steps() -> None:
    reply = "\n".join(
        [
            INSIGHT,
            "- Поле `releaseNotes` отклонено с ошибкой о другом ресурсе — я проверил "
            "настройки приложения.",
            "- Записал в память, вместе с обходом через `store-cli notes set`.",
            "- Второе: номера сборок двух платформ расходятся не случайно.",
            "- Настоящая причина в том, что версия для этой платформы первая: поле открывается "
            "только со второго релиза.",
            RULE,
        ]
    )
    events = _session(
        ("user_message", {"text": "почему не проходит релиз?"}),
        ("assistant_response", {"text": reply}),
    )

    assert [f.content for f in learned(events)] == [
        "Found in a session: Настоящая причина в том, что версия для этой платформы первая: "
        "поле открывается только со второго релиза."
    ]


def test_a_reply_in_ukrainian_prose_after_a_failure_keeps_the_cause_alone() -> None:
    reply = (
        "Причина в тому, що `pytest` читає `conftest.py` лише з тек, які він обходить. "
        "Зберіг це в пам'ять. Можливо, варто ще перевірити `tox.ini`. "
        "Наступним кроком я перенесу фікстуру `db`."
    )
    events = _session(
        ("user_message", {"text": "тести падають"}),
        ("command_run", {"command": "pytest", "exit_code": 1, "output": "E fixture"}),
        ("assistant_response", {"text": reply}),
    )

    assert [f.content for f in learned(events)] == [
        "Found in a session: Причина в тому, що `pytest` читає `conftest.py` лише з тек, "
        "які він обходить."
    ]


# --- what has (not) happened so far: the situation when said, not how anything behaves -------


def _after_failed_install(reply: str) -> list[StoredEvent]:
    return _session(
        ("user_message", {"text": "Release 2.4.1 and check that it installs."}),
        (
            "command_run",
            {
                "command": "pipx install --force tern-cli && tern doctor",
                "exit_code": 1,
                "is_error": True,
                "output": "ImportError: cannot import name 'Shape' from 'tern_types'",
            },
        ),
        ("tool_result", {"tool": "Bash", "output": "404 Not Found tern-types `pipx install`"}),
        ("assistant_response", {"text": reply}),
    )


@pytest.mark.parametrize(
    "reply",
    [
        # what has not happened yet, in a later hour the session may change it
        "`tern-types` has never been published to the package index.",
        "`tern-types` hasn't been released on the package index yet.",
        # and the rule right after it, its consequence, holds no longer than it
        "`tern-types` has not been published yet. The `pipx install` path can't resolve the "
        "dependency correctly.",
    ],
)
def test_what_has_not_happened_yet_and_its_consequence_are_no_finding(reply: str) -> None:
    assert learned(_after_failed_install(reply)) == []


def test_a_rule_of_a_named_thing_after_trouble_is_still_a_finding() -> None:
    reply = "The `pipx install` path never reads the `[tool.uv.sources]` override."

    assert [f.content for f in learned(_after_failed_install(reply))] == [
        "Found in a session: The `pipx install` path never reads the `[tool.uv.sources]` override."
    ]
