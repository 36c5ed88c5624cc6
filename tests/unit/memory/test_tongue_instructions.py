"""Instructions said in languages other than English: the same decision as the English rules,
made on each language's grammatical markers and on the session's shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_memory.extractors.firmness import TENTATIVE_IMPORTANCE
from squirrel_memory.extractors.tongue_instructions import (
    code_names,
    instruction_language,
    tongue_instructions,
)
from squirrel_memory.extractors.tongue_markers import PROHIBIT, STANDING, interim_way, markers
from squirrel_memory.extractors.working_habits import user_instructions
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from tests.unit.memory.session_builder import clocked_stores, exchange, rules_processor

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _said(text: str, *, after: bool = False) -> list[tuple[str, bool, str]]:
    """(key, standing, content) of each instruction `user_instructions` finds in `text`."""
    return [
        (p.key, p.standing, p.content)
        for p in user_instructions(text, after_assistant_action=after)
    ]


# --- a rule said as a rule: standing, in every language, in two code ecosystems ------------


@pytest.mark.parametrize(
    ("text", "lang", "key"),
    [
        # Rust
        (
            "Bitte niemals direkt auf main pushen, immer zuerst `cargo test` laufen lassen.",
            "de",
            "pref:cargo_test",
        ),
        ("コミットする前に必ず `cargo clippy` を実行してください。", "ja", "pref:cargo_clippy"),
        (
            "Никогда не используй `cargo publish --allow-dirty`, пожалуйста.",
            "ru",
            "pref:cargo_publish_allow-dirty",
        ),
        # Python
        ("以后每次提交之前请先运行 `pytest`，不要跳过测试。", "zh", "pref:pytest"),
        (
            "Désormais, ne pousse jamais directement sur `main`, ouvre toujours une pull request.",
            "fr",
            "pref:main",
        ),
        (
            "Por favor, siempre ejecuta `ruff check .` antes de hacer commit.",
            "es",
            "pref:ruff_check",
        ),
        ("앞으로 커밋하기 전에 항상 `mypy` 를 실행해 주세요.", "ko", "pref:mypy"),
        # a bare imperative with the rule word right after its verb
        ("Lance toujours `pytest` avant de faire un commit.", "fr", "pref:pytest"),
        ("Verwende niemals `var` in diesem Projekt, das ist veraltet.", "de", "pref:var"),
        # short, without a function word of its language: its shape tells the language
        ("Verwende niemals `var` in JavaScript.", "de", "pref:var"),
        ("Lance toujours `pytest` avant de commit", "fr", "pref:pytest"),
        # "以后" opening the clause, and "统一用" (use throughout)
        ("以后提交前一定要先跑一遍 `lint`。", "zh", "pref:lint"),
        ("不要用 `print` 调试，统一用 `logger`。", "zh", "pref:print_logger"),
    ],
)
def test_a_rule_said_with_the_languages_rule_marker_is_standing(
    text: str, lang: str, key: str
) -> None:
    assert instruction_language(text) == lang
    [(found_key, standing, content)] = _said(text)
    assert (found_key, standing) == (key, True)
    # the user's own words, quoted; the kind of statement and the language said in English
    assert content.startswith("Standing rule, said by the user in ")
    assert text.rstrip("。.") in content


def test_the_same_rule_in_two_languages_is_one_instruction() -> None:
    french = tongue_instructions(
        "Ne lance jamais `git push --force` sur cette branche.", "fr", after_assistant_action=False
    )
    russian = tongue_instructions(
        "Никогда не делай `git push --force`.", "ru", after_assistant_action=False
    )
    assert [p.key for p in french] == [p.key for p in russian] == ["pref:git_push_force"]


# --- where the rule must not fire ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # a one-off task request, politely put, in any language: never a habit
        "Peux-tu corriger le bug dans le parseur s'il te plaît ? Merci de lancer les tests.",
        "Ich möchte, dass du die Funktion im Parser reparierst, bitte.",
        "请帮我修复这个函数里的错误。",
        "このバグを直してください。",
        "이 함수의 버그를 고쳐 주세요.",
        # negation in a statement is no prohibition
        "Ça ne marche toujours pas, le build échoue encore avec la même erreur.",
        # a statement whose verb comes first, or "still" said with the rule word
        "Il échoue toujours avec la même erreur dans le build.",
        "Marche toujours pas après le redémarrage du serveur.",
        "Geht immer noch nicht nach dem Neustart des Servers.",
        "Das ist immer so bei diesem Projekt mit dem Build.",
        "Mach immer weiter so",
        "Er läuft immer",
        "Geht immer noch nicht",
        "No funciona, el servidor no arranca cuando lo ejecuto con cargo run.",
        "Сборка не работает, тесты всё время падают.",
        "ビルドが通らないです。",
        # tied to the moment: "for now", "this time", "yet"
        "Ne pousse pas encore, je veux relire d'abord.",
        "先不要提交，我还要检查一下。",
        "Не коммить пока, я сначала посмотрю.",
        # "after", "from now", "better", "than": words that only sound like a rule's marker
        "修复以后请运行测试。",
        "以后再说，先运行测试。",
        "これからテストを書いてください。",
        "前より遅くなった。",
        "Стало лучше, спасибо за исправление.",
        "Statt eines Fehlers kommt jetzt eine Warnung beim Build.",
        # a negation inside a clause, not its prohibitive ending
        "再取得したファイルをコミットする前に、IP アドレスが残っていないことを確認する。",
        # a question
        "Est-ce que tu lances toujours les tests avant de pousser ?",
        "为什么总是不要运行测试？",
    ],
)
def test_task_requests_statements_and_questions_keep_nothing(text: str) -> None:
    assert _said(text, after=True) == []


def test_english_is_left_to_the_english_rules() -> None:
    text = "No, don't use npm, always use pnpm."
    assert instruction_language(text) is None
    assert tongue_instructions(text, None, after_assistant_action=True) == []
    [(key, standing, content)] = _said(text, after=True)
    assert (key, standing, content) == ("pref:npm_pnpm", True, "Don't use npm, always use pnpm.")


# --- tentative: a prohibition, a preference, a correction ----------------------------------


@pytest.mark.parametrize(
    ("text", "after", "kind"),
    [
        (
            "Non, n'utilise pas de `print` pour déboguer, utilise le logger.",
            True,
            "Correction of the assistant's work",
        ),
        (
            "No uses `console.log` para depurar, usa el logger del proyecto.",
            False,
            "Something the user asked not to be done",
        ),
        (
            "Не добавляй новые зависимости в `Cargo.toml` без моего согласия.",
            False,
            "Something the user asked not to be done",
        ),
        ("Ich bevorzuge kleine Commits mit kurzen Nachrichten.", False, "Preference"),
        (
            "不要在 `src/lib.rs` 里加 unsafe 代码。",
            False,
            "Something the user asked not to be done",
        ),
        (
            "`git push` を避け、`git push origin main` を使用してください。",
            False,
            "Something the user asked not to be done",
        ),
    ],
)
def test_a_prohibition_preference_or_correction_is_tentative(
    text: str, after: bool, kind: str
) -> None:
    [pref] = user_instructions(text, after_assistant_action=after)
    assert not pref.standing and "tentative" in pref.tags
    assert pref.content.startswith(kind + ", said by the user in ")
    assert ("correction" in pref.tags) == after


def test_a_correction_needs_the_assistant_to_have_acted() -> None:
    text = "Non, je préfère des messages de commit courts."
    assert ["correction" in p.tags for p in user_instructions(text, after_assistant_action=True)]
    assert [
        "correction" in p.tags for p in user_instructions(text, after_assistant_action=False)
    ] == [False]


def test_emphasis_in_capitals_weighs_more() -> None:
    [loud] = tongue_instructions(
        "NIEMALS `--no-verify` benutzen!", "de", after_assistant_action=False
    )
    [calm] = tongue_instructions(
        "Niemals `--no-verify` benutzen.", "de", after_assistant_action=False
    )
    assert "emphasis" in loud.tags and "emphasis" not in calm.tags
    assert loud.importance > calm.importance


# --- the markers themselves ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "clause", "prohibits"),
    [
        ("fr", "ne touche pas aux migrations", True),
        ("fr", "le serveur ne démarre pas", False),
        ("es", "no toques las migraciones", True),
        ("es", "no compila", False),
        ("it", "non toccare le migrazioni", True),
        ("it", "non compila", False),
        ("ru", "не трогай миграции", True),
        ("ru", "не компилируется", False),
        ("ja", "マイグレーションを触らないで", True),
        ("ja", "コンパイルできない", False),
        ("ko", "마이그레이션은 건드리지 마", True),
        ("zh", "别动迁移文件", True),
    ],
)
def test_the_prohibitive_form_is_not_any_negation(lang: str, clause: str, prohibits: bool) -> None:
    assert markers(lang, clause).has(PROHIBIT) == prohibits


def test_a_marker_after_a_lead_in_still_opens_its_part() -> None:
    assert markers("fr", "Désormais, ne pousse jamais sur main").has(PROHIBIT, STANDING)


def test_code_names_in_latin_prose_are_code_shaped_words_only() -> None:
    assert code_names("n'utilise pas npm ici") == []
    assert code_names("lance app.py avec --debug") == ["app.py", "--debug"]
    assert code_names("не используй npm install") == ["npm install"]


# --- recurrence across sessions ----------------------------------------------------------


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    async with clocked_stores(tmp_path, NOW) as opened:
        yield opened


async def _style(store: SqliteStore) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    return [m for m in items if "said by the user in" in m.content]


async def test_a_prohibition_said_again_in_another_session_becomes_standing(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    processor = rules_processor(store, users, NOW)
    done = "Fertig: der Endpunkt ist hinzugefügt."
    first = exchange("montag", NOW - timedelta(days=3), done, "Bitte kein `git push` ohne Review.")
    await store.append_events(store.project_id, "u", first, [])
    await processor.drain(store)
    [once] = await _style(store)
    assert "tentative" in once.tags

    again = "Bitte nicht `git push` machen, ich will erst reviewen."
    second = exchange("donnerstag", NOW - timedelta(hours=2), done, again)
    await store.append_events(store.project_id, "u", second, [])
    await processor.drain(store)

    [standing] = await _style(store)
    assert standing.key == once.key == "pref:git_push"
    assert "recurring" in standing.tags and "tentative" not in standing.tags
    assert len(standing.source_event_ids) == 2


# --- what finishing includes: "did you …?" after the assistant's work ----------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("As-tu lancé `cargo fmt` avant de pousser les changements ?", "pref:cargo_fmt"),
        ("Hast du `pytest` laufen lassen, bevor du die Änderungen gepusht hast?", "pref:pytest"),
        ("Ты запустил `go vet`?", "pref:go_vet"),
        ("`ruff check` 运行了吗？", "pref:ruff_check"),
        ("`cargo clippy` は実行しましたか？", "pref:cargo_clippy"),
        ("`mypy` 실행했어?", "pref:mypy"),
    ],
)
def test_did_you_after_the_work_asks_for_a_step_of_finishing(text: str, key: str) -> None:
    [pref] = user_instructions(text, after_assistant_action=True)
    assert (pref.key, pref.standing, "correction" in pref.tags) == (key, False, True)
    assert pref.content.startswith("What finishing includes, asked after the assistant's work")


@pytest.mark.parametrize(
    "text",
    [
        # before the assistant did anything: a plain question
        "As-tu lancé `cargo fmt` avant de pousser les changements ?",
        "Ты видел ошибку в логах?",  # names nothing of the work's code
        "¿Viste el error que sale en `src/main.rs` cuando lo ejecutas?",  # a file, no step
    ],
)
def test_did_you_needs_the_work_before_it_and_a_named_step(text: str) -> None:
    after = "`" not in text
    assert user_instructions(text, after_assistant_action=after) == []


# --- an interim convention: "for now we <verb> in <manner>", kept for this project ----------


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("faisons simple : pour l'instant on code en relatif : le .codex est dans le dépôt", "fr"),
        ("pour le moment, nous travaillons en local", "fr"),
        ("por enquanto a gente roda em local, sem docker", "pt"),
        ("por ahora trabajamos en local con la base de pruebas", "es"),
        ("per ora lavoriamo in locale sul ramo principale", "it"),
        ("vorerst schreiben wir auf Deutsch, die Doku kommt später", "de"),
        ("пока что мы пишем на русском, документацию потом", "ru"),
    ],
)
def test_an_interim_convention_is_kept_tentative_for_this_project(text: str, lang: str) -> None:
    found = tongue_instructions(text, lang, after_assistant_action=True)
    assert len(found) == 1
    (kept,) = found
    assert kept.content.startswith("Interim convention of this project")
    assert not kept.standing
    assert kept.scope is Scope.PROJECT
    assert kept.importance == TENTATIVE_IMPORTANCE
    assert " ".join(text.split()).strip(" ,;:") in kept.content


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("pour l'instant on ajoute une colonne à la table", "fr"),  # a task: an object
        ("pour l'instant on est en train de tester le serveur", "fr"),  # a progressive
        ("pour l'instant on laisse en l'état", "fr"),  # as it is: the task at hand
        ("on code en relatif", "fr"),  # no "for now": the English-style rules decide
        ("je pense que pour l'instant on code en relatif", "fr"),  # hedged
        ("pour l'instant on code en relatif ?", "fr"),  # a question
        ("por ahora añadimos una columna", "es"),  # a task
        ("vorerst fügen wir eine Spalte hinzu", "de"),  # a task
    ],
)
def test_a_task_of_the_moment_is_no_interim_convention(text: str, lang: str) -> None:
    found = tongue_instructions(text, lang, after_assistant_action=True)
    assert not any(p.content.startswith("Interim convention") for p in found)


def test_an_interim_convention_is_no_marker_and_no_language_evidence() -> None:
    assert not interim_way("en", "for now we code in relative")
    assert interim_way("fr", "pour  l'instant\non code en relatif")
    assert markers("fr", "pour l'instant on code en relatif").kinds == {"one_off"}
