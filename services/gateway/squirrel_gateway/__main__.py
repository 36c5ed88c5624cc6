"""`python -m squirrel_gateway`: run the gateway service (normally started by `sqrl up`)."""

from squirrel_core.imports import keep_out_console_extras

keep_out_console_extras()

from squirrel_gateway.server import main  # noqa: E402 - after the line above

main()
