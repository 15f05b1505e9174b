"""One socket write an answer: uvicorn's httptools protocol with its writes gathered (issue 21).

uvicorn writes an answer's status line and headers when the app sends ``http.response.start``
and its body at ``http.response.body``: two ``write`` system calls for every JSON answer, each
a trip through the kernel's TCP path (on loopback, the reader's side of it too).
:class:`GatheredWrites` stands between the protocol and the real transport: what is written
while one callback of the event loop runs goes out as one ``write`` when it ends (``call_soon``),
in order, before any ``close``.  Nothing else changes: the same bytes, the same flow control
(asked of the real transport), the same closing.  :class:`CorkedHttpTools` is the protocol
``devil serve`` gives uvicorn when httptools is its parser (client/cmd_service.py).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class GatheredWrites:
    """``transport`` with its writes gathered until the loop's current callback ends; every
    other attribute is the transport's own."""

    __slots__ = ("_transport", "_loop", "_pending")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop):
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        """Queue ``data``; the first write of a callback schedules the flush."""
        if self._pending is None:
            self._pending = [data]
            self._loop.call_soon(self.flush)
        else:
            self._pending.append(data)

    def flush(self) -> None:
        """Write what is queued now, as one write."""
        pending, self._pending = self._pending, None
        if pending and not self._transport.is_closing():
            self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        """Write what is queued, then close (as the transport's close: its buffer is sent)."""
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str):
        return getattr(self._transport, name)


class CorkedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol writing through :class:`GatheredWrites`."""

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(GatheredWrites(transport, self.loop))  # type: ignore[arg-type]
