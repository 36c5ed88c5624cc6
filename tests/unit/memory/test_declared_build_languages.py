"""What a build says of its languages beyond its manifest's name: a root `CMakeLists.txt`'s
`project()` names C, C++ or both (`cmake_languages`), and a .NET solution's project files below
the root name C#, F# or Visual Basic when the root is shown to be the solution's
(`dotnet_solution`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.cmake_languages import declared_languages
from squirrel_memory.extractors.dotnet_solution import solution_root
from squirrel_memory.extractors.language_fact import language_fact
from squirrel_memory.extractors.named_stack import named_stack

ROOT = "/home/dev/src/app"


@pytest.mark.parametrize(
    ("text", "languages"),
    [
        ("project(tinyhttp VERSION 0.2.0 LANGUAGES C)\n", ("C",)),
        ("project(ringbuf C)\n", ("C",)),
        ("PROJECT(meshkit LANGUAGES CXX)\n", ("C++",)),
        ("project(audiox VERSION 1.0 LANGUAGES C CXX)\n", ("C", "C++")),
        ('project(x DESCRIPTION "a (small) lib" LANGUAGES CXX VERSION 2)\n', ("C++",)),
        ("project(x LANGUAGES C)\nenable_language(CXX)\n", ("C", "C++")),
        ("project(k LANGUAGES CXX CUDA)\n", ("C++", "CUDA")),
    ],
)
def test_a_cmake_project_s_declared_languages(text: str, languages: tuple[str, ...]) -> None:
    assert declared_languages("cmake_minimum_required(VERSION 3.20)\n" + text) == languages


@pytest.mark.parametrize(
    "text",
    [
        "project(plain)\n",  # CMake enables C and C++ both: nothing said
        "project(plain VERSION 1.0)\n",
        "project(none LANGUAGES NONE)\n",
        "project(${NAME} LANGUAGES ${LANGS})\n",
        "# project(old LANGUAGES C)\nadd_subdirectory(src)\n",
        "add_library(x x.c)\n",
    ],
)
def test_a_cmake_file_that_names_no_language_declares_none(text: str) -> None:
    assert declared_languages(text) == ()


def _said(files: list[str], declared: tuple[str, ...] = (), solution: bool = False) -> str:
    paths = [(f, f"e{i}") for i, f in enumerate(files)]
    fact = language_fact(paths, {}, declared=declared, solution=solution)
    assert fact is not None
    return fact.content


def test_the_declared_languages_replace_the_c_cpp_hedge() -> None:
    assert _said(["CMakeLists.txt"], declared=("C",)) == "C project (CMakeLists.txt)."
    assert _said(["CMakeLists.txt"], declared=("C++",)) == "C++ project (CMakeLists.txt)."
    both = _said(["CMakeLists.txt"], declared=("C", "C++"))
    assert both == "C and C++ project (CMakeLists.txt)."


def test_without_a_declaration_the_hedge_stays() -> None:
    assert _said(["CMakeLists.txt"]) == "C/C++ project (CMakeLists.txt)."


def _run(command: str, ok: bool = True, cwd: str | None = ROOT) -> CommandRun:
    return CommandRun("r1", datetime(2026, 3, 2, tzinfo=UTC), command, ok, "", cwd=cwd)


def test_a_root_solution_or_a_root_dotnet_build_shows_the_solution() -> None:
    assert solution_root(["Ledger.sln", "src"], [], ROOT)
    assert solution_root(["Ledger.slnx"], [], ROOT)
    assert solution_root([], [_run("dotnet test")], ROOT)
    assert solution_root([], [_run("dotnet build -c Release")], ROOT)


def test_no_solution_shown_at_the_root() -> None:
    assert not solution_root(["tools/Helper/Helper.sln"], [], ROOT)
    assert not solution_root([], [_run("dotnet test", ok=False)], ROOT)
    assert not solution_root([], [_run("cd tools/Helper && dotnet build")], ROOT)
    assert not solution_root([], [_run("dotnet build", cwd=f"{ROOT}/tools/Helper")], ROOT)
    assert not solution_root([], [_run("dotnet --info")], ROOT)


@pytest.mark.parametrize(
    ("project_file", "language"),
    [
        ("src/Ledger.Api/Ledger.Api.csproj", "C#"),
        ("src/Tally.Core/Tally.Core.fsproj", "F#"),
        ("src/Legacy/Legacy.vbproj", "Visual Basic"),
    ],
)
def test_a_solution_s_project_file_says_its_language(project_file: str, language: str) -> None:
    said = _said([project_file], solution=True)
    assert said == f"{language} project ({project_file})."


def test_a_project_file_says_nothing_without_the_solution_or_in_a_side_folder() -> None:
    assert language_fact([("src/Ledger.Api/Ledger.Api.csproj", "e1")], {}) is None
    side = [("tools/WinHelper/WinHelper.csproj", "e1")]
    assert language_fact(side, {}, solution=True) is None


def test_project_files_of_two_languages_say_neither() -> None:
    files = [("src/Api/Api.csproj", "e1"), ("src/Core/Core.fsproj", "e2")]
    assert language_fact(files, {}, solution=True) is None


def test_the_overview_says_where_a_project_file_below_the_root_is() -> None:
    fact = language_fact([("src/Ledger.Api/Ledger.Api.csproj", "e1")], {}, solution=True)
    assert fact is not None
    overview = named_stack("/home/dev/src/ledger", fact)
    assert overview is not None
    assert "at its root" not in overview
    assert "`src/Ledger.Api/Ledger.Api.csproj`" in overview
