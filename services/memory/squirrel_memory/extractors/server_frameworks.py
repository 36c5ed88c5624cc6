"""Server frameworks: the ones an application serves its requests with, of which one app runs
one, so that two declared side by side conflict (one kept for an old folder, or a migration
half done) unless one is built on the other."""

from __future__ import annotations

from collections.abc import Iterable

#: Frameworks an application serves its requests with: one app runs one of them, so two in one
#: ecosystem's manifests conflict (one may be kept for an old folder, or be half migrated).
#: Clients and UI libraries (aiohttp, React) are not among them.
_SERVER_FRAMEWORKS = frozenset(
    {"Django", "FastAPI", "Flask", "Starlette", "Litestar", "Tornado", "Pyramid"}
    | {"Express", "Fastify", "Koa", "Hono", "NestJS"}
    | {"Gin", "Echo", "Fiber", "chi", "Gorilla mux", "Actix Web", "Axum", "Rocket", "warp"}
    | {"Phoenix", "Rails", "Sinatra", "Hanami", "Laravel", "Symfony", "Slim"}
    | {"Spring Boot", "Quarkus", "Micronaut", "Ktor", "http4s", "Akka HTTP", "Pekko HTTP"}
    | {"ZIO HTTP", "Shelf", "Dart Frog", "Vapor", "Hummingbird", "Compojure", "Reitit"}
    | {"Mojolicious", "Dancer2", "Catalyst", "Wisp", "Servant", "Yesod", "Scotty", "Dream"}
    | {"Opium"}
)
#: A framework built on another one declares both, without a conflict.
_BUILT_ON = {"FastAPI": {"Starlette"}, "NestJS": {"Express", "Fastify"}}


def rival_servers(names: Iterable[str]) -> set[str]:
    """The server frameworks among `names` that rival each other: two or more, neither built
    on the other (FastAPI declares Starlette without a conflict), all of them; else an empty
    set."""
    servers = {name for name in names if name in _SERVER_FRAMEWORKS}
    below = {under for name in servers for under in _BUILT_ON.get(name, ())}
    return servers if len(servers - below) >= 2 else set()
