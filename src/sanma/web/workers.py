"""CPU-heavy work off the server's event loop (issue 23 item 4): a small pool of worker processes.

The event loop serves every table and socket; a 3.9 MB record parsed on it froze them all for
seconds. Work that can take that long (reading an uploaded record) runs in a worker process
instead; the loop only awaits its answer. The pool is started at the first job (``spawn``: the
server's threads are not copied) and closed with the app.

>>> import asyncio, os
>>> w = Workers(1)
>>> asyncio.run(w.run(os.getpid)) != os.getpid()
True
>>> w.close()
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from ..i18n import Message, sentence

T = TypeVar("T")

WORKERS = 1  # processes; one is enough on a club's laptop (uploads are rare), more for a busy server
TIMEOUT = 60.0  # seconds a job may take before its caller is told it failed


class WorkerError(Exception):
    """A job did not finish (the worker died, or it took longer than ``timeout``); ``message`` is
    put into words at the edge (``sanma.i18n.describe``)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class Workers:
    def __init__(self, processes: int = WORKERS) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float = TIMEOUT) -> T:
        """``fn(*args)`` in a worker process (``fn`` and its arguments are pickled: a module-level
        function and plain data)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"))
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._pool, fn, *args), timeout)
        except TimeoutError:
            raise WorkerError(sentence("the job took longer than {n:g} s", n=timeout)) from None
        except Exception as e:
            if type(e).__name__ == "BrokenProcessPool":
                self._pool = None  # a new pool at the next job
                raise WorkerError(sentence("the worker process died")) from None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = ["WORKERS", "WorkerError", "Workers"]
