"""``devil serve --witness URL``: the service's side of C2SP tlog-witness (engine.tlog.witness).

A background task of the app (:meth:`Collector.run`, never on a request's path) looks at the
store's transparency log every :data:`INTERVAL` seconds; when it has grown it signs the
checkpoint and sends it, with the consistency proof from the size each witness last cosigned,
to every witness (``POST <url>/add-checkpoint``, all at once, each with a :data:`TIMEOUT`).  A
409 tells the size the witness last cosigned: the proof from there is sent once more.  The
cosignature lines each witness answers are kept per tree size, and ``GET /checkpoint`` serves
its note with them added (engine/web/tlog.py, :meth:`Collector.attach`), saying in the header
``Devil-Witnessed-By`` (and ``"witnessed_by"`` in the JSON) which witnesses cosigned it.  A
witness that is down or refuses is retried after :data:`BACKOFF` seconds; commands never wait
for it.  The lines are kept as answered (their form checked); whoever verifies checks them
against the witnesses' keys it trusts (``devil verify --witness``).
"""

from __future__ import annotations

import asyncio
import time

from ..tlog.note import leaves as _leaves
from ..tlog.witness import add_lines, request_body, signature_lines

#: how often the task looks for a grown log (seconds)
INTERVAL = 0.25
#: how long one request to a witness may take (seconds)
TIMEOUT = 3.0
#: how long a witness that failed is left alone (seconds)
BACKOFF = 5.0
#: how many tree sizes' cosignatures are kept
KEEP = 64


class Collector:
    """The cosignatures of ``urls`` (witnesses' submission prefixes) on ``api``'s store's
    checkpoints (``api``: engine.web.app.Api, its store and its service's signer)."""

    def __init__(self, api, urls, interval: float = INTERVAL, timeout: float = TIMEOUT,
                 backoff: float = BACKOFF):
        self.api = api
        self.interval, self.timeout, self.backoff = interval, timeout, backoff
        self.witnesses = [{"url": url.rstrip("/"), "name": None, "size": None, "cosigned": None,
                           "error": None, "retry": 0.0} for url in urls]
        self.lines: dict[int, dict[str, list[str]]] = {}  # size -> url -> lines
        self.notes: dict[int, str] = {}  # size -> the log's note of that size
        self.busy: dict[str, asyncio.Task] = {}  # url -> its request under way

    def status(self) -> list[dict]:
        """Each witness: ``{"url", "name" (from its last cosignature, or None), "cosigned" (the
        largest size it cosigned for this service, or None), "error" (the last failure, or
        None)}``."""
        return [{k: w[k] for k in ("url", "name", "cosigned", "error")} for w in self.witnesses]

    def attach(self, data: dict) -> dict:
        """``data`` (a checkpoint answer, engine.tlog.log.checkpoint, or an inclusion proof's
        ``{"checkpoint", ...}``) with the cosignatures kept for its size added to its note and
        ``"witnessed_by"``: the names of the witnesses whose lines were added."""
        from ..tlog.note import parse_checkpoint, split_note

        note = data["checkpoint"]
        size = parse_checkpoint(split_note(note)[0]).size
        kept = self.lines.get(size, {})
        names, lines = [], []
        for url, got in kept.items():
            if self.notes.get(size) == note:
                lines += got
                names += [_name(line) for line in got]
        return {**data, "checkpoint": add_lines(note, lines) if lines else note,
                "witnessed_by": sorted(set(names))}

    def witnessed(self) -> dict | None:
        """The newest checkpoint any witness cosigned, with every cosignature of its size:
        ``{"checkpoint", "size", "witnessed_by"}``, or None."""
        sizes = [s for s, got in self.lines.items() if any(got.values())]
        if not sizes:
            return None
        size = max(sizes)
        data = self.attach({"checkpoint": self.notes[size]})
        return {**data, "size": size}

    async def run(self) -> None:
        """Forever: every ``interval``, cosign the log's checkpoint if it grew (or a witness
        is due a retry)."""
        import httpx

        async with httpx.AsyncClient(timeout=self.timeout) as http:
            try:
                while True:
                    try:
                        await self.round(http, wait=False)
                    except asyncio.CancelledError:
                        raise
                    except Exception:  # a store that cannot be read now: the next round tries
                        pass
                    await asyncio.sleep(self.interval)
            finally:
                for task in self.busy.values():
                    task.cancel()

    async def round(self, http, wait: bool = True) -> None:
        """One look: sign the checkpoint if the log grew since the last round, and send it to
        every witness that has not cosigned it, is not backing off and has no request under
        way (each witness on its own: one that hangs holds up no other).  ``wait``: return
        once every request sent has been answered (else they run on)."""
        from starlette.concurrency import run_in_threadpool

        store = self.api.store
        size = await run_in_threadpool(store.tlog_size)
        now = time.monotonic()
        due = [w for w in self.witnesses
               if (w["cosigned"] is None or w["cosigned"] < size) and w["retry"] <= now
               and w["url"] not in self.busy]
        if not due or size == 0:
            return
        from ..tlog.log import checkpoint

        signed = await run_in_threadpool(checkpoint, store, self.api.service.signer(), size)
        self.notes[size] = signed["checkpoint"]
        for old in sorted(self.notes)[:-KEEP]:
            self.notes.pop(old, None)
            self.lines.pop(old, None)
        tasks = []
        for witness in due:
            task = asyncio.get_running_loop().create_task(
                self._guarded(http, witness, size, signed["checkpoint"]))
            self.busy[witness["url"]] = task
            tasks.append(task)
        if wait:
            await asyncio.gather(*tasks)

    async def _guarded(self, http, witness: dict, size: int, note: str) -> None:
        """:meth:`_send`, any failure kept as the witness's error; the witness free after."""
        try:
            await self._send(http, witness, size, note)
        except Exception as exc:  # never an unobserved task error
            self._failed(witness, f"failed ({type(exc).__name__}: {exc})")
        finally:
            self.busy.pop(witness["url"], None)

    async def _send(self, http, witness: dict, size: int, note: str) -> None:
        from starlette.concurrency import run_in_threadpool

        from ..tlog import merkle
        from ..tlog.log import tree

        for _ in range(2):  # the second time after a 409 told the witness's size
            old = witness["size"] or 0
            if old > size:
                return self._failed(witness, f"the witness has cosigned {_leaves(old)} of this "
                                             f"log, more than its {size}: the log was cut or "
                                             "replaced")
            proof = await run_in_threadpool(
                lambda: merkle.consistency_proof(tree(self.api.store), old, size))
            try:
                answer = await http.post(witness["url"] + "/add-checkpoint",
                                         content=request_body(old, proof, note))
            except Exception as exc:  # down, refused, timed out: commands never see it
                return self._failed(witness, f"unreachable ({type(exc).__name__}: {exc})")
            if answer.status_code == 409 and answer.text.strip().isdigit():
                witness["size"] = int(answer.text.strip())
                continue
            if answer.status_code != 200:
                return self._failed(witness, f"refused ({answer.status_code}): "
                                             f"{answer.text.strip()[:300]}")
            lines = signature_lines(answer.text)
            if not lines:
                return self._failed(witness, "answered 200 without a cosignature line")
            self.lines.setdefault(size, {})[witness["url"]] = lines
            witness.update(size=size, cosigned=size, name=_name(lines[0]), error=None, retry=0.0)
            return None
        return self._failed(witness, "the witness's size changed twice while cosigning")

    def _failed(self, witness: dict, error: str) -> None:
        witness["error"] = error
        witness["retry"] = time.monotonic() + self.backoff


def _name(line: str) -> str:
    """The key name of a signature line."""
    return line[2:].rpartition(" ")[0]
