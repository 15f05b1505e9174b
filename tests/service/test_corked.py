"""One socket write an answer (engine.web.corked, issue 21), on a real `devil serve`.

uvicorn writes an answer's head and its body separately; ``devil serve`` gathers the writes of
one turn of its event loop, so a JSON answer is one ``write`` system call (counted from the
kernel's own ``syscw`` of the server process), and nothing is lost or reordered: answers on a
kept-alive connection, an answer before ``Connection: close``, a command's answer and an event
stream all arrive whole.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

from .conftest import auth

pytest.importorskip("httptools")  # the gathered writes are the httptools protocol's


def writes(pid: int) -> int:
    with open(f"/proc/{pid}/io") as handle:
        return int(next(line for line in handle if line.startswith("syscw")).split()[1])


def answers(sock: socket.socket, count: int) -> list[tuple[bytes, bytes]]:
    """``count`` HTTP/1.1 answers with a Content-Length, read off ``sock``: (head, body)."""
    data, out = b"", []
    while len(out) < count:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, "the server closed the connection early"
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        while len(data) < length:
            chunk = sock.recv(65536)
            assert chunk
            data += chunk
        out.append((head, data[:length]))
        data = data[length:]
    assert data == b""
    return out


def test_a_json_answer_is_one_write_and_kept_alive_answers_arrive_whole(real_server):
    port = real_server.port
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        answers(sock, 1)  # the connection is set up
        before = writes(real_server.proc.pid)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n" * 40)
        got = answers(sock, 40)
        done = writes(real_server.proc.pid) - before
    assert all(head.startswith(b"HTTP/1.1 200") and body == b'{"ok":true}' for head, body in got)
    assert all(b"referrer-policy: no-referrer" in head for head, _ in got)
    assert done <= 44, f"{done} writes for 40 answers (uvicorn alone makes 80)"


def test_an_answer_before_connection_close_arrives_whole_then_the_end(real_server):
    with socket.create_connection(("127.0.0.1", real_server.port)) as sock:
        sock.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert b"connection: close" in head.lower()
    assert json.loads(body)["openapi"].startswith("3.")


def test_commands_and_their_stream_arrive_whole(real_server):
    http = real_server.http
    created = http.post("/games", json={"kind": "atkr", "seed": 5,
                                        "options": {"players": ["Anna", "Ben"]}}).json()
    game, anna = created["game"], created["tokens"]["Anna"]
    answer = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 40},
                       headers={**auth(anna), "Idempotency-Key": "c1"})
    assert answer.status_code == 201 and answer.json()["events"][0]["seq"] == 3
    streamed = http.get(f"/games/{game}/stream", params={"timeout": "0.3"}, headers=auth(anna))
    frames = [block for block in streamed.text.split("\n\n") if "event: event" in block]
    assert [block.split("\n")[0] for block in frames] == ["id: 1", "id: 2", "id: 3"]
    assert json.loads(frames[2].split("data: ")[1])["event"]["amount"] == 40


def test_a_body_that_comes_after_its_headers_is_waited_for_and_read_whole(real_server):
    """A command's body usually comes in the packet of its headers (read without arming the
    body timeout, engine.web.app._body_complete); one sent in two parts, the second 0.3 s
    later, is waited for on the real server and answered as the whole body, not as the part."""
    http = real_server.http
    created = http.post("/games", json={"kind": "atkr", "seed": 6,
                                        "options": {"players": ["Anna", "Ben"]}}).json()
    game, anna = created["game"], created["tokens"]["Anna"]
    body = b'{"type": "bet", "amount": 30}'
    head = (f"POST /games/{game}/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {anna}"
            f"\r\nIdempotency-Key: split1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", real_server.port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(head + body[:12])
        time.sleep(0.3)
        sock.sendall(body[12:])
        ((answer_head, answer),) = answers(sock, 1)
    assert answer_head.startswith(b"HTTP/1.1 201")
    assert json.loads(answer)["events"][0]["type"] == "bet_placed"
    view = http.get(f"/games/{game}/view", headers=auth(anna)).json()
    assert next(p for p in view["players"] if p["name"] == "Anna")["bet"] == 30
