"""What every test here imports from the checkout: the binding (bindings/python, ahead of any installed
telenorid) and the test providers and servers (Tests/support, Tests/support/provider). pytest imports this
before collecting the test files, whether it runs the directory (Tests/python/run.sh) or one file
(`pytest Tests/python/test_x.py`), so the files import them without path set-up of their own.
"""
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_REPO = _HERE.parent.parent

for _path in (_REPO / "bindings" / "python", _REPO / "Tests" / "support", _REPO / "Tests" / "support" / "provider"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
