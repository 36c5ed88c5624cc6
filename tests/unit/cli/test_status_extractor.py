"""`sqrl status` says which backend the user chose, and that the rules always run."""

from __future__ import annotations

from squirrel_cli.status_view import extractor_lines


def test_the_status_names_the_chosen_backend_beside_the_rules() -> None:
    rules = {"p": {"extractor": "rules", "extractor_activity": {"backend": "rules"}}}
    model = {
        "p": {
            "extractor": "claude_cli",
            "extractor_activity": {
                "backend": "claude_cli",
                "model": "haiku",
                "sends_to_vendor": True,
                "calls_last_hour": 2,
            },
        }
    }
    assert extractor_lines(rules)[0] == "Extractor: rules only (extractor.backend), local"
    line = extractor_lines(model)[0]
    assert line.startswith("Extractor: rules + claude_cli (haiku) (chosen with extractor.backend)")
    assert "sends redacted session text to its vendor" in line
