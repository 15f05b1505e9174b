"""Writer processes for the tests that need another process on the same store (a second
flock owner, a second file descriptor, a second connection pool): one multiprocessing
context for them all.

``spawn`` starts a fresh interpreter per process, which imports the engine again: 0.5 to 1 s a
process on a busy 2-core machine, and some tests start six.  :func:`context` is
``forkserver`` instead: one clean, single-threaded server process per test process imports the
engine once (:data:`PRELOAD`), and each writer is a fork of it: a separate process as before
(its own pid, file descriptors, locks and connections; nothing shared with the test process
but what it is given), started in milliseconds.  Targets are module-level functions, as for
``spawn``.  Where forkserver does not exist (not on POSIX) it is ``spawn``."""

from __future__ import annotations

import multiprocessing

#: what the server imports once, before it forks any writer (a module missing here, such as
#: psycopg without PostgreSQL's tests, is skipped by multiprocessing)
PRELOAD = ["pytest", "engine.service", "engine.store", "engine.store.file", "engine.bots",
           "engine.store.postgres"]


def context():
    """The multiprocessing context for writer processes (``context().Process(target=f,
    args=...)``): forkserver with :data:`PRELOAD` where it exists, else spawn."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)  # before the server's first start; ignored after
    return ctx
