"""What a recipe's command does when its words say more than its purpose.

- A migration generator (`mix ecto.gen.migration add_posts`, `alembic revision -m "add due"`,
  `dotnet ef migrations add AddDue`) writes a new migration file: it does not migrate the
  database. Its recipe says "To create a migration" and shows the name it was given as a
  placeholder (`<name>`, `"<message>"`), since the next migration has another name.
- A line that runs several tasks of one program (`sbt scalafmtCheckAll test`, `make lint test`)
  is said as all of them ("to check the formatting and run the tests"), not as its first one.
"""

from __future__ import annotations

import re
import shlex

from squirrel_core.commands import classify_command

#: The words after which a migration tool creates a migration rather than applying one, as
#: word sequences (each word compared case-insensitively; a program's own prefix such as
#: `ecto.` is part of the word).
_GENERATORS: tuple[tuple[str, ...], ...] = (
    ("revision",),  # alembic
    ("makemigrations",),  # django
    ("ecto.gen.migration",),
    ("generate", "migration"),  # rails, diesel's `migration generate` below
    ("g", "migration"),
    ("migration", "generate"),
    ("make:migration",),  # laravel
    ("migration:generate",),  # sequelize, typeorm
    ("migration:create",),
    ("migrations", "add"),  # entity framework
    ("migrate:make",),  # knex
    ("migrate", "add"),  # sqlx
    ("db:new_migration",),
)
#: Options whose value is the new migration's free-text message or its name.
_MESSAGE_OPTIONS = frozenset({"-m", "--message"})
_NAME_OPTIONS = frozenset({"-n", "--name"})
#: Generators whose positional words are not the migration's name (django's app labels).
_NO_NAME = frozenset({"makemigrations"})


def _generator_end(words: list[str]) -> int | None:
    """The index just past the generator words in `words`, or None when there are none."""
    lowered = [w.lower() for w in words]
    for start in range(len(lowered)):
        for form in _GENERATORS:
            if tuple(lowered[start : start + len(form)]) == form:
                return start + len(form)
    return None


def migration_template(command: str) -> str | None:
    """`command` as the way to create a migration, its given name and message shown as
    placeholders; None when the command does not create a migration."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if any(w in {"&&", "||", ";", "|"} for w in words):
        return None
    end = _generator_end(words)
    if end is None:
        return None
    generator = words[end - 1].lower()
    shown = [shlex.quote(w) for w in words[:end]]
    named = False
    after_option = False
    rest = iter(words[end:])
    for word in rest:
        if word in _MESSAGE_OPTIONS or word in _NAME_OPTIONS:
            value = next(rest, None)
            if value is None:
                break
            shown.append(word)
            shown.append('"<message>"' if word in _MESSAGE_OPTIONS else "<name>")
            named, after_option = True, False
        elif word.startswith("-"):
            shown.append(word)
            after_option = word.startswith("--") and "=" not in word
        elif after_option and (named or "/" in word or "." in word):
            shown.append(shlex.quote(word))  # the option's value (`--project src/Data`)
            after_option = False
        elif generator not in _NO_NAME and not named:
            shown.append("<name>")
            named, after_option = True, False
        else:
            after_option = False
        # further positional words (rails' `sku:string`, an app label) are this migration's
    return " ".join(shown)


_ACTS = {
    "test": "run the tests",
    "lint": "lint",
    "format": "format",
    "typecheck": "type-check",
    "build": "build",
    "docs": "build the documentation",
}
_CHECK_FORMAT = re.compile(r"check", re.IGNORECASE)


def several_tasks(command: str) -> str | None:
    """How a line that runs several tasks of one program says what it does ("to check the
    formatting and run the tests"), when its tasks have different purposes; else None."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) < 3 or any(w in {"&&", "||", ";", "|"} for w in words):
        return None
    program = words[0]
    whole = classify_command(command)
    acts: list[str] = []
    purposes: set[str] = set()
    first = True
    for word in words[1:]:
        if word.startswith("-") or "=" in word or "/" in word:
            continue
        use = classify_command(f"{program} {word}")
        if use is None or use.purpose not in _ACTS:
            continue
        if first and (whole is None or whole.purpose != use.purpose):
            # `zig build test` is one step a longer pattern knows, not a build and a test run
            return None
        first = False
        purposes.add(use.purpose)
        act = _ACTS[use.purpose]
        if (
            use.purpose in {"format", "lint"}
            and _CHECK_FORMAT.search(word)
            and "fmt" in (word.lower().replace("format", "fmt"))
        ):
            act = "check the formatting"
        if act not in acts:
            acts.append(act)
    if len(purposes) < 2:
        return None
    return "to " + (", ".join(acts[:-1]) + " and " + acts[-1])
