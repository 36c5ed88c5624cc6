"""Only a regular file is opened for reading; a pipe, a device or a folder is refused at once."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from squirrel_core.regular_files import NotAFileError, open_regular
from tests.pipes import finished_on, make_fifo


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes(b"one\ntwo\n")

    with open_regular(path) as handle:
        assert handle.read() == b"one\ntwo\n"


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = make_fifo(tmp_path / "notes.md")

    with pytest.raises(NotAFileError):
        finished_on(fifo, lambda: open_regular(fifo))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused() -> None:
    with pytest.raises(NotAFileError):
        open_regular("/dev/zero")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        open_regular(tmp_path)


def test_a_link_is_refused_when_links_are_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "target.md"
    target.write_bytes(b"x")
    (tmp_path / "link.md").symlink_to(target)

    with open_regular(tmp_path / "link.md") as handle:
        assert handle.read() == b"x"
    with pytest.raises(OSError) as refused:
        open_regular(tmp_path / "link.md", follow_links=False)
    assert refused.value.errno == errno.ELOOP
