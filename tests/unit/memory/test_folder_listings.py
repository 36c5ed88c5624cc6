"""What a folder of the project holds, as an `ls` run in one session listed it."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.folder_listings import folder_listings
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import PROJECT, Stream, by_key, extract

LONG = """total 48
drwxr-xr-x  9 dev staff   288 Feb 20 09:57 .
drwxr-xr-x 31 dev staff   992 Feb 20 11:09 ..
drwxr-xr-x 12 dev staff   384 Feb 20 09:57 .git
-rw-r--r--  1 dev staff   120 Feb 20 09:57 .gitignore
drwxr-xr-x  4 dev staff   128 Feb 20 09:57 cmd
drwxr-xr-x  6 dev staff   192 Feb 20 09:57 node_modules
-rw-r--r--  1 dev staff  1573 Feb 10 22:27 go.mod
lrwxr-xr-x  1 dev staff    10 Feb 10 22:27 docs -> site/docs
drwxr-xr-x  5 dev staff   160 Feb 20 09:57 internal
"""


def _ls(command: str, output: str, *, exit_code: int = 0, cwd: str | None = None) -> Stream:
    stream = Stream()
    stream.user("where do the handlers live?")
    stream.run(command, exit_code=exit_code, output=output)
    if cwd is not None:
        stream.events[-1].content["cwd"] = cwd
    return stream


@pytest.mark.parametrize(
    ("command", "output", "folder", "content"),
    [
        (
            "ls -la",
            LONG,
            ".",
            "The project root holds `cmd/`, `go.mod`, `docs`, `internal/`, `.gitignore` "
            "(as `ls -la` listed it).",
        ),
        (
            "ls -F internal",
            "books/\nhandlers/\nserver.go\n",
            "internal",
            "`internal/` holds `books/`, `handlers/`, `server.go` (as `ls -F` listed it).",
        ),
        (
            f"ls {PROJECT}/lib/shop",
            "cart.ex\ncheckout.ex\n",
            "lib/shop",
            "`lib/shop/` holds `cart.ex`, `checkout.ex` (as `ls` listed it).",
        ),
        (
            "ls",
            "\n".join(f"part{n:02}.R" for n in range(15)),
            ".",
            "The project root holds "
            + ", ".join(f"`part{n:02}.R`" for n in range(12))
            + " and 3 more (as `ls` listed it).",
        ),
    ],
    ids=["long-root", "classified-folder", "absolute-path", "many-entries"],
)
def test_a_listing_of_a_project_folder_says_what_it_holds(
    command: str, output: str, folder: str, content: str
) -> None:
    (found,) = folder_listings(_ls(command, output).events)
    assert (found.folder, found.content) == (folder, content)
    assert found.key == f"layout:{folder}"


def test_a_folder_listed_twice_is_said_as_last_listed() -> None:
    stream = _ls("ls src", "app.py\nmodels.py\n")
    stream.run("ls src", output="app.py\nmodels.py\nviews.py\n")
    (found,) = folder_listings(stream.events)
    assert "`views.py`" in found.content
    assert found.event_ids == (stream.events[-1].id,)


def test_a_subfolder_is_resolved_from_the_shells_folder() -> None:
    (found,) = folder_listings(_ls("ls", "a.go\nb.go\n", cwd=f"{PROJECT}/internal/books").events)
    assert found.folder == "internal/books"


@pytest.mark.parametrize(
    ("command", "output", "exit_code", "cwd"),
    [
        # Outside the project, or in a dependency, generated, build or test-data folder.
        ("ls /etc", "hosts\npasswd\n", 0, None),
        ("ls ../billing", "a.py\nb.py\n", 0, None),
        ("ls", "a.py\nb.py\n", 0, "/home/dev/other"),
        ("ls node_modules", "react/\nvite/\n", 0, None),
        ("ls dist", "index.js\nindex.css\n", 0, None),
        ("ls tests/fixtures/app", "a.py\nb.py\n", 0, None),
        # Not a folder's whole content: filtered, recursive, one entry, a glob, time-sorted.
        ("ls src | grep test", "test_a.py\ntest_b.py\n", 0, None),
        ("ls -R src", "src:\na.py\nb.py\n", 0, None),
        ("ls -d src", "src\n", 0, None),
        ("ls src/*.py", "src/a.py\nsrc/b.py\n", 0, None),
        ("ls -t src", "b.py\na.py\n", 0, None),
        ("ls go.mod", "go.mod\n", 0, None),
        # Failed, or another command after it.
        ("ls missing", "ls: missing: No such file or directory\n", 1, None),
        ("ls src && make", "a.c\nb.c\n", 0, None),
        # Columns, not one name per line.
        ("ls", "a.py    b.py    c.py\n", 0, None),
    ],
    ids=[
        "outside",
        "sibling",
        "other-cwd",
        "dependency",
        "build-output",
        "test-data",
        "filtered",
        "recursive",
        "directory-itself",
        "glob",
        "time-sorted",
        "one-file",
        "failed",
        "chained",
        "columns",
    ],
)
def test_no_listing_is_said_when_it_is_not_a_project_folders_content(
    command: str, output: str, exit_code: int, cwd: str | None
) -> None:
    stream = _ls(command, output, exit_code=exit_code, cwd=cwd)
    assert folder_listings(stream.events) == []


async def test_the_rules_extractor_keeps_a_listing_as_a_weak_layout_fact() -> None:
    stream = _ls("ls -F internal", "books/\nhandlers/\nserver.go\n")
    fact = by_key(await extract(stream))["layout:internal"]
    assert fact.type == MemoryType.PROJECT_FACT
    assert fact.file_paths == ("internal",)
    assert fact.importance < 0.4


@pytest.mark.parametrize(
    "removal",
    [
        lambda s: s.user("Also, I deleted config.ru, as a first step let's fix the APIs"),
        lambda s: s.run("git rm config.ru", output="rm 'config.ru'\n"),
        lambda s: s.say("`config.ru` is removed now."),
    ],
    ids=["user-said", "git-rm", "assistant-said"],
)
def test_an_entry_removed_after_the_listing_is_left_out(removal: object) -> None:
    stream = _ls("ls", "app/\nconfig.ru\nindex.html\njs/\n")
    removal(stream)  # type: ignore[operator]
    (found,) = folder_listings(stream.events)
    assert found.content == (
        "The project root holds `app/`, `index.html`, `js/` (as `ls` listed it)."
    )


def test_a_removal_before_the_listing_changes_nothing() -> None:
    stream = Stream()
    stream.user("I deleted config.ru yesterday")
    stream.run("ls", output="app/\nconfig.ru\n")
    (found,) = folder_listings(stream.events)
    assert "`config.ru`" in found.content
