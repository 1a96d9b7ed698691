"""SecretServiceStore: a store (the protocol of :mod:`telenorid.store`) that keeps its records in the desktop's
Secret Service (freedesktop.org Secret Service API: gnome-keyring, KeePassXC, KWallet's bridge) through
libsecret, loaded with ctypes. Linux only; Debian packages libsecret-1-0 and a service such as gnome-keyring.

Each record is one item of the default collection, found by the attributes application=<application> and
key=<record key> under the schema :data:`SCHEMA_NAME`; its secret is the record's bytes (content type
application/octet-stream). What libsecret hands back is copied into Python and then released with
secret_value_unref, which wipes libsecret's copy (it lives in its non-pageable "secure memory").

The Secret Service has no locks, so :meth:`SecretServiceStore.lock` takes an flock(2) on a file named after the
lock in a directory of the user's: $XDG_RUNTIME_DIR/telenorid (a per-user tmpfs, mode 0700), or
$XDG_STATE_HOME/telenorid/locks (~/.local/state/telenorid/locks) where there is no runtime directory. That
excludes every thread and process of the user on this machine, which is everything that can reach the user's
Secret Service; the lock files hold nothing.

Nothing here puts a record's bytes in an exception or a log: errors name the operation, the key and what the
Secret Service said.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import threading
import time
from ctypes import POINTER, Structure, byref, c_char_p, c_int, c_size_t, c_ssize_t, c_uint, c_void_p
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["SCHEMA_NAME", "SecretServiceError", "SecretServiceStore"]

# Items made by this store carry it (as the xdg:schema attribute); a lookup matches only items of this schema.
SCHEMA_NAME = "no.telenor.id.Store"

# The names the library gives records and locks ("<key>", "<key>.update"): used as file names, so checked.
_NAME = re.compile(r"[A-Za-z0-9._-]{1,160}")

# What the Secret Service is asked in available(): each call waits this long at most.
_PROBE_TIMEOUT_MS = 1000
_SECRETS_BUS_NAME = b"org.freedesktop.secrets"
_SECRETS_PATH = b"/org/freedesktop/secrets"

# GLib's constants (gio/gioenums.h, libsecret/secret-schema.h).
_G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT = 1 << 0
_G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION = 1 << 3
_G_DBUS_CALL_FLAGS_NO_AUTO_START = 1 << 0  # a probe must not start a keyring daemon through D-Bus activation
_SECRET_SCHEMA_NONE = 0


class SecretServiceError(OSError):
    """The Secret Service (or libsecret) refused or failed an operation, or cannot be reached; the message says
    which and why. An OSError: like a file's, the failure of the operating system's store."""


class _GError(Structure):
    _fields_ = [("domain", c_uint), ("code", c_int), ("message", c_char_p)]


class _Libraries:
    """libsecret and the GLib libraries under it, with the prototypes of the functions used (all of them the
    non-variadic forms: ctypes cannot call C varargs portably)."""

    def __init__(self) -> None:
        self.glib = ctypes.CDLL("libglib-2.0.so.0")
        self.gobject = ctypes.CDLL("libgobject-2.0.so.0")
        self.gio = ctypes.CDLL("libgio-2.0.so.0")
        self.secret = ctypes.CDLL("libsecret-1.so.0")
        error_p = POINTER(POINTER(_GError))
        for library, name, result, arguments in (
            (self.glib, "g_hash_table_new", c_void_p, [c_void_p, c_void_p]),
            (self.glib, "g_hash_table_insert", c_int, [c_void_p, c_void_p, c_void_p]),
            (self.glib, "g_hash_table_unref", None, [c_void_p]),
            (self.glib, "g_error_free", None, [POINTER(_GError)]),
            (self.glib, "g_variant_new_string", c_void_p, [c_char_p]),
            (self.glib, "g_variant_new_tuple", c_void_p, [POINTER(c_void_p), c_size_t]),
            (self.glib, "g_variant_get_child_value", c_void_p, [c_void_p, c_size_t]),
            (self.glib, "g_variant_get_variant", c_void_p, [c_void_p]),
            (self.glib, "g_variant_get_string", c_char_p, [c_void_p, c_void_p]),
            (self.glib, "g_variant_get_boolean", c_int, [c_void_p]),
            (self.glib, "g_variant_unref", None, [c_void_p]),
            (self.gobject, "g_object_unref", None, [c_void_p]),
            (self.gio, "g_dbus_connection_new_for_address_sync", c_void_p,
             [c_char_p, c_int, c_void_p, c_void_p, error_p]),
            (self.gio, "g_dbus_connection_call_sync", c_void_p,
             [c_void_p, c_char_p, c_char_p, c_char_p, c_char_p, c_void_p, c_void_p, c_int, c_int, c_void_p, error_p]),
            (self.gio, "g_dbus_connection_close_sync", c_int, [c_void_p, c_void_p, error_p]),
            (self.secret, "secret_schema_newv", c_void_p, [c_char_p, c_int, c_void_p]),
            (self.secret, "secret_value_new", c_void_p, [c_char_p, c_ssize_t, c_char_p]),
            (self.secret, "secret_value_get", c_void_p, [c_void_p, POINTER(c_size_t)]),
            (self.secret, "secret_value_unref", None, [c_void_p]),
            (self.secret, "secret_password_storev_binary_sync", c_int,
             [c_void_p, c_void_p, c_char_p, c_char_p, c_void_p, c_void_p, error_p]),
            (self.secret, "secret_password_lookupv_binary_sync", c_void_p, [c_void_p, c_void_p, c_void_p, error_p]),
            (self.secret, "secret_password_clearv_sync", c_int, [c_void_p, c_void_p, c_void_p, error_p]),
        ):
            function = getattr(library, name)
            function.restype = result
            function.argtypes = arguments
        self.str_hash = ctypes.cast(self.glib.g_str_hash, c_void_p)
        self.str_equal = ctypes.cast(self.glib.g_str_equal, c_void_p)
        # One schema for the process, kept for its life: every item has the attributes application and key.
        types, buffers = self.string_table({"application": None, "key": None})  # NULL: SECRET_SCHEMA_ATTRIBUTE_STRING
        try:
            self.schema = self.secret.secret_schema_newv(SCHEMA_NAME.encode(), _SECRET_SCHEMA_NONE, types)
        finally:
            self.glib.g_hash_table_unref(types)
            del buffers
        if not self.schema:
            raise OSError("secret_schema_newv failed")

    def error_message(self, error: "ctypes._Pointer[_GError]") -> str:
        """The GError's message (the Secret Service's or D-Bus's words, never a secret), freeing the error."""
        if not error:
            return "no reason given"
        message = (error.contents.message or b"no reason given").decode("utf-8", "replace")
        self.glib.g_error_free(error)
        return message

    def string_table(self, entries: Dict[str, Optional[str]]) -> Tuple[int, List[Any]]:
        """A GHashTable of C strings (g_str_hash) and what keeps its keys and values alive: GLib keeps the
        pointers, so the buffers must outlive the table."""
        table = self.glib.g_hash_table_new(self.str_hash, self.str_equal)
        if not table:
            raise MemoryError("g_hash_table_new")
        buffers: List[Any] = []
        for key, value in entries.items():
            key_buffer = ctypes.create_string_buffer(key.encode())
            value_buffer = None if value is None else ctypes.create_string_buffer(value.encode())
            buffers += [key_buffer, value_buffer]
            self.glib.g_hash_table_insert(table, ctypes.cast(key_buffer, c_void_p),
                                          None if value_buffer is None else ctypes.cast(value_buffer, c_void_p))
        return table, buffers


_libraries: Optional[_Libraries] = None
_libraries_lock = threading.Lock()


def _load() -> _Libraries:
    global _libraries
    with _libraries_lock:
        if _libraries is None:
            try:
                _libraries = _Libraries()
            except (OSError, AttributeError) as error:
                raise SecretServiceError(f"libsecret could not be loaded ({error}); on Debian install "
                                         f"libsecret-1-0 and a Secret Service such as gnome-keyring") from None
        return _libraries


def _session_bus_address() -> Optional[str]:
    """The session bus's address as D-Bus defines it: $DBUS_SESSION_BUS_ADDRESS, else the systemd user bus
    at $XDG_RUNTIME_DIR/bus. GLib would go on to autolaunch a bus (dbus-launch); a probe must not."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    if address:
        return address
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime, "bus").exists():
        return f"unix:path={Path(runtime, 'bus')}"
    return None


def _default_lock_directory() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime) / "telenorid"
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "telenorid" / "locks"


class SecretServiceStore:
    """Records in the Secret Service's default collection, locks as flock(2) files in `lock_directory`
    (default: $XDG_RUNTIME_DIR/telenorid, else $XDG_STATE_HOME/telenorid/locks).

    `application` goes into every item's attributes: two stores with different applications never see each
    other's records. Call :meth:`available` first: an operation on a locked collection would make the Secret
    Service ask the user to unlock it, which on a machine without a desktop fails only after D-Bus's timeout.
    """

    def __init__(self, application: str = "telenorid", lock_directory: Optional[os.PathLike[str] | str] = None) -> None:
        if not isinstance(application, str) or not _NAME.fullmatch(application):
            raise ValueError(f"{application!r} is not an application name ([A-Za-z0-9._-], 1 to 160 characters)")
        self._libraries = _load()
        self._schema = self._libraries.schema
        self.application = application
        self.lock_directory = Path(lock_directory) if lock_directory is not None else _default_lock_directory()
        self._held: Dict[str, int] = {}
        self._held_lock = threading.Lock()

    # ---- is there a Secret Service to use ----------------------------------------------------------------

    @staticmethod
    def unavailable_reason() -> Optional[str]:
        """None when a Secret Service answers on the session bus with its default collection unlocked; else
        why not, in a few words. Starts nothing (no D-Bus activation) and asks the user nothing; each of its
        calls waits at most a second."""
        try:
            libraries = _load()
        except SecretServiceError as failure:
            return str(failure)
        address = _session_bus_address()
        if address is None:
            return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
        error = POINTER(_GError)()
        connection = libraries.gio.g_dbus_connection_new_for_address_sync(
            address.encode(), _G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
            | _G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, None, None, byref(error))
        if not connection:
            return f"the D-Bus session bus does not answer ({libraries.error_message(error)})"
        try:
            return _probe(libraries, connection)
        finally:
            libraries.gio.g_dbus_connection_close_sync(connection, None, None)
            libraries.gobject.g_object_unref(connection)

    @classmethod
    def available(cls) -> bool:
        """Whether a Secret Service answers with its default collection unlocked (see :meth:`unavailable_reason`)."""
        return cls.unavailable_reason() is None

    # ---- records ---------------------------------------------------------------------------------------

    def load(self, key: str) -> Optional[bytes]:
        libraries = self._libraries
        table, buffers = libraries.string_table(self._attributes(key))
        error = POINTER(_GError)()
        try:
            value = libraries.secret.secret_password_lookupv_binary_sync(self._schema, table, None, byref(error))
        finally:
            libraries.glib.g_hash_table_unref(table)
            del buffers
        if error:
            raise SecretServiceError(f"loading {key!r} from the Secret Service failed: "
                                     f"{libraries.error_message(error)}")
        if not value:
            return None
        try:
            length = c_size_t()
            data = libraries.secret.secret_value_get(value, byref(length))
            return ctypes.string_at(data, length.value) if length.value else b""
        finally:
            libraries.secret.secret_value_unref(value)

    def store(self, key: str, data: bytes) -> None:
        """Replaces the record: the Secret Service replaces an item with the same attributes in one call."""
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError("data must be bytes")
        libraries = self._libraries
        value = libraries.secret.secret_value_new(bytes(data), len(data), b"application/octet-stream")
        if not value:
            raise SecretServiceError(f"storing {key!r}: secret_value_new failed")
        table, buffers = libraries.string_table(self._attributes(key))
        error = POINTER(_GError)()
        try:
            stored = libraries.secret.secret_password_storev_binary_sync(
                self._schema, table, None, f"{self.application}: {key}".encode(), value, None, byref(error))
        finally:
            libraries.glib.g_hash_table_unref(table)
            libraries.secret.secret_value_unref(value)
            del buffers
        if not stored:
            raise SecretServiceError(f"storing {key!r} in the Secret Service failed: {libraries.error_message(error)}")

    def remove(self, key: str) -> None:
        """Deletes the record; a record that is not there is not an error."""
        libraries = self._libraries
        table, buffers = libraries.string_table(self._attributes(key))
        error = POINTER(_GError)()
        try:
            libraries.secret.secret_password_clearv_sync(self._schema, table, None, byref(error))
        finally:
            libraries.glib.g_hash_table_unref(table)
            del buffers
        if error:  # clearv returns FALSE both when nothing matched and on failure: only the error tells
            raise SecretServiceError(f"removing {key!r} from the Secret Service failed: "
                                     f"{libraries.error_message(error)}")

    def _attributes(self, key: str) -> Dict[str, Optional[str]]:
        if not isinstance(key, str) or not _NAME.fullmatch(key):
            raise ValueError(f"{key!r} is not a record key ([A-Za-z0-9._-], 1 to 160 characters)")
        return {"application": self.application, "key": key}

    # ---- locks -----------------------------------------------------------------------------------------

    def lock(self, name: str, timeout_s: float) -> bool:
        """Takes the lock `name` (exclusive across threads and processes of this user on this machine), waiting
        at most `timeout_s` seconds; False when it could not. Each call opens its own descriptor, and flock
        locks belong to the open file, so two threads of one process exclude each other too."""
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a lock name ([A-Za-z0-9._-], 1 to 160 characters)")
        self.lock_directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(self.lock_directory / f"{self.application}.{name}.lock",
                             os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        deadline = time.monotonic() + max(0.0, timeout_s)
        pause = 0.005
        try:
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as error:
                    if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EINTR):
                        raise
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    os.close(descriptor)
                    return False
                time.sleep(min(pause, remaining))
                pause = min(pause * 2, 0.05)
        except BaseException:
            os.close(descriptor)
            raise
        with self._held_lock:
            self._held[name] = descriptor
        return True

    def unlock(self, name: str) -> None:
        with self._held_lock:
            descriptor = self._held.pop(name, None)
        if descriptor is None:
            raise SecretServiceError(f"unlock of {name!r}, which this store does not hold")
        os.close(descriptor)  # closing the last descriptor of the open file releases its flock


def _probe(libraries: _Libraries, connection: int) -> Optional[str]:
    """Asks the Secret Service on `connection` for its default collection and whether it is locked."""
    path = _call(libraries, connection, _SECRETS_PATH, b"org.freedesktop.Secret.Service", b"ReadAlias", b"default")
    if isinstance(path, str):
        return path
    try:
        collection = _first_string(libraries, path)
    finally:
        libraries.glib.g_variant_unref(path)
    if collection in ("", "/"):
        return "the Secret Service has no default collection"
    locked = _call(libraries, connection, collection.encode(), b"org.freedesktop.DBus.Properties", b"Get",
                   b"org.freedesktop.Secret.Collection", b"Locked")
    if isinstance(locked, str):
        return locked
    try:
        boxed = libraries.glib.g_variant_get_child_value(locked, 0)
        inner = libraries.glib.g_variant_get_variant(boxed)
        is_locked = bool(libraries.glib.g_variant_get_boolean(inner))
        libraries.glib.g_variant_unref(inner)
        libraries.glib.g_variant_unref(boxed)
    finally:
        libraries.glib.g_variant_unref(locked)
    return "the Secret Service's default collection is locked" if is_locked else None


def _call(libraries: _Libraries, connection: int, path: bytes, interface: bytes, method: bytes,
          *arguments: bytes) -> Any:
    """A D-Bus call with string arguments to the Secret Service: its reply (a GVariant the caller unrefs), or
    why it failed (a str)."""
    children = (c_void_p * len(arguments))(*[libraries.glib.g_variant_new_string(argument) for argument in arguments])
    parameters = libraries.glib.g_variant_new_tuple(children, len(arguments))  # floating: the call consumes it
    error = POINTER(_GError)()
    reply = libraries.gio.g_dbus_connection_call_sync(
        connection, _SECRETS_BUS_NAME, path, interface, method, parameters, None, _G_DBUS_CALL_FLAGS_NO_AUTO_START,
        _PROBE_TIMEOUT_MS, None, byref(error))
    if not reply:
        return f"no Secret Service answers on the session bus ({libraries.error_message(error)})"
    return reply


def _first_string(libraries: _Libraries, reply: int) -> str:
    child = libraries.glib.g_variant_get_child_value(reply, 0)
    try:
        text: bytes = libraries.glib.g_variant_get_string(child, None) or b""
        return text.decode()
    finally:
        libraries.glib.g_variant_unref(child)
