"""A folder named for a kind of file keeps the folder it sits in as part of its module name."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.modules import module_name


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("app/js/audioLayerControl.js", "app/js"),
        ("src/css/site.css", None),  # not code
        ("src/ts/router.ts", "src/ts"),
        # A top-level folder keeps its own name, so `app/js` and `js` stay two modules.
        ("js/lib/recorder.js", "js"),
        ("js/recordLive.js", "js"),
        # Ordinary layout folders are unchanged.
        ("src/auth/session.py", "auth"),
        ("app/models/user.rb", "models"),
        ("lib/heron_web/live/page_live.ex", "heron_web"),
        ("packages/api/src/server.ts", "api"),
    ],
)
def test_module_names(path: str, name: str | None) -> None:
    assert module_name(path, "/home/dev/recorder") == name
