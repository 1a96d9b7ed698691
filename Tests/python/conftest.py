"""What every test here imports from the checkout: the binding (bindings/python, ahead of any installed
telenorid) and the test providers and servers (Tests/support, Tests/support/provider). pytest imports this
before collecting the test files, whether it runs the directory (Tests/python/run.sh) or one file
(`pytest Tests/python/test_x.py`), so the files import them without path set-up of their own.

And what many test files share: the `provider` fixture (django-oauth-toolkit, or the fault provider where a
module's marker says so) and the harness's browser (BROWSER, follow_command).
"""
import sys
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
_REPO = _HERE.parent.parent

for _path in (_REPO / "bindings" / "python", _REPO / "Tests" / "support", _REPO / "Tests" / "support" / "provider"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

# The browser of django-oauth-toolkit's harness (Tests/support/provider/browser.py): given an authorization
# URL and a user's name and password it signs in and prints where the provider redirects; with --follow it
# also follows that redirect (to a CLI's loopback listener). Tests import it: `from conftest import BROWSER`.
BROWSER = _REPO / "Tests" / "support" / "provider" / "browser.py"


def follow_command(user: dict) -> str:
    """A --browser-command (TELENORID_BROWSER) that signs `user` (the provider info's "user" or
    "second_user") in at django-oauth-toolkit and follows the redirect: the URL is its last argument."""
    return f"{sys.executable} {BROWSER} --follow {user['username']} {user['password']}"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "provider(kind='django', **options): which provider the module's `provider` fixture starts")


@pytest.fixture(scope="module")
def provider(request):
    """The provider a module's tests share, started once for the module. By default django-oauth-toolkit
    (Tests/support/provider/oidc_provider.py's start_provider; yields its info: issuer, clients, users);
    a module marked `pytestmark = pytest.mark.provider("fault")` gets the programmable fault provider
    (Tests/support/fault_provider.py's FaultProvider) instead. The marker's keywords go to the provider
    (`pytest.mark.provider(access_token_seconds=30)`). A module that needs another provider, or one per test,
    keeps a `provider` fixture of its own, which takes precedence over this one."""
    marker = request.node.get_closest_marker("provider")
    kind = marker.args[0] if marker is not None and marker.args else "django"
    options = dict(marker.kwargs) if marker is not None else {}
    if kind == "fault":
        from fault_provider import FaultProvider
        with FaultProvider(**options) as running:
            yield running
    elif kind == "django":
        from oidc_provider import start_provider
        with start_provider(**options) as info:
            yield info
    else:
        raise ValueError(f"no provider {kind!r}: the provider marker takes \"django\" or \"fault\"")
