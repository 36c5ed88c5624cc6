"""The user's own language, when it is not English, is a reply habit: read from the script and
the function words of what the user typed, never from pasted text, code or a translation
request, and only when most of the user's messages are in it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import STANDING_IMPORTANCE, STANDING_TAG
from squirrel_memory.extractors.reply_language import CYRILLIC, KEY, message_language, message_lean
from squirrel_memory.models import MemoryType
from squirrel_memory.project_work import language_candidates
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("请把这个函数改成异步的，然后运行 pytest", "zh"),
        ("不要修改测试文件", "zh"),
        ("この関数をリファクタリングしてください", "ja"),
        ("이 함수를 비동기로 바꿔 주세요 그리고 테스트를 실행해 주세요", "ko"),
        ("Пожалуйста, исправь тесты и запусти их снова", "ru"),
        ("Будь ласка, виправ тести і запусти їх знову", "uk"),
        ("por favor, corrige el error que aparece cuando ejecuto los tests", "es"),
        ("pode corrigir o erro que aparece quando eu rodo os testes? não está funcionando", "pt"),
        ("Bitte behebe den Fehler und führe die Tests noch einmal aus, wenn das geht", "de"),
        ("peux-tu corriger les tests qui échouent dans le module de paiement pour moi", "fr"),
        # Ukrainian told by its everyday words where it writes none of its own letters
        ("тут так само треба зробити, як у першому файлі", "uk"),
        # Russian by its words, with no letter Ukrainian lacks
        ("надо сделать так же, как в прошлом файле, пожалуйста", "ru"),
        # short French in the user's own words: pronouns and negation are its function words
        ("ok donc je voudrais ne pas avoir à lancer moi meme les commandes", "fr"),
        ("oui fais ça", "fr"),
        # code written inline in the message is no prose of any language (a PHP project)
        (
            "@core/src/Includes/Do.php - поміняй в цьому файлі всі змінні, окрім $ARGUMENTS, в "
            "такий формат: \"VectorTaskMcp::call('task_get', '{task_id: ' . Store::var('ID') . "
            "'}')\"",
            "uk",
        ),
    ],
)
def test_a_message_is_read_in_its_language(text: str, language: str) -> None:
    assert message_language(text) == language


@pytest.mark.parametrize(
    "text",
    [
        "fix the login bug please",
        "ok",
        "the error is: 文件未找到",  # an English sentence quoting a Chinese error
        "translate this to Spanish: que el los por para una con del",  # what to translate
        "hola, fix the login bug in the app please",  # one foreign greeting
        "```python\n# 这是注释，说明函数的用途和参数\n```\nwhy does this fail?",  # code
        "> 请把这个函数改成异步的，然后运行测试\nwhat does this review comment mean?",  # quoted
    ],
)
def test_english_and_what_the_user_did_not_write_are_no_language(text: str) -> None:
    assert message_language(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # Cyrillic with nothing only one of Russian and Ukrainian writes: never Russian by default
        "запусти знову тести",
        "добре, давай так само",
        # a letter of each: nothing decides
        "поміняй это в файле сейчас",
    ],
)
def test_cyrillic_that_does_not_say_which_language_is_none(text: str) -> None:
    assert message_language(text) is None


@pytest.mark.parametrize(
    ("text", "lean"),
    [
        ("make all && make run 해라", "ko"),  # a Go project's build, asked in Korean
        ("ビルドして", "ja"),
        ("так само", CYRILLIC),  # Russian or Ukrainian: the letters do not say
        ("тут треба", "uk"),
        ("修正", "zh"),  # Han alone: Chinese, or a Japanese word; it only adds to a decided one
        ("run the tests 해라", None),  # an English function word: English with a word aside
        ("ok", None),
        ("번역해줘 translate: 안녕하세요", None),  # a translation request
    ],
)
def test_a_short_message_leans_to_its_script(text: str, lean: str | None) -> None:
    assert message_lean(text) == lean


def _session(root: str, said: list[str]) -> list[tuple[str, tuple[str, ...], float]]:
    session = Session(root, "s1", T0)
    for text in said:
        session.add("user_message", {"text": text}, origin="typed")
        session.say("Done.")
    said_events = [e for e in session.events if e.event_type == "user_message"]
    return [
        (c.content, c.tags, c.importance)
        for c in language_candidates(said_events)
        if c.type is MemoryType.USER_STYLE and c.key == KEY
    ]


@pytest.mark.parametrize(
    ("root", "said", "name"),
    [
        (  # a Python command-line tool, written to in Chinese
            "/home/dev/cli",
            ["帮我看看为什么测试失败了", "把配置文件的路径改成从环境变量读取", "好的，继续"],
            "Chinese (中文)",
        ),
        (  # a Go service, written to in Spanish
            "/home/dev/api",
            [
                "agrega un endpoint para listar los usuarios por favor",
                "ahora ejecuta los tests y dime que falla",
            ],
            "Spanish (español)",
        ),
        (  # a TypeScript app, written to in Japanese
            "/home/dev/web",
            ["このコンポーネントのテストを書いてください", "ビルドが失敗する理由を教えて"],
            "Japanese (日本語)",
        ),
    ],
)
def test_a_user_who_writes_in_another_language_gets_replies_in_it(
    root: str, said: list[str], name: str
) -> None:
    ((content, tags, importance),) = _session(root, said)
    assert f"in {name}" in content and "reply in" in content, content
    assert STANDING_TAG in tags and importance == STANDING_IMPORTANCE


@pytest.mark.parametrize(
    "said",
    [
        # one message in the language: a paste or a one-off, not how the user writes
        ["帮我看看为什么测试失败了", "now run the linter on the whole project please"],
        # English with foreign text pasted in or asked to translate
        [
            "the build prints: 构建失败，找不到模块 and then stops",
            "please translate the error message: 构建失败，找不到模块",
            "fix the import path in the loader module please",
        ],
        # most messages English, some in the language
        [
            "帮我看看为什么测试失败了",
            "把配置文件的路径改成从环境变量读取",
            "now run the linter on the whole project please",
            "also update the changelog with the new option",
            "and bump the version number in the manifest file",
        ],
    ],
)
def test_no_habit_from_pasted_text_or_a_minority_of_messages(said: list[str]) -> None:
    assert _session("/home/dev/cli", said) == []


@pytest.mark.parametrize(
    ("root", "said", "name", "share"),
    [
        (  # a Python tool's patch release, asked in one Korean line
            "/home/dev/ctx",
            ["v0.16.1 패치 릴리즈 진행해주세요"],
            "Korean (한국어)",
            "its one message",
        ),
        (  # a Go server, its build asked for in a Korean imperative around the commands
            "/home/dev/shortcut",
            ["make all && make run 해라"],
            "Korean (한국어)",
            "its one message",
        ),
        (  # a PHP project: one Ukrainian message decides, a short one leans to Cyrillic
            "/home/dev/brain",
            ["поміняй в цьому файлі всі змінні на такий формат", "давай так само"],
            "Ukrainian (українська)",
            "2 of 2 messages",
        ),
    ],
)
def test_one_message_or_a_short_one_stands_for_a_language_its_script_names(
    root: str, said: list[str], name: str, share: str
) -> None:
    ((content, _, _),) = _session(root, said)
    assert content == f"The user writes to the assistant in {name}, {share}: reply in " + (
        f"{name.split(' (', maxsplit=1)[0]}."
    )


@pytest.mark.parametrize(
    "said",
    [
        ["так само"],  # Russian or Ukrainian: nothing decides which
        ["修正"],  # Han alone in one word: Chinese or Japanese
        # one message Ukrainian, one Russian: the user's language is not decided
        ["поміняй в цьому файлі всі змінні", "надо сделать так же, как в прошлом файле"],
        # a short Korean word beside English the user writes: English is the habit
        ["해라", "now run the linter on the whole project please"],
    ],
)
def test_no_language_where_the_messages_do_not_decide_one(said: list[str]) -> None:
    assert _session("/home/dev/cli", said) == []
