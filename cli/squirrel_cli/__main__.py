"""`python -m squirrel_cli`: the same as `sqrl`."""

import sys

from squirrel_cli.main import main

sys.exit(main())
