"""Group commit for an event loop: one writer thread per store.

``devil serve`` decides commands on its event loop; only the durable write leaves it.
:class:`GroupWriter` takes each append (``await writer.append(...)``) into a queue; its one
thread takes everything that is waiting, hands it to the store's ``append_many`` (the file
store: every log locked, checked and written, then each fsynced, then unlocked) and answers
each waiting command with its own records or its own error once they are durable.  While one
group is being fsynced the next one gathers, so under load several games' commands share the
wait for the disk; alone, a command waits for exactly one append, as before.

A store without ``append_many`` has each append made on its own: PostgreSQL (its commits are
the database's) with its ``append_async`` on the loop, any other in the loop's worker threads.
"""

from __future__ import annotations

import asyncio
import queue
import threading


class GroupWriter:
    """The one writer of ``store`` (started on the first append, stopped by :meth:`close`)."""

    def __init__(self, store):
        self.store = store
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        #: how many groups were written and how many appends they held (for benchmarks)
        self.groups = 0
        self.appends = 0

    async def append(self, game: str, expected: int, actor: int, cmd: str | None,
                     events: list[dict], ts: int | None = None):
        """``store.append(...)`` (its records, or its ConcurrencyConflict, DuplicateCommand ...),
        returning once they are durable."""
        loop = asyncio.get_running_loop()
        if getattr(self.store, "append_many", None) is None:
            append_async = getattr(self.store, "append_async", None)
            if append_async is not None:  # PostgreSQL: on the loop, the commit the database's
                return await append_async(game, expected, actor, cmd, events, ts)
            return await loop.run_in_executor(None, self.store.append, game, expected, actor,
                                              cmd, events, ts)
        future = loop.create_future()
        if self._thread is None:
            self._start()
        self._queue.put((loop, future, (game, expected, actor, cmd, events, ts)))
        return await future

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="devil-group-writer",
                                                daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Stop the thread once what is queued is written."""
        thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=30)
            self._thread = None

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            group = [item]
            stop = False
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                group.append(more)
            try:
                results = self.store.append_many([args for _, _, args in group])
            except BaseException as exc:  # noqa: BLE001 - a bug: every waiting command hears it
                results = [exc] * len(group)
            self.groups += 1
            self.appends += len(group)
            answers: dict = {}
            for (loop, future, _), result in zip(group, results):
                answers.setdefault(loop, []).append((future, result))
            for loop, pairs in answers.items():
                try:
                    loop.call_soon_threadsafe(_settle, pairs)
                except RuntimeError:  # the loop is closed: nobody waits any more
                    pass
            if stop:
                return


def _settle(pairs) -> None:
    """On the loop: answer each waiting append."""
    for future, result in pairs:
        if future.cancelled():
            continue
        if isinstance(result, BaseException):
            future.set_exception(result)
        else:
            future.set_result(result)
