"""Build files that name their own steps: a Zig `build.zig`'s steps, Melos scripts, a Bazel
workspace, a Kotlin Multiplatform module, Deno test files without a task; and where each rule
must not fire."""

from __future__ import annotations

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


# --- Zig build steps -------------------------------------------------------------------------

_ZIG_HEAD = (
    'const std = @import("std");\npub fn build(b: *std.Build) void {\n'
    '    const exe = b.addExecutable(.{ .name = "app", .root_source_file = b.path("src/main.zig") });\n'
    '    const unit = b.addTest(.{ .root_source_file = b.path("src/main.zig") });\n'
    "    const run_unit = b.addRunArtifact(unit);\n"
    "    const run_exe = b.addRunArtifact(exe);\n"
)
_ZIG_CODE = {"src/main.zig": 'const std = @import("std");\npub fn main() !void {}\n' * 20}


def _zig(steps: str) -> dict[str, str | bytes]:
    return {"build.zig": _ZIG_HEAD + steps + "}\n", **_ZIG_CODE}


def test_a_zig_step_that_runs_the_tests_is_the_test_command(make_repo: MakeRepo) -> None:
    steps = (
        '    const units = b.step("check-units", "Run unit tests");\n'
        "    units.dependOn(&run_unit.step);\n"
        '    const run = b.step("run", "Run the app");\n'
        "    run.dependOn(&run_exe.step);\n"
    )
    found = _found(make_repo, _zig(steps))
    assert "`zig build check-units`" in found["repo:recipe:test"]
    assert "zig build test" not in " ".join(found.values())
    assert "`zig build run`" in found["repo:recipe:run"]


def test_an_inline_zig_test_step_is_read(make_repo: MakeRepo) -> None:
    steps = '    b.step("test", "Run tests").dependOn(&run_unit.step);\n'
    assert "`zig build test`" in _found(make_repo, _zig(steps))["repo:recipe:test"]


def test_a_zig_step_named_test_is_the_tests_whatever_it_runs(make_repo: MakeRepo) -> None:
    steps = (
        '    const script = b.addSystemCommand(&.{"./run-tests.sh"});\n'
        '    const t = b.step("test", "Run the test script");\n'
        "    t.dependOn(&script.step);\n"
        '    const lint = b.step("lint", "Check the code");\n'
        "    lint.dependOn(&script.step);\n"
    )
    found = _found(make_repo, _zig(steps))
    assert "`zig build test`" in found["repo:recipe:test"]
    assert "zig build lint" not in " ".join(found.values())  # what it runs is not read


def test_no_zig_test_step_means_no_test_command(make_repo: MakeRepo) -> None:
    steps = '    const docs = b.step("docs", "Build the docs");\n    docs.dependOn(b.getInstallStep());\n'
    found = _found(make_repo, _zig(steps))
    assert "repo:recipe:test" not in found
    assert "`zig build`" in found["repo:recipe:build"]


# --- Melos scripts ---------------------------------------------------------------------------

_MELOS = {
    "pubspec.yaml": "name: ws\nenvironment:\n  sdk: '>=3.4.0 <4.0.0'\ndev_dependencies:\n  melos: ^6.1.0\n",
    "packages/core/pubspec.yaml": "name: core\ndev_dependencies:\n  test: ^1.25.0\n",
    "packages/core/lib/core.dart": "library core;\nint one() => 1;\n" * 20,
}


def test_a_melos_test_script_is_the_test_command(make_repo: MakeRepo) -> None:
    melos = "name: ws\npackages:\n  - packages/**\nscripts:\n  test:\n    run: melos exec -- dart test\n    description: Run all tests\n"
    found = _found(make_repo, {**_MELOS, "melos.yaml": melos})
    assert "`melos run test`" in found["repo:recipe:test"]


def test_a_melos_file_without_scripts_names_no_command(make_repo: MakeRepo) -> None:
    found = _found(make_repo, {**_MELOS, "melos.yaml": "name: ws\npackages:\n  - packages/**\n"})
    assert "melos" not in found.get("repo:recipe:test", "")


# --- Bazel -----------------------------------------------------------------------------------

_GO = {
    "go.mod": "module example.com/q\n\ngo 1.22\n",
    "svc/main.go": "package main\n\nfunc main() {}\n" * 20,
    "svc/main_test.go": 'package main\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n',
}


def test_a_bazel_workspace_with_a_test_rule_tests_with_bazel(make_repo: MakeRepo) -> None:
    files = {
        **_GO,
        "MODULE.bazel": 'module(name = "q")\n',
        "svc/BUILD.bazel": 'go_binary(name = "svc", srcs = ["main.go"])\n'
        'go_test(name = "svc_test", srcs = ["main_test.go"])\n',
    }
    found = _found(make_repo, files)
    assert "`bazel test //...`" in found["repo:recipe:test"]
    assert "svc/BUILD.bazel:2" in found["repo:recipe:test"]
    assert "`bazel build //...`" in found["repo:recipe:build"]


def test_a_bazel_workspace_without_test_rules_keeps_the_language_s_test_command(
    make_repo: MakeRepo,
) -> None:
    files = {
        **_GO,
        "MODULE.bazel": 'module(name = "q")\n',
        "svc/BUILD.bazel": 'go_binary(name = "svc")\n',
    }
    assert "`go test ./...`" in _found(make_repo, files)["repo:recipe:test"]


def test_a_bazel_file_in_a_sub_folder_is_not_the_repository_s_build(make_repo: MakeRepo) -> None:
    files = {
        **_GO,
        "third/MODULE.bazel": 'module(name = "t")\n',
        "svc/BUILD": 'go_test(name = "t")\n',
    }
    found = _found(make_repo, files)
    assert "`go test ./...`" in found["repo:recipe:test"]
    assert "bazel" not in " ".join(found.values())


# --- Kotlin Multiplatform ------------------------------------------------------------------

_KMP = {
    "settings.gradle.kts": 'rootProject.name = "k"\ninclude(":lib")\n',
    "build.gradle.kts": 'plugins {\n    kotlin("multiplatform") version "2.0.0" apply false\n}\n',
    "gradlew": "#!/bin/sh\n",
    "lib/src/commonMain/kotlin/k/A.kt": "package k\nfun a() = 1\n" * 20,
}


def test_a_multiplatform_module_tests_with_all_tests(make_repo: MakeRepo) -> None:
    module = 'plugins { kotlin("multiplatform") }\nkotlin {\n    jvm()\n    linuxX64()\n}\n'
    found = _found(make_repo, {**_KMP, "lib/build.gradle.kts": module})
    assert "`./gradlew allTests`" in found["repo:recipe:test"]


def test_a_multiplatform_module_with_an_android_target_is_left_to_the_convention(
    make_repo: MakeRepo,
) -> None:
    module = 'plugins { kotlin("multiplatform"); id("com.android.library") }\nkotlin {\n    androidTarget()\n}\n'
    found = _found(make_repo, {**_KMP, "lib/build.gradle.kts": module})
    assert "allTests" not in found.get("repo:recipe:test", "")


def test_a_plugin_applied_false_alone_is_no_multiplatform_module(make_repo: MakeRepo) -> None:
    module = 'plugins { kotlin("jvm") }\n'
    found = _found(make_repo, {**_KMP, "lib/build.gradle.kts": module})
    assert "allTests" not in found.get("repo:recipe:test", "")


# --- Deno tests without a task ----------------------------------------------------------------

_DENO = {
    "deno.json": '{"tasks": {"start": "deno run -A main.ts"}}',
    "main.ts": 'Deno.serve(() => new Response("hi"));\n' * 20,
}


def test_deno_test_files_without_a_task_test_with_deno_test(make_repo: MakeRepo) -> None:
    files = {**_DENO, "routes/index_test.ts": 'Deno.test("x", () => {});\n'}
    assert "`deno test`" in _found(make_repo, files)["repo:recipe:test"]


def test_no_deno_test_file_means_no_deno_test(make_repo: MakeRepo) -> None:
    assert "repo:recipe:test" not in _found(make_repo, dict(_DENO))


def test_a_package_json_beside_deno_json_leaves_deno_test_unsaid(make_repo: MakeRepo) -> None:
    files = {
        **_DENO,
        "routes/index_test.ts": 'Deno.test("x", () => {});\n',
        "package.json": '{"name": "x", "scripts": {"build": "tsc"}}',
    }
    assert "deno test" not in _found(make_repo, files).get("repo:recipe:test", "")


def test_a_melos_file_s_packages_are_the_workspace_s_members(make_repo: MakeRepo) -> None:
    files = {
        **_MELOS,
        "melos.yaml": "name: ws\npackages:\n  - packages/**\n",
        "packages/app/pubspec.yaml": "name: app\ndependencies:\n  flutter:\n    sdk: flutter\n",
        "packages/app/lib/main.dart": "void main() {}\n" * 20,
    }
    files["packages/core/pubspec.yaml"] = "name: core\ndependencies:\n  drift: ^2.18.0\n"
    found = _found(make_repo, files)
    assert "workspace (melos.yaml) of `packages/**`" in found["repo:layout"]
    assert "`packages/app/`: Flutter" in found["repo:members"]
