"""`sqrl import`'s last line counts its files in words that agree with the number."""

from __future__ import annotations

from squirrel_cli.commands.ingest import import_line

SUMMARY = {"lines": 12, "events": 9, "duplicates": 0, "rejected": 1, "redactions": 2}


def test_one_file_is_one_file() -> None:
    line = import_line({**SUMMARY, "files": 1, "bytes": 2**20})
    assert line.startswith("Imported 1 file: 12 lines, 9 events (0 duplicates, 1 rejected, ")
    assert line.endswith("2 secrets redacted, 1.0 MiB).")


def test_none_and_many_are_files() -> None:
    assert import_line({**SUMMARY, "files": 0, "bytes": 0}).startswith("Imported 0 files: ")
    assert import_line({**SUMMARY, "files": 3, "bytes": 0}).startswith("Imported 3 files: ")
