"""Requests the user makes again in another session, in any language: what makes two sentences
one request, and the traps (acknowledgements, pasted output, a task sent again, two tasks of
one form, one session's repeats, questions, the host's text)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.repeated_requests import PREFIX, repeated_requests
from squirrel_memory.extractors.said_requests import (
    request_clauses,
    request_sentences,
    short_requests,
)
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.project_work import request_candidates
from tests.unit.memory.session_builder import Session

ROOT = "/work/app"
START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _sessions(*turns: list[tuple[str, str]]) -> list[StoredEvent]:
    """One session per list of (the user's message, the assistant's reply), a day apart."""
    events: list[StoredEvent] = []
    for n, said in enumerate(turns):
        session = Session(ROOT, f"s{n}", START + timedelta(days=n))
        for message, reply in said:
            session.add("user_message", {"text": message}, origin="typed")
            session.say(reply)
        events.extend(session.events)
    return events


def test_a_request_said_again_in_spanish_in_another_session_is_one_habit() -> None:
    events = _sessions(
        [
            ("Agrega el endpoint de usuarios al servidor.", "Listo, agregué el handler."),
            ("Antes de hacer commit ejecuta siempre las pruebas.", "De acuerdo."),
        ],
        [
            ("Migra la configuración de logging a slog.", "Hecho, cambié el logger."),
            ("Ejecuta las pruebas antes de cada commit, por favor.", "Entendido."),
        ],
    )
    (found,) = repeated_requests(events)
    assert found.sessions == 2
    assert found.wording == "Ejecuta las pruebas antes de cada commit"
    assert found.key.startswith(PREFIX)
    assert len(found.event_ids) == 2


def test_a_request_said_again_in_japanese_is_found_without_spaces_between_words() -> None:
    events = _sessions(
        [
            ("Rustのパーサーにエラー処理を追加して", "追加しました。"),
            ("コミットする前にテストを実行してください", "はい。"),
        ],
        [
            ("ビルドスクリプトを整理して", "整理しました。"),
            ("テストを実行してからコミットしてください", "了解です。"),
        ],
    )
    (found,) = repeated_requests(events)
    assert found.sessions == 2
    assert "テスト" in found.wording
    # a key of ASCII words cannot be made of these: a digest of the words instead
    assert found.key.startswith(PREFIX) and len(found.key) == len(PREFIX) + 12


def test_three_sessions_raise_a_request_above_two() -> None:
    ask = "Schreib die Commit-Nachrichten immer auf Englisch."
    events = _sessions(
        [("Baue den Parser für die Konfiguration.", "Erledigt."), (ask, "Gut.")],
        [("Bitte schreibe die Commit-Nachrichten auf Englisch.", "Mache ich.")],
        [
            ("Räume die Tests auf.", "Aufgeräumt."),
            ("Commit-Nachrichten auf Englisch schreiben, bitte.", "Ja."),
        ],
    )
    (found,) = repeated_requests(events)
    assert found.sessions == 3
    (cand,) = request_candidates([found])
    (two,) = request_candidates([found.__class__(found.key, found.wording, 2, found.event_ids)])
    assert cand.type is MemoryType.USER_STYLE
    assert cand.importance > two.importance
    assert cand.content.startswith("In 3 sessions the user asked: “")
    assert cand.content.endswith("”.")


def test_the_key_stays_the_first_wording_as_the_request_recurs() -> None:
    first = _sessions(
        [("Run the tests and commit when you are done.", "Ok.")],
        [("When you are done, run the tests and then commit.", "Ok.")],
    )
    more = _sessions(
        [("Run the tests and commit when you are done.", "Ok.")],
        [("When you are done, run the tests and then commit.", "Ok.")],
        [("Run all the tests and commit once you are done.", "Ok.")],
    )
    assert repeated_requests(first)[0].key == repeated_requests(more)[0].key


def test_acknowledgements_and_bare_verbs_are_never_requests() -> None:
    said = ["continue", "yes", "go ahead", "commit", "sí, adelante", "はい", "ok, weiter so"]
    events = _sessions([(s, "Ok.") for s in said], [(s, "Ok.") for s in said])
    assert repeated_requests(events) == []


def test_pasted_errors_paths_questions_and_code_are_not_requests() -> None:
    assert request_sentences("TypeError: cannot read properties of undefined (reading 'x')") == []
    assert request_sentences("error[E0308]: mismatched types --> src/main.rs:10:5") == []
    assert request_sentences("please update src/server/routes.ts to export the handler") == []
    assert request_sentences("could you run the whole test suite again for me?") == []
    assert request_sentences("¿puedes ejecutar todas las pruebas otra vez?") == []
    assert request_sentences("```\nrun the tests before every commit please\n```") == []
    diff = "+    return run_all_the_tests(before, commit)\n-    return None"
    assert request_sentences(diff) == []


def test_the_same_message_sent_again_in_a_new_session_is_one_task_not_a_habit() -> None:
    task = (
        "Analyze the existing CLI commands and write a specification for the missing ones. "
        "Follow the usual conventions of command line tools."
    )
    events = _sessions([(task, "Interrupted.")], [(task, "Here is the specification.")])
    assert repeated_requests(events) == []


def test_a_request_repeated_within_one_session_is_that_sessions_task() -> None:
    events = _sessions(
        [
            ("Run the tests and commit when you are done.", "Ok."),
            ("[Request interrupted by user]", ""),
            ("Run the tests and commit when you are done, please.", "Ok."),
        ]
    )
    assert repeated_requests(events) == []


def test_two_tasks_of_one_form_are_not_one_request() -> None:
    # the words that differ (login / signup) name what only one session works on
    events = _sessions(
        [("Please fix the failing login test now.", "The login test passes again.")],
        [("Please fix the failing signup test now.", "Fixed the signup test.")],
    )
    assert repeated_requests(events) == []


def test_one_form_filled_with_other_words_is_not_one_request_even_unnamed_elsewhere() -> None:
    # Nothing else in the sessions names the checkout, the cart or the login: the one place
    # the sentences differ still says they are three tasks, and two rules of one form are two.
    events = _sessions(
        [("Fix the failing checkout test.", "Done.")],
        [("Fix the failing cart test.", "Done.")],
        [("Fix the failing login test.", "Done.")],
        [("Always run the linter before you commit anything.", "Ok.")],
        [("Always run the formatter before you commit anything.", "Ok.")],
    )
    assert repeated_requests(events) == []


def test_a_word_added_or_said_with_another_ending_is_still_one_request() -> None:
    events = _sessions(
        [("Run the linters and the tests before committing anything.", "Ok.")],
        [("Again: run the linter and the tests before committing anything.", "Ok.")],
    )
    (found,) = repeated_requests(events)
    assert found.sessions == 2


def test_sentences_sharing_only_a_few_words_are_not_one_request() -> None:
    events = _sessions(
        [("There is logic for tracking changes for metrics.", "I see it.")],
        [("There are no tracking of failures for metrics.", "Right.")],
        [("Add a new column to the sessions table.", "Added.")],
        [("Add a new endpoint to the users table.", "Added.")],
    )
    assert repeated_requests(events) == []


def test_the_hosts_text_slash_commands_and_subagent_prompts_are_not_the_users() -> None:
    said = "Run the linter and the formatter before every commit."
    events: list[StoredEvent] = []
    for n, origin in enumerate(("harness", "slash_command", "parent_agent", "hook")):
        session = Session(ROOT, f"s{n}", START + timedelta(days=n))
        session.add("user_message", {"text": said}, origin=origin)
        session.say("Ok.")
        events.extend(session.events)
    assert repeated_requests(events) == []


def test_a_request_said_after_the_task_in_a_clause_of_its_own_is_found() -> None:
    events = _sessions(
        [
            (
                "Corrige le bug de pagination sur la liste des menus, et lance les tests avant "
                "de me rendre la main.",
                "Corrigé.",
            )
        ],
        [
            (
                "Renomme la fonction du menu, puis fais tourner les tests avant de me rendre la main.",
                "Fait.",
            )
        ],
    )
    (found,) = repeated_requests(events)
    assert found.sessions == 2
    assert found.wording == "puis fais tourner les tests avant de me rendre la main"


def test_clauses_only_split_sentences_that_have_several() -> None:
    assert request_clauses("Run the whole test suite before you hand the work back.") == []
    assert request_clauses(
        "Fix the login bug, and run the whole test suite before handing back"
    ) == ["and run the whole test suite before handing back"]
    # a clause naming one thing (a path, a name in code) or too short is no request
    assert request_clauses("Rename get_menu, then run the suite, then push") == []


def test_two_tasks_in_clauses_of_one_form_are_not_one_request() -> None:
    events = _sessions(
        [("Look at the report, then fix the failing checkout test in the shop", "Fixed.")],
        [("Look at the report, then fix the failing account test in the shop", "Fixed.")],
    )
    assert repeated_requests(events) == []


def test_a_short_request_after_the_task_said_again_in_another_session_is_found() -> None:
    events = _sessions(
        [
            (
                "Añade validación al formulario de registro; pregúntame antes de instalar "
                "cualquier paquete.",
                "Hecho.",
            )
        ],
        [
            (
                "Necesito exportar las reservas. Si hace falta una librería nueva, pregúntame antes.",
                "Ok.",
            )
        ],
    )
    (found,) = repeated_requests(events)
    assert found.sessions == 2
    # quoted in the sentence it stands in: its two words alone say too little
    assert found.wording == "Si hace falta una librería nueva, pregúntame antes"


def test_short_requests_follow_the_task_and_are_never_the_messages_opening() -> None:
    assert short_requests("Bau den Export um. Bitte kleine Commits, einen pro Schritt.") == [
        ("Bitte kleine Commits", "Bitte kleine Commits, einen pro Schritt."),
        ("einen pro Schritt.", "Bitte kleine Commits, einen pro Schritt."),
    ]
    assert short_requests("Refactor the parser, small commits per step.") == [
        ("small commits per step.", "Refactor the parser, small commits per step.")
    ]
    assert short_requests("Fix the login bug.") == []
    assert short_requests("Fix it. ,,") == []  # marks alone make no clause
    assert short_requests("Fix the login bug, now.") == []


def test_a_short_task_opening_its_message_is_never_a_request_said_again() -> None:
    events = _sessions(
        [("Fix the login bug.", "Fixed."), ("Fix the login bug, please.", "Done.")],
        [("Fix the login bug.", "Fixed again.")],
    )
    assert repeated_requests(events) == []


def test_a_short_request_whose_words_are_not_all_said_again_is_no_habit() -> None:
    events = _sessions(
        [("Corrige o frete. Não mexe no pagamento.", "Feito.")],
        [("Ajusta as cores. Não mexe no layout.", "Feito.")],
    )
    assert repeated_requests(events) == []


def test_a_request_naming_the_files_its_session_works_on_is_the_task_not_a_habit() -> None:
    events: list[StoredEvent] = []
    for n, said in enumerate(
        ("Fix the flaky chunk upload test.", "Fix the flaky chunk upload test, it failed on CI.")
    ):
        session = Session(ROOT, f"s{n}", START + timedelta(days=n))
        session.add("user_message", {"text": said}, origin="typed")
        session.edit(f"{ROOT}/src/upload/chunks.ts", "setTimeout(retry, backoff(attempt))")
        session.say("Fixed.")
        events.extend(session.events)
    assert repeated_requests(events) == []
    # the same requests in sessions that edit other files are said again
    for event in events:
        object.__setattr__(event, "file_paths", ())
    assert [r.sessions for r in repeated_requests(events)] == [2]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The login test fails, fix this test.", "The signup page is slow. Fix this test."),
        ("Le build casse. Corrige ce test.", "La page est lente. Corrige ce test."),
        ("Der Export hängt. Prüf diese Datei.", "Die Suche ist leer. Prüf diese Datei."),
    ],
    ids=["en", "fr", "de"],
)
def test_a_short_request_pointing_at_the_thing_at_hand_is_the_task(first: str, second: str) -> None:
    assert short_requests(first) == []
    events = _sessions([(first, "Fixed.")], [(second, "Fixed.")])
    assert repeated_requests(events) == []
