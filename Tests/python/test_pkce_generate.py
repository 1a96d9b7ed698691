"""The one-call PKCE pair: telenorid.pkce.generate() in Python and telenorid_pkce_generate() under it, over
the real libtelenorid: what it writes, the buffer-size contract (a failure writes nothing) and per-thread
buffers.

Run with Tests/python/run.sh (PYTHONPATH=bindings/python); also works with plain pytest from anywhere.
"""
import base64
import ctypes
import hashlib
import re
import threading

import pytest

import telenorid  # noqa: E402
from telenorid import _constants, _ffi  # noqa: E402


def s256(verifier: str) -> str:
    """RFC 7636 §4.2, computed here independently of the library."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).rstrip(b"=").decode()


def test_generate_gives_a_verifier_of_the_length_and_its_s256_challenge():
    for length in (43, 44, 64, 100, 127, 128):
        verifier, challenge = telenorid.pkce.generate(length)
        assert type(verifier) is str and type(challenge) is str
        assert re.fullmatch(r"[A-Za-z0-9._~-]{%d}" % length, verifier)
        assert challenge == s256(verifier)
        with telenorid.Pkce.from_verifier(verifier) as pair:  # the handle API agrees
            assert pair.challenge == challenge


def test_generate_defaults_to_43_and_0_means_the_library_default():
    assert len(telenorid.pkce.generate()[0]) == 43
    assert len(telenorid.pkce.generate(0)[0]) == 64


def test_generate_draws_a_fresh_verifier_each_time():
    verifiers = {telenorid.pkce.generate()[0] for _ in range(200)}
    assert len(verifiers) == 200


@pytest.mark.parametrize("length", [1, 42, 129, 10_000, -1, 2 ** 64])
def test_generate_refuses_a_length_out_of_range(length):
    with pytest.raises(telenorid.InvalidArgument):
        telenorid.pkce.generate(length)


@pytest.mark.parametrize("length", ["43", 43.0, None, True])
def test_generate_refuses_a_length_that_is_not_an_int(length):
    with pytest.raises(TypeError):
        telenorid.pkce.generate(length)


INVALID_ARGUMENT = _constants.STATUS["INVALID_ARGUMENT"]


def last_message() -> str:
    error = _ffi.lib.telenorid_error_last()
    try:
        return _ffi.lib.telenorid_error_message(error).decode()
    finally:
        _ffi.lib.telenorid_error_free(error)


def call(length, verifier_size, challenge_size, verifier=None, challenge=None):
    verifier = ctypes.create_string_buffer(b"V" * 8, 200) if verifier is None else verifier
    challenge = ctypes.create_string_buffer(b"C" * 8, 200) if challenge is None else challenge
    status = _ffi.lib.telenorid_pkce_generate(length, verifier, verifier_size, challenge, challenge_size)
    return status, verifier, challenge


def test_c_exact_sizes_are_enough_and_strings_are_nul_terminated():
    status, verifier, challenge = call(50, 51, 44)
    assert status == 0
    assert len(verifier.value) == 50 and len(challenge.value) == 43
    assert challenge.value.decode() == s256(verifier.value.decode())


@pytest.mark.parametrize("length, verifier_size, challenge_size", [
    (50, 50, 44),   # no room for the verifier's NUL
    (50, 51, 43),   # no room for the challenge's NUL
    (0, 64, 44),    # 0 means 64 characters, which need 65 bytes
    (42, 200, 200), # length out of range, however large the buffers
])
def test_c_a_too_small_buffer_or_bad_length_is_invalid_argument_and_writes_nothing(length, verifier_size,
                                                                                    challenge_size):
    status, verifier, challenge = call(length, verifier_size, challenge_size)
    assert status == INVALID_ARGUMENT
    assert verifier.raw == ctypes.create_string_buffer(b"V" * 8, 200).raw
    assert challenge.raw == ctypes.create_string_buffer(b"C" * 8, 200).raw
    assert ("43 to 128" if length == 42 else "bytes") in last_message()


def test_c_null_buffers_are_invalid_argument():
    challenge = ctypes.create_string_buffer(44)
    assert _ffi.lib.telenorid_pkce_generate(43, None, 44, challenge, 44) == INVALID_ARGUMENT
    assert challenge.raw == bytes(44)
    verifier = ctypes.create_string_buffer(44)
    assert _ffi.lib.telenorid_pkce_generate(43, verifier, 44, None, 44) == INVALID_ARGUMENT
    assert verifier.raw == bytes(44)


def test_generate_from_many_threads_gives_each_its_own_pairs():
    results, errors = [], []

    def work():
        try:
            for _ in range(300):
                verifier, challenge = telenorid.pkce.generate(43)
                # A buffer shared between threads would let another thread's pair land between the call
                # and the copy: the challenge would then not be this verifier's.
                if challenge != s256(verifier):
                    errors.append((verifier, challenge))
                results.append(verifier)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(set(results)) == 8 * 300
