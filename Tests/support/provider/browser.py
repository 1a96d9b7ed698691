"""Plays the user at the provider's pages over HTTP (no browser): sign in, then allow or deny consent."""
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


def _walk(authorization_url: str, username: str, password: str, decision: dict[str, str]) -> str:
    session = requests.Session()
    response = session.get(authorization_url, allow_redirects=False, timeout=30)
    if response.status_code == 302 and "/accounts/login/" in response.headers["Location"]:
        login_url = urljoin(authorization_url, response.headers["Location"])
        page = session.get(login_url, timeout=30)
        form = _fields(page.text)
        form.update(username=username, password=password)
        response = session.post(login_url, data=form, headers={"Referer": login_url}, allow_redirects=False, timeout=30)
        assert response.status_code == 302, f"login failed: HTTP {response.status_code}"
        consent_url = urljoin(login_url, response.headers["Location"])
        response = session.get(consent_url, allow_redirects=False, timeout=30)
    else:
        consent_url = authorization_url
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


if __name__ == "__main__":
    # For tests in other languages: `browser.py AUTHORIZATION_URL USERNAME PASSWORD [--deny]` prints the
    # redirect the provider sends the browser to.
    # `browser.py --follow USERNAME PASSWORD AUTHORIZATION_URL` signs in and then follows the redirect, as a
    # real browser does (a loopback listener receives it): what `telenorid login --browser-command` runs.
    import sys

    if sys.argv[1] == "--follow":
        requests.get(complete_login(sys.argv[4], sys.argv[2], sys.argv[3]), timeout=30)
        sys.exit(0)
    walk = deny_login if "--deny" in sys.argv[4:] else complete_login
    print(walk(sys.argv[1], sys.argv[2], sys.argv[3]), flush=True)
