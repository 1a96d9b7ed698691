"""`python -m telenorid ...`: the command-line tool (telenorid/cli.py)."""
import sys

from telenorid.cli import main

sys.exit(main())
