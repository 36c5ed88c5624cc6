"""Steps a build tool's own files name: a shared Xcode scheme's tests, the steps of a Zig
`build.zig` (`zig build <step>`), the scripts of a Melos workspace (`melos run <script>`), a
Bazel workspace's `bazel test //...` and a Kotlin Multiplatform module's `./gradlew allTests`.

A Zig step is what `b.step("name", "description")` declares; it tests when it depends on a run
of an `addTest` artifact, and starts the program when it depends on a run of an
`addExecutable` artifact — its name alone says neither (`zig build check-units`), and a step
named `test` is the tests whatever it runs; a project with no `test` step has no `zig build
test`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping

import yaml

from squirrel_memory.repository.findings import Command, Readings, Task
from squirrel_memory.repository.snapshot import Snapshot, TextFile
from squirrel_memory.repository.task_records import MAX_TASKS_PER_FILE, add_task, task_scope

StepReader = Callable[[Snapshot, TextFile, Readings], None]


#: A scheme an Xcode project or workspace at the root shares with everyone who checks it out.
_SHARED_SCHEME = re.compile(
    r"^(?P<container>[^/]+\.(?P<kind>xcodeproj|xcworkspace))/xcshareddata/xcschemes/"
    r"(?P<scheme>[^/]+)\.xcscheme$"
)
#: The build setting that names a macOS target: only there does `xcodebuild test` run without a
#: device or simulator to name (`-destination`), which the repository does not say.
_MACOS_SDK = re.compile(r"\bSDKROOT\s*=\s*macosx\b")
_OTHER_SDK = re.compile(r"\bSDKROOT\s*=\s*(?!macosx\b)\w+")


def is_shared_scheme(path: str) -> bool:
    """Whether `path` is a shared Xcode scheme of a project or workspace at the root."""
    return _SHARED_SCHEME.match(path) is not None


def read_xcode_scheme(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """A shared Xcode scheme that tests something: `xcodebuild test -scheme <name>`, said only
    for a macOS project (any other platform's tests need a simulator or device named)."""
    match = _SHARED_SCHEME.match(text.path)
    if match is None or "<TestableReference" not in text.text:
        return
    projects = snap.matching(lambda p: "/" in p and p.count("/") == 1)
    settings = [snap.read(p) for p in projects if p.endswith(".xcodeproj/project.pbxproj")]
    read = [t.text for t in settings if t is not None]
    if not read or not any(_MACOS_SDK.search(t) for t in read):
        return
    if any(_OTHER_SDK.search(t) for t in read):
        return
    scheme, container = match.group("scheme"), match.group("container")
    if " " in scheme or " " in container:
        return  # a name to quote: left unsaid rather than typed wrong
    flag = "-workspace" if match.group("kind") == "xcworkspace" else "-project"
    typed = f"xcodebuild test {flag} {container} -scheme {scheme}"
    add_task(out, text, typed, "test", [], line=text.line_of("<TestAction") or 1)
    if out.commands and out.commands[-1].text == typed:
        # The scheme lives inside the project's bundle, but it is run from the root.
        out.commands[-1] = dataclasses.replace(out.commands[-1], scope="")


#: `const run_unit = b.addRunArtifact(unit_tests);` and the artifacts behind it.
_ZIG_ARTIFACT = re.compile(r"\b(?:const|var)\s+(\w+)\s*=\s*b\.add(Test|Executable)\s*\(")
_ZIG_RUN = re.compile(r"\b(?:const|var)\s+(\w+)\s*=\s*b\.addRunArtifact\s*\(\s*(\w+)\s*\)")
_ZIG_STEP = re.compile(
    r'(?:\b(?:const|var)\s+(\w+)\s*=\s*)?b\.step\(\s*"([\w.\-]+)"\s*,\s*"([^"]*)"\s*\)'
    r"(?:\s*\.dependOn\(\s*&\s*(\w+)\.step\s*\))?"
)
_ZIG_DEPENDS = re.compile(
    r"\b(\w+)\.dependOn\(\s*&\s*(?:(\w+)|b\.addRunArtifact\(\s*(\w+)\s*\))\.step\s*\)"
)


def read_zig_build(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """The steps of a `build.zig`, each as `zig build <step>` with its description; a step is a
    test command when it runs an `addTest` artifact, the start command when it runs an
    `addExecutable` one."""
    del snap
    source = text.text
    kinds = {m.group(1): m.group(2) for m in _ZIG_ARTIFACT.finditer(source)}
    runs = {m.group(1): kinds.get(m.group(2), "") for m in _ZIG_RUN.finditer(source)}
    depends: dict[str, set[str]] = {}
    for match in _ZIG_DEPENDS.finditer(source):
        kind = runs.get(match.group(2) or "", "") or kinds.get(match.group(3) or "", "")
        depends.setdefault(match.group(1), set()).add(kind)
    for match in list(_ZIG_STEP.finditer(source))[:MAX_TASKS_PER_FILE]:
        variable, name, about, inline = match.groups()
        found = set(depends.get(variable, set())) if variable else set()
        if inline:
            found.add(runs.get(inline, ""))
        line = source.count("\n", 0, match.start()) + 1
        typed = f"zig build {name}"
        out.tasks.append(Task(typed, name, text.ref(line), about[:80]))
        purpose = "test" if found == {"Test"} else "run" if found == {"Executable"} else None
        if name == "test":
            purpose = "test"  # a step named for the tests is them, whatever it runs
        if purpose is not None:
            scope = task_scope(text.path)
            out.commands.append(Command(typed, purpose, "zig", scope, "task", text.ref(line)))


def read_melos_scripts(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """Melos scripts (`scripts: {test: {run: …, description: …}}` or `test: "…"`), run as
    `melos run <name>`."""
    del snap
    data = yaml.safe_load(text.text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    for name, spec in (
        list(scripts.items())[:MAX_TASKS_PER_FILE] if isinstance(scripts, dict) else []
    ):
        body = spec.get("run") or spec.get("exec") if isinstance(spec, dict) else spec
        steps = [body] if isinstance(body, str) else []
        about = spec.get("description") if isinstance(spec, dict) else None
        line = text.line_of(f"{name}:", text.line_of("scripts:"))
        add_task(
            out,
            text,
            f"melos run {name}",
            str(name),
            steps,
            line=line,
            about=about if isinstance(about, str) else "",
        )


#: A Bazel build file's test rule (`go_test(`, `py_test(`, `cc_test(`) at a line's start.
_BAZEL_TEST_RULE = re.compile(r"^\w*_test\s*\(", re.MULTILINE)
_BAZEL_BUILD_FILES = frozenset({"BUILD", "BUILD.bazel"})
#: Most Bazel build files read for a test rule.
_BAZEL_FILES_READ = 200


def read_bazel_workspace(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """A Bazel workspace at the root (`MODULE.bazel`, `WORKSPACE`): Bazel builds the code, so
    it builds with `bazel build //...` and, when a build file declares a test rule, tests with
    `bazel test //...` — over the languages' own conventions (`go test ./...`), which bypass
    the build the repository defines."""
    if "/" in text.path:
        return
    out.commands.append(Command("bazel build //...", "build", "any", "", "task", text.ref(1)))
    builds = snap.matching(lambda p: p.rsplit("/", 1)[-1] in _BAZEL_BUILD_FILES)
    for path in sorted(builds, key=lambda p: (p.count("/"), p))[:_BAZEL_FILES_READ]:
        build = snap.read(path)
        match = _BAZEL_TEST_RULE.search(build.text) if build is not None else None
        if build is not None and match is not None:
            line = build.text.count("\n", 0, match.start()) + 1
            command = Command("bazel test //...", "test", "any", "", "task", build.ref(line))
            out.commands.append(command)
            return


#: The Kotlin Multiplatform plugin applied in a Gradle build file (by id, by its `kotlin(…)`
#: short form or by a version-catalog alias), and an Android target beside it.
_MULTIPLATFORM = re.compile(
    r"kotlin\(\s*\"multiplatform\"\s*\)|org\.jetbrains\.kotlin\.multiplatform"
    r"|plugins\.kotlin[.\-]?[mM]ultiplatform"
)
_ANDROID = re.compile(r"\bandroidTarget\s*\(|\bandroid\s*\(|com\.android\.|plugins\.android")


def read_multiplatform_build(snap: Snapshot, text: TextFile, out: Readings) -> None:
    """A Kotlin Multiplatform module with no Android target: its tests run per target, all of
    them with `./gradlew allTests` (it has no `test` task to run)."""
    if not snap.has("gradlew") or _ANDROID.search(text.text):
        return
    for number, line in enumerate(text.lines, 1):
        if _MULTIPLATFORM.search(line) and "apply false" not in line:
            out.commands.append(
                Command("./gradlew allTests", "test", "jvm", "", "task", text.ref(number))
            )
            return


#: Build-step readers by file name.
BUILD_STEP_READERS: Mapping[str, StepReader] = {
    "build.zig": read_zig_build,
    "melos.yaml": read_melos_scripts,
    "MODULE.bazel": read_bazel_workspace,
    "WORKSPACE": read_bazel_workspace,
    "WORKSPACE.bazel": read_bazel_workspace,
    "build.gradle.kts": read_multiplatform_build,
    "build.gradle": read_multiplatform_build,
}
