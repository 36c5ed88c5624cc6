"""A command run inside a container: `docker compose exec app bin/rails test`,
`docker run --rm -v "$PWD:/src" node:20 npm test` run the words after the service or image."""

from __future__ import annotations

import posixpath

#: Launches whose next word (after their options) names a service, container or image, and
#: whose words after that are the command run inside it.
_LAUNCHES = frozenset(
    {
        ("docker", "compose", "run"),
        ("docker", "compose", "exec"),
        ("docker-compose", "run"),
        ("docker-compose", "exec"),
        ("podman", "compose", "run"),
        ("podman", "compose", "exec"),
        ("podman-compose", "run"),
        ("podman-compose", "exec"),
        ("docker", "run"),
        ("docker", "exec"),
        ("podman", "run"),
        ("podman", "exec"),
    }
)
#: Options of those launches that take a value as the next word (`-e KEY=1`, `-w /app`).
_VALUE_OPTIONS = frozenset(
    {"-e", "--env", "--env-file", "-w", "--workdir", "-u", "--user", "--entrypoint", "-p"}
    | {"--publish", "-v", "--volume", "--name", "-l", "--label", "--network", "--index"}
    | {"--mount", "--platform", "--pull", "-m", "--memory", "--cpus"}
)


def inside_container(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The command a container launch runs (`("pytest", "-x")`), or None when `words` are not
    such a launch or run the container's own entry point."""
    head = (posixpath.basename(words[0]), *words[1:3]) if words else ()
    for size in (3, 2):
        if head[:size] in _LAUNCHES:
            rest = words[size:]
            break
    else:
        return None
    index = 0
    while index < len(rest) and rest[index].startswith("-"):
        option = rest[index]
        index += 2 if option in _VALUE_OPTIONS and "=" not in option else 1
    inside = rest[index + 1 :]
    return inside or None
