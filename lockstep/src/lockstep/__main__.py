"""`python -m lockstep`: the command line (lockstep/cli.py)."""

import sys

from lockstep.cli import main

sys.exit(main())
