"""`python -m squirrel_ingest`: run the ingest service (normally started by `sqrl up`)."""

from squirrel_core.imports import keep_out_console_extras

keep_out_console_extras()

from squirrel_ingest.server import main  # noqa: E402 - after the line above

main()
