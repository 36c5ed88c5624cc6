"""A README's account of the project less the sentences whose stack claim the session's own
evidence contradicts (`extractors/contradicted_about.py`), in several ecosystems, and where
nothing decides or the evidence confirms it, the README's word stands."""

from __future__ import annotations

from datetime import UTC, datetime

from session_builder import Session

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
FASTAPI_MAIN = "from fastapi import FastAPI\n\napp = FastAPI()\n"
RAILS_DB = "default: &default\n  adapter: postgresql\n\ndevelopment:\n  <<: *default\n"


def _about(root: str, readme: str, reads: list[tuple[str, str]]) -> list[str]:
    s = Session(root, "s1", START)
    s.user("Add a health route.")
    s.read("README.md", readme)
    for path, text in reads:
        s.read(path, text)
    return [c.content for c in s.extracted() if "is and does" in c.content]


def test_a_readme_framework_the_code_contradicts_is_not_stated() -> None:
    readme = "# pricing\n\nA small Flask service that quotes prices.\n"
    assert _about("/home/u/pricing", readme, [("pricing/main.py", FASTAPI_MAIN)]) == []


def test_only_the_contradicted_sentence_goes() -> None:
    readme = "# library\n\nA catalogue of the branch's books. It is backed by MySQL.\n"
    (said,) = _about("/home/u/library", readme, [("config/database.yml", RAILS_DB)])
    assert "catalogue" in said and "MySQL" not in said


def test_a_confirmed_sentence_and_an_undecided_one_stay() -> None:
    both = "# shop\n\nA Flask app with a Vue front end.\n"
    flask = "from flask import Flask\n\napp = Flask(__name__)\n"
    (said,) = _about("/home/u/shop", both, [("shop/app.py", flask)])
    assert "Flask app" in said
    alone = "# quotes\n\nA small Flask service that quotes prices.\n"
    (said,) = _about("/home/u/quotes", alone, [("quotes/util.py", "import json\n")])
    assert "Flask service" in said


PGX_STORE = (
    'package store\n\nimport (\n\t"context"\n\n\t"github.com/jackc/pgx/v5/pgxpool"\n)\n\n'
    "func Open(ctx context.Context, url string) (*pgxpool.Pool, error) {\n"
    "\treturn pgxpool.New(ctx, url)\n}\n"
)
PSYCOPG_STORE = "import psycopg2\n\n\ndef connect(url):\n    return psycopg2.connect(url)\n"


def test_a_readme_store_the_code_s_driver_contradicts_goes_in_go_as_in_python() -> None:
    readme = "# billing\n\nA billing service backed by MySQL.\n"
    assert _about("/home/u/billing", readme, [("internal/store/db.go", PGX_STORE)]) == []
    assert _about("/home/u/billing", readme, [("billing/store.py", PSYCOPG_STORE)]) == []


def test_go_drivers_count_from_go_code_alone_and_from_an_import_spec_only() -> None:
    readme = "# billing\n\nA billing service backed by MySQL.\n"
    blank = 'package main\n\nimport _ "github.com/lib/pq"\n'
    assert _about("/home/u/billing", readme, [("cmd/main.go", blank)]) == []
    # The module path in a comment, or in a Python string, is no import of Go code.
    comment = 'package store\n\n// We moved off "github.com/jackc/pgx/v5" last year.\n'
    string = 'DRIVER = "github.com/jackc/pgx/v5"\n'
    for path, text in (("internal/store/db.go", comment), ("tools/gen.py", string)):
        (said,) = _about("/home/u/billing", readme, [(path, text)])
        assert "MySQL" in said
