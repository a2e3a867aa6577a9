"""The command line runs the same whichever way Python starts it.

Regression: ``python -m cardrules.cli list`` once found no commands at all (the
file ran as ``__main__``, a second copy of the module whose ``Command`` class
the command modules do not use), so argparse offered an empty choice list.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["cardrules.cli", "cardrules"])
def test_python_dash_m_lists_the_builtins(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "list"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "kachuful" in done.stdout
    assert "invalid choice" not in done.stderr
