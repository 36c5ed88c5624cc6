"""Shell lines as words: a here-document's body is text a command reads, never commands."""

from __future__ import annotations

import pytest

from squirrel_core.commands import command_uses, typed_commands
from squirrel_core.shell_words import join_words, simple_commands, without_heredocs


def _texts(line: str) -> list[str]:
    return [t.text for t in typed_commands(line)]


@pytest.mark.parametrize(
    ("line", "commands"),
    [
        # A commit message given on standard input: its lines are not commands.
        (
            "git commit -F - <<'EOF'\nfix: wire the logger\n\nNo spec added: logger wiring only."
            "\nEOF\ngit log --oneline -1",
            ["git commit -F -", "git log --oneline -1"],
        ),
        # A file written from a here-document, in Python and Ruby projects alike.
        (
            'cat > notes.md <<"NOTES"\nRun pytest -x before pushing\nNOTES\nuv run pytest',
            ["cat", "uv run pytest"],
        ),
        ("cat <<-END > f.txt\n\tmake test\n\tEND\nbundle exec rspec", ["cat", "bundle exec rspec"]),
        ("cat << MSG\nnpm test\nMSG", ["cat"]),
        # A body whose delimiter never comes runs to the end of the line.
        ("tee out.txt <<EOF\ncargo test\nstill text", ["tee out.txt"]),
    ],
)
def test_a_here_documents_body_is_not_a_command(line: str, commands: list[str]) -> None:
    assert _texts(line) == commands


@pytest.mark.parametrize(
    "body",
    ["No spec added: this is production-only logger wiring.", "make test", "go test ./..."],
)
def test_a_body_line_never_says_how_the_tests_run(body: str) -> None:
    line = f"git commit -F - <<'EOF'\nchore: tidy\n\n{body}\nEOF"
    assert [u.purpose for u in command_uses(line)] == []


def test_an_operator_inside_quotes_leaves_the_quoted_word_as_it_is() -> None:
    line = "git commit -m \"$(cat <<'EOF'\nfix: x\n\nmake test\nEOF\n)\" && npm test"
    assert without_heredocs(line) == line
    assert [u.tool for u in command_uses(line)] == ["npm test"]


def test_a_here_string_and_a_plain_redirection_are_not_here_documents() -> None:
    assert without_heredocs('cat <<< "hi"\nmake test') == 'cat <<< "hi"\nmake test'
    assert simple_commands("sort < in.txt\nmake test") == [["sort"], ["make", "test"]]
    assert [u.tool for u in command_uses("wc -l <<< x\ncargo test")] == ["cargo test"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('grep -c "<<<" src/main.rs', [["grep", "-c", "<<<", "src/main.rs"]]),
        ('echo "a && b"', [["echo", "a && b"]]),
        ("printf '%s|%s\\n' a b", [["printf", "%s|%s\\n", "a", "b"]]),
        ('grep -n ">" app.py && pytest -q', [["grep", "-n", ">", "app.py"], ["pytest", "-q"]]),
        ("cargo test -- '|' ; cargo fmt", [["cargo", "test", "--", "|"], ["cargo", "fmt"]]),
        (
            "find . -name '*.pyc' -exec rm {} \\; && ls",
            [
                ["find", ".", "-name", "*.pyc", "-exec", "rm", "{}", ";"],
                ["ls"],
            ],
        ),
    ],
)
def test_quoted_or_escaped_text_that_looks_like_an_operator_is_data(
    line: str, expected: list[list[str]]
) -> None:
    assert simple_commands(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            'go test ./... 2>&1 | tee "out.log" && echo done',
            [["go", "test", "./..."], ["echo", "done"]],
        ),
        ('npm run lint > "lint report.txt"; npm test', [["npm", "run", "lint"], ["npm", "test"]]),
        ("cat <<'EOF' > notes.md\na && b\nEOF\nls", [["cat"], ["ls"]]),
    ],
)
def test_operators_outside_quotes_still_split_and_redirect(
    line: str, expected: list[list[str]]
) -> None:
    assert simple_commands(line) == expected


@pytest.mark.parametrize(
    ("line", "commands"),
    [
        # A loop's header is no command; its body is, without `do` (a Rust and a Python project).
        (
            "for i in 1 2 3; do HK=1 cargo test --test it || exit; done",
            ["HK=1 cargo test --test it", "exit"],
        ),
        ("for f in tests/*.py; do uv run pytest $f; done", ['uv run pytest "$f"']),
        # A condition and its branches are commands; the reserved words are not.
        (
            "if bundle exec rspec; then echo ok; else echo failed; fi",
            ["bundle exec rspec", "echo ok", "echo failed"],
        ),
        (
            "while ! pg_isready -q; do sleep 1; done && mix test",
            ["pg_isready -q", "sleep 1", "mix test"],
        ),
    ],
)
def test_a_compound_commands_reserved_words_are_not_commands(
    line: str, commands: list[str]
) -> None:
    assert _texts(line) == commands


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("echo done", ["echo", "done"]),  # a reserved word as an argument is an argument
        ('git commit -m "for now; then fix"', ["git", "commit", "-m", "for now; then fix"]),
        ("grep -n 'if x; then y; fi' notes.txt", ["grep", "-n", "if x; then y; fi", "notes.txt"]),
    ],
)
def test_a_reserved_word_that_is_not_in_command_position_stays(line: str, words: list[str]) -> None:
    assert simple_commands(line) == [words]


def test_a_pattern_typed_unquoted_stays_unquoted() -> None:
    line = "clang-format -i src/*.cpp"
    assert join_words(["clang-format", "-i", "src/*.cpp"], typed=line) == line
    quoted = "find . -name '*.py'"
    assert join_words(["find", ".", "-name", "*.py"], typed=quoted) == quoted
    assert join_words(["echo", "*.py"]) == "echo '*.py'"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # A `#` inside a word is part of it: a flake's output, a URL's fragment.
        ("nix build .#default", [["nix", "build", ".#default"]]),
        ("curl https://x.dev/a#top && ls", [["curl", "https://x.dev/a#top"], ["ls"]]),
        # A `#` that starts a word starts a comment, after a blank or an operator.
        ("make test # the slow ones too", [["make", "test"]]),
        ("make test;# later", [["make", "test"]]),
        ('echo "#tag" #note', [["echo", "#tag"]]),
    ],
)
def test_a_hash_starts_a_comment_only_at_a_word_s_start(
    line: str, expected: list[list[str]]
) -> None:
    assert simple_commands(line) == expected


def test_a_word_with_a_hash_inside_is_shown_unquoted() -> None:
    assert _texts("nix build .#default") == ["nix build .#default"]
    assert join_words(["echo", "#x"]) == "echo '#x'"
