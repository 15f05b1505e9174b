"""`devil witness`, `devil verify --witness/--split-view`, and `devil serve --witness`'s
collector (engine/web/cosigning.py) on real stores (issue 20.4); the real-process run of a
witness and a service is tests/tlog/test_witness_procs.py."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time

import httpx
from click.testing import CliRunner
from starlette.testclient import TestClient

from client.cli import cli
from engine.receipts import Signer
from engine.store import FileStore
from engine.tlog.witness import WitnessState
from engine.web import create_app
from engine.web.witness_app import create_witness_app


def _devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path / "s"), *map(str, args)])
        assert result.exit_code == code, (args, result.output)
        return result.stdout if code == 0 else result.output  # a refusal: with stderr
    return run


def _game(devil):
    return devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical", "--ring", 47).split("\n")[0].strip()


def test_cosign_from_a_file_then_verify_k_of_n_and_a_split_view(tmp_path):
    devil = _devil(tmp_path)
    game = _game(devil)                                   # leaf 0: records 1-2
    w1 = devil("witness", "init", "--state", tmp_path / "w1", "--name", "w.example/1").strip()
    w2 = json.loads(devil("witness", "init", "--state", tmp_path / "w2", "--name",
                          "w.example/2", "--json"))["key"]
    assert w1.startswith("w.example/1+") and w1.split("+")[2].startswith("B")  # type 0x04
    first = tmp_path / "first.json"
    first.write_text(devil("checkpoint", "--json"))
    log_key = json.loads(first.read_text())["key"]
    cosigned = tmp_path / "cosigned.checkpoint"
    cosigned.write_text(devil("witness", "cosign", "--state", tmp_path / "w1", "--from", first,
                              "--log", log_key))
    assert cosigned.read_text().count("\n\u2014 ") == 2  # the log's signature, then w1's
    # k of n: w1 cosigned, w2 did not
    out = devil("verify", cosigned, "--witness", w1, "--witness", w2, "--witnesses-required", 1,
                "--key", log_key)
    assert out.startswith("OK: checkpoint of 1 leaf of") and \
        "cosigned by 1 of 2 witnesses (1 required): w.example/1" in out
    out = devil("verify", cosigned, "--witness", w1, "--witness", w2, "--key", log_key, code=3)
    assert "missing: w.example/2" in out
    report = json.loads(devil("verify", cosigned, "--witness", w2, "--json", code=3))
    assert report["missing"] == ["w.example/2"] and not report["ok"]
    # a second command; --consistent's NEW must be cosigned too
    devil("bet", game, 200, "--as", "Anna")               # leaf 1
    second = tmp_path / "second.json"
    second.write_text(devil("checkpoint", "--json"))
    out = devil("verify", "--consistent", first, second, "--witness", w1, code=3)
    assert "NOT witnessed: the newer checkpoint" in out
    no_proof = devil("witness", "cosign", "--state", tmp_path / "w1", "--from", second,
                     code=2)  # a bare checkpoint file cannot prove 1 -> 2
    assert "holds no consistency proof from the 1 leaf the witness cosigned" in no_proof
    status = json.loads(devil("witness", "status", "--state", tmp_path / "w1", "--json"))
    assert status["logs"][0]["size"] == 1 and status["splits"] == []
    # the operator rewrites the log: a checkpoint of 1 leaf, another root, the same key
    store = FileStore(str(tmp_path / "s"))
    with open(os.path.join(store.root, ".devil-tlog"), "r+b") as handle:
        handle.truncate(0)
    with open(store.path(game), "r+b") as handle:
        handle.truncate(0)
    os.remove(store.path(game))
    _game(devil)                                          # another game: leaf 0 again
    forked = tmp_path / "forked.json"
    forked.write_text(devil("checkpoint", "--json"))
    out = devil("witness", "cosign", "--state", tmp_path / "w1", "--from", forked, code=3)
    assert out.startswith("REFUSED (422): split view:") and "proof of a split view" in out
    status = json.loads(devil("witness", "status", "--state", tmp_path / "w1", "--json"))
    (tmp_path / "proof.json").write_text(json.dumps(status["splits"][0]))
    out = devil("verify", "--split-view", tmp_path / "proof.json", code=3)
    assert out.startswith("SPLIT VIEW:") and "two checkpoints of 1 leaf with different roots" in out
    out = devil("verify", "--split-view", first, forked, code=3)
    assert out.startswith("SPLIT VIEW:")
    assert devil("verify", "--split-view", first, first).startswith("OK: the same tree")
    assert "have 1 and 2 leaves" in devil("verify", "--split-view", first, second, code=2)


def test_bad_witness_options_are_usage_errors_and_change_nothing(tmp_path):
    devil = _devil(tmp_path)
    w1 = devil("witness", "init", "--state", tmp_path / "w1", "--name", "w.example/1").strip()
    assert "already holds a witness (w.example/1)" in devil(
        "witness", "init", "--state", tmp_path / "w1", "--name", "other", code=2)
    devil("witness", "init", "--state", tmp_path / "w3", "--name", "has space", code=2)
    assert not os.path.exists(tmp_path / "w3" / "witness.json")
    _game(devil)
    (tmp_path / "cp").write_text(devil("checkpoint"))
    devil("verify", tmp_path / "cp", "--witnesses-required", 1, code=2)
    devil("verify", tmp_path / "cp", "--witness", w1, "--witnesses-required", 2, code=2)
    devil("verify", tmp_path / "cp", "--witness", w1, "--witness", w1, "--witnesses-required",
          2, code=2)  # one witness named twice is one witness
    devil("verify", tmp_path / "cp", "--witness", "not-a-key", code=2)
    devil("witness", "cosign", "--state", tmp_path / "nowhere", "--from", tmp_path / "cp",
          code=2)
    devil("witness", "cosign", "--state", tmp_path / "w1", "--from", tmp_path / "cp",
          "--log", "devil.store/x+00000000+AAAA", code=2)
    assert WitnessState(str(tmp_path / "w1")).logs() == {}
    # a state file changed behind the witness's back: exit 3, nothing cosigned
    log_key = json.loads(devil("checkpoint", "--json"))["key"]
    devil("witness", "cosign", "--state", tmp_path / "w1", "--from", tmp_path / "cp", "--log",
          log_key)
    (kept,) = os.listdir(tmp_path / "w1" / "logs")
    (tmp_path / "w1" / "logs" / kept).write_text("{")
    out = devil("witness", "cosign", "--state", tmp_path / "w1", "--from", tmp_path / "cp",
                code=3)
    assert "cannot be read" in out and "restore it" in out


def _blackhole() -> socket.socket:
    """A port that accepts connections and never answers (a witness hung)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    return sock


def test_a_witness_down_or_hung_does_not_slow_or_fail_a_command(tmp_path):
    hung = _blackhole()
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{closed.getsockname()[1]}"
    app = create_app(str(tmp_path / "s"),
                     witnesses=[f"http://127.0.0.1:{hung.getsockname()[1]}", down])
    app.state.api.cosigning.interval = 0.02
    try:
        with TestClient(app) as http:
            created = http.post("/games", json={"kind": "atkr", "options": {
                "players": ["Anna", "Ben"], "first": "Anna"}, "seed": 5})
            assert created.status_code == 201
            tokens = created.json()["tokens"]
            for name in ("Anna", "Ben"):
                start = time.monotonic()
                answer = http.post(f"/games/{created.json()['game']}/commands",
                                   json={"type": "bet", "amount": 100},
                                   headers={"Authorization": f"Bearer {tokens[name]}",
                                            "Idempotency-Key": f"bet-{name}"})
                # under the 3 s a hung witness takes to time out: it is not on the command path
                assert answer.status_code == 201 and time.monotonic() - start < 2.0
            time.sleep(0.2)
            got = http.get("/checkpoint", params={"format": "json"})
            assert got.headers["devil-witnessed-by"] == "none"
            states = {w["url"]: w for w in got.json()["witnesses"]}
            assert states[down]["error"].startswith("unreachable")
            assert got.json()["witnessed_by"] == [] and got.json()["size"] == 3
            assert http.get("/checkpoint", params={"witnessed": 1}).status_code == 404
    finally:
        hung.close()


def test_the_collector_attaches_each_witnesss_cosignature_to_the_checkpoint(tmp_path):
    store = FileStore(str(tmp_path / "s"))
    Signer.of(store)  # the key first: a store holding records never makes one (issue 20.5)
    store.create("atkr", "atkr-coll11", -1, [{"type": "a"}], created=1)
    app = create_app(store, witnesses=["http://w1.test", "http://w2.test", "http://hung.test"])
    api = app.state.api
    from engine.tlog.log import checkpoint

    log_key = checkpoint(store, api.service.signer())["key"]
    witnesses = {}
    for name in ("w1", "w2"):
        state = WitnessState.init(str(tmp_path / name), f"{name}.example")
        state.pin(log_key)
        witnesses[f"{name}.test"] = create_witness_app(state, quiet=True)

    class Route(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request):
            if request.url.host == "hung.test":  # accepts, never answers
                await asyncio.sleep(3600)
            transport = httpx.ASGITransport(witnesses[request.url.host])
            return await transport.handle_async_request(request)

    async def rounds():
        async with httpx.AsyncClient(transport=Route()) as client:
            await api.cosigning.round(client, wait=False)           # size 1, old 0
            for _ in range(200):  # w1 and w2 answer while the hung one still waits
                if [w["cosigned"] for w in api.cosigning.witnesses] == [1, 1, None]:
                    break
                await asyncio.sleep(0.01)
            assert list(api.cosigning.busy) == ["http://hung.test"]
            store.append("atkr-coll11", 1, 0, "c2", [{"type": "b"}])
            store.append("atkr-coll11", 2, 0, "c3", [{"type": "c"}])
            await api.cosigning.round(client)                       # 1 -> 3 with a proof
            api.cosigning.witnesses[1]["size"] = None  # w2's size forgotten: 409, then again
            store.append("atkr-coll11", 3, 0, "c4", [{"type": "d"}])
            await api.cosigning.round(client)
            api.cosigning.busy["http://hung.test"].cancel()

    asyncio.run(rounds())
    http = TestClient(app)
    got = http.get("/checkpoint")
    assert got.headers["devil-witnessed-by"] == "w1.example, w2.example"
    from engine.tlog.witness import check_witnessed

    keys = [WitnessState(str(tmp_path / n)).key() for n in ("w1", "w2")]
    assert [f["witness"] for f in check_witnessed(got.text, keys)] == ["w1.example",
                                                                        "w2.example"]
    data = http.get("/checkpoint", params={"format": "json"}).json()
    assert [w["cosigned"] for w in data["witnesses"]] == [4, 4, None] and data["size"] == 4
    assert WitnessState(str(tmp_path / "w2")).latest(data["origin"])["size"] == 4
