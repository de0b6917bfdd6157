"""Run seeded tasks on a Dask distributed cluster (`--scheduler tcp://HOST:8786`, or `local:N` for a local one).

The shared object (a simulation plugin) is scattered to every worker once; each task is one chunk of
seeded games, so the results are the same as a local run's, whichever worker played which chunk.
Workers need cardpress installed (the same version), since tasks name its functions.
"""

from __future__ import annotations

import contextlib
import logging
import re
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .tasks import POLL_SECONDS, Interrupted, OnResult

LOCAL = re.compile(r"local(?::(\d{1,3}))?")
ADDRESS = re.compile(r"([a-z][a-z0-9+.-]*://)?[^\s/:]+(:\d{1,5})?")
CONNECT_TIMEOUT = "10s"


class ClusterError(RuntimeError):
    """The cluster could not be reached or could not run a task (reported without a traceback)."""


def check_address(address: str) -> str | None:
    """Return why `address` is not a scheduler address (`tcp://HOST:PORT`, `HOST:PORT`, `local` or `local:N`), or None."""
    local = LOCAL.fullmatch(address)
    if local:
        if local.group(1) is not None and not 1 <= int(local.group(1)) <= 256:
            return "local:N needs 1 to 256 workers"
        return None
    if ADDRESS.fullmatch(address):
        return None
    return f"'{address}' is not a scheduler address"


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while child processes start: an ignored signal stays ignored in them (Python keeps SIG_IGN)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class DaskCluster:
    """An executor on a Dask cluster: an existing scheduler, or a LocalCluster of N single-threaded processes."""

    shares_memory = False  # each worker builds its tables on its first chunk

    def __init__(self, address: str):
        self.address = address
        self._client: Any = None
        self._cluster: Any = None

    @property
    def workers(self) -> int:
        """Return the number of worker threads the scheduler knows of (connecting if needed)."""
        client = self.client()
        return max(1, int(sum(client.nthreads().values())))

    def client(self) -> Any:
        """Connect (or start the local cluster) on first use."""
        if self._client is not None:
            return self._client
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError(
                "--scheduler needs Dask distributed: pip install 'cardpress[cluster]' (here and on every worker)"
            ) from None
        local = LOCAL.fullmatch(self.address)
        try:
            if local:
                n = int(local.group(1) or 2)
                with _sigint_ignored():  # workers start with Ctrl-C ignored: this process stops them cleanly
                    self._cluster = LocalCluster(
                        n_workers=n,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,
                    )
                self._client = Client(self._cluster)
            else:
                self._client = Client(self.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(f"could not reach the Dask scheduler at {self.address}: {exc}") from None
        return self._client

    def run(
        self,
        fn: Callable[[Any, Any], Any],
        shared: Any,
        tasks: Sequence[Any],
        on_result: OnResult,
        poll: Callable[[], None],
    ) -> list[Any]:
        """Submit every task, collect results as they finish, return them in task order."""
        from distributed import wait

        client = self.client()
        [shared_future] = client.scatter([shared], broadcast=True, hash=False)
        futures = [client.submit(fn, shared_future, task, pure=False) for task in tasks]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(tasks)
        pending = set(futures)
        done = 0
        try:
            while pending:
                try:
                    finished, pending = wait(pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    poll()
                    continue
                for future in sorted(finished, key=lambda f: index[f.key]):
                    i = index[future.key]
                    try:
                        results[i] = future.result()
                    except (ImportError, AttributeError) as exc:
                        raise ClusterError(
                            f"a Dask worker could not run cardpress's task ({exc}); install the same cardpress "
                            "on every worker"
                        ) from None
                    done += 1
                    on_result(i, results[i])
        except KeyboardInterrupt:
            client.cancel(futures, force=True)
            self.close()
            raise Interrupted(done, len(tasks)) from None
        except BaseException:
            client.cancel(futures, force=True)
            raise
        return results

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this executor started one."""
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None
