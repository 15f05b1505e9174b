"""`devil checkpoint`, `devil prove`, `devil verify --receipt PROVED`, `devil verify
--consistent` and GET /checkpoint, on a real game (issue 20.1-3)."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner
from starlette.testclient import TestClient

from client.cli import cli
from engine.store import FileStore, MemoryStore
from engine.tlog.note import open_checkpoint, parse_verifier_key
from engine.receipts import Signer
from engine.web import create_app


def _devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path / "s"), *map(str, args)])
        assert result.exit_code == code, (args, result.output)
        return result.stdout
    return run


def test_a_running_game_cut_back_is_caught_by_a_checkpoint_seen_earlier(tmp_path):
    devil = _devil(tmp_path)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical", "--ring", 47).split("\n")[0].strip()
    devil("bet", game, 200, "--as", "Anna")           # records 3 (leaf 1)
    store = FileStore(str(tmp_path / "s"))
    cut = os.path.getsize(store.path(game))
    devil("bet", game, 200, "--as", "Ben")            # record 4 ... (leaf 2)
    devil("draw", game, "--as", "Anna", "--coal", 100)
    seen = tmp_path / "seen.json"
    seen.write_text(devil("checkpoint", "--json"))
    data = json.loads(seen.read_text())
    assert data["size"] == 4 and data["origin"].startswith("devil.store/")
    assert parse_verifier_key(data["key"])[0] == data["origin"]
    assert "OK: consistent" in devil("verify", "--consistent", seen)
    with open(store.path(game), "r+b") as handle:
        handle.truncate(cut)  # the operator cuts the game back to record 3 ...
    # ... which the game's own check takes for a game in progress (the weakness) ...
    assert devil("verify", game).startswith("OK")
    # ... but the checkpoint seen earlier names the game and the first record cut
    out = devil("verify", "--consistent", seen, code=3)
    assert out.startswith("FAILED") and f"{game} record 4: cut" in out
    report = json.loads(devil("verify", "--consistent", seen, "--json", code=3))
    assert [(f["game"], f["seq"]) for f in report["findings"]] == [(game, 4)]


def test_prove_then_verify_the_receipt_offline(tmp_path):
    devil = _devil(tmp_path)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical", "--ring", 47).split("\n")[0].strip()
    devil("bet", game, 200, "--as", "Anna")
    devil("bet", game, 200, "--as", "Ben")
    proved = json.loads(devil("prove", 3, "--game", game))
    # leaves: record 2 (creation), 3, 4: record 3 is leaf 1 of a tree of 3
    assert (proved["tlog"]["index"], len(proved["tlog"]["proof"])) == (1, 2)
    (tmp_path / "r.json").write_text(json.dumps(proved))
    devil("export", game, "-o", tmp_path / "g.devlog")
    out = devil("verify", tmp_path / "g.devlog", "--receipt", tmp_path / "r.json")
    assert "transparency log: record 3 is leaf 1" in out
    proved["tlog"]["index"] = 0
    (tmp_path / "bad.json").write_text(json.dumps(proved))
    out = devil("verify", tmp_path / "g.devlog", "--receipt", tmp_path / "bad.json", code=3)
    assert "inclusion proof does not hold" in out


def test_get_checkpoint_serves_the_signed_note_and_its_proofs():
    store = MemoryStore()
    Signer.of(store)  # made first: a store holding games never makes one (issue 20.5)
    store.create("atkr", "atkr-webtl1", -1, [{"type": "a"}], created=1)
    rec = store.append("atkr-webtl1", 1, 0, "c", [{"type": "b"}])[-1]
    with TestClient(create_app(store)) as http:
        note = http.get("/checkpoint")
        assert note.headers["content-type"].startswith("text/plain")
        data = http.get("/checkpoint", params={"format": "json"}).json()
        assert data["checkpoint"] == note.text and data["size"] == 2
        public = bytes.fromhex(http.get("/key").json()["public"])
        assert open_checkpoint(note.text, public).size == 2
        assert http.get("/checkpoint/consistency", params={"old": 1}).json()["new"] == 2
        got = http.get("/checkpoint/inclusion", params={
            "game": "atkr-webtl1", "seq": 2, "link": rec.link.hex()}).json()
        assert got["index"] == 1 and len(got["proof"]) == 1
        missing = http.get("/checkpoint/inclusion", params={
            "game": "atkr-webtl1", "seq": 1, "link": rec.link.hex()})
        assert missing.status_code == 404 and "no leaf" in missing.json()["error"]
        assert http.get("/checkpoint/consistency", params={"old": 9}).status_code == 400
        assert "/checkpoint" in http.get("/openapi.json").json()["paths"]
