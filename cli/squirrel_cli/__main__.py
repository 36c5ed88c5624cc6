"""`python -m squirrel_cli`: the same as `sqrl`."""

import sys

from squirrel_cli.entry import main

sys.exit(main())
