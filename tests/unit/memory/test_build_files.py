"""The project's build tool where no package manifest names it: the root build file a session
saw, with the tool's run at the root or its include files."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/plasma"

#: A linker line that names a library of another language (an embedded scripting runtime).
LINKED = (
    "cc -O3 -fPIC -c unit/test_moments.c -o build/unit/test_moments.o\n"
    "cc build/unit/test_moments.o -o build/unit/test_moments -Lbuild -lplasma -lluajit-5.1 -lm\n"
)
#: A test executable named like CMake's runner, built and run by make.
#: A listing of the root's files.
_LIST = "find . -maxdepth 1 -type f"
RAN = "Test test_1x1v...    [ OK ]\nSUCCESS: All unit tests have passed.\n"


def _session() -> Session:
    session = Session(ROOT, "plasma", T0)
    session.user("Merge the two moment tests into one file and check it builds.")
    return session


def _build(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.key == "build"]


def _everything(session: Session) -> list[MemoryCandidate]:
    return session.extracted()


def _make(session: Session) -> None:
    # The build file looked for and not found: grep exits 2 and lists nothing.
    session.run('grep -n "test_moments" unit/CMakeLists.txt 2>/dev/null', 2, "Exit code 2")
    session.run(
        'find . -maxdepth 2 -iname "*.mak" -o -maxdepth 1 -name Makefile',
        0,
        "./Makefile\n./config.mak\n./core/corelinkobjs.mak\n",
    )
    session.run("make build/unit/ctest_moments 2>&1 | tail -5", 0, LINKED)
    session.run("./build/unit/ctest_moments", 0, RAN)


def _cmake(session: Session) -> None:
    session.run("find . -maxdepth 1 -type f", 0, "./CMakeLists.txt\n./README.md\n")
    session.run("find cmake -name '*.cmake'", 0, "cmake/warnings.cmake\n")
    session.run("cmake -S . -B build -G Ninja && cmake --build build", 0, "-- Build files written")


def _meson(session: Session) -> None:
    session.read("meson.build", "project('plasma', 'c')\nexecutable('plasma', 'main.c')\n")
    session.run("meson setup build && meson compile -C build", 0, "Build targets in project: 2")


@pytest.mark.parametrize(
    ("steps", "said"),
    [
        (
            _make,
            "The project builds with make: the root `Makefile`, with the include files "
            "`config.mak`, `core/corelinkobjs.mak`; `make build/unit/ctest_moments` ran at "
            "the root.",
        ),
        # A variable given to make is part of the command that ran, not environment.
        (
            lambda s: (
                s.run(_LIST, 0, "./Makefile\n./README.md\n"),
                s.run("CCACHE_DIR=.cache make CC=clang test", 0, RAN),
            ),
            "The project builds with make: the root `Makefile`; `make CC=clang test` ran at "
            "the root.",
        ),
        (
            _cmake,
            "The project builds with CMake: the root `CMakeLists.txt`, with the include files "
            "`cmake/warnings.cmake`; `cmake -S . -B build -G Ninja` ran at the root.",
        ),
        (
            _meson,
            "The project builds with Meson: the root `meson.build`; `meson setup build` ran "
            "at the root.",
        ),
        # A root build file with no other use says alone what the project is.
        # Seen in a listing, with the CMakeLists.txt of an ESP-IDF project beside it.
        (
            lambda s: s.run(_LIST, 0, "./CMakeLists.txt\n./platformio.ini\n./README.md\n"),
            "The project is microcontroller firmware built with PlatformIO: the root "
            "`platformio.ini`.",
        ),
        # Read, and run at the root (an Arduino sketch's project).
        (
            lambda s: (
                s.read("platformio.ini", "[env:uno]\nplatform = atmelavr\nframework = arduino\n"),
                s.run("pio run -e uno", 0, "SUCCESS\n"),
            ),
            "The project is microcontroller firmware built with PlatformIO: the root "
            "`platformio.ini`; `pio run -e uno` ran at the root.",
        ),
    ],
    ids=[
        "make",
        "make-with-a-variable",
        "cmake",
        "meson",
        "platformio-listed-beside-cmake",
        "platformio-read-and-run",
    ],
)
def test_the_root_build_file_with_its_run_or_includes_names_the_tool(
    steps: Callable[[Session], object], said: str
) -> None:
    session = _session()
    steps(session)

    assert _build(session) == [said]


def test_a_missing_build_file_a_test_named_like_ctest_and_a_linked_runtime_say_nothing_wrong() -> (
    None
):
    session = _session()
    _make(session)
    texts = [c.content for c in _everything(session)]

    for text in texts:
        assert "CMake" not in text
        assert "CTest" not in text and " ctest " not in f" {text} "
        assert "Lua" not in text


@pytest.mark.parametrize(
    "steps",
    [
        # Only the grep of a CMakeLists.txt that is not there.
        lambda s: s.run('grep -n "x" CMakeLists.txt', 2, "grep: CMakeLists.txt: No such file"),
        # A root Makefile of tasks beside a package manifest: the manifest says how it builds.
        lambda s: (
            s.run(_LIST, 0, "./Makefile\n./package.json\n"),
            s.run("make lint", 0, "eslint src\n"),
        ),
        # Two tools' root files: a Makefile that wraps CMake.
        lambda s: (
            s.run(_LIST, 0, "./CMakeLists.txt\n./Makefile\n"),
            s.run("make release", 0, "cmake --build build\n"),
        ),
        # Build files in sub-folders: a dependency's, a generated one.
        lambda s: (
            s.run("find . -name CMakeLists.txt", 0, "./third_party/zlib/CMakeLists.txt\n"),
            s.run("find build -name Makefile", 0, "build/Makefile\n"),
            s.run("make -C build", 0, "[100%] Built target plasma\n"),
        ),
        # A root Makefile seen, nothing run and no include file: it may only name tasks.
        lambda s: s.run(_LIST, 0, "./Makefile\n./README.md\n"),
        # The tool ran in another folder.
        lambda s: (
            s.run(_LIST, 0, "./Makefile\n./README.md\n"),
            s.run("cd /opt/zlib && make", 0, "cc -c zlib.c\n"),
        ),
        # A firmware build file: a library's example in a sub-folder.
        lambda s: s.run("find . -name platformio.ini", 0, "./examples/blink/platformio.ini\n"),
        # A root package manifest beside it: the manifest's facts say what the project is.
        lambda s: s.run(_LIST, 0, "./platformio.ini\n./Cargo.toml\n"),
        # A library for firmware (PlatformIO's or Arduino's manifest), not firmware itself.
        lambda s: s.run(_LIST, 0, "./platformio.ini\n./library.json\n./src\n"),
        lambda s: s.run(_LIST, 0, "./platformio.ini\n./library.properties\n"),
        # Looked for and not found.
        lambda s: s.run("cat platformio.ini", 1, "cat: platformio.ini: No such file or directory"),
    ],
    ids=[
        *("missing", "manifest", "two-tools", "sub-folders", "tasks-only", "elsewhere"),
        *("firmware-sub-folder", "firmware-beside-a-manifest"),
        *("firmware-library-json", "firmware-library-properties", "firmware-missing"),
    ],
)
def test_no_build_tool_without_a_root_file_of_one_tool_and_its_run_or_includes(
    steps: Callable[[Session], object],
) -> None:
    session = _session()
    steps(session)

    assert _build(session) == []
