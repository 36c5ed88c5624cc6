"""What dependencies, container images and URL schemes say about a stack (data in stack.toml)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class Role:
    """A dependency's part in the stack: `role` (framework, database, orm, queue, …) and name."""

    role: str
    name: str


@cache
def _data() -> dict[str, Any]:
    text = resources.files("squirrel_memory.repository").joinpath("stack.toml").read_text()
    return tomllib.loads(text)


def language_name(ecosystem: str) -> str:
    """How a person names an ecosystem's language (`elixir` → Elixir)."""
    names: dict[str, str] = _data()["languages"]
    return names.get(ecosystem, ecosystem.capitalize())


def ecosystem_languages(ecosystem: str) -> tuple[str, ...]:
    """The languages an ecosystem's code may be written in, its usual one first (`jvm` →
    Java, Kotlin, …); empty when it has one."""
    table: dict[str, list[str]] = _data()["ecosystem_languages"]
    return tuple(table.get(ecosystem, ()))


def runtime_name(ecosystem: str) -> str:
    """What a toolchain version of an ecosystem is the version of (`javascript` → Node.js)."""
    names: dict[str, str] = _data()["runtimes"]
    return names.get(ecosystem) or language_name(ecosystem)


def dependency_role(ecosystem: str, name: str) -> Role | None:
    """The role of a dependency in an ecosystem, or None when it says nothing of the stack."""
    table: dict[str, dict[str, str]] = _data()["deps"].get(ecosystem, {})
    found = table.get(name) or table.get(name.lower())
    return Role(found["role"], found["name"]) if found else None


@cache
def database_names() -> frozenset[str]:
    """Every database the stack table knows by name (`PostgreSQL`, `SQLite`, `H2` …)."""
    names = {
        entry["name"]
        for table in _data()["deps"].values()
        for entry in table.values()
        if entry.get("role") == "database"
    }
    return frozenset(names)


def named_stack() -> dict[str, set[str]]:
    """Each framework (as a person writes it: `Angular`) and language (`Rust`) → the ecosystems
    it belongs to, for reading a stack a sentence names."""
    return dict(_named_stack())


@cache
def _named_stack() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for ecosystem, table in _data()["deps"].items():
        for role in table.values():
            if role["role"] == "framework":
                found.setdefault(role["name"], set()).add(ecosystem)
    for ecosystem, name in _data()["languages"].items():
        if ecosystem != "docs":
            found.setdefault(name, set()).add(ecosystem)
    for ecosystem, names in _data()["ecosystem_languages"].items():
        for name in names:
            found.setdefault(name, set()).add(ecosystem)
    return found


def role_names(roles: frozenset[str]) -> tuple[str, ...]:
    """Every dependency the stack table gives one of `roles` (`framework`, `database`, …): its
    name as a person writes it and the key it is found under."""
    return _role_names(roles)


@cache
def _role_names(roles: frozenset[str]) -> tuple[str, ...]:
    names: list[str] = []
    for table in _data()["deps"].values():
        for key, role in table.items():
            if role.get("role") in roles:
                names += [str(role["name"]), key]
    return tuple(dict.fromkeys(names))


def stack_names() -> tuple[str, ...]:
    """Every name the stack table gives a language, runtime, dependency, container image or
    platform, as a person writes it and by the key it is found under."""
    return _stack_names()


@cache
def _stack_names() -> tuple[str, ...]:
    data = _data()
    names: list[str] = [*data["languages"].values(), *data["runtimes"].values()]
    names += [name for languages in data["ecosystem_languages"].values() for name in languages]
    for table in data["deps"].values():
        for key, role in table.items():
            names += [key, role["name"]]
    for key, role in data["images"].items():
        names += [key.rsplit("/", 1)[-1], role["name"]]
    names += data["platforms"]["names"]
    return tuple(dict.fromkeys(n for n in names if n != data["languages"].get("docs")))


def is_language_name(name: str) -> bool:
    """Whether `name` is a language as a person writes it (`Rust`), not a framework."""
    data = _data()
    return name in data["languages"].values() or any(
        name in names for names in data["ecosystem_languages"].values()
    )


def image_role(image: str) -> Role | None:
    """The role of a container image (`postgres:16-alpine` → database PostgreSQL)."""
    images: dict[str, dict[str, str]] = _data()["images"]
    bare = image.split("@", 1)[0]
    if ":" in bare.rsplit("/", 1)[-1]:
        bare = bare.rsplit(":", 1)[0]
    for candidate in (bare, bare.rsplit("/", 1)[-1]):
        found = images.get(candidate.lower())
        if found:
            return Role(found["role"], found["name"])
    return None


def scheme_name(scheme: str) -> str | None:
    """The service a URL scheme names (`postgres` → PostgreSQL, and with a driver named after a
    `+`, SQLAlchemy's `postgresql+asyncpg` or `mysql+pymysql`, the same), or None."""
    schemes: dict[str, str] = _data()["schemes"]
    lowered = scheme.lower()
    return schemes.get(lowered) or schemes.get(lowered.split("+", 1)[0])


def command_needs(program: str) -> str | None:
    """What the repository must hold for a named command run through `program` (see
    stack.toml's `[command_needs]`), or None when any repository may run it."""
    table: dict[str, str] = _data().get("command_needs", {})
    return table.get(program)


def conventions(ecosystem: str) -> dict[str, str]:
    """Conventional commands of an ecosystem → what must be present (see stack.toml)."""
    table: dict[str, dict[str, str]] = _data().get("conventions", {})
    return dict(table.get(ecosystem, {}))


def env_runner(ecosystem: str, present: set[str]) -> str:
    """The program that runs `ecosystem`'s tools in the environment the one lock file among
    `present` (file names beside the manifest) manages (`uv run`), or "" (stack.toml's
    `[env_runners]`)."""
    table: dict[str, dict[str, str]] = _data().get("env_runners", {})
    found = {run for lock, run in table.get(ecosystem, {}).items() if lock in present}
    return found.pop() if len(found) == 1 else ""


def started_framework(command: str) -> str | None:
    """The framework a command that starts the app starts (`next dev` → Next.js), if it says."""
    table: dict[str, str] = _data()["entry_points"]
    for word in command.replace("`", " ").split():
        name = word.rsplit("/", 1)[-1]
        if name in table:
            return table[name]
    return None


#: Roles whose names a description may claim of a project: what it is built with or stores in.
CLAIMED_ROLES = frozenset({"framework", "database", "queue", "cache", "search"})


def claimed_names(ecosystem: str) -> dict[str, str]:
    """Names of the frameworks, databases, queues, caches and search engines an ecosystem's
    project would declare a dependency for, with their role (`Flask` → framework)."""
    table: dict[str, dict[str, str]] = _data()["deps"].get(ecosystem, {})
    return {role["name"]: role["role"] for role in table.values() if role["role"] in CLAIMED_ROLES}


def runtime_image(image: str) -> tuple[str, str] | None:
    """(ecosystem, version) an official base image's tag says of a runtime (`node:22-alpine` →
    javascript 22), or None for another image, one of another registry or owner, or a tag
    without a version (`node:lts`)."""
    images: dict[str, str] = _data()["runtime_images"]
    bare = image.split("@", 1)[0]
    name, _, tag = bare.rpartition(":") if ":" in bare.rsplit("/", 1)[-1] else (bare, "", "")
    official = name.lower().removeprefix("docker.io/").removeprefix("library/")
    ecosystem = images.get(official) if "/" not in official else None
    version = re.match(r"\d+(?:\.\d+)*", tag)
    return (ecosystem, version.group(0)) if ecosystem and version else None
