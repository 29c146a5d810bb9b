"""``python -m castle``: the same as the ``castle`` command."""

import sys

from .cli import main

sys.exit(main())
