"""Corrections of the assistant said in another language: the English conditions, on each
language's "no", quoted in the user's words with the language named."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.tongue_corrections import tongue_correction
from squirrel_memory.extractors.user_corrections import PREFIX, user_corrections
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"


def _corrected(answer: str, path: str = "src/sync/state.ts") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Ajoute l'état de synchronisation."}, origin="typed")
    full = f"{ROOT}/{path}"
    session.add("tool_call", {"tool": "Read", "input": {"file_path": full}}, paths=(full,))
    session.add("assistant_response", {"text": "The config lives in the README."})
    session.add("user_message", {"text": answer}, origin="typed")
    return session


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Non, pas le bucket staging, c'est `release-bucket` qu'il faut utiliser.", "French"),
        ("Nein, die Konfiguration liegt in `config/app.toml`, nicht in der README.", "German"),
        ("Нет, это не JSONL, это один JSON-документ в `data/index.json`.", "Russian"),
        ("不对，配置文件在 `settings/prod.yaml` 里。", "Chinese"),
        ("違う、`src/main.rs` じゃなくて `src/lib.rs` です。", "Japanese"),
        ("아니, 설정은 `Cargo.toml` 에 있어요.", "Korean"),
    ],
)
def test_a_correction_in_another_language_is_quoted_with_its_language(
    text: str, language: str
) -> None:
    said = tongue_correction(text)
    assert said == f"“{text}” (said in {language})"


@pytest.mark.parametrize(
    "text",
    [
        "Non, ça ne marche toujours pas.",  # the state of the work, names nothing
        "Non, pas encore, attends `make test`.",  # tied to the moment
        "Nein, ich glaube es liegt an `cache.py`.",  # a guess
        "不对，是不是 `config.yaml` 的问题？",  # a question
        "Oui, c'est bien `release-bucket`.",  # no "no": an agreement
        "No, not the staging bucket — the release one.",  # English: the English shapes' case
    ],
)
def test_what_is_no_correction_in_another_language(text: str) -> None:
    assert tongue_correction(text) == ""


def test_it_is_kept_with_the_files_worked_on() -> None:
    session = _corrected("Nein, die Konfiguration liegt in `config/app.toml`, nicht in der README.")
    (found,) = user_corrections(session.events)
    assert found.content.startswith(f"{PREFIX} (working on src/sync/state.ts): “Nein,")
    assert found.content.endswith("(said in German)")


def test_taken_back_in_the_same_language_is_not_kept() -> None:
    session = _corrected("Нет, это не JSONL, это один JSON-документ в `data/index.json`.")
    session.add("assistant_response", {"text": "Checked: it is JSONL."})
    session.add("user_message", {"text": "Забудь, ты был прав, это JSONL."}, origin="typed")
    assert user_corrections(session.events) == []
