"""The assistant's findings in languages other than English: the real cause and a tool's rule
kept, its own steps, plans, hedges, lead-ins and status lines left out, English read as before."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.finding_sentences import finding, insight, insight_sentences
from squirrel_memory.extractors.finding_tongues import tongue

#: A finding in each language: a tool's rule or the real cause, said of no one.
FINDINGS = [
    "Настоящая причина в том, что `tsc` не читает `paths`, если пакет не указывает `extends`.",
    "Причина в тому, що `pytest` читає `conftest.py` лише з тек, які він обходить.",
    "原因是 `sqlx::query!` 宏在编译时要连接数据库，没有 `DATABASE_URL` 时只能读取离线缓存。",
    "原因は、`docker compose` が `.env` を同じディレクトリからしか読まないことです。",
    "원인은 `jest`가 기본적으로 `node_modules` 안의 ESM 패키지를 변환하지 않는다는 것입니다.",
    "La razón es que Django no aplica las migraciones de una app que no está en `INSTALLED_APPS`.",
    "O problema é que o `build_runner` não regenera os arquivos `.g.dart` sozinho.",
    "La vraie cause, c'est que `config:cache` fige la configuration, et `env()` ne lit plus `.env`.",
    "Der Grund ist, dass Gradle `src/integrationTest` nur mit dem Task `integrationTest` baut.",
    "Il motivo è che `poetry install` non installa i gruppi opzionali senza `--with`.",
]


@pytest.mark.parametrize("text", FINDINGS)
def test_a_cause_or_a_rule_in_another_language_is_a_finding_in_an_insight_block(
    text: str,
) -> None:
    assert insight(text) == f"Found in a session: {text}"


@pytest.mark.parametrize("text", FINDINGS)
def test_an_explanation_opened_in_another_language_is_a_finding_in_prose(text: str) -> None:
    assert finding(text) == f"Found in a session: {text}"


@pytest.mark.parametrize(
    "text",
    [
        # the speaker's own step: a first-person pronoun or verb form
        "Я проверил `node_modules/@shop` и кэш сборки, там всё на месте.",
        "Записал это в память вместе с обходом через `store-cli notes set`.",
        "Зберіг це в пам'ять разом з обхідним шляхом.",
        "我已经把这一点记到记忆里了，包括 `store-cli` 的绕过方法。",
        "`store-cli` の回避策と一緒に、この件をメモリに保存しました。",
        "`store-cli` 우회 방법과 함께 메모리에 저장했습니다.",
        "Revisé `manage.py` y el `.env` y todo estaba bien.",
        "Salvei isso na memória junto com o contorno do `store-cli`.",
        "J'ai noté ça dans la mémoire du projet avec le contournement.",
        "Ich habe `@prisma/client` in `onlyBuiltDependencies` eingetragen.",
        "Ho controllato `pyproject.toml` e `poetry.lock` e sono allineati.",
        # a plan
        "Дальше добавлю `extends` во все пакеты и перезапущу сборку.",
        "接下来运行 `cargo sqlx prepare` 并提交 `.sqlx/` 目录。",
        "次に `Makefile` の `up` ターゲットを直します。",
        "다음으로 `jest.config.js` 파일을 수정하겠습니다.",
        "Ahora voy a añadir `legacy` a `INSTALLED_APPS` de nuevo.",
        "Als Nächstes passe ich die CI-Pipeline für `integrationTest` an.",
        # a hedge
        "Наверное, `tsc` кэширует старый `tsconfig.json` между сборками.",
        "可能还和 `rust-toolchain.toml` 里的版本有关系。",
        "たぶん `Makefile` の `cd` も関係しています。",
        "아마 `babel.config.js` 설정도 영향을 줄 수 있습니다.",
        "Quizá también falle en CI por la misma razón de `settings`.",
        "Vielleicht liegt es auch am Gradle-Daemon von `./gradlew`.",
        "Forse dipende anche dalla versione di Sphinx in `docs`.",
        # a lead-in that announces the next sentence, a status line
        "Второе: номера сборок `web` и `api` расходятся не случайно.",
        "Zweitens: die Reihenfolge der Tasks in `build.gradle.kts` ist kein Zufall.",
        "✅ `api` コンテナは問題なく起動して動いています。",
        # a pronoun for a subject
        "C'est probablement lié à `OPcache` sur le serveur de production.",
        "Это значит, что `paths` из базового конфига не подхватываются.",
    ],
)
def test_a_step_a_plan_a_hedge_a_lead_in_or_a_status_in_another_language_is_no_finding(
    text: str,
) -> None:
    assert insight(text) == ""


def test_a_capitalised_german_noun_after_das_is_a_subject_not_a_pronoun() -> None:
    text = "Das Feld `releaseNotes` wird erst ab der zweiten Version angeboten."
    assert insight(text) == f"Found in a session: {text}"
    assert insight("Das ist der Grund, warum `releaseNotes` abgelehnt wird.") == ""


@pytest.mark.parametrize(
    "text",
    [
        "Причина в том, что файл `config.json` был удалён вчера при чистке.",  # no rule stated
        "`tsc` не читает `paths`, если пакет не указывает `extends` в конфиге.",  # no opening
        "Я думаю, причина в том, что `tsc` не читает `paths` без `extends`.",  # the speaker's
    ],
)
def test_prose_in_another_language_needs_an_opening_and_a_rule(text: str) -> None:
    assert finding(text) == ""


@pytest.mark.parametrize(
    "text",
    [
        "The cache la de en is only read when the lock file changes.",
        "I think the issue is that `npm ci` never updates the lock.",
        "Es6 modules are not transformed by default.",
        "Use `la` and `de` and `el` flags only with `--force`.",
    ],
)
def test_an_english_sentence_is_never_read_as_another_language(text: str) -> None:
    assert tongue(text) is None


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("La razón es que Django no aplica las migraciones.", "es"),
        ("Der Grund ist, dass Gradle nur den Task baut.", "de"),
        ("Il motivo è che poetry non installa i gruppi.", "it"),
        ("Причина в том, что tsc не читает paths.", "ru"),
        ("原因是宏在编译时要连接数据库。", "zh"),
    ],
)
def test_the_language_of_a_sentence_is_its_script_or_its_grammar_words(
    text: str, lang: str
) -> None:
    assert tongue(text) == lang


def test_sentences_part_after_a_full_stop_of_chinese_and_before_a_letter_without_case() -> None:
    assert insight_sentences("原因是 X。我已经记下了。") == ["原因是 X。", "我已经记下了。"]
    assert insight_sentences("원인은 X입니다. 메모리에 저장했습니다.") == [
        "원인은 X입니다.",
        "메모리에 저장했습니다.",
    ]


def test_a_latin_name_after_a_sentence_in_another_script_opens_the_next_one() -> None:
    assert insight_sentences("Поле открывается только со второго релиза. npm его принял.") == [
        "Поле открывается только со второго релиза.",
        "npm его принял.",
    ]
    assert insight_sentences("Run it with e.g. npm. then more.") == [
        "Run it with e.g. npm. then more."
    ]
