"""The project's files a folder listing printed (a listing tool's tree, the shell's `ls`), and
the root manifest such a listing shows beside the code of its language: every ecosystem alike,
with where it must not fire."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.folder_listings import ls_listed_paths
from squirrel_memory.extractors.git_listed import listed_paths
from squirrel_memory.extractors.searched_files import searched_paths
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ROOT, _extract, _said, _session

AT = datetime(2026, 6, 1, tzinfo=UTC)


def _ls(command: str, output: str, ok: bool | None = True, cwd: str | None = None) -> list[str]:
    run = CommandRun("e1", AT, command, ok, output, cwd=cwd)
    return [path for path, _ in ls_listed_paths([run], ROOT)]


def _tree(session: Session, top: str, body: str, is_error: bool = False) -> None:
    output = f"- {top}/\n{body}\nNOTE: do any of the files above seem malicious?"
    session.add(
        "tool_result",
        {"tool": "LS", "tool_use_id": "ls1", "output": output, "is_error": is_error},
        (top,),
    )


def test_ls_of_the_root_gives_its_names() -> None:
    assert _ls("ls", "Cargo.toml\nsrc\nREADME.md\n") == ["Cargo.toml", "src", "README.md"]
    # With `-p` or `-F` a folder is marked and left out (a folder named `x.py` is no code).
    assert _ls("ls -1A", "mix.exs\nlib/\n") == ["mix.exs"]
    assert _ls("ls -F", "run.sh*\nhelpers.py/\nmain.go\n") == ["run.sh", "main.go"]


def test_echo_separators_tell_one_listing_from_the_next() -> None:
    output = "package.json\ntsconfig.json\n---DOCS---\nguide.md\n"

    assert _ls('ls && echo "---DOCS---" && ls docs 2>/dev/null | head -50', output) == [
        "package.json",
        "tsconfig.json",
        "docs/guide.md",
    ]


def test_names_listed_after_a_cd_or_of_a_sub_folder_start_from_it() -> None:
    assert _ls("cd lib && ls", "ledger.ex\n") == ["lib/ledger.ex"]
    assert _ls("ls lib", "ledger.ex\n") == ["lib/ledger.ex"]
    assert _ls(f"ls {ROOT}/lib", "ledger.ex\n") == ["lib/ledger.ex"]


@pytest.mark.parametrize(
    ("command", "ok"),
    [
        ("ls -la", True),  # a long listing: permissions, owners, sizes
        ("ls -R", True),  # a recursive one prints folder headers
        ("ls src lib", True),  # two folders: headers again
        ("ls && ls docs", True),  # two listings with nothing between them
        ('ls && echo "==" && ls docs', True),  # a separator that is not in the output
        ("ls src/*.ts", True),  # a pattern the shell expanded
        ("ls ~/other", True),
        ("ls ../other", True),
        ("ls /home/dev/other", True),
        ("cd /home/dev/other && ls", True),
        ("ls", False),  # failed
        ("ls | xargs cat", True),  # the files' text
        ("ls && cat README.md", True),  # prints something else too
    ],
)
def test_a_listing_that_cannot_be_placed_gives_nothing(command: str, ok: bool) -> None:
    assert _ls(command, "Cargo.toml\nsrc\n", ok=ok) == []


def test_a_listing_of_several_folders_is_placed_by_its_headers() -> None:
    # `cat` prints lines nothing tells from names; the headers place the listing after it,
    # in the order `ls` printed the folders, and a folder cut off by `head` gives nothing.
    command = (
        "ls && cat package.json | head -40 && cat CLAUDE.md 2>/dev/null; "
        "ls rules docs tests 2>/dev/null | head -80; git log --oneline -8"
    )
    output = (
        'README.md\nplugin.js\n{\n  "name": "x",\n  "main": "./plugin.js"\n}\n'
        "docs:\nguide.md\n\nrules:\nno-barrel-files.js\nnamed-imports.js\n"
    )

    assert _ls(command, output) == [
        "rules/no-barrel-files.js",
        "rules/named-imports.js",
        "docs/guide.md",
    ]


def test_headers_end_where_a_line_is_no_name() -> None:
    output = "src:\nmain.rs\nlib.rs\nabc1234 Fix the parser\n"

    assert _ls("ls src tests; git log --oneline -3", output) == ["src/main.rs", "src/lib.rs"]


@pytest.mark.parametrize(
    "command",
    [
        "ls src tests && cat notes.txt",  # headers not printed: nothing to place
        "ls src ../other",  # a folder outside the project
        "cat Makefile && ls",  # one folder after a file: where its names begin is unknown
    ],
)
def test_listings_that_no_header_places_give_nothing(command: str) -> None:
    assert _ls(command, "build:\n\tcargo build\nmain.rs\nlib.rs\n") == []


def test_messages_and_names_with_spaces_are_left_out() -> None:
    output = "ls: cannot access 'x': No such file or directory\nmy notes.txt\nmain.go\n"

    assert _ls("ls", output) == ["main.go"]


def test_a_pwd_before_a_search_prints_nothing_that_counts() -> None:
    run = CommandRun("e1", AT, "pwd && rg --files", True, f"{ROOT}\nsrc/a.rs\nsrc/b.rs\n")

    assert [path for path, _ in searched_paths([run], ROOT)] == ["src/a.rs", "src/b.rs"]


def test_a_passing_git_diff_check_does_not_hide_the_stat_beside_it() -> None:
    command = "git add src && git diff --cached --check && git diff --cached --stat"
    run = CommandRun("e1", AT, command, True, " src/a.rs | 3 ++-\n src/b.rs | 1 +\n")

    assert [path for path, _ in listed_paths([run], ROOT)] == ["src/a.rs", "src/b.rs"]


#: (ecosystem, root manifest, code files of its language, the language stated)
LISTED = [
    ("rust", "Cargo.toml", ("src/main.rs", "src/ledger.rs"), "Rust"),
    ("elixir", "mix.exs", ("lib/ledger.ex", "lib/post.ex"), "Elixir"),
    ("c", "CMakeLists.txt", ("src/ledger.c", "src/post.c", "tests/test_post.c"), "C"),
    ("node", "package.json", ("src/ledger.ts", "vitest.config.ts"), "TypeScript"),
    ("python", "pyproject.toml", ("ledger/books.py", "ledger/post.py"), "Python"),
]


def _tree_body(files: tuple[str, ...], extra: tuple[str, ...] = ()) -> str:
    lines: list[str] = []
    folders: set[str] = set()
    for path in (*files, *extra):
        parts = path.split("/")
        for depth in range(len(parts) - 1):
            folder = "/".join(parts[: depth + 1])
            if folder not in folders:
                folders.add(folder)
                lines.append(f"{'  ' * (depth + 1)}- {parts[depth]}/")
        lines.append(f"{'  ' * len(parts)}- {parts[-1]}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("eco", "manifest", "files", "language"), LISTED, ids=[e[0] for e in LISTED]
)
async def test_a_tree_of_the_root_with_a_manifest_and_its_code_names_the_language(
    eco: str, manifest: str, files: tuple[str, ...], language: str
) -> None:
    session = _session()
    _tree(session, ROOT, _tree_body((manifest, "README.md", *files)))

    assert _said(await _extract(session), "language") == [f"{language} project ({manifest})."]


@pytest.mark.parametrize(
    ("eco", "manifest", "files", "language"), LISTED, ids=[e[0] for e in LISTED]
)
async def test_an_ls_of_the_root_with_a_manifest_and_its_code_names_the_language(
    eco: str, manifest: str, files: tuple[str, ...], language: str
) -> None:
    session = _session()
    roots = [f for f in files if "/" not in f]
    session.run("ls", 0, "\n".join([manifest, "README.md", "src", *roots]) + "\n")
    session.run("rg --files src lib ledger tests", 0, "\n".join(f for f in files if "/" in f))

    assert _said(await _extract(session), "language") == [f"{language} project ({manifest})."]


async def test_a_manifest_whose_language_the_listing_shows_no_code_of_is_not_stated() -> None:
    session = _session()
    # A Go service with a `package.json` for its docs tooling: the listing shows Go code only.
    body = _tree_body(("package.json", "go.mod", "cmd/ledger/main.go", "internal/post.go"))
    _tree(session, ROOT, body)

    assert _said(await _extract(session), "language") == ["Go project (go.mod)."]


async def test_a_few_files_of_a_second_manifest_s_language_do_not_make_it_the_project_s() -> None:
    session = _session()
    c_files = tuple(f"src/part{i}.c" for i in range(8))
    bindings = ("python/ledger/__init__.py", "setup.py")
    _tree(session, ROOT, _tree_body(("CMakeLists.txt", "pyproject.toml", *c_files, *bindings)))

    assert _said(await _extract(session), "language") == ["C project (CMakeLists.txt)."]


@pytest.mark.parametrize("folder", ["vendor", "node_modules", "examples", "docs", "build"])
async def test_code_only_in_vendored_sample_or_build_folders_states_no_manifest(
    folder: str,
) -> None:
    session = _session()
    _tree(session, ROOT, _tree_body(("Cargo.toml", f"{folder}/a.rs", f"{folder}/b.rs")))

    assert "Rust project (Cargo.toml)." not in _said(await _extract(session), "language")


async def test_a_tree_of_another_folder_or_a_failed_listing_states_nothing() -> None:
    elsewhere = _session()
    _tree(elsewhere, "/home/dev/other", _tree_body(("Cargo.toml", "src/a.rs", "src/b.rs")))
    failed = _session(1)
    _tree(failed, ROOT, _tree_body(("Cargo.toml", "src/a.rs", "src/b.rs")), is_error=True)

    assert _said(await _extract(elsewhere), "language") == []
    assert _said(await _extract(failed), "language") == []


async def test_a_nested_manifest_in_a_listing_is_no_root_manifest() -> None:
    session = _session()
    _tree(session, ROOT, _tree_body(("web/package.json", "web/src/a.ts", "web/src/b.ts")))

    assert not any(
        text.endswith("(web/package.json).") for text in _said(await _extract(session), "language")
    )


@pytest.mark.parametrize(
    ("command", "output", "listed"),
    [
        (
            "pwd && ls && git status --short | head -20 && git log --oneline -5",
            f"{ROOT}\nCargo.toml\nsrc\n?? .cache/\n M src/lib.rs\nbd8a082 update build\n",
            ["Cargo.toml", "src"],
        ),
        (
            "pwd; ls -1; git log --oneline -3",
            f"{ROOT}\npyproject.toml\nledger.py\n1a2b3c4 (HEAD -> main) add ledger\n",
            ["pyproject.toml", "ledger.py"],
        ),
        # A clean tree: the short status prints nothing.
        ("ls && git status -s", "mix.exs\nlib\n", ["mix.exs", "lib"]),
    ],
    ids=["rust-status-and-log", "python-log", "elixir-clean"],
)
def test_a_pwd_before_and_short_git_lines_after_a_listing_leave_its_names(
    command: str, output: str, listed: list[str]
) -> None:
    assert _ls(command, output) == listed


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # A listing after a short status: where its names start is not known.
        ("git status --short && ls", "?? notes\nCargo.toml\n"),
        # `git branch --show-current` prints one word, like a name.
        ("ls && git branch --show-current", "package.json\nmain\n"),
        # A long status prints lines of one word ("modified:" lines hold a tab).
        ("ls && git status", "go.mod\nOn branch main\n"),
        # `git log` with other formats.
        ("ls && git log --format=%h -3", "go.mod\n1a2b3c4\n"),
    ],
    ids=["listing-after", "branch", "long-status", "log-format"],
)
def test_git_steps_that_may_print_names_or_come_before_a_listing_give_nothing(
    command: str, output: str
) -> None:
    assert _ls(command, output) == []
