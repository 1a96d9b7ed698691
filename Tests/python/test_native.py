"""Python that feels native: typed settings (mypy --strict refuses an unknown one, run time suggests the
right one), on_change taking any callable, a docstring on every public member, the wheel's metadata, the
package README's quick start run as written against a real provider (django-oauth-toolkit), and
handle_callback taking a web backend's path and query."""
import inspect
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests

import telenorid

from browser import complete_login  # noqa: E402
from conftest import BROWSER

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bindings" / "python"
REDIRECT = "http://127.0.0.1:53682/callback"


def _child_env(**extra):
    env = dict(os.environ, PYTHONPATH=str(PACKAGE))
    env.setdefault("TELENORID_LIBRARY", str(ROOT / "out" / "lib" / "libtelenorid.so.0"))
    env.update(extra)
    return env


# --- typed settings and callbacks, as mypy --strict sees them -----------------------------------------------

TYPED_USE = '''\
import telenorid


def good(state: telenorid.AuthState) -> telenorid.Config:
    state.on_change(lambda: state.serialize())  # a lambda returning a value
    return telenorid.Config.from_settings(issuer="https://id.example.com", client_id="app", scope=None,
                                          allow_plain_pkce=True, timeout_ms=5000, refresh_margin_s="30")


def misspelt() -> telenorid.Config:
    return telenorid.Config.from_settings(clientid="x")


def wrong_type() -> telenorid.Config:
    return telenorid.Config.from_settings(issuer="https://id.example.com", timeout_ms=[5000])
'''


def test_mypy_strict_refuses_an_unknown_setting_and_takes_a_value_returning_callback(tmp_path):
    pytest.importorskip("mypy")
    source = tmp_path / "typed_use.py"
    source.write_text(TYPED_USE)
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
                             str(tmp_path / "cache"), str(source)],
                            cwd=tmp_path, env=_child_env(MYPYPATH=str(PACKAGE)), capture_output=True, text=True,
                            timeout=300)
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    lines = {int(line.split(":")[1]) for line in errors}
    assert lines == {11, 15}, result.stdout + result.stderr
    assert any('"clientid"' in line for line in errors), result.stdout
    assert any("timeout_ms" in line for line in errors), result.stdout


def test_an_unknown_setting_suggests_the_closest_one():
    with pytest.raises(TypeError, match=r"unknown configuration setting 'clientid'; did you mean 'client_id'\?"):
        telenorid.Config.from_settings(issuer="https://id.example.com", clientid="app")
    with pytest.raises(TypeError) as caught:
        telenorid.Config.from_settings(colour="blue")
    assert "did you mean" not in str(caught.value)
    # The flag and number types still take a bool and an int.
    config = telenorid.Config.from_settings(issuer="https://id.example.com", client_id="app", redirect_uri=REDIRECT,
                                            allow_plain_pkce=True, timeout_ms=5000)
    assert config.get("allow_plain_pkce") == "true" and config.get("timeout_ms") == "5000"
    with pytest.raises(TypeError):
        telenorid.Config.from_settings(issuer="https://id.example.com", client_id=True)


# --- docstrings ------------------------------------------------------------------------------------------


def _missing_docstrings():
    missing = []
    for name in telenorid.__all__:
        exported = getattr(telenorid, name)
        if not (exported.__doc__ or "").strip():
            missing.append(name)
        if not inspect.isclass(exported):
            continue
        for member in dir(exported):
            if member.startswith("_"):
                continue
            owner = next(klass for klass in exported.__mro__ if member in vars(klass))
            if not owner.__module__.startswith("telenorid"):
                continue  # Exception's, object's
            attribute = vars(owner)[member]
            if isinstance(attribute, (classmethod, staticmethod)):
                attribute = attribute.__func__
            if isinstance(attribute, property) or inspect.isfunction(attribute):
                if not (attribute.__doc__ or "").strip():
                    missing.append(f"{name}.{member}")
    return sorted(set(missing))


def test_every_public_member_has_a_docstring():
    assert _missing_docstrings() == []


# --- wheel metadata --------------------------------------------------------------------------------------


def test_the_wheel_metadata_describes_the_package():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]
    readme = project["readme"]
    assert readme["content-type"] == "text/markdown"
    assert "## Quick start" in (PACKAGE / readme["file"]).read_text()
    assert project["license"] == "Apache-2.0"
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(project["urls"])
    assert all(url.startswith("https://") for url in project["urls"].values())
    classifiers = set(project["classifiers"])
    assert {"Typing :: Typed", "Programming Language :: Python :: 3", "Topic :: Security"} <= classifiers
    assert project["description"] and project["requires-python"] == ">=3.9"


# --- the README's quick start, exactly as written --------------------------------------------------------


def _quick_start() -> str:
    text = (PACKAGE / "README.md").read_text()
    section = text.split("## Quick start", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "no python block in the README's quick start"
    return match.group(1)


# Access tokens shorter than the refresh margin (60 s): every fresh_access_token() refreshes, so a later run
# shows the saved state being refreshed and saved again.
pytestmark = pytest.mark.provider(access_token_seconds=30)


FOLLOW = """#!{python}
import subprocess, sys
# A browser returns at once; this one signs in and follows the redirect to the listener meanwhile.
subprocess.Popen([{python!r}, {browser!r}, "--follow", {user!r}, {password!r}, sys.argv[1]], start_new_session=True)
"""


def test_the_readme_quick_start_signs_in_then_restores_and_refreshes(provider, tmp_path):
    user = provider["user"]
    launcher = tmp_path / "browser"
    launcher.write_text(FOLLOW.format(python=sys.executable, browser=str(BROWSER), user=user["username"],
                                      password=user["password"]))
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    code = _quick_start()
    env = _child_env(HOME=str(tmp_path), OIDC_ISSUER=provider["issuer"],
                     OIDC_CLIENT_ID=provider["clients"]["public"]["client_id"], BROWSER=str(launcher))
    state_file = tmp_path / ".example-app-signin.json"

    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "signed in as" in first.stdout and "valid until" in first.stdout
    assert stat.S_IMODE(state_file.stat().st_mode) == 0o600
    saved = json.loads(state_file.read_text())["refresh_token"]

    # Later: no browser (a sign-in would wait for a redirect that never comes), the saved state refreshed.
    env["BROWSER"] = "false"
    later = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert later.returncode == 0, later.stderr
    assert later.stdout.splitlines()[0] == first.stdout.splitlines()[0]  # the same user
    assert json.loads(state_file.read_text())["refresh_token"] != saved

    # What the file holds works at the provider.
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"], redirect_uri=REDIRECT))
    state = client.open_auth_state_file(str(state_file))
    token = state.fresh_access_token()
    assert requests.get(provider["issuer"] + "/userinfo/", headers={"Authorization": f"Bearer {token}"},
                        timeout=10).status_code == 200
    assert first.stdout.splitlines()[0] == f"signed in as {state.id_token_claims['sub']}"


# --- handle_callback with a web backend's path and query ----------------------------------------------------


def _pending(redirect_uri):
    config = telenorid.Config.from_settings(issuer="https://id.example.com", client_id="app",
                                            redirect_uri=redirect_uri,
                                            authorization_endpoint="https://id.example.com/authorize",
                                            token_endpoint="https://id.example.com/token")
    return telenorid.AuthorizationRequest(config).build()


def test_handle_callback_takes_the_path_and_query_under_an_http_redirect_uri():
    pending = _pending("https://app.example.com/auth/callback")
    callback = pending.handle_callback(f"/auth/callback?code=the-code&state={pending.state}")
    assert callback.code == "the-code"

    # The path is still checked against the configured redirect URI, by the library.
    pending = _pending("https://app.example.com/auth/callback")
    with pytest.raises(telenorid.RedirectMismatch):
        pending.handle_callback(f"/elsewhere?code=the-code&state={pending.state}")
    with pytest.raises(telenorid.StateMismatch):
        pending.handle_callback("/auth/callback?code=the-code&state=another")

    # A redirect URI without an origin (a private-use scheme) has nothing to put before a path.
    pending = _pending("com.example.app:/oauth2redirect")
    with pytest.raises(telenorid.TelenoridError):
        pending.handle_callback(f"/oauth2redirect?code=the-code&state={pending.state}")
    assert pending.handle_callback(f"com.example.app:/oauth2redirect?code=c&state={pending.state}").code == "c"


def test_handle_callback_path_against_the_provider(provider):
    client = telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"], redirect_uri=REDIRECT))
    pending = client.build_authorization(telenorid.AuthorizationRequest(client.config()))
    redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
    parts = urlsplit(redirect)
    state = client.exchange_code(pending.handle_callback(f"{parts.path}?{parts.query}"))
    assert state.signed_in
