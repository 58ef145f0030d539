"""``python -m verification``: the ``iln-verify`` command line."""

import sys

from verification.cli import main

sys.exit(main())
