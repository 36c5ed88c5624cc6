"""Standing instructions in another language than English: a marker of later work ("a partir
de ahora", "ab jetzt", "今後", "перед каждым") makes the user's sentence a standing rule, kept
in their words; reports of a state, questions, quotes and code are not rules."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import STANDING_IMPORTANCE, STANDING_TAG
from squirrel_memory.extractors.reply_language import KEY as REPLY_LANGUAGE_KEY
from squirrel_memory.extractors.standing_words import PREFIX, standing_sentences
from squirrel_memory.models import MemoryType, Scope
from tests.unit.memory.session_builder import Session

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _style(messages: list[str]) -> list[str]:
    """The contents of the user_style candidates the rules keep of one session, but the
    language it is written in (`test_reply_language`)."""
    session = Session("/work/app", "s1", START)
    for message in messages:
        session.add("user_message", {"text": message}, origin="typed")
        session.say("Entendido.")
    return [
        c.content
        for c in session.extracted()
        if c.type is MemoryType.USER_STYLE and c.key != REPLY_LANGUAGE_KEY
    ]


@pytest.mark.parametrize(
    ("said", "quoted"),
    [
        # Spanish, in a Go service
        (
            "Agrega el handler de /health. A partir de ahora, ejecuta `go test ./...` antes de "
            "hacer commit.",
            "A partir de ahora, ejecuta `go test ./...` antes de hacer commit",
        ),
        # German, in a Python package
        (
            "Ab jetzt bitte vor jedem Commit die Tests mit pytest laufen lassen.",
            "Ab jetzt bitte vor jedem Commit die Tests mit pytest laufen lassen",
        ),
        # Portuguese, in a TypeScript app
        (
            "Daqui pra frente, escreva as mensagens de commit em inglês.",
            "Daqui pra frente, escreva as mensagens de commit em inglês",
        ),
        # Russian, in a Rust crate
        (
            "С этого момента не добавляй зависимости в Cargo без моего согласия.",
            "С этого момента не добавляй зависимости в Cargo без моего согласия",
        ),
        # Japanese and Chinese: no spaces between words
        (
            "今後、コミットする前に必ずテストを実行してください。",
            "今後、コミットする前に必ずテストを実行してください",
        ),
        ("从现在开始，提交前都要运行测试。", "从现在开始，提交前都要运行测试"),
    ],
)
def test_a_rule_for_later_work_in_another_language_is_a_standing_instruction(
    said: str, quoted: str
) -> None:
    session = Session("/work/app", "s1", START)
    session.add("user_message", {"text": said}, origin="typed")
    styles = [c for c in session.extracted() if c.type is MemoryType.USER_STYLE]
    (found,) = [c for c in styles if c.key != REPLY_LANGUAGE_KEY]
    assert found.content == f"Standing instruction, in the user's words: “{quoted}”."
    assert found.key.startswith(PREFIX)
    assert STANDING_TAG in found.tags and found.importance == STANDING_IMPORTANCE
    assert found.scope is Scope.PROJECT


@pytest.mark.parametrize(
    "said",
    [
        "La prueba siempre falla en CI.",  # "always" reports a state
        "Cada vez que hago commit falla el hook.",  # "each time" reports a failure
        "每次运行测试都失败。",
        "Ab jetzt?",  # nothing said besides the marker
        "¿A partir de ahora hay que ejecutar las pruebas antes de cada commit?",  # a question
        "> A partir de ahora, ejecuta las pruebas antes de hacer commit.",  # a quote
        "```\nA partir de ahora, ejecuta las pruebas antes de hacer commit.\n```",  # code
        "今後の課題として、キャッシュの設計を見直します。",  # the plans ahead, no rule
        "En adelantado estado está el proyecto de migración.",  # not the marker as a word
    ],
)
def test_reports_questions_quotes_and_code_set_no_rule(said: str) -> None:
    assert standing_sentences(said) == []
    assert _style([said]) == []


@pytest.mark.parametrize(
    "said",
    [
        "Bundan sonra commit mesajlarını her zaman İngilizce yaz.",  # Turkish "from now on"
        "Asla main branch'e direkt push yapma.",  # Turkish "never" with the negative imperative
        "Từ giờ trở đi luôn viết test trước khi commit nhé.",  # Vietnamese "from now on"
        "Mulai sekarang selalu pakai bahasa Inggris untuk nama variabel.",  # Indonesian
        "Всегда пиши тесты для новых функций.",  # "always" with the Russian imperative
        "Zawsze uruchamiaj linter.",  # "always" with the Polish imperative
        "Nunca commite direto na develop.",  # "never" by its verb, Portuguese
        "Usa sempre le f-string invece di format().",  # the verb, then "always", Italian
        "Gebruik altijd type hints, ook in de tests.",  # Dutch
        "Acuérdate: en este proyecto siempre usamos comillas simples.",  # the team's way
    ],
)
def test_a_rule_word_by_an_instructions_verb_is_a_standing_instruction(said: str) -> None:
    assert standing_sentences(said) == [said]


@pytest.mark.parametrize(
    "said",
    [
        "Siempre falla el build en CI.",  # the verb reports
        "Siempre me da error.",  # a pronoun before the verb: a report
        "Siempre tenemos problemas con el build.",
        "Nunca usé eso antes.",  # the speaker's past
        "Nunca commitei isso.",
        "Sempre dá erro no build.",
        "Всегда падает на CI.",  # no imperative
        "Asla çalışmıyor.",  # "never works"
        "Het faalt altijd op CI.",
        "Fallisce sempre in CI.",
        "Sempre que rodo os testes falha.",
        "做完以后运行测试。",  # "after", not "from now on"
    ],
)
def test_a_rule_word_in_a_report_sets_no_rule(said: str) -> None:
    assert standing_sentences(said) == []


def test_a_message_the_english_rules_read_is_theirs() -> None:
    found = _style(["From now on, always run the tests before you commit."])
    assert found and not any("in the user's words" in c for c in found)


def test_the_same_rule_in_other_words_gets_another_key_and_the_same_words_the_same_key() -> None:
    one = Session("/work/app", "s1", START)
    for said in (
        "A partir de ahora, ejecuta las pruebas antes de hacer commit.",
        "A partir de ahora, ejecuta las pruebas antes de hacer commit.",
        "De ahora en adelante, escribe los mensajes de commit en inglés.",
    ):
        one.add("user_message", {"text": said}, origin="typed")
    keys = [
        c.key
        for c in one.extracted()
        if c.type is MemoryType.USER_STYLE and c.key != REPLY_LANGUAGE_KEY  # (Spanish, too)
    ]
    assert len(keys) == 2 and len(set(keys)) == 2, keys
