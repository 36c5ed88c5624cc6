"""A database that only a configuration profile names (Spring's `application-<profile>` files)
holds under that profile: it is said with its profile, never as the application's database."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import JAVA, Files, MakeRepo
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
KOTLIN_BUILD = (
    'plugins {\n    kotlin("jvm") version "2.0.0"\n'
    '    id("org.springframework.boot") version "3.3.4"\n}\n'
    "dependencies {\n"
    '    implementation("org.springframework.boot:spring-boot-starter-web")\n'
    '    runtimeOnly("com.h2database:h2")\n'
    '    runtimeOnly("com.mysql:mysql-connector-j")\n'
    '    runtimeOnly("org.postgresql:postgresql")\n}\n'
)
MAVEN = str(JAVA["pom.xml"]).replace(
    "  </dependencies>",
    "    <dependency>\n      <groupId>com.mysql</groupId>\n"
    "      <artifactId>mysql-connector-j</artifactId>\n    </dependency>\n  </dependencies>",
)
RESOURCES = "src/main/resources"
PROFILES = {
    f"{RESOURCES}/application.properties": "spring.jpa.open-in-view=false\n",
    f"{RESOURCES}/application-mysql.properties": "spring.datasource.url=jdbc:mysql://localhost/db\n",
    f"{RESOURCES}/application-postgres.properties": (
        "spring.datasource.url=${PG_URL:jdbc:postgresql://localhost/db}\n"
    ),
}
MAVEN_REPO: Files = {"pom.xml": MAVEN, "src/main/java/App.java": "class App {}\n" * 40, **PROFILES}
GRADLE_REPO: Files = {
    "build.gradle.kts": KOTLIN_BUILD,
    "src/main/kotlin/App.kt": "fun main() = Unit\n" * 40,
    **PROFILES,
}


def _facts(root: Path) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(root))}


@pytest.mark.parametrize("files", [MAVEN_REPO, GRADLE_REPO], ids=["java-maven", "kotlin-gradle"])
def test_a_database_only_a_profile_configures_is_said_with_its_profile(
    make_repo: MakeRepo, files: Files
) -> None:
    facts = _facts(make_repo(files))
    database = facts["repo:database"]
    assert "the `mysql` profile's" in database and "names MySQL" in database
    assert "the `postgres` profile's" in database and "names PostgreSQL" in database
    assert "The project's database is" not in database
    assert "MySQL" not in facts["repo:stack"] and "PostgreSQL" not in facts["repo:stack"]


@pytest.mark.parametrize("files", [MAVEN_REPO, GRADLE_REPO], ids=["java-maven", "kotlin-gradle"])
def test_a_session_reading_a_profile_does_not_state_its_database(files: Files) -> None:
    session = Session("/src/clinic", "s1", T0)
    session.user("Read how the data layer is configured.")
    for path, text in files.items():
        session.read(path, str(text))
    said = [c.content for c in session.extracted() if c.key in ("database", "stack")]
    assert not [text for text in said if "MySQL" in text or "PostgreSQL" in text]


def test_the_default_configuration_still_names_the_database(make_repo: MakeRepo) -> None:
    files = {
        **MAVEN_REPO,
        f"{RESOURCES}/application.properties": (
            "spring.datasource.url=jdbc:postgresql://localhost/db\n"
        ),
    }
    database = _facts(make_repo(files))["repo:database"]
    assert database.startswith("The project's database is PostgreSQL")
    assert "the `mysql` profile's" in database
