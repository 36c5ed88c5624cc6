"""The user's own language, when it is not English, is a reply habit: read from the script and
the function words of what the user typed, never from pasted text, code or a translation
request, and only when most of the user's messages are in it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.preferences import STANDING_IMPORTANCE, STANDING_TAG
from squirrel_memory.extractors.reply_language import KEY, message_language
from squirrel_memory.models import MemoryType
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


def _session(root: str, said: list[str]) -> list[tuple[str, tuple[str, ...], float]]:
    session = Session(root, "s1", T0)
    for text in said:
        session.add("user_message", {"text": text}, origin="typed")
        session.say("Done.")
    return [
        (c.content, c.tags, c.importance)
        for c in session.extracted()
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
