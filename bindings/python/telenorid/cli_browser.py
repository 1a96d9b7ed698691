"""The browser of `telenorid login`: the system's (Python's webbrowser), or --browser-command's. On a machine
where none can be opened, login says so before it starts and names the two ways that need no browser here, as
`gcloud auth login` and `az login` do; a browser command that cannot start or fails is reported, not waited
past."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
import webbrowser
from typing import Optional

from .cli_settings import Failed, UsageError, printable

# What else signs in, for the messages below.
OTHER_WAYS = ("--no-browser (open the URL in a browser on any machine, then paste back the address it ends on) or "
              "--device (enter a code on another device, RFC 8628)")


def no_browser_here() -> Optional[str]:
    """Why no browser can be opened on this machine, or None when one may be. Python's webbrowser finds graphical
    browsers only with a display, console browsers (w3m, lynx) only with TERM set, and $BROWSER's always."""
    if not sys.platform.startswith("linux") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    try:
        webbrowser.get()
    except webbrowser.Error:
        return "no display (DISPLAY and WAYLAND_DISPLAY are unset) and no browser that Python's webbrowser can start"
    return None


def check_browser(command: Optional[str]) -> None:
    """Before a login through the browser starts: refused at once where no browser can be opened and no
    --browser-command is given, rather than printing an address on this machine's loopback and waiting."""
    reason = None if command else no_browser_here()
    if reason is not None:
        raise UsageError(f"cannot open a browser here: {reason}. Sign in with {OTHER_WAYS}; or name a browser "
                         f"with --browser-command (or TELENORID_BROWSER)")


class Browser:
    """The browser opened on the authorization URL."""

    def __init__(self, url: str, command: Optional[str]) -> None:
        self.command = command
        self.process: Optional["subprocess.Popen[bytes]"] = None
        if command:
            try:
                self.process = subprocess.Popen(shlex.split(command) + [url], stdout=subprocess.DEVNULL)
            except (OSError, ValueError) as error:  # not found, not executable; ValueError: unbalanced quotes
                raise Failed(f"--browser-command {command!r} could not be started: "
                             f"{getattr(error, 'strerror', None) or error}; nothing was saved") from None
        else:
            # On a thread: without a display, what webbrowser runs (a console browser, $BROWSER) returns only when
            # it is closed, and the redirect it follows needs the listener already waiting.
            threading.Thread(target=self._open_system_browser, args=(url,), name="telenorid-browser",
                             daemon=True).start()

    @staticmethod
    def _open_system_browser(url: str) -> None:
        if not webbrowser.open(url):
            # One write, so that a message of the waiting thread cannot come between the two lines.
            sys.stderr.write(f"telenorid: no browser could be opened: open this URL in a browser on this machine to "
                             f"sign in (or stop with Ctrl-C and use {OTHER_WAYS}):\n{printable(url)}\n")
            sys.stderr.flush()

    def check(self) -> None:
        """Raises Failed when the browser command has ended with a failure (a non-zero status or a signal): no
        browser is signing in then. One that ended well may have handed the URL to a browser still open."""
        code = None if self.process is None else self.process.poll()
        if code:
            how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
            raise Failed(f"the browser command {self.command!r} {how} before the sign-in finished; nothing was saved. "
                         f"Check the command, or sign in with {OTHER_WAYS}")
