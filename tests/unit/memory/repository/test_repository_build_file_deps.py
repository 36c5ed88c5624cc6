"""Dependencies of build files written as code: a Mill build file's `ivyDeps` (a module's own
are its stack, a test module's are for tests only) and a Zig `build.zig.zon`'s
`.dependencies` (its entries, never their fields)."""

from __future__ import annotations

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


_BUILD = """package build
import mill._, scalalib._
object app extends ScalaModule {
  def scalaVersion = "3.3.3"
  def ivyDeps = Agg(
    ivy"org.http4s::http4s-ember-server:0.23.27",
    {main}
  )
  object test extends ScalaTests with TestModule.Munit {
    def ivyDeps = Agg(ivy"org.scalameta::munit:1.0.0", {test})
  }
}
"""
_CODE = {"app/src/Main.scala": "object Main { def main(a: Array[String]) = () }\n" * 20}


def test_a_module_s_ivy_deps_are_its_stack(make_repo: MakeRepo) -> None:
    build = _BUILD.replace("{main}", 'ivy"org.postgresql:postgresql:42.7.3"').replace("{test}", "")
    found = _found(make_repo, {"build.mill": build, **_CODE})
    assert "http4s 0.23.27" in found["repo:stack"]
    assert "PostgreSQL (org.postgresql:postgresql)" in found["repo:database"]


def test_a_test_module_s_ivy_deps_are_for_tests_only(make_repo: MakeRepo) -> None:
    build = _BUILD.replace("{main}", "").replace("{test}", 'ivy"org.postgresql:postgresql:42.7.3"')
    found = _found(make_repo, {"build.mill": build, **_CODE})
    assert "repo:database" not in found
    assert "http4s" in found["repo:stack"]  # the module's own, after the test module closed


def test_a_module_after_a_closed_test_module_is_no_test_module(make_repo: MakeRepo) -> None:
    build = _BUILD.replace("{main}", "").replace("{test}", "") + (
        'object db extends ScalaModule {\n  def ivyDeps = Agg(ivy"org.postgresql:postgresql:42.7.3")\n}\n'
    )
    assert "PostgreSQL" in _found(make_repo, {"build.mill": build, **_CODE})["repo:database"]


_ZON = """.{
    .name = "beacon",
    .version = "0.1.0",
    .dependencies = .{
        .httpz = .{
            .url = "https://example.com/httpz.tar.gz",
            .hash = "1220abc",
        },
        .pg = .{ .path = "../pg" },
    },
    .paths = .{ "build.zig", "src" },
}
"""
_ZIG_SRC = {
    "build.zig": 'pub fn build(b: *@import("std").Build) void {}\n',
    "src/main.zig": "pub fn main() void {}\n" * 20,
}


def test_a_zon_file_s_dependencies_are_read(make_repo: MakeRepo) -> None:
    found = _found(make_repo, {"build.zig.zon": _ZON, **_ZIG_SRC})
    assert "Zig/http.zig app" in found["repo:stack"]
    assert "PostgreSQL (pg)" in found["repo:database"]


def test_a_zon_file_s_entry_fields_and_paths_are_no_dependencies(make_repo: MakeRepo) -> None:
    zon = _ZON.replace(".httpz = .{", ".zap_fork = .{").replace(".pg = ", ".other = ")
    zon = zon.replace('.paths = .{ "build.zig", "src" }', ".paths = .{\n        .zap = .{},\n    }")
    found = _found(make_repo, {"build.zig.zon": zon, **_ZIG_SRC})
    assert "repo:database" not in found
    assert "Zap" not in found["repo:stack"]
