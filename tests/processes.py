"""Waiting for a child process in a test: with a bound, so that a hang fails the test."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any


def finish(process: subprocess.Popen[Any], timeout: float) -> tuple[Any, Any]:
    """``process.communicate(timeout=...)``, but a child still running at the end is killed
    (its whole group, when it leads one) and the test fails: ``Popen.__exit__`` would
    otherwise wait for it forever."""
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            if os.name == "posix" and os.getpgid(process.pid) == process.pid:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        except ProcessLookupError:
            pass
        _, err = process.communicate()
        raise AssertionError(
            f"{process.args!r} still running after {timeout} s; stderr: {err!r}"
        ) from None
