"""``python -m cardrules``: the same command line as the ``cardrules`` script."""

import sys

from cardrules.cli import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
