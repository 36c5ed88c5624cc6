"""A web framework whose one package also ships its HTTP client, used by the code only for
that client: the project calls servers, it serves nothing, so the framework a manifest declares
is not what the project is built with.

Where a framework's client is a package of its own (`ktor-client-*`, `servant-client`,
`http4s-ember-client`), the stack table names only the server packages and no rule is needed
here. This table holds the frameworks whose single package carries both (Perl's Mojolicious
ships `Mojo::UserAgent` and `Mojo::DOM`): the code that imports only the client parts uses
the package as a library; code that imports the framework itself (`use Mojolicious::Lite`, a
class based on `Mojolicious`, `Test::Mojo` testing an app) serves with it.
"""

from __future__ import annotations

import re

#: Framework (as the stack table names it) → (its client parts' imports, its server's).
_PARTS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "Mojolicious": (
        re.compile(
            r"\buse[ \t]+Mojo::(?:UserAgent|DOM|URL|JSON|File|Util|Collection|IOLoop|"
            r"Promise|ByteStream|Date|Log|Template)\b"
        ),
        re.compile(r"\buse[ \t]+(?:Mojolicious\b|Mojo::Base[ \t]+['\"]Mojolicious|Test::Mojo\b)"),
    ),
}


def framework_parts(text: str) -> tuple[set[str], set[str]]:
    """(frameworks whose client parts `text` imports, frameworks whose server it imports)."""
    clients: set[str] = set()
    servers: set[str] = set()
    for name, (client, server) in _PARTS.items():
        if server.search(text):
            servers.add(name)
        elif client.search(text):
            clients.add(name)
    return clients, servers
