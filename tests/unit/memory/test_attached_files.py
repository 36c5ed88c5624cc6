"""A file read wrapped in tags (`<path>…</path>`, `<content>`, lines `N: text`) is read like any
other read, and a root README or instruction file the user attached to a message says what the
project is; a sub-folder's or another checkout's attached file, or the same text in a reply,
says nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.file_reads import attached_file_texts, unwrapped_read
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 14, 0, tzinfo=UTC)
ROOT = "/home/dev/tallyho"
README = "# tallyho\n\nTallyho is a command-line tool that counts words in Markdown files.\n"


def _wrapped(path: str, text: str) -> str:
    lines = "\n".join(f"{n}: {line}" for n, line in enumerate(text.splitlines(), 1))
    return (
        f"<path>{path}</path>\n<type>file</type>\n<content>\n{lines}\n\n"
        f"(End of file - total {len(text.splitlines())} lines)\n</content>"
    )


def _attached(path: str, text: str) -> str:
    return (
        "Check @README.md to understand the project\n"
        f'Called the Read tool with the following input: {{"filePath":"{path}"}}\n'
        + _wrapped(path, text)
    )


def _about(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.key == "about"]


def test_a_wrapped_read_is_numbered_like_any_read() -> None:
    assert unwrapped_read(_wrapped("/x/README.md", "# x\n\nsome text")) == (
        "1→# x\n2→\n3→some text"
    )
    assert unwrapped_read("plain output") == "plain output"


def test_a_root_readme_the_user_attached_says_what_the_project_is() -> None:
    session = Session(ROOT, "s1", T0)
    session.user(_attached(f"{ROOT}/README.md", README))
    session.say("Read it.")
    assert _about(session) == [
        "What this project (tallyho) is and does, per its README.md: Tallyho is a command-line"
        " tool that counts words in Markdown files."
    ]


def test_a_root_readme_the_host_read_for_an_at_mention_says_what_the_project_is() -> None:
    session = Session(ROOT, "s1", T0)
    lines = "\n".join(f"{n:6}→{line}" for n, line in enumerate(README.splitlines(), 1))
    said = (
        f'Called the Read tool with the following input: {{"file_path":"{ROOT}/README.md"}}\n'
        f"Result of calling the Read tool:\n{lines}"
    )
    session.add("user_message", {"text": said}, origin="harness")
    assert _about(session) == [
        "What this project (tallyho) is and does, per its README.md: Tallyho is a command-line"
        " tool that counts words in Markdown files."
    ]


def test_a_wrapped_read_of_the_root_readme_says_what_the_project_is() -> None:
    session = Session(ROOT, "s1", T0)
    full = f"{ROOT}/README.md"
    session.add("tool_call", {"tool": "Read", "tool_use_id": "t1", "input": {}}, (full,))
    output = _wrapped(full, README)
    result = {"tool": "Read", "tool_use_id": "t1", "output": output, "is_error": False}
    session.add("tool_result", result, (full,))
    assert _about(session) == [
        "What this project (tallyho) is and does, per its README.md: Tallyho is a command-line"
        " tool that counts words in Markdown files."
    ]


def test_a_sub_folders_or_another_checkouts_file_or_a_reply_says_nothing() -> None:
    nested = Session(ROOT, "s1", T0)
    nested.user(_attached(f"{ROOT}/vendor/inflect/README.md", README))
    assert _about(nested) == []
    other = Session(ROOT, "s1", T0)
    other.user(_attached("/home/dev/elsewhere/README.md", README))
    assert _about(other) == []
    reply = Session(ROOT, "s1", T0)
    reply.say(_attached(f"{ROOT}/README.md", README))
    assert _about(reply) == []
    assert attached_file_texts(reply.events[0]) == []


def test_a_malformed_or_cut_attachment_says_nothing_and_raises_nothing() -> None:
    cut = _attached(f"{ROOT}/README.md", README).split("<content>")[0]  # cut before the file
    broken_input = (
        "Check @README.md\nCalled the Read tool with the following input: {not json}\n"
        "Result of calling the Read tool:\n     1→# tallyho\n"
    )
    not_a_path = (
        'Check @README.md\nCalled the Read tool with the following input: {"filePath": 7}\n'
        "Result of calling the Read tool:\n     1→# tallyho\n"
    )
    for text in (cut, broken_input, not_a_path, "Called the Read tool" + "{" * 2_000):
        session = Session(ROOT, "s1", T0)
        session.user(text)
        assert attached_file_texts(session.events[0]) == []
        assert _about(session) == []
    # a wrapped read with no closing tag keeps its numbered lines and no more
    assert unwrapped_read("<path>/a</path>\n<type>file</type>\n<content>\n1: x\n2: y") == (
        "1→x\n2→y"
    )
