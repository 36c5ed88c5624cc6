"""What a reading states from the code, met in made-up projects: a README's stack the code
contradicts, a folder of tests named for what it tests, a convention named for the language the
code is in, tasks said for what they run, the test conventions of smaller ecosystems; and where
each rule must not fire."""

from __future__ import annotations

from squirrel_memory.repository import read_repository, repository_candidates
from squirrel_memory.repository.description_claims import backed_description
from squirrel_memory.repository.findings import Dependency, Readings, names_tests
from tests.unit.memory.repository.conftest import MakeRepo


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


# --- a README's stack the code contradicts -------------------------------------------------

_STARLETTE = {
    "pyproject.toml": '[project]\nname = "beacon"\ndependencies = ["starlette", "uvicorn"]\n'
    '[project.optional-dependencies]\ntest = ["pytest"]\n',
    "beacon/app.py": "from starlette.applications import Starlette\napp = Starlette()\n" * 20,
}


def test_a_readme_naming_another_framework_than_the_code_gives_no_description(
    make_repo: MakeRepo,
) -> None:
    readme = "# Beacon\n\nBeacon is a Flask app backed by PostgreSQL and Redis.\n"
    found = _found(make_repo, {**_STARLETTE, "README.md": readme})
    assert "repo:about" not in found
    assert "Starlette" in found["repo:stack"]


def test_a_readme_whose_stack_the_code_does_not_contradict_is_quoted(make_repo: MakeRepo) -> None:
    readme = "# Beacon\n\nBeacon is a Starlette service that keeps its state in SQLite.\n"
    found = _found(make_repo, {**_STARLETTE, "README.md": readme})
    assert found["repo:about"].endswith(
        "Beacon is a Starlette service that keeps its state in SQLite."
    )


def _readings(*deps: tuple[str, str]) -> Readings:
    out = Readings()
    for ecosystem, name in deps:
        out.dependencies.append(Dependency(ecosystem, name, "", "m:1", "m"))
    return out


def test_a_later_sentence_the_code_contradicts_or_a_command_is_left_out() -> None:
    out = _readings(("python", "starlette"), ("python", "asyncpg"))
    text = (
        "Beacon serves events. It stores them in MongoDB. Run tests with `nosetests`. It is fast."
    )
    assert backed_description(text, out, ["python"]) == "Beacon serves events. It is fast."


def test_a_name_of_another_ecosystem_or_the_project_s_own_stays() -> None:
    out = _readings(("python", "starlette"))
    assert backed_description("Rails-like helpers.", out, ["python"]) == "Rails-like helpers."
    own = backed_description("Flask-Beacon is a tool.", out, ["python"], own_name="Flask-Beacon")
    assert own == "Flask-Beacon is a tool."


# --- folders of tests ----------------------------------------------------------------------


def test_a_folder_named_for_the_tests_of_something_holds_tests() -> None:
    assert names_tests("BirdwatchTests")
    assert names_tests("BirdwatchUITests")
    assert names_tests("Shop.Api.Tests")
    assert names_tests("api-tests")
    assert names_tests("androidTest")
    assert not names_tests("latest")
    assert not names_tests("contest")
    assert not names_tests("manifest")
    assert not names_tests("Testimonials")


def test_an_app_s_test_target_folder_is_no_application_code(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "Birdwatch/App.swift": "import SwiftUI\n@main struct App {}\n" * 20,
        "BirdwatchTests/AppTests.swift": "import XCTest\nfinal class T: XCTestCase {}\n",
    }
    layout = _found(make_repo, files)["repo:layout"]
    assert "application code is in `Birdwatch/`" in layout
    assert "tests are in `BirdwatchTests/`" in layout


def test_tests_inside_a_source_folder_are_no_application_code(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "pom.xml": "<project><artifactId>ledger</artifactId></project>\n",
        "src/main/java/a/App.java": "package a;\npublic class App {}\n" * 20,
        "src/test/java/a/AppTest.java": "package a;\nclass AppTest {}\n" * 5,
        "src/latest/java/a/Latest.java": "package a;\nclass Latest {}\n" * 5,
    }
    layout = _found(make_repo, files)["repo:layout"]
    assert "tests are in `src/test/`" in layout
    assert "src/latest" in layout  # a folder whose name only ends in "test" is code
    assert "(src/main, src/latest)" in layout


# --- a convention named for the language the code is in -------------------------------------


def test_a_convention_is_named_for_the_language_the_code_is_written_in(
    make_repo: MakeRepo,
) -> None:
    files: dict[str, str | bytes] = {
        "build.sbt": 'name := "tally"\nscalaVersion := "3.3.3"\n',
        "src/main/scala/Main.scala": "object Main extends App\n" * 20,
    }
    assert "(the Scala convention;" in _found(make_repo, files)["repo:recipe:test"]


def test_a_java_build_s_convention_is_still_the_java_one(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "pom.xml": "<project><artifactId>ledger</artifactId></project>\n",
        "src/main/java/a/App.java": "package a;\npublic class App {}\n" * 20,
    }
    assert "(the Java convention;" in _found(make_repo, files)["repo:recipe:test"]


# --- tasks said for what they run -----------------------------------------------------------

_CRUMB = {
    "setup.cfg": "[metadata]\nname = crumb\n\n[options]\ninstall_requires =\n    requests\n",
    "crumb/__init__.py": "import requests\n" * 30,
}


def test_a_tox_lint_environment_is_not_the_test_command(make_repo: MakeRepo) -> None:
    tox = (
        "[tox]\nenvlist = py311, lint\n\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n"
        "\n[testenv:lint]\ndeps = flake8\ncommands = flake8 crumb\n"
    )
    found = _found(make_repo, {**_CRUMB, "tox.ini": tox})
    assert found["repo:recipe:test"].startswith("Run the tests with `tox` (tox.ini:4 runs `pytest")
    assert found["repo:recipe:lint"].startswith("Lint the code with `tox -e lint`")


def test_a_tox_environment_that_runs_the_tests_is_still_a_test_command(
    make_repo: MakeRepo,
) -> None:
    tox = "[tox]\nenvlist = unit\n\n[testenv:unit]\ndeps = pytest\ncommands = pytest -x\n"
    found = _found(make_repo, {**_CRUMB, "tox.ini": tox})
    assert found["repo:recipe:test"].startswith("Run the tests with `tox -e unit`")


_DENO = {
    "main.ts": 'import { Hono } from "hono";\nconst app = new Hono();\n' * 10,
    "main_test.ts": 'Deno.test("ok", () => {});\n',
}


def test_a_check_task_that_runs_one_type_checker_is_a_type_check_not_a_gate(
    make_repo: MakeRepo,
) -> None:
    deno = '{"tasks":{"test":"deno test -A","check":"deno check main.ts"}}'
    found = _found(make_repo, {**_DENO, "deno.json": deno})
    assert found["repo:recipe:test"] == (
        "Run the tests with `deno task test` (deno.json:1 runs `deno test -A`)."
    )
    assert found["repo:recipe:typecheck"].startswith("Type-check the code with `deno task check`")
    assert "repo:recipe:checks" not in found


def test_a_check_task_that_runs_several_steps_is_still_a_gate(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        **_CRUMB,
        "Makefile": "check:\n\truff check .\n\tpytest\n",
    }
    found = _found(make_repo, files)
    assert found["repo:recipe:checks"].startswith("Before committing, run `make check`")


def test_a_hatch_script_is_read_with_its_environment(make_repo: MakeRepo) -> None:
    pyproject = (
        '[project]\nname = "parsnip"\ndependencies = ["httpx"]\n'
        '[tool.hatch.envs.default.scripts]\ntest = "pytest {args:tests}"\n'
        '[tool.hatch.envs.lint.scripts]\ncheck = "ruff check ."\n'
    )
    files: dict[str, str | bytes] = {
        "pyproject.toml": pyproject,
        "src/parsnip/__init__.py": "import httpx\n" * 30,
    }
    found = _found(make_repo, files)
    assert "lint:check" not in found["repo:recipe:test"]
    assert found["repo:recipe:lint"].startswith("Lint the code with `hatch run lint:check`")
    assert "repo:recipe:checks" not in found


# --- a task-runner file beside no code of its own ecosystem ---------------------------------

_ELM = {
    "elm.json": '{"type":"application","source-directories":["src"],"elm-version":"0.19.1"}',
    "src/Main.elm": 'module Main exposing (main)\nimport Html\nmain = Html.text "hi"\n' * 10,
}


def test_scripts_beside_no_code_of_their_ecosystem_are_the_project_s(make_repo: MakeRepo) -> None:
    package = '{"name":"board","scripts":{"test":"elm-test"},"devDependencies":{"elm-test":"1"}}'
    found = _found(make_repo, {**_ELM, "package.json": package})
    assert (
        found["repo:recipe:test"]
        == "Run the tests with `npm test` (package.json:1 runs `elm-test`)."
    )
    assert not any(key.startswith("repo:recipe:test@") for key in found)


def test_scripts_beside_their_own_code_stay_that_part_s(make_repo: MakeRepo) -> None:
    package = '{"name":"board","scripts":{"test":"vitest run"},"devDependencies":{"vitest":"1"}}'
    files: dict[str, str | bytes] = {
        **_ELM,
        "package.json": package,
        "ports.js": "export function init() {}\n",
    }
    found = _found(make_repo, files)
    assert "repo:recipe:test" not in found
    assert found["repo:recipe:test@javascript"].startswith("For its JavaScript part")


def test_the_project_s_own_convention_ranks_before_a_code_less_runner_s_task(
    make_repo: MakeRepo,
) -> None:
    pyproject = (
        '[project]\nname = "sift"\ndependencies = ["httpx"]\n'
        '[project.optional-dependencies]\ndev = ["ruff", "pytest"]\n'
    )
    files: dict[str, str | bytes] = {
        "pyproject.toml": pyproject,
        "sift/__init__.py": "import httpx\n" * 30,
        "package.json": '{"scripts":{"lint":"prettier --check ."},"devDependencies":{"prettier":"3"}}',
    }
    found = _found(make_repo, files)
    assert found["repo:recipe:lint"].startswith("Lint the code with `ruff check .`")


# --- test conventions of smaller ecosystems -------------------------------------------------


def test_a_julia_package_with_a_runtests_file_tests_with_pkg_test(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "Project.toml": 'name = "Orbits"\nversion = "0.1.0"\n',
        "src/Orbits.jl": "module Orbits\nend\n" * 20,
    }
    assert "repo:recipe:test" not in _found(make_repo, files)
    files["test/runtests.jl"] = "using Test\n"
    test = _found(make_repo, files)["repo:recipe:test"]
    assert test.startswith("Run the tests with `julia --project -e 'using Pkg; Pkg.test()'`")


def test_an_r_package_with_testthat_tests_with_testthat(make_repo: MakeRepo) -> None:
    description = "Package: ledger\nVersion: 0.1.0\nSuggests:\n    testthat (>= 3.0.0)\n"
    files: dict[str, str | bytes] = {"DESCRIPTION": description, "R/a.R": "f <- 1\n" * 30}
    assert "repo:recipe:test" not in _found(make_repo, files)
    files["tests/testthat.R"] = "library(testthat)\n"
    test = _found(make_repo, files)["repo:recipe:test"]
    assert test.startswith("Run the tests with `Rscript -e 'testthat::test_local()'`")


def test_crystal_perl_and_lua_conventions_need_their_test_folders(make_repo: MakeRepo) -> None:
    crystal: dict[str, str | bytes] = {
        "shard.yml": "name: relay\nversion: 0.1.0\n",
        "src/relay.cr": 'puts "hi"\n' * 20,
    }
    assert "repo:recipe:test" not in _found(make_repo, crystal)
    crystal["spec/relay_spec.cr"] = 'require "spec"\n'
    assert "`crystal spec`" in _found(make_repo, crystal)["repo:recipe:test"]

    perl: dict[str, str | bytes] = {
        "cpanfile": "requires 'DBI';\n",
        "lib/Ledger.pm": "package Ledger;\n1;\n" * 20,
    }
    assert "repo:recipe:test" not in _found(make_repo, perl)
    perl["t/basic.t"] = "use Test::More;\nok(1);\ndone_testing;\n"
    assert "`prove -lr t`" in _found(make_repo, perl)["repo:recipe:test"]

    lua: dict[str, str | bytes] = {
        "kite-0.1.0-1.rockspec": 'package = "kite"\nversion = "0.1.0-1"\n',
        "src/kite.lua": "local M = {}\nreturn M\n" * 20,
        "spec/kite_spec.lua": "describe('kite', function() end)\n",
    }
    assert "repo:recipe:test" not in _found(make_repo, lua)  # a spec folder alone says no runner
    lua[".busted"] = "return {}\n"
    assert "`busted`" in _found(make_repo, lua)["repo:recipe:test"]


def test_rebar3_s_test_command_follows_the_suites_it_holds(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "rebar.config": "{deps, []}.\n",
        "src/pulse.erl": "-module(pulse).\n" * 20,
    }
    assert "repo:recipe:test" not in _found(make_repo, files)
    files["test/pulse_SUITE.erl"] = "-module(pulse_SUITE).\n"
    assert "`rebar3 ct`" in _found(make_repo, files)["repo:recipe:test"]
    del files["test/pulse_SUITE.erl"]
    files["test/deep/pulse_tests.erl"] = "-module(pulse_tests).\n"
    assert "repo:recipe:test" not in _found(make_repo, files)  # the shape is of `test/` itself


def test_a_deps_edn_alias_runs_as_its_options_say(make_repo: MakeRepo) -> None:
    base: dict[str, str | bytes] = {"src/acme/app.clj": "(ns acme.app)\n" * 20}
    main = '{:deps {}\n :aliases {:test {:extra-paths ["test"]\n   :main-opts ["-m" "runner"]}}}\n'
    found = _found(make_repo, {**base, "deps.edn": main})
    assert found["repo:recipe:test"] == "Run the tests with `clojure -M:test` (deps.edn:2)."
    exec_fn = "{:deps {}\n :aliases {:test {:exec-fn cognitect.test-runner.api/test}}}\n"
    found = _found(make_repo, {**base, "deps.edn": exec_fn})
    assert found["repo:recipe:test"].startswith("Run the tests with `clojure -X:test`")
    paths_only = '{:deps {}\n :aliases {:test {:extra-paths ["test"]}}}\n'
    assert "repo:recipe:test" not in _found(make_repo, {**base, "deps.edn": paths_only})


def test_a_poetry_dependency_group_serves_development(make_repo: MakeRepo) -> None:
    pyproject = (
        '[tool.poetry]\nname = "fleet"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\n'
        'python = "^3.12"\nhttpx = "^0.27"\n\n[tool.poetry.group.dev.dependencies]\n'
        'pytest = "^8.2"\n'
    )
    files: dict[str, str | bytes] = {
        "pyproject.toml": pyproject,
        "fleet/__init__.py": "import httpx\n" * 30,
    }
    found = _found(make_repo, files)
    assert found["repo:recipe:test"].startswith("Run the tests with `pytest`")


def test_a_spec_folder_inside_a_source_folder_may_be_code(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "go.mod": "module example.com/api\n\ngo 1.22\n",
        "api/spec/types.go": "package spec\n\ntype T struct{}\n" * 20,
    }
    layout = _found(make_repo, files)["repo:layout"]
    assert "tests are in" not in layout
    assert "application code is in `api/` (api/spec)" in layout


def test_a_sentence_telling_the_reader_to_run_something_is_no_description() -> None:
    out = _readings(("python", "starlette"))
    text = "Beacon serves events. Run the suite with `nose-runner -v`. Its name is `beacon`."
    assert (
        backed_description(text, out, ["python"]) == "Beacon serves events. Its name is `beacon`."
    )


# --- dependencies of rebar3, Nimble and shard manifests -------------------------------------


def test_rebar3_nimble_and_shard_dependencies_say_the_stack(make_repo: MakeRepo) -> None:
    rebar = (
        '{deps, [\n  {cowboy, "2.12.0"},\n  {epgsql, {git, "https://x/epgsql", {tag, "4.7.1"}}}\n'
        ']}.\n{profiles, [{test, [{deps, [{meck, "0.9.2"}]}]}]}.\n'
    )
    found = _found(make_repo, {"rebar.config": rebar, "src/p.erl": "-module(p).\n" * 30})
    assert "is an Erlang/Cowboy app (Cowboy 2.12.0)" in found["repo:stack"]
    assert "PostgreSQL (epgsql)" in found["repo:database"]

    nimble = 'version = "0.1.0"\nrequires "nim >= 2.0.0"\nrequires "jester >= 0.6.0"\n'
    found = _found(make_repo, {"ledger.nimble": nimble, "src/ledger.nim": "import jester\n" * 30})
    assert "Nim/Jester app" in found["repo:stack"]

    shard = (
        "name: relay\nversion: 0.1.0\ndependencies:\n  kemal:\n    github: kemalcr/kemal\n"
        "development_dependencies:\n  sqlite3:\n    github: crystal-lang/crystal-sqlite3\n"
    )
    found = _found(make_repo, {"shard.yml": shard, "src/relay.cr": 'require "kemal"\n' * 30})
    assert "Crystal/Kemal app" in found["repo:stack"]
    assert "repo:database" not in found  # a development dependency is no database of the app


def test_a_profile_s_deps_are_for_development_only(make_repo: MakeRepo) -> None:
    rebar = '{deps, []}.\n{profiles, [{test, [{deps, [{epgsql, "4.7.1"}]}]}]}.\n'
    found = _found(make_repo, {"rebar.config": rebar, "src/p.erl": "-module(p).\n" * 30})
    assert "repo:database" not in found


# --- a top folder that is a part of its own -------------------------------------------------

_GO_BACKEND: dict[str, str | bytes] = {
    "backend/go.mod": "module example.com/kiln/backend\n\ngo 1.22\n",
    "backend/main.go": "package main\n\nfunc main() {}\n" * 30,
    "frontend/package.json": '{"name":"web","scripts":{"test":"vitest run"},"devDependencies":'
    '{"vitest":"1"}}',
    "frontend/src/App.tsx": "export default function App() { return null }\n" * 20,
}


def test_a_top_folder_in_its_own_language_is_tested_with_its_convention(
    make_repo: MakeRepo,
) -> None:
    found = _found(make_repo, _GO_BACKEND)
    assert found["repo:recipe:test@backend"].startswith(
        "In `backend/`, run the tests with `go test ./...` (backend/go.mod:1)"
    )
    assert found["repo:recipe:test@frontend"].startswith("In `frontend/`, run the tests with")
    assert "repo:recipe:test" not in found  # no test command for the whole repository
    assert "repo:recipe:build@backend" not in found  # only the tests are said for a part


def test_an_examples_folder_or_a_root_manifest_gives_no_scoped_convention(
    make_repo: MakeRepo,
) -> None:
    files = {**_GO_BACKEND}
    files["examples/go.mod"] = files.pop("backend/go.mod")
    files["examples/main.go"] = files.pop("backend/main.go")
    assert not any(key.startswith("repo:recipe:test@examples") for key in _found(make_repo, files))
    files = {**_GO_BACKEND, "go.mod": "module example.com/kiln\n\ngo 1.22\n"}
    found = _found(make_repo, files)
    assert "repo:recipe:test@backend" not in found
    assert found["repo:recipe:test"].startswith("Run the tests with `go test ./...`")


# --- an Xcode project's shared scheme -------------------------------------------------------

_SCHEME = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Scheme version="1.7">\n'
    '   <TestAction buildConfiguration="Debug">\n      <Testables>\n'
    '         <TestableReference skipped="NO">\n         </TestableReference>\n'
    "      </Testables>\n   </TestAction>\n</Scheme>\n"
)


def _xcode(sdk: str) -> dict[str, str | bytes]:
    return {
        "Notes.xcodeproj/project.pbxproj": f"// !$*UTF8*$!\n{{ SDKROOT = {sdk}; }}\n",
        "Notes/NotesApp.swift": "import SwiftUI\n@main struct NotesApp: App {}\n" * 20,
        "NotesTests/NotesTests.swift": "import XCTest\nfinal class T: XCTestCase {}\n",
    }


def test_a_macos_project_s_shared_scheme_says_how_to_test(make_repo: MakeRepo) -> None:
    files = {
        **_xcode("macosx"),
        "Notes.xcodeproj/xcshareddata/xcschemes/Notes.xcscheme": _SCHEME,
    }
    found = _found(make_repo, files)
    assert found["repo:recipe:test"].startswith(
        "Run the tests with `xcodebuild test -project Notes.xcodeproj -scheme Notes`"
    )


def test_no_xcode_test_command_without_a_scheme_or_for_a_device_platform(
    make_repo: MakeRepo,
) -> None:
    assert "repo:recipe:test" not in _found(make_repo, _xcode("macosx"))
    files = {
        **_xcode("iphoneos"),
        "Notes.xcodeproj/xcshareddata/xcschemes/Notes.xcscheme": _SCHEME,
    }
    assert "repo:recipe:test" not in _found(make_repo, files)  # needs a simulator named
    without_tests = _SCHEME.replace("TestableReference", "BuildableReference")
    files = {
        **_xcode("macosx"),
        "Notes.xcodeproj/xcshareddata/xcschemes/Notes.xcscheme": without_tests,
    }
    assert "repo:recipe:test" not in _found(make_repo, files)


# --- Mill and uv ----------------------------------------------------------------------------

_MILL: dict[str, str | bytes] = {
    "build.mill": "package build\nimport mill._, scalalib._\nobject app extends ScalaModule\n",
    "app/src/Main.scala": "object Main extends App\n" * 20,
}


def test_a_mill_build_tests_every_module_through_its_launcher(make_repo: MakeRepo) -> None:
    found = _found(make_repo, {**_MILL, "mill": "#!/usr/bin/env sh\nexec java -jar mill.jar\n"})
    assert found["repo:recipe:test"].startswith(
        "Run the tests with `./mill __.test` (the Scala convention; mill:1)"
    )
    found = _found(make_repo, _MILL)
    assert found["repo:recipe:test"].startswith("Run the tests with `mill __.test`")
    assert "repo:recipe:test" not in _found(
        make_repo, {"app/src/Main.scala": _MILL["app/src/Main.scala"]}
    )


def test_uv_s_own_development_dependencies_are_read(make_repo: MakeRepo) -> None:
    pyproject = (
        '[project]\nname = "harbor"\ndependencies = ["httpx"]\n\n[tool.uv]\n'
        'dev-dependencies = ["pytest>=8"]\n'
    )
    files: dict[str, str | bytes] = {
        "pyproject.toml": pyproject,
        "harbor/__init__.py": "import httpx\n" * 30,
    }
    assert _found(make_repo, files)["repo:recipe:test"].startswith("Run the tests with `pytest`")


def test_a_documentation_site_folder_is_no_application_code(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "package.json": '{"name":"tally","dependencies":{"hono":"^4.2.0"}}',
        "src/index.js": "import { Hono } from 'hono';\n" * 10,
        "docs/package.json": '{"name":"d","devDependencies":{"vitepress":"^1.1.0"}}',
        "docs/components/Demo.js": "export const demo = 1;\n" * 30,
    }
    layout = _found(make_repo, files)["repo:layout"]
    assert "application code is in `src/`" in layout
    assert "docs/" not in layout
    files["docs/package.json"] = '{"name":"d","dependencies":{"react":"^18.0.0"}}'
    assert "docs/" in _found(make_repo, files)["repo:layout"]  # no docs site: still code


def test_an_hpack_package_yaml_says_the_stack_and_its_tests_dependencies_do_not(
    make_repo: MakeRepo,
) -> None:
    hpack = (
        "name: quotes\ndependencies:\n- base\n- servant-server\nlibrary:\n  source-dirs: src\n"
        "  dependencies: [persistent-postgresql]\ntests:\n  spec:\n    main: Spec.hs\n"
        "    dependencies: [hspec, persistent-sqlite]\n"
    )
    files: dict[str, str | bytes] = {"package.yaml": hpack, "src/Api.hs": "module Api where\n" * 30}
    found = _found(make_repo, files)
    assert found["repo:stack"].startswith("quotes is a Haskell/Servant app")
    assert "PostgreSQL (persistent-postgresql)" in found["repo:database"]
    assert "SQLite" not in found["repo:database"]


def test_another_tool_s_package_yaml_is_no_haskell_manifest(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "package.yaml": "name: web\ndependencies:\n  react: ^18.0.0\nscripts:\n  test: vitest\n",
        "src/a.py": "x = 1\n" * 30,
    }
    assert "Haskell" not in _found(make_repo, files)["repo:stack"]


def test_a_deno_import_map_s_packages_say_the_stack(make_repo: MakeRepo) -> None:
    deno = (
        '{"imports":{"hono":"jsr:@hono/hono@^4.4.0","postgres":"npm:postgres@^3.4.4",'
        '"$std/":"https://deno.land/std@0.224.0/","@/":"./src/"}}'
    )
    files: dict[str, str | bytes] = {"deno.json": deno, "main.ts": 'import "hono";\n' * 30}
    found = _found(make_repo, files)
    assert "TypeScript/Hono app (Hono 4.4.0)" in found["repo:stack"]
    assert "PostgreSQL (postgres)" in found["repo:database"]
    url_only = '{"imports":{"$fresh/":"https://deno.land/x/fresh@1.6.8/"}}'
    assert "repo:database" not in _found(make_repo, {**files, "deno.json": url_only})


def test_a_check_task_of_two_commands_in_one_line_is_still_a_gate(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        **_CRUMB,
        "Makefile": "check:\n\tmypy crumb && ruff check crumb\n",
    }
    found = _found(make_repo, files)
    assert "repo:recipe:typecheck" not in found
    assert found["repo:recipe:checks"].startswith("Before committing, run `make check`")


def test_a_script_that_only_fails_is_no_task(make_repo: MakeRepo) -> None:
    package = (
        '{"name":"x","scripts":{"test":"echo \\"Error: no test specified\\" && exit 1",'
        '"lint":"prettier --check ."},"devDependencies":{"prettier":"3"}}'
    )
    files: dict[str, str | bytes] = {**_CRUMB, "package.json": package, "package-lock.json": "{}"}
    found = _found(make_repo, files)
    assert not any(key.startswith("repo:recipe:test") for key in found)
    assert found["repo:recipe:lint"].startswith("Lint the code with `npm run lint`")


def test_several_test_folders_are_said_in_one_phrase(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "pom.xml": "<project><artifactId>ledger</artifactId></project>\n",
        "src/main/java/a/App.java": "package a;\npublic class App {}\n" * 20,
        "src/test/java/a/AppTest.java": "package a;\nclass AppTest {}\n",
        "src/integrationTest/java/a/AppIT.java": "package a;\nclass AppIT {}\n",
    }
    layout = _found(make_repo, files)["repo:layout"]
    assert "tests are in `src/integrationTest/` and `src/test/`" in layout


def test_one_part_s_manifest_does_not_name_a_project_of_several_parts(
    make_repo: MakeRepo,
) -> None:
    files: dict[str, str | bytes] = {
        "backend/pyproject.toml": '[project]\nname = "api"\ndependencies = ["fastapi"]\n',
        "backend/api/main.py": "from fastapi import FastAPI\napp = FastAPI()\n" * 30,
        "web/package.json": '{"name":"web","dependencies":{"react":"18.3.1"}}',
        "web/src/App.tsx": "export default function App() { return null }\n" * 30,
    }
    assert _found(make_repo, files)["repo:stack"].startswith("repo")  # the folder's name
    del files["web/package.json"]
    assert _found(make_repo, files)["repo:stack"].startswith("api is")  # one part: its name


# --- a root Dockerfile's runtime against the pinned version ---------------------------------

_RELAY: dict[str, str | bytes] = {
    "package.json": '{"name":"relay","dependencies":{"fastify":"^4.27.0"}}',
    ".nvmrc": "20\n",
    "src/index.js": "const fastify = require('fastify')();\n" * 20,
}


def test_a_base_image_of_another_runtime_version_leaves_the_version_unsaid(
    make_repo: MakeRepo,
) -> None:
    assert "(Node.js 20, " in _found(make_repo, _RELAY)["repo:stack"]
    files = {**_RELAY, "Dockerfile": "FROM node:22-alpine\nCOPY . .\n"}
    assert "Node.js" not in _found(make_repo, files)["repo:stack"]


def test_a_base_image_that_agrees_or_is_not_official_changes_nothing(make_repo: MakeRepo) -> None:
    for dockerfile in (
        "FROM node:20.11-alpine\n",
        "FROM ghcr.io/acme/node:22\n",
        "FROM node:lts\n",
    ):
        found = _found(make_repo, {**_RELAY, "Dockerfile": dockerfile})
        assert "(Node.js 20, " in found["repo:stack"], dockerfile
    found = _found(make_repo, {**_RELAY, "deploy/Dockerfile": "FROM node:22-alpine\n"})
    assert "(Node.js 20, " in found["repo:stack"]  # a sub-folder's image is not the app's
    alone = {k: v for k, v in _RELAY.items() if k != ".nvmrc"}
    found = _found(make_repo, {**alone, "Dockerfile": "FROM node:22-alpine\n"})
    assert "Node.js" not in found["repo:stack"]  # an image alone states no version


def test_the_sqlite3_package_is_a_javascript_sqlite_client(make_repo: MakeRepo) -> None:
    package = '{"name":"depot","dependencies":{"express":"^4.19.2","sqlite3":"^5.1.7"}}'
    files: dict[str, str | bytes] = {"package.json": package, "src/a.js": "require('x')\n" * 30}
    assert "a client for SQLite (sqlite3)" in _found(make_repo, files)["repo:database"]
    files["package.json"] = package.replace('"sqlite3":"^5.1.7"', '"pg":"^8.11.5","sqlite3":"5"')
    database = _found(make_repo, files)["repo:database"]
    assert "more than one database" in database  # two clients, no configuration: say less


# --- a command people name that cannot run here ---------------------------------------------

_TESTED: dict[str, str | bytes] = {
    "pyproject.toml": '[project]\nname = "x"\ndependencies = ["httpx"]\n'
    '[project.optional-dependencies]\ntest = ["pytest"]\n',
    "x/__init__.py": "import httpx\n" * 30,
}


def _readme(command: str) -> str:
    return (
        f"# X\n\nX fetches things over HTTP.\n\n## Development\n\nRun the tests with `{command}`.\n"
    )


def _test_recipe(make_repo: MakeRepo, files: dict[str, str | bytes]) -> str:
    return _found(make_repo, files)["repo:recipe:test"]


def test_a_readme_task_the_repository_does_not_define_is_not_said(make_repo: MakeRepo) -> None:
    for command in ("make test", "just test", "poetry run pytest", "tox", "nox -s tests"):
        said = _test_recipe(make_repo, {**_TESTED, "README.md": _readme(command)})
        assert said.startswith("Run the tests with `pytest`"), command
        assert command not in said, command
    makefile = {**_TESTED, "README.md": _readme("make test"), "Makefile": "lint:\n\truff .\n"}
    assert "make test" not in _test_recipe(make_repo, makefile)  # no such target


def test_a_readme_task_the_repository_defines_is_still_said(make_repo: MakeRepo) -> None:
    files = {**_TESTED, "README.md": _readme("make test"), "Makefile": "test:\n\tpytest -x\n"}
    assert _test_recipe(make_repo, files).startswith("Run the tests with `make test`")
    files = {**_TESTED, "README.md": _readme("make -C sub test")}
    assert "make -C sub test" in _test_recipe(make_repo, files)  # another folder's: not judged
    poetry = {**_TESTED, "README.md": _readme("poetry run pytest"), "poetry.lock": "# lock\n"}
    assert _test_recipe(make_repo, poetry).startswith("Run the tests with `poetry run pytest`")


def test_a_folder_of_build_files_alone_holds_no_package(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "pubspec.yaml": "name: pantry\ndependencies:\n  flutter:\n    sdk: flutter\n",
        "lib/main.dart": "void main() {}\n" * 40,
        "android/app/build.gradle": "android { compileSdkVersion 34 }\n",
    }
    assert "android/app/" not in _found(make_repo, files)["repo:layout"]
    files["android/app/src/main/kotlin/MainActivity.kt"] = "class MainActivity\n"
    layout = _found(make_repo, files)["repo:layout"]
    assert "`android/app/` holds a Kotlin package (android/app/build.gradle)" in layout


def test_examples_are_no_application_code(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {
        "go.mod": "module example.com/kit\n\ngo 1.22\n",
        "kit.go": "package kit\n" * 10,
        "examples/basic/main.go": "package main\n\nfunc main() {}\n" * 30,
        "internal/core/core.go": "package core\n" * 30,
    }
    layout = _found(make_repo, files)["repo:layout"]
    assert "application code is in `internal/`" in layout
    assert "examples" not in layout
    files["exemplars/basic/main.go"] = files.pop("examples/basic/main.go")
    assert "`exemplars/`" in _found(make_repo, files)["repo:layout"]  # no examples folder
