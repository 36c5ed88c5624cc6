"""The language of the code sessions touched, and how a script the session wrote is run: the
same rules in every ecosystem, with what must and must not be stated."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.manifests import (
    EXTENSION_LANGUAGES,
    NON_LANGUAGE_SUFFIXES,
    extension_language,
)
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.touched_languages import merged_statement
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 6, 3, tzinfo=UTC)
ROOT = "/home/dev/ledger"
PREFIX = "Code worked on in this project's sessions: "


@dataclass(frozen=True)
class Eco:
    """Two code files of one ecosystem, a script of it and the interpreter that runs it."""

    name: str
    language: str
    first: str
    second: str
    script: str
    runs: str  # the command, run from the script's folder


ECOS = [
    Eco("python", "Python", "ledger/books.py", "ledger/post.py", "tools/seed.py", "python3"),
    Eco("node", "JavaScript", "src/books.js", "src/post.js", "tools/seed.js", "node"),
    Eco("ruby", "Ruby", "lib/books.rb", "lib/post.rb", "bin/seed.rb", "ruby"),
    Eco("elixir", "Elixir", "lib/books.ex", "lib/post.ex", "priv/seed.exs", "elixir"),
    Eco("kotlin", "Kotlin", "src/Books.kt", "src/Post.kt", "tools/seed.kts", "kotlin"),
    Eco("scala", "Scala", "src/Books.scala", "src/Post.scala", "tools/Seed.scala", "scala"),
    Eco("clojure", "Clojure", "src/books.clj", "src/post.clj", "tools/seed.clj", "bb"),
    Eco("lua", "Lua", "src/books.lua", "src/post.lua", "tools/seed.lua", "lua"),
    Eco("julia", "Julia", "src/books.jl", "src/post.jl", "tools/seed.jl", "julia"),
    Eco("perl", "Perl", "lib/Books.pm", "lib/Post.pm", "tools/seed.pl", "perl"),
    Eco("php", "PHP", "src/Books.php", "src/Post.php", "tools/seed.php", "php"),
    Eco("r", "R", "R/books.R", "R/post.R", "tools/seed.R", "Rscript"),
    Eco("dart", "Dart", "lib/books.dart", "lib/post.dart", "tool/seed.dart", "dart"),
    Eco("swift", "Swift", "Sources/Books.swift", "Sources/Post.swift", "tools/seed.swift", "swift"),
    Eco("shell", "Shell", "scripts/build.sh", "scripts/post.sh", "tools/seed.sh", "bash"),
    Eco("emacs-lisp", "Emacs Lisp", "lisp/books.el", "lisp/post.el", "init.el", "emacs"),
]
IDS = [e.name for e in ECOS]


async def _extract(*sessions: Session) -> list[MemoryCandidate]:
    found: list[MemoryCandidate] = []
    for session in sessions:
        for episode in segment_episodes(session.events, now=NOW):
            found.extend(await RulesExtractor().extract(episode, session.events))
    return found


def _said(found: list[MemoryCandidate], key: str) -> list[str]:
    return [c.content for c in found if c.key == key or c.key.startswith(f"{key}:")]


def _session(n: int = 0) -> Session:
    session = Session(ROOT, f"s{n}", T0 + timedelta(days=n))
    session.user("Look at how postings are booked and fix the rounding.")
    return session


def test_the_extension_table_covers_thirty_ecosystems_and_no_data_format() -> None:
    assert len(set(EXTENSION_LANGUAGES.values())) >= 30
    for suffix in (".el", ".ex", ".kt", ".scala", ".clj", ".hs", ".ml", ".zig", ".nim", ".dart"):
        assert extension_language(suffix), suffix
    for suffix in (".lua", ".jl", ".swift", ".cs", ".fs", ".php", ".pm", ".r", ".gleam", ".cr"):
        assert extension_language(suffix), suffix
    for suffix in (".f90", ".sol", ".sh", ".cpp", ".hpp"):
        assert extension_language(suffix), suffix
    assert not set(EXTENSION_LANGUAGES) & NON_LANGUAGE_SUFFIXES
    # Suffixes two languages share (C or C++, Perl or Prolog) name neither.
    for suffix in (".json", ".yaml", ".md", ".toml", ".tf", ".hcl", ".h", ".pl", ".m", ".v"):
        assert extension_language(suffix) is None, suffix


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_two_code_files_read_and_edited_name_their_language(eco: Eco) -> None:
    session = _session()
    session.read(eco.first, "code\n")
    session.edit(eco.second, "fixed\n")

    found = await _extract(session)

    assert _said(found, "language") == [
        f"{PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_one_file_only_read_names_no_language(eco: Eco) -> None:
    session = _session()
    session.read(eco.first, "code\n")
    session.read("config/settings.yaml", "a: 1\n")
    session.read("README.md", "Notes.\n")

    assert _said(await _extract(session), "language") == []


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
@pytest.mark.parametrize("folder", ["vendor", "thirdparty", "generated", "docs", ".github", "out"])
async def test_vendored_generated_and_docs_code_names_no_language(eco: Eco, folder: str) -> None:
    session = _session()
    session.read(f"{folder}/{eco.first}", "code\n")
    session.read(f"{folder}/{eco.second}", "code\n")

    assert _said(await _extract(session), "language") == []


async def test_a_sub_package_alone_names_no_language() -> None:
    session = _session()
    session.read("site/package.json", '{"name": "site"}\n')
    session.read("site/src/app.ts", "code\n")
    session.read("site/src/page.ts", "code\n")

    assert _said(await _extract(session), "language") == []


async def test_two_languages_of_comparable_weight_are_both_named() -> None:
    session = _session()
    for name in ("a", "b", "c", "d", "e"):
        session.read(f"Sources/{name}.swift", "code\n")
    for name in ("a", "b", "c"):
        session.read(f"core/src/{name}.rs", "code\n")
    session.read("tools/x.py", "code\n")
    session.read("tools/y.py", "code\n")

    (said,) = _said(await _extract(session), "language")

    assert said == f"{PREFIX}Swift (5 files) and Rust (3 files)."


async def test_three_languages_of_comparable_weight_name_none() -> None:
    session = _session()
    for path in ("a.swift", "b.swift", "a.rs", "b.rs", "a.go", "b.go"):
        session.read(f"src/{path}", "code\n")

    assert _said(await _extract(session), "language") == []


async def test_a_minor_language_beside_a_main_one_is_left_out() -> None:
    session = _session()
    for name in ("a", "b", "c", "d", "e", "f", "g"):
        session.read(f"src/{name}.cpp", "code\n")
    session.read("scripts/a.py", "code\n")
    session.read("scripts/b.py", "code\n")

    assert _said(await _extract(session), "language") == [f"{PREFIX}C++ (7 files)."]


@pytest.mark.parametrize(
    ("manifest", "language"),
    [
        ("shard.yml", "Crystal"),
        ("project.clj", "Clojure"),
        ("deps.edn", "Clojure"),
        ("elm.json", "Elm"),
        ("rebar.config", "Erlang"),
        ("cpanfile", "Perl"),
        ("Project.toml", "Julia"),
        ("ledger.nimble", "Nim"),
        ("ledger.opam", "OCaml"),
        ("ledger-1.0-1.rockspec", "Lua"),
    ],
)
async def test_a_root_manifest_of_any_ecosystem_names_its_language(
    manifest: str, language: str
) -> None:
    session = _session()
    session.read(manifest, "name\n")
    nested = _session(1)
    nested.read(f"vendor/dep/{manifest}", "name\n")

    (said,) = _said(await _extract(session), "language")

    assert said == f"{language} project ({manifest})."
    assert _said(await _extract(nested), "language") == []


async def test_a_root_manifest_says_the_language_instead() -> None:
    session = _session()
    session.read("Cargo.toml", '[package]\nname = "ledger"\n')
    session.read("src/a.py", "code\n")
    session.read("src/b.py", "code\n")

    (said,) = _said(await _extract(session), "language")

    assert said.startswith("Rust and Python project (Cargo.toml)")


@pytest.mark.parametrize("eco", [e for e in ECOS if e.name != "emacs-lisp"], ids=IDS[:-1])
async def test_a_script_the_session_wrote_and_ran_is_noted_with_its_folder(eco: Eco) -> None:
    session = _session()
    session.write(eco.script, "print(1 + 1)\n")
    name = eco.script.rsplit("/", 1)[1]
    session.run(f"cd {eco.script.rsplit('/', 1)[0]} && {eco.runs} {name}", 0, "2\n")

    found = await _extract(session)

    folder = eco.script.rsplit("/", 1)[0]
    assert _said(found, "script_run") == [
        f"`{eco.script}` runs with `{eco.runs} {name}`, from `{folder}/`."
    ]
    # A `.pl` file alone is Perl's or Prolog's: the interpreter that ran it says which.
    assert _said(found, "language") == [f"{PREFIX}{eco.language} (1 file: `{eco.script}`)."]


@pytest.mark.parametrize(("interpreter", "language"), [("perl", "Perl"), ("swipl", "Prolog")])
async def test_the_interpreter_that_ran_a_script_tells_a_suffix_two_languages_share(
    interpreter: str, language: str
) -> None:
    session = _session()
    session.write("tools/seed.pl", "x\n")
    session.run(f"{interpreter} tools/seed.pl", 0, "2\n")
    read_only = _session(1)
    read_only.read("tools/seed.pl", "x\n")
    read_only.run(f"{interpreter} tools/seed.pl", 0, "2\n")

    assert _said(await _extract(session), "language") == [
        f"{PREFIX}{language} (1 file: `tools/seed.pl`)."
    ]
    assert _said(await _extract(read_only), "language") == []


@pytest.mark.parametrize("eco", ECOS[:4], ids=IDS[:4])
async def test_a_script_run_by_its_path_from_the_root_names_no_folder(eco: Eco) -> None:
    session = _session()
    session.write(eco.script, "print(1 + 1)\n")
    session.run(f"{eco.runs} {eco.script}", 0, "2\n")

    found = await _extract(session)

    assert _said(found, "script_run") == [f"`{eco.script}` runs with `{eco.runs} {eco.script}`."]


@pytest.mark.parametrize("eco", ECOS[:4], ids=IDS[:4])
async def test_a_failed_or_foreign_or_only_read_script_is_not_noted(eco: Eco) -> None:
    name = eco.script.rsplit("/", 1)[1]
    failed = _session(1)
    failed.write(eco.script, "print(1 + 1)\n")
    failed.run(f"{eco.runs} {eco.script}", 1, "error: boom\n")
    read = _session(2)
    read.read(eco.script, "print(1 + 1)\n")
    read.run(f"{eco.runs} {eco.script}", 0, "2\n")
    foreign = _session(3)
    foreign.write(eco.script, "print(1 + 1)\n")
    foreign.run(f"{eco.runs} /tmp/other/{name}x", 0, "2\n")

    found = await _extract(failed, read, foreign)

    assert _said(found, "script_run") == []
    # A file written but never run, or only read, names no language on its own.
    assert _said(found, "language") == []


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_a_scratch_file_written_then_removed_names_no_language(eco: Eco) -> None:
    session = _session()
    name = PurePosixPath(eco.script).name
    session.write(name, "print(1 + 1)\n")
    session.run(f"cat {name} && rm {name}", 0, "print(1 + 1)\n")

    found = await _extract(session)

    assert _said(found, "language") == []
    assert _said(found, "script_run") == []


def test_statements_of_two_sessions_merge_into_one() -> None:
    older = f"{PREFIX}C++ (3 files)."
    newer = f"{PREFIX}C++ (2 files: `a.cpp`, `b.cpp`) and Python (2 files: `x.py`, `y.py`)."

    assert (
        merged_statement(older, newer)
        == f"{PREFIX}C++ (3 files) and Python (2 files: `x.py`, `y.py`)."
    )
    assert merged_statement(older, older) == older
    assert merged_statement("Rust project (Cargo.toml).", newer) is None
