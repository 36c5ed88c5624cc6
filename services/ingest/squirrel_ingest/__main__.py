"""`python -m squirrel_ingest`: run the ingest service (normally started by `sqrl up`)."""

from squirrel_ingest.server import main

main()
