"""Plays the user at the provider's pages over HTTP (no browser): sign in, then allow or deny consent; or, for
the device authorization grant (RFC 8628 §3.3), sign in, enter the user code, then accept or deny."""
from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin

import requests


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "input" and attributes.get("name") and attributes.get("type") != "submit":
            self.fields[attributes["name"]] = attributes.get("value") or ""


def _fields(html: str) -> dict[str, str]:
    parser = _Forms()
    parser.feed(html)
    return parser.fields


def _sign_in(session: requests.Session, url: str, username: str, password: str) -> tuple[str, requests.Response]:
    """GETs `url`, signing in first when the provider sends the browser to its login page; returns the page's
    URL and response."""
    response = session.get(url, allow_redirects=False, timeout=30)
    if response.status_code == 302 and "/accounts/login/" in response.headers["Location"]:
        login_url = urljoin(url, response.headers["Location"])
        page = session.get(login_url, timeout=30)
        form = _fields(page.text)
        form.update(username=username, password=password)
        response = session.post(login_url, data=form, headers={"Referer": login_url}, allow_redirects=False, timeout=30)
        assert response.status_code == 302, f"login failed: HTTP {response.status_code}"
        url = urljoin(login_url, response.headers["Location"])
        response = session.get(url, allow_redirects=False, timeout=30)
    return url, response


def _walk(authorization_url: str, username: str, password: str, decision: dict[str, str]) -> str:
    session = requests.Session()
    consent_url, response = _sign_in(session, authorization_url, username, password)
    if response.status_code == 302:  # consent remembered: straight back to the client
        return response.headers["Location"]
    assert response.status_code == 200, f"consent page: HTTP {response.status_code}"
    form = _fields(response.text)
    form.update(decision)
    response = session.post(consent_url, data=form, headers={"Referer": consent_url}, allow_redirects=False, timeout=30)
    assert response.status_code == 302, f"consent failed: HTTP {response.status_code}"
    return response.headers["Location"]


def complete_login(authorization_url: str, username: str, password: str) -> str:
    """Signs in and allows; returns the redirect the provider sends the browser to (not followed)."""
    return _walk(authorization_url, username, password, {"allow": "Authorize"})


def deny_login(authorization_url: str, username: str, password: str) -> str:
    """Signs in and refuses consent (the form goes back without "allow"); returns the error redirect."""
    return _walk(authorization_url, username, password, {})


def approve_device(verification_uri: str, user_code: str, username: str, password: str, deny: bool = False) -> str:
    """Signs in at django-oauth-toolkit's device page, enters `user_code`, then accepts (or denies); returns the
    status the page shows afterwards ("Device Authorized" / "Device Denied")."""
    session = requests.Session()
    page_url, response = _sign_in(session, verification_uri, username, password)
    assert response.status_code == 200, f"device page: HTTP {response.status_code}"
    form = _fields(response.text)
    form.update(user_code=user_code)
    response = session.post(page_url, data=form, headers={"Referer": page_url}, allow_redirects=False, timeout=30)
    assert response.status_code == 302, f"user code refused: HTTP {response.status_code}"
    confirm_url = urljoin(page_url, response.headers["Location"])
    page = session.get(confirm_url, timeout=30)
    assert page.status_code == 200, f"confirmation page: HTTP {page.status_code}"
    form = _fields(page.text)
    form.update(action="deny" if deny else "accept")
    response = session.post(confirm_url, data=form, headers={"Referer": confirm_url}, timeout=30)
    assert response.status_code == 200, f"confirmation failed: HTTP {response.status_code}"
    return " ".join(response.text.split("<h1>")[1].split("</h1>")[0].split())


if __name__ == "__main__":
    # For tests in other languages: `browser.py AUTHORIZATION_URL USERNAME PASSWORD [--deny]` prints the
    # redirect the provider sends the browser to.
    # `browser.py --follow USERNAME PASSWORD AUTHORIZATION_URL` signs in and then follows the redirect, as a
    # real browser does (a loopback listener receives it): what `telenorid login --browser-command` runs.
    # `browser.py --device VERIFICATION_URI USER_CODE USERNAME PASSWORD [--deny]` plays the user of the device
    # authorization grant and prints the status the page ends on ("Device Authorized" or "Device Denied").
    import sys

    if sys.argv[1] == "--device":
        print(approve_device(*sys.argv[2:6], deny="--deny" in sys.argv[6:]), flush=True)
        sys.exit(0)
    if sys.argv[1] == "--follow":
        requests.get(complete_login(sys.argv[4], sys.argv[2], sys.argv[3]), timeout=30)
        sys.exit(0)
    walk = deny_login if "--deny" in sys.argv[4:] else complete_login
    print(walk(sys.argv[1], sys.argv[2], sys.argv[3]), flush=True)
