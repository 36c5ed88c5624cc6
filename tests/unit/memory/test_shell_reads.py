"""The project's language from the code files a session read through the shell (`cat`, `sed -n`,
`head`): every ecosystem alike, counted as files read with a file tool, with what must not be
counted."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.shell_reads import shell_read_files
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import (
    ECOS,
    IDS,
    PREFIX,
    ROOT,
    Eco,
    _extract,
    _said,
    _session,
)


def _read_with(
    session: Session, command: str, *, exit_code: int = 0, cwd: str | None = None
) -> None:
    session.run(
        command, exit_code, "#include <x>\nint main() {}\n" if exit_code == 0 else "", cwd=cwd
    )


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_two_code_files_printed_by_cat_name_their_language(eco: Eco) -> None:
    session = _session()
    _read_with(session, f'cat {eco.first} && echo "---" && cat {eco.second}')

    found = await _extract(session)

    assert _said(found, "language") == [
        f"{PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


@pytest.mark.parametrize(
    ("first", "second", "language"),
    [
        ("src/core/World.hpp", "src/core/Npc.hpp", "C++"),
        ("src/main.rs", "src/lib.rs", "Rust"),
        ("lib/app/books.ex", "lib/app/post.ex", "Elixir"),
        ("bin/main.ml", "lib/post.ml", "OCaml"),
    ],
)
async def test_sed_head_and_piped_reads_count_as_reads(
    first: str, second: str, language: str
) -> None:
    session = _session()
    _read_with(session, f"sed -n 1,80p {first}")
    _read_with(session, f"cat {second} | head -60")

    found = await _extract(session)

    named = ", ".join(f"`{path}`" for path in sorted((first, second)))
    assert _said(found, "language") == [f"{PREFIX}{language} (2 files: {named})."]


def test_paths_are_counted_from_the_folder_the_command_ran_in() -> None:
    session = _session()
    _read_with(session, "cat src/a.rs src/b.rs", cwd=f"{ROOT}/crates/core")
    _read_with(session, "head -40 lib/c.ex")

    assert [path for path, _ in shell_read_files(session.events)] == [
        "crates/core/src/a.rs",
        "crates/core/src/b.rs",
        "lib/c.ex",
    ]


@pytest.mark.parametrize(
    ("command", "exit_code"),
    [
        ("cat src/a.rs src/b.rs", 1),  # failed: the files may not exist
        ("cd .. && cat src/a.rs src/b.rs", 0),  # a move out of the project
        ("cd /home/dev/other && cat src/a.rs src/b.rs", 0),  # into another repository
        ("cd $WORK && cat src/a.rs src/b.rs", 0),  # a folder nobody can tell
        ("pushd crates/core && popd && cat src/a.rs src/b.rs", 0),
        ("grep -rn fn src lib", 0),  # a search of a tree names no file it read
        ("grep -l fn src/a.rs src/b.rs", 0),  # names only
        ("grep -c fn src/a.rs src/b.rs", 0),  # counts only
        ("grep -n fn src/*.rs", 0),  # a glob the shell expanded out of sight
        ("cat /home/dev/other/src/a.rs /home/dev/other/src/b.rs", 0),  # another repository
        ("cat ../other/src/a.rs ../other/src/b.rs", 0),
        ("cat ~/notes/a.rs ~/notes/b.rs", 0),
        ("cat vendor/x/a.rs vendor/x/b.rs", 0),  # not the project's own code
        ("cat node_modules/x/a.js node_modules/x/b.js", 0),
        ("sed -i 's/a/b/' src/a.rs src/b.rs", 0),  # an edit in place prints nothing
        ("wc -l src/a.rs src/b.rs", 0),  # counts, not the files' text
    ],
)
async def test_reads_that_cannot_be_placed_or_show_no_text_name_no_language(
    command: str, exit_code: int
) -> None:
    session = _session()
    _read_with(session, command, exit_code=exit_code)

    assert _said(await _extract(session), "language") == []


async def test_a_read_that_printed_nothing_names_no_language() -> None:
    session = _session()
    session.run("cat src/a.rs 2>/dev/null; cat src/b.rs 2>/dev/null; true", 0, "")

    assert _said(await _extract(session), "language") == []


@pytest.mark.parametrize(
    "error",
    [
        "cat: src/b.rs: No such file or directory",
        "sed: can't read src/b.rs: No such file or directory",
        "head: cannot open 'src/b.rs' for reading: No such file or directory",
    ],
)
def test_a_file_the_reader_could_not_open_is_not_read(error: str) -> None:
    session = _session()
    session.run(
        "ls && cat src/a.rs | head -80 && cat src/b.rs | head -80",
        0,
        f"src\nfn a() {{}}\n{error}\n",
    )

    assert [path for path, _ in shell_read_files(session.events)] == ["src/a.rs"]


async def test_one_file_read_through_the_shell_names_no_language() -> None:
    session = _session()
    _read_with(session, "cat src/main.cpp")
    _read_with(session, "cat README.md config/settings.yaml")

    assert _said(await _extract(session), "language") == []


@pytest.mark.parametrize(
    ("first", "second", "language"),
    [
        ("config/initializers/datadog.rb", "app/models/user.rb", "Ruby"),
        ("src/lib/template.ts", "src/lib/render.ts", "TypeScript"),
        ("src/main.rs", "src/web/handlers.rs", "Rust"),
    ],
)
async def test_reads_after_a_move_to_the_project_root_are_placed_from_it(
    first: str, second: str, language: str
) -> None:
    session = _session()
    _read_with(session, f'cd "{ROOT}" && head -15 {first}; echo ---; sed -n 1,40p {second}')

    found = await _extract(session)

    named = ", ".join(f"`{path}`" for path in sorted((first, second)))
    assert _said(found, "language") == [f"{PREFIX}{language} (2 files: {named})."]


def test_reads_after_a_move_into_a_folder_are_placed_from_that_folder() -> None:
    session = _session()
    _read_with(session, "cat README.md && cd crates/core && cat src/a.rs src/b.rs")
    _read_with(session, "cd web; head -40 lib/c.ex")

    assert [path for path, _ in shell_read_files(session.events)] == [
        "README.md",
        "crates/core/src/a.rs",
        "crates/core/src/b.rs",
        "web/lib/c.ex",
    ]


@pytest.mark.parametrize(
    ("command", "language"),
    [
        ('grep -nE "api_key|ENV" config/initializers/honeybadger.rb lib/post.rb', "Ruby"),
        ("grep -n -A 3 currency src/lib/template.ts src/app/Editor.tsx", "TypeScript"),
        ("rg -n -e Template src/models/feed.rs src/web/handlers.rs", "Rust"),
    ],
)
async def test_a_search_in_named_files_reads_their_lines(command: str, language: str) -> None:
    session = _session()
    _read_with(session, command)

    found = await _extract(session)

    assert [c for c in _said(found, "language") if f": {language} (2 files" in c]


@pytest.mark.parametrize(
    ("command", "output", "shown"),
    [
        # a search over candidates, errors thrown away: only the files it printed lines of
        (
            "rg -n edition Cargo.toml package.json pyproject.toml 2>/dev/null",
            'Cargo.toml:4:edition = "2021"\n',
            ["Cargo.toml"],
        ),
        # another step printed first: the search's one file is shown only if the output names it
        (
            "command -v mix; grep -n deps mix.exs package.json 2>/dev/null",
            "/usr/bin/mix\nmix.exs:8:  defp deps do\n",
            ["mix.exs"],
        ),
        (
            "head -5 Gemfile pyproject.toml 2>/dev/null",
            "==> pyproject.toml <==\n[project]\n",
            ["pyproject.toml"],
        ),
        ("cat go.mod package.json &>/dev/null; ls", "cmd\ninternal\n", []),
        # the line's one printing step and its one file: the output is that file's text
        ("cat package.json 2>/dev/null", '{\n  "name": "x"\n}\n', ["package.json"]),
        (
            "cd web && head -20 package.json 2>/dev/null",
            '{\n  "name": "x"\n}\n',
            ["web/package.json"],
        ),
        # errors kept: a missing file says so, and the reader's own rule holds
        ("cat src/a.rs src/b.rs", "fn a() {}\nfn b() {}\n", ["src/a.rs", "src/b.rs"]),
    ],
)
def test_a_file_named_by_a_step_that_drops_its_errors_is_shown_only_when_named_back(
    command: str, output: str, shown: list[str]
) -> None:
    session = _session()
    session.run(command, 0, output)

    assert [path for path, _ in shell_read_files(session.events)] == shown


async def test_a_manifest_named_by_a_silenced_search_names_no_language() -> None:
    session = _session()
    session.run(
        "mise which bats || true; rg -n bats mise.toml package.json 2>/dev/null | head -40",
        0,
        'mise ERROR bats is not a mise bin\nmise.toml:2:_.path = ["test/bats/bin"]\n',
    )

    said = " ".join(_said(await _extract(session), "language"))

    assert "JavaScript" not in said and "TypeScript" not in said
