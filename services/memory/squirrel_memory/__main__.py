"""`python -m squirrel_memory`: run the memory service (normally started by `sqrl up`)."""

from squirrel_core.imports import keep_out_console_extras

keep_out_console_extras()

from squirrel_memory.server import main  # noqa: E402 - after the line above

main()
