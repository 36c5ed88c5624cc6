"""An assignment carries a secret by its name or by a value ingest redacted, before a program or
after it; a placeholder, a variable read or a plain name is none."""

from __future__ import annotations

import pytest

from squirrel_core.secret_assignments import states_secret


@pytest.mark.parametrize(
    "text",
    [
        "`make smoke SESSION_COOKIE=c00k13Vq7Lp2 TIMEOUT=30`",
        "`terraform apply -var 'db_password=[REDACTED:secret_assignment]' -var region=eu`",
        "`helm upgrade db ./chart --set auth.password=Hx7pq29zzW`",
        "`mvn -Dpassword=hunter2 deploy`",
        "`tool --api-key=abc123 run`",
        "OPENAI_API_KEY=sk-x npm test",
        "`docker run -e X=[REDACTED:openai_key] img`",
    ],
)
def test_a_secret_given_a_value(text: str) -> None:
    assert states_secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "`make CC=clang test`",
        "`pip install black==24.3.0`",
        "`terraform apply -var env=staging -var region=eu-west-1`",
        "`helm upgrade --set replicaCount=2`",
        "`OPENAI_API_KEY=<your key> npm test`",
        "`GH_TOKEN=$(gh auth token) gh release list`",
        "`TOKEN=… make`",
        "Set API_KEY before the tests.",
        "`export PATH=/opt/bin:$PATH`",
        "`git config user.email=a@b.c`",
    ],
)
def test_no_secret(text: str) -> None:
    assert not states_secret(text)
