"""`python -m squirrel_gateway`: run the gateway service (normally started by `sqrl up`)."""

from squirrel_gateway.server import main

main()
