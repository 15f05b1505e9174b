"""Fixtures of the service tests: a real `devil serve` (uvicorn) on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A `devil serve` subprocess on ``store``; ``url`` is its base URL."""

    def __init__(self, store: str, port: int | None = None, organiser_key: str | None = None,
                 args: tuple = ()):
        self.store = str(store)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.organiser_key = organiser_key
        self.args = tuple(args)
        self.proc: subprocess.Popen | None = None
        self.log_path = os.path.join(self.store, f".server-{self.port}.log")

    def start(self, timeout: float = 20.0) -> "Server":
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("DEVIL_ORGANISER_KEY", None)
        if self.organiser_key:
            env["DEVIL_ORGANISER_KEY"] = self.organiser_key
        os.makedirs(self.store, exist_ok=True)
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "--store", self.store, "serve",
             "--host", "127.0.0.1", "--port", str(self.port), *self.args],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"devil serve exited with {self.proc.returncode}: "
                                   f"{open(self.log_path).read()[-2000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=1.0).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("devil serve did not come up in time")

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


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("store")).start()
    yield srv
    srv.stop()


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.url, timeout=30.0) as client:
        yield client


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}
