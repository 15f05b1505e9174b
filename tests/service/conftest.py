"""Fixtures of the service tests.

``server``: the HTTP app (``engine.web.app.create_app``) on a fresh store, served in this process
through httpx's ASGI transport.  Most tests use it: no port, no subprocess, no start-up wait.

``real_server`` (one for the session) / :class:`Server`: a real ``devil serve`` (uvicorn)
subprocess on a free loopback port (:func:`start_all` starts several side by side), for the
tests where a real process is the point: a SIGKILL in the middle of a burst (test_crash.py), a
log appended by another process while a client waits, and the CLI's ``--server`` and ``devil
watch`` against a running server (test_cli_remote.py).

Both expose the same face: ``url``, ``store``, ``http`` (an httpx.Client with the base URL) and
``remote(token)`` (a :class:`client.remote.RemoteClient`), so a test reads the same either way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time

import anyio.from_thread
import httpx
import pytest

from client.remote import RemoteClient
from engine.web import create_app

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class InProcessTransport(httpx.BaseTransport):
    """A synchronous httpx transport that answers with an ASGI ``app`` in this process.

    httpx's ASGITransport is asynchronous; it runs here on one anyio event loop in a background
    thread, so the app's asyncio locks and events are shared by every request, and requests
    from several threads (a long poll and the submit that wakes it) run concurrently.  A
    response is returned once the app has finished it (a server-sent event stream arrives
    whole, when it closes)."""

    def __init__(self, app):
        self._stack = contextlib.ExitStack()
        self._portal = self._stack.enter_context(anyio.from_thread.start_blocking_portal())
        self._asgi = httpx.ASGITransport(app=app)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()  # a generator body becomes bytes the async transport can read

        async def answer():
            response = await self._asgi.handle_async_request(request)
            # the raw bytes: the Response built below decodes a Content-Encoding (gzip) itself
            raw = b"".join([chunk async for chunk in response.aiter_raw()])
            return response.status_code, response.headers, raw

        status, headers, content = self._portal.call(answer)
        return httpx.Response(status, headers=headers, content=content, request=request)

    def close(self) -> None:
        self._stack.close()


class App:
    """The HTTP app on ``store``, in this process."""

    url = "http://devil.test"

    def __init__(self, store, organiser_key: str | None = None):
        self.store = str(store)
        os.makedirs(self.store, exist_ok=True)
        self.transport = InProcessTransport(create_app(self.store, organiser_key))
        self.http = httpx.Client(base_url=self.url, transport=self.transport, timeout=30.0)

    def remote(self, token: str | None = None) -> RemoteClient:
        return RemoteClient(self.url, token, transport=self.transport)

    def close(self) -> None:
        self.http.close()
        self.transport.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A `devil serve` subprocess on ``store`` (a folder or a postgresql:// URL); ``url`` is
    its base URL.  Its output goes to a log file in ``log_dir`` (default: the store folder).

    ``seat_entropy``: whether digital games are seated (`devil serve`'s default); off for the
    tests of everything else, which create a game and play it at once."""

    def __init__(self, store: str, port: int | None = None, organiser_key: str | None = None,
                 args: tuple = (), log_dir: str | None = None, seat_entropy: bool = False):
        self.store = str(store)
        if not seat_entropy:
            args = ("--no-seat-entropy", *args)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.organiser_key = organiser_key
        self.args = tuple(args)
        self.proc: subprocess.Popen | None = None
        self.log_path = os.path.join(log_dir or self.store, f".server-{self.port}.log")
        self.http = httpx.Client(base_url=self.url, timeout=30.0)

    def remote(self, token: str | None = None) -> RemoteClient:
        return RemoteClient(self.url, token)

    def start(self, timeout: float = 20.0) -> "Server":
        """Start the process and wait until it answers ``/health`` (RuntimeError if it exits
        or does not answer within ``timeout`` seconds)."""
        return self.launch().wait_up(timeout)

    def launch(self) -> "Server":
        """Start the process without waiting for it (:meth:`wait_up` waits): several servers
        launched together start side by side (:func:`start_all`)."""
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("DEVIL_ORGANISER_KEY", None)
        if self.organiser_key:
            env["DEVIL_ORGANISER_KEY"] = self.organiser_key
        if "://" not in self.store:
            os.makedirs(self.store, exist_ok=True)
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "--store", self.store, "serve",
             "--host", "127.0.0.1", "--port", str(self.port), *self.args],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        return self

    def wait_up(self, timeout: float = 20.0) -> "Server":
        """Wait until the launched process answers ``/health``; RuntimeError (the server
        stopped) if it exits first or does not answer within ``timeout`` seconds."""
        assert self.proc is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"devil serve exited with {self.proc.returncode}: "
                                   f"{self.output()[-2000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=1.0).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("devil serve did not come up in time")

    def output(self) -> str:
        """What the server printed so far."""
        with open(self.log_path, errors="replace") as handle:
            return handle.read()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if getattr(self, "_log", None):
            self._log.close()
        self.http.close()


def start_all(servers: list[Server], timeout: float = 20.0) -> list[Server]:
    """Start ``servers`` side by side (a process's start is mostly its imports: two nodes
    come up in the time of one on two cores); each must answer ``/health`` within
    ``timeout`` seconds, else every one is stopped and the RuntimeError raised."""
    try:
        for srv in servers:
            srv.launch()
        for srv in servers:
            srv.wait_up(timeout)
    except BaseException:
        for srv in servers:
            srv.stop()
        raise
    return servers


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = App(tmp_path_factory.mktemp("store"))
    yield app
    app.close()


@pytest.fixture(scope="session")
def real_server(tmp_path_factory):
    """One real ``devil serve`` on a fresh store for the session (one per xdist worker): the
    modules that use it each create games of their own and read only those."""
    srv = Server(tmp_path_factory.mktemp("store")).start()
    yield srv
    srv.stop()


@pytest.fixture
def http(server):
    return server.http


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}
