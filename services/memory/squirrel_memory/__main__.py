"""`python -m squirrel_memory`: run the memory service (normally started by `sqrl up`)."""

from squirrel_memory.server import main

main()
