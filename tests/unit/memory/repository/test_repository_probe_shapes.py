"""Facts from repository shapes met in made-up projects: a queue only a compose file starts, a
test folder's manifest, a pytest config file, a docs site's sub-folder; and where each rule must
not fire."""

from __future__ import annotations

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


_PY_APP = {
    "pyproject.toml": '[project]\nname = "sift"\nrequires-python = ">=3.11"\n'
    'dependencies = ["fastapi", "sqlalchemy>=2", "aiosqlite"]\n',
    "sift/main.py": "from fastapi import FastAPI\n\napp = FastAPI()\n" * 20,
    "docker-compose.yml": "services:\n  postgres:\n    image: postgres:16\n"
    "  rabbitmq:\n    image: rabbitmq:3-management\n",
}


def test_a_queue_only_a_compose_file_starts_is_not_what_runs_the_jobs(make_repo: MakeRepo) -> None:
    found = _found(make_repo, _PY_APP)
    assert "repo:jobs" not in found
    assert "RabbitMQ" not in found["repo:stack"]
    assert "RabbitMQ" in found["repo:services"]  # what the compose file starts is still said


def test_a_queue_the_application_connects_to_is_still_said(make_repo: MakeRepo) -> None:
    files = {**_PY_APP, ".env.example": "BROKER_URL=amqp://guest:guest@localhost:5672//\n"}
    found = _found(make_repo, files)
    assert "RabbitMQ" in found["repo:jobs"]


_MODULE = {
    "main.tf": 'resource "aws_db_instance" "this" {\n  engine = "postgres"\n}\n' * 20,
    "variables.tf": 'variable "size" {\n  type = string\n}\n',
}


def test_a_manifest_in_a_test_folder_does_not_name_the_project(make_repo: MakeRepo) -> None:
    files = {
        **_MODULE,
        "test/go.mod": "module github.com/acme/terraform-aws-rds/test\n\ngo 1.22\n",
        "test/rds_test.go": 'package test\n\nimport "testing"\n\nfunc TestRds(t *testing.T) {}\n',
    }
    found = _found(make_repo, files)
    assert "terraform-aws-rds/test" not in found["repo:stack"]
    assert found["repo:stack"].startswith("repo")  # the repository's folder name


def test_a_manifest_in_another_folder_still_names_the_project(make_repo: MakeRepo) -> None:
    files = {**_MODULE, "tools/go.mod": "module github.com/acme/rdskit\n\ngo 1.22\n"}
    files["tools/main.go"] = "package main\n\nfunc main() {}\n"
    assert _found(make_repo, files)["repo:stack"].startswith("github.com/acme/rdskit")


_DJANGO = {
    "requirements.txt": "Django==5.0.6\nmysqlclient==2.2.4\n",
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'kiosk.settings')\n",
    "kiosk/settings.py": "DATABASES = {'default': {'ENGINE': 'django.db.backends.mysql'}}\n" * 20,
}


def test_a_pytest_config_file_says_the_tests_run_with_pytest(make_repo: MakeRepo) -> None:
    files = {**_DJANGO, "pytest.ini": "[pytest]\nDJANGO_SETTINGS_MODULE = kiosk.settings_test\n"}
    assert "`pytest`" in _found(make_repo, files)["repo:recipe:test"]


def test_without_a_pytest_config_django_s_runner_is_still_said(make_repo: MakeRepo) -> None:
    assert "`python manage.py test`" in _found(make_repo, _DJANGO)["repo:recipe:test"]


_PY_CLI = {
    "pyproject.toml": '[project]\nname = "cinder"\nrequires-python = ">=3.10"\n'
    'dependencies = ["flask>=3"]\n',
    "cinder/app.py": "from flask import Flask\n\napp = Flask(__name__)\n" * 10,
}
_SITE_JS = "import React from 'react';\nexport default function Home() { return null; }\n" * 30


def test_a_docs_site_s_framework_and_language_are_not_the_project_s(make_repo: MakeRepo) -> None:
    files = {
        **_PY_CLI,
        "website/package.json": '{"name": "cinder-website", "dependencies": '
        '{"@docusaurus/core": "3.3.2", "react": "^18.2.0"}}',
        "website/src/pages/index.js": _SITE_JS,
    }
    stack = _found(make_repo, files)["repo:stack"]
    assert "React" not in stack
    assert "JavaScript" not in stack
    assert stack.startswith("cinder is a Python/Flask app")


def test_a_front_end_folder_that_is_no_docs_site_still_counts(make_repo: MakeRepo) -> None:
    files = {
        **_PY_CLI,
        "frontend/package.json": '{"name": "cinder-ui", "dependencies": {"react": "^18.2.0"}}',
        "frontend/src/App.js": _SITE_JS,
    }
    assert "React" in _found(make_repo, files)["repo:stack"]


def _workspace(store: str, admin: str) -> dict[str, str | bytes]:
    return {
        "package.json": '{"name": "harbor", "private": true, "workspaces": ["apps/*"],'
        ' "scripts": {"test": "turbo run test"}, "devDependencies": {"turbo": "^2.0.3"}}',
        "apps/store/package.json": store,
        "apps/store/src/db.ts": "export const db = 1;\n" * 30,
        "apps/admin/package.json": admin,
        "apps/admin/src/page.tsx": "export default function P() { return null; }\n" * 30,
    }


def test_one_workspace_member_s_framework_is_not_the_project_s(make_repo: MakeRepo) -> None:
    files = _workspace(
        '{"name": "store", "dependencies": {"drizzle-orm": "^0.30.10", "postgres": "^3.4.4"}}',
        '{"name": "admin", "dependencies": {"next": "14.2.3", "mongoose": "^8.4.0"}}',
    )
    stack = _found(make_repo, files)["repo:stack"]
    assert "Next.js" not in stack
    assert "Drizzle" not in stack


def test_a_framework_every_member_names_is_still_said(make_repo: MakeRepo) -> None:
    member = '{{"name": "{0}", "dependencies": {{"next": "14.2.3"}}}}'
    files = _workspace(member.format("store"), member.format("admin"))
    assert "Next.js" in _found(make_repo, files)["repo:stack"]
