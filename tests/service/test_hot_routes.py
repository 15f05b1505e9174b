"""The hot routes (engine.web.hot, issue 21) answer byte for byte as Starlette's router does.

A game's commands, view, events and stream are answered past Starlette's layers.  Each request
here is sent twice, to the hot path and to the router (``app.hot = None``), and the status,
every header in its order and the body must be the same bytes: good requests and every error
(400, 401, 403, 404, 408 is not reachable through this transport, 409, 413, 500).  A command that
appends is compared on two copies of one store (the same signing key and tokens) with the
record time fixed, one copy behind each path.
"""

from __future__ import annotations

import json
import shutil

import httpx
import pytest

from engine.web import create_app
from engine.web.games import GameApi
from .conftest import InProcessTransport, auth

KEY = "organiser-key-for-the-hot-route-tests"


class Twin:
    """One app on ``store`` (hot routes on), answering through either path."""

    def __init__(self, store: str, hot: bool = True):
        self.app = create_app(store, KEY, hot=hot)
        self.hot = self.app.hot
        self.transport = InProcessTransport(self.app)
        # a 500 comes back as an answer, not raised here (the server logs it)
        self.transport._asgi = httpx.ASGITransport(app=self.app, raise_app_exceptions=False)
        self.http = httpx.Client(base_url="http://devil.test", transport=self.transport,
                                 timeout=30.0)

    def send(self, hot: bool, method: str, url: str, **kw) -> httpx.Response:
        self.app.hot = self.hot if hot else None
        try:
            return self.http.request(method, url, **kw)
        finally:
            self.app.hot = self.hot

    def close(self):
        self.http.close()
        self.transport.close()


def same(a: httpx.Response, b: httpx.Response) -> httpx.Response:
    assert (a.status_code, a.headers.raw, a.content) == (b.status_code, b.headers.raw, b.content)
    return a


@pytest.fixture
def twin(tmp_path):
    made = Twin(str(tmp_path / "store"))
    yield made
    made.close()


def new_game(twin, seed=7) -> dict:
    answer = twin.http.post("/games", json={"kind": "atkr", "seed": seed,
                                            "options": {"players": ["Anna", "Ben"]}},
                            headers=auth(KEY))
    assert answer.status_code == 201
    return answer.json()


def both(twin, method, url, **kw) -> httpx.Response:
    return same(twin.send(True, method, url, **kw), twin.send(False, method, url, **kw))


def test_the_hot_path_answers_only_its_four_routes(twin):
    game = new_game(twin)["game"]
    hot = twin.hot
    assert hot is not None
    for method, path in [("POST", f"/games/{game}/commands"), ("GET", f"/games/{game}/view"),
                         ("GET", f"/games/{game}/events"), ("GET", f"/games/{game}/stream")]:
        found = hot.match({"type": "http", "method": method, "path": path, "root_path": ""})
        assert found is not None and found[1] == game
    for method, path in [("GET", f"/games/{game}/commands"), ("HEAD", f"/games/{game}/view"),
                         ("GET", f"/games/{game}/view/"), ("GET", f"/games/{game}"),
                         ("GET", "/games//view"), ("GET", f"/games/{game}/log"),
                         ("GET", f"/games/{game}/x/view"), ("GET", "/tournaments/t/view")]:
        assert hot.match({"type": "http", "method": method, "path": path}) is None, path
    assert hot.match({"type": "http", "method": "GET", "path": f"/games/{game}/view",
                      "root_path": "/devil"}) is None


def test_reads_answer_the_same_bytes_both_ways(twin):
    created = new_game(twin)
    game, tokens = created["game"], created["tokens"]
    anna, ben = tokens["Anna"], tokens["Ben"]
    # Anna's bet is sealed: her view shows it, Ben's and the spectator's do not
    assert twin.http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 60},
                          headers={**auth(anna), "Idempotency-Key": "a1"}).status_code == 201
    other = new_game(twin, seed=8)
    cases = [
        (f"/games/{game}/view", anna, 200), (f"/games/{game}/view?legal=true", anna, 200),
        (f"/games/{game}/view", ben, 200), (f"/games/{game}/view", tokens["spectator"], 200),
        (f"/games/{game}/view", tokens["referee"], 200),
        (f"/games/{game}/view?as=Ben", tokens["referee"], 200),
        (f"/games/{game}/view?as=ben", ben, 200),
        (f"/games/{game}/view?as=Ben", anna, 403),
        (f"/games/{game}/view?as=Ben", tokens["spectator"], 403),
        (f"/games/{game}/view?legal=maybe", anna, 400),
        (f"/games/{game}/view?as=Nobody", tokens["referee"], 400),
        (f"/games/{game}/view", other["tokens"]["Anna"], 403),
        (f"/games/{game[:-1]}zz/view", anna, 403),
        (f"/games/{game[:-1]}zz/view", KEY, 404),
        (f"/games/{game}/view", KEY, 200),
        (f"/games/{game}/view", "not-a-token", 401),
        (f"/games/{game}/events", anna, 200), (f"/games/{game}/events?after=2", ben, 200),
        (f"/games/{game}/events?after=99", anna, 200),
        (f"/games/{game}/events?after=-1", anna, 400),
        (f"/games/{game}/events?wait=soon", anna, 400),
        (f"/games/{game}/events?wait=-2", anna, 400),
        (f"/games/{game}/events", tokens["spectator"], 200),
        (f"/games/{game}/stream?timeout=0", anna, 200),
        (f"/games/{game}/stream?after=x", anna, 400),
        (f"/games/{game}/stream?timeout=0", None, 401),
    ]
    for url, token, status in cases:
        answer = both(twin, "GET", url, headers=auth(token) if token else {})
        assert answer.status_code == status, (url, answer.text)
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-content-type-options"] == "nosniff"
    for header in ({"Authorization": "Basic abc"}, {"Authorization": "Bearer "}):
        assert both(twin, "GET", f"/games/{game}/view", headers=header).status_code == 401
    streamed = both(twin, "GET", f"/games/{game}/stream",
                    headers={**auth(anna), "Last-Event-ID": "1"}, params={"timeout": "0.05"})
    assert streamed.headers["content-type"].startswith("text/event-stream")
    assert "id: 2\nevent: event\n" in streamed.text and "id: 1\n" not in streamed.text


def test_a_finished_games_stream_is_the_same_bytes(twin):
    created = new_game(twin)
    game, tokens = created["game"], created["tokens"]
    from .helpers import atkr_choice

    for n in range(400):
        view = twin.http.get(f"/games/{game}/view", headers=auth(tokens["referee"])).json()
        if view["phase"] == "over":
            break
        for name in ("Anna", "Ben"):
            legal = twin.http.get(f"/games/{game}/legal", headers=auth(tokens[name])).json()
            if legal:
                mine = twin.http.get(f"/games/{game}/view", headers=auth(tokens[name])).json()
                answer = twin.http.post(f"/games/{game}/commands",
                                        json=atkr_choice(mine, name, legal),
                                        headers={**auth(tokens[name]),
                                                 "Idempotency-Key": f"k{n}"})
                assert answer.status_code == 201
                break
    else:
        raise AssertionError("the game did not end")
    for token in (tokens["Anna"], tokens["spectator"], tokens["referee"]):
        streamed = both(twin, "GET", f"/games/{game}/stream", headers=auth(token))
        assert streamed.text.rstrip().endswith("event: over\ndata: {\"version\":%d}"
                                               % view["version"])


def test_refused_commands_answer_the_same_bytes_and_record_nothing(twin):
    created = new_game(twin)
    game, tokens = created["game"], created["tokens"]
    anna = tokens["Anna"]
    version = twin.http.get(f"/games/{game}", headers=auth(anna)).json()["version"]
    url = f"/games/{game}/commands"
    bet = json.dumps({"type": "bet", "amount": 60})
    cases = [
        (auth(anna), bet, 400),  # no Idempotency-Key
        ({**auth(anna), "Idempotency-Key": "has space"}, bet, 400),
        ({**auth(anna), "Idempotency-Key": "x" * 200}, bet, 400),
        ({**auth(anna), "Idempotency-Key": "k"}, "", 400),
        ({**auth(anna), "Idempotency-Key": "k"}, "{not json", 400),
        ({**auth(anna), "Idempotency-Key": "k"}, "[1, 2]", 400),
        ({**auth(anna), "Idempotency-Key": "k"}, '{"type": "bet", "amount": 60, "amount": 1}',
         409),  # the last of two keys counts: a bet of 1 (ATKR-3.1)
        ({**auth(anna), "Idempotency-Key": "k"}, json.dumps({"type": "bet", "amount": 5000}),
         409),  # more than Anna has (the rule cited)
        ({**auth(anna), "Idempotency-Key": "k"}, json.dumps({"type": "draw"}), 409),
        ({**auth(anna), "Idempotency-Key": "k"}, json.dumps({"type": "nonsense"}), 400),
        ({**auth(tokens["spectator"]), "Idempotency-Key": "k"}, bet, 403),
        ({**auth(anna), "Idempotency-Key": "k"}, json.dumps({"type": "bet", "amount": 60,
                                                            "player": "Ben"}), 403),
        ({"Idempotency-Key": "k"}, bet, 401),
        ({**auth(anna), "Idempotency-Key": "k"}, "{" + " " * 70000 + "}", 413),
        ({**auth(anna), "Idempotency-Key": "k", "Content-Length": "many"}, bet, 400),
    ]
    for headers, body, status in cases:
        answer = both(twin, "POST", url, headers=headers, content=body.encode())
        assert answer.status_code == status, (headers, body[:40], answer.text)
        assert set(answer.json()) == {"error", "rule", "code"}
    assert twin.http.get(f"/games/{game}", headers=auth(anna)).json()["version"] == version
    # a retry answers the first result, the same bytes both ways; another seat's use of the
    # id is refused the same way
    first = twin.http.post(url, json={"type": "bet", "amount": 60},
                           headers={**auth(anna), "Idempotency-Key": "once"})
    assert first.status_code == 201
    again = both(twin, "POST", url, json={"type": "bet", "amount": 60},
                 headers={**auth(anna), "Idempotency-Key": "once"})
    assert again.status_code == 200 and again.json()["repeated"] is True
    assert again.json()["receipt"] == first.json()["receipt"]
    stolen = both(twin, "POST", url, json={"type": "bet", "amount": 0},
                  headers={**auth(tokens["Ben"]), "Idempotency-Key": "once"})
    assert stolen.status_code in (403, 409) and "once" in stolen.json()["error"]


def test_an_unexpected_error_is_the_same_500_both_ways(twin, monkeypatch):
    created = new_game(twin)
    game, anna = created["game"], created["tokens"]["Anna"]

    def broken(self, *args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(GameApi, "_view", broken)
    answer = both(twin, "GET", f"/games/{game}/view", headers=auth(anna))
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal server error (the server's log has the "
                                      "details)", "rule": None, "code": 2}


def test_commands_that_append_answer_the_same_bytes_on_two_copies_of_a_store(tmp_path,
                                                                           monkeypatch):
    import engine.store.file as file_store

    first = Twin(str(tmp_path / "a"))
    created = new_game(first)
    first.close()
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    hot, router = Twin(str(tmp_path / "a")), Twin(str(tmp_path / "b"), hot=False)
    assert router.app.hot is None
    game, tokens = created["game"], created["tokens"]
    clock = iter(range(10**13, 10**13 + 10**6, 1234))
    try:
        for n in range(30):
            moment = next(clock)
            monkeypatch.setattr(file_store, "now_ms", lambda: moment)
            view = hot.http.get(f"/games/{game}/view", headers=auth(tokens["referee"])).json()
            if view["phase"] == "over":
                break
            name = next(name for name in ("Anna", "Ben")
                        if hot.http.get(f"/games/{game}/legal",
                                        headers=auth(tokens[name])).json())
            legal = hot.http.get(f"/games/{game}/legal", headers=auth(tokens[name])).json()
            command = legal[0] if legal[0]["type"] != "bet" else \
                next(c for c in legal if c["amount"] == 50)
            kw = {"json": command, "params": {"legal": "true"} if n % 2 else {},
                  "headers": {**auth(tokens[name]), "Idempotency-Key": f"move-{n}"}}
            answer = same(hot.send(True, "POST", f"/games/{game}/commands", **kw),
                          router.send(False, "POST", f"/games/{game}/commands", **kw))
            assert answer.status_code == 201 and answer.json()["events"]
        assert n >= 10
    finally:
        hot.close()
        router.close()
    assert open(tmp_path / "a" / f"{game}.devlog", "rb").read() == \
        open(tmp_path / "b" / f"{game}.devlog", "rb").read()
