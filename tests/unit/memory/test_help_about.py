"""What the project is, from the help its own program printed: in every ecosystem, and never
from another tool's help, a failed run or a run in another folder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.help_about import help_description
from squirrel_memory.extractors.rules import RulesExtractor
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 6, 3, tzinfo=UTC)
ROOT = "/home/dev/tally"
SAID = "Counts the words of Markdown files, section by section."

#: Help pages as the common argument parsers of several ecosystems print them.
ARGPARSE = (
    "usage: tally [-h] [--json] files [files ...]\n\n"
    "Counts the words of Markdown files, section by section\n\n"
    "positional arguments:\n  files       the files to count\n"
)
COBRA = (
    "Counts the words of Markdown files, section by section.\n\n"
    "Usage:\n  tally [command]\n\nAvailable Commands:\n  count  Count words\n\n"
    'Use "tally [command] --help" for more information about a command.\n'
)
CLICK = (
    "Usage: tally [OPTIONS] COMMAND [ARGS]...\n\n"
    "  Counts the words of Markdown files, section by section.\n\n"
    "Options:\n  --help  Show this message and exit.\n"
)
CLAP = (
    "tally 0.3.1\nDev Person <dev@example.com>\n"
    "Counts the words of Markdown files, section by section\n\n"
    "Usage: tally [OPTIONS] <FILES>...\n\nOptions:\n  -h, --help  Print help\n"
)


@pytest.mark.parametrize(
    "output", [ARGPARSE, COBRA, CLICK, CLAP], ids=["argparse", "cobra", "click", "clap"]
)
def test_the_help_of_any_parser_opens_with_what_the_program_is(output: str) -> None:
    assert help_description(output) == SAID


@pytest.mark.parametrize(
    "output",
    [
        "tally 0.3.1\n",  # a version, no help page
        "Error: unknown flag: --help\nUsage:\n  tally [flags]\n\nFlags:\n  -v  verbose\n",
        "Usage: tally [OPTIONS]\n\nOptions:\n  --help  Show this message and exit.\n",
    ],
)
def test_a_help_without_a_description_says_nothing(output: str) -> None:
    assert help_description(output) is None


@pytest.mark.parametrize(
    "output",
    [
        "\n" * 1_000_000,  # blank lines: a usage or error line looked for across them
        "usage: x\n\n" + "<" * 1_000_000,  # an author's `<mail>` looked for on one long line
        "usage: x\n\n" + "<a@" * 300_000,
    ],
    ids=["blank-lines", "angle-brackets", "half-addresses"],
)
def test_a_huge_hostile_output_is_read_in_one_pass(output: str) -> None:
    assert help_description(output) is None
    assert help_description(output + "\nusage: tally\n\nCounts the words of many files.\n")


async def _about(command: str, output: str, exit_code: int = 0) -> list[str]:
    session = Session(ROOT, "s1", T0)
    session.user("what does the cli print?")
    session.run(command, exit_code, output)
    found = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(await RulesExtractor().extract(episode, session.events))
    return [c.content for c in found if c.key == "about"]


@pytest.mark.parametrize(
    "command",
    [
        "./bin/tally --help",
        "target/debug/tally -h",
        "go run . --help",
        "go run ./cmd/tally --help",
        "cargo run -- --help",
        "swift run tally --help",
        "node bin/tally.js --help",
        "python3 tally.py --help",
        "uv run tally --help",
        "bundle exec tally --help",
        "tally --help",
    ],
)
async def test_the_projects_own_program_says_what_the_project_is(command: str) -> None:
    (about,) = await _about(command, ARGPARSE)
    assert about.startswith("What this project (tally) is and does, per `")
    assert about.endswith(f"`: {SAID}")


@pytest.mark.parametrize(
    ("command", "exit_code"),
    [
        ("gh --help", 0),  # another tool's help
        ("git --help", 0),
        ("./gradlew --help", 0),  # the build tool's, through its wrapper
        ("cd ../other && ./bin/tally --help", 0),  # a program of another folder
        ("/opt/tools/bin/tally --help", 0),  # a program outside the project
        ("python3 ../other/tally.py --help", 0),
        ("python3 bin/../../other/tally.py --help", 0),
        ("/home/dev/tally/../other/bin/tally --help", 0),
        ("./bin/tally --help", 2),  # a failed run
        ("./bin/tally --version", 0),  # no help asked
    ],
)
async def test_no_other_programs_help_and_no_failed_run_says_what_it_is(
    command: str, exit_code: int
) -> None:
    assert await _about(command, ARGPARSE, exit_code) == []


#: A help page whose usage is a heading in capitals, without a colon, opening with the
#: description and the program's version.
CAPITALS = (
    "Counts the words of Markdown files, section by section (tally v0.3.1)\n\n"
    "USAGE tally [OPTIONS] <command> [args]\n\n"
    "COMMANDS\n  count   Count words\n  watch   Count on every change\n\n"
    "FLAGS\n  -h, --help   Show help\n"
)
GH_LIKE = (
    "Work seamlessly with the forge from the command line.\n\n"
    "USAGE\n  forge <command> <subcommand> [flags]\n\nCORE COMMANDS\n  pr   Manage pull requests\n"
)


def test_a_usage_heading_in_capitals_is_a_help_page() -> None:
    assert help_description(CAPITALS) == SAID
    assert help_description(GH_LIKE) == "Work seamlessly with the forge from the command line."
    # "usage" in prose is no heading.
    assert help_description("Counts the words of many files.\nusage of memory is low\n") is None


@pytest.mark.parametrize(
    "command",
    [
        "tally --help",
        'echo "$TALLY_URL $TALLY_USER"; tally --help 2>&1 | head -60',
        "go run ./cmd/tally --help",
        "cargo run -- --help",
    ],
)
async def test_a_capitals_help_of_the_projects_own_program_says_what_it_is(command: str) -> None:
    output = CAPITALS
    if command.startswith("echo"):
        output = "http://127.0.0.1:4521 user:01HX\n" + CAPITALS
    (about,) = await _about(command, output)
    assert about.endswith(f"`: {SAID}")


@pytest.mark.parametrize(
    "command",
    [
        "forge --help",  # another tool's help, with the same capitals layout
        "gh --help",
        # Another command's output before the help: which lines are the help's is unknown.
        "git log -1 --oneline; tally --help",
    ],
)
async def test_a_capitals_help_of_another_program_says_nothing(command: str) -> None:
    output = CAPITALS
    if command.startswith("git"):
        output = "3f2a1bc fix: count headings\n" + CAPITALS
    assert await _about(command, output) == []


#: A Node program's help (commander's layout): the usage line first, then the description.
COMMANDER = (
    "Usage: tally [options] [command]\n\n"
    "Counts the words of Markdown files, section by section\n\n"
    "Options:\n  -V, --version  output the version number\n  -h, --help     display help\n"
)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("ls && python3 tally.py --help", "README.md\npyproject.toml\ntally.py\n" + ARGPARSE),
        (
            "npm run build && node bin/tally.js --help",
            "\n> tally@0.3.1 build\n> tsc -p .\n\n" + COMMANDER,
        ),
        ("ls bin; ./bin/tally --help", "tally\ntally-completions.bash\n" + CLICK),
    ],
    ids=["python-after-ls", "node-after-build", "click-after-ls"],
)
async def test_a_help_after_another_commands_output_is_taken_from_its_usage_line(
    command: str, output: str
) -> None:
    (about,) = await _about(command, output)
    assert about.endswith(f"`: {SAID}")
    # Nothing the other command printed is quoted.
    said = about.split("`: ", 1)[1]
    for line in output.split("usage", 1)[0].split("Usage", 1)[0].splitlines():
        if line.strip():
            assert line.strip() not in said


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # The description comes before the usage line: the other command's lines run into it.
        ("ls && ./bin/tally --help", "README.md\ncmd\n" + COBRA),
        ("cargo build && ./target/debug/tally --help", "   Compiling tally v0.3.1\n" + CLAP),
        # Another program's usage and description before the help: never taken for the help.
        (
            "cat NOTES.md && ./bin/tally --help",
            "usage: tally [-h]\n\nAn old wrapper that uploads the counts somewhere.\n\n" + COBRA,
        ),
        # A usage line that does not name the program: whose help it is is unknown.
        ("ls && ./bin/tally --help", "README.md\nusage: main [-h]\n\n" + SAID + "\n"),
        # The other command's own help, the project's program's help not printed at all.
        ("gh --help && ./bin/tally --version", GH_LIKE + "tally 0.3.1\n"),
    ],
    ids=["cobra-after-ls", "clap-after-build", "notes-then-cobra", "unnamed-usage", "no-help"],
)
async def test_a_help_after_another_commands_output_says_nothing_it_cannot_place(
    command: str, output: str
) -> None:
    assert await _about(command, output) == []
