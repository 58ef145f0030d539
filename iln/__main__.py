"""``python -m iln``: the demo run of Algorithm 1 (see :mod:`iln.demo`)."""

import sys

from iln.demo import main

sys.exit(main())
