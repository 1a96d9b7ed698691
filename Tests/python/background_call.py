"""A library call run on another thread while the test cancels it from this one (the cancel tests)."""
import threading
import time


def run_in_thread(call):
    """Starts `call` on another thread; the returned function joins it and gives (exception, end time), and
    its `running()` says whether the call is still under way."""
    outcome = {}

    def body():
        try:
            call()
        except BaseException as error:  # noqa: B902 - reported to the test
            outcome["error"] = error
        outcome["ended"] = time.monotonic()

    thread = threading.Thread(target=body, daemon=True)
    thread.start()

    def join():
        thread.join(30)
        assert not thread.is_alive(), "the call did not return"
        return outcome.get("error"), outcome["ended"]
    join.running = lambda: "ended" not in outcome
    return join
