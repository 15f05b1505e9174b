"""Receipts and seals over HTTP (issue 13.2): every accepted command's answer carries a receipt
signed with the server's key (GET /key); a finished game's seal is served at
GET /games/{id}/seal; the CLI client keeps the receipts it gets from a server."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from client.cli import cli
from engine.receipts import check_receipt_in, check_seal_of, check_signature
from engine.store import FileStore

from .conftest import auth
from .helpers import play_atkr


def test_a_command_answer_carries_a_receipt_signed_by_the_server_key(server, http):
    created = http.post("/games", json={"kind": "atkr",
                                        "options": {"players": ["Anna", "Ben"]}}).json()
    game, tokens = created["game"], created["tokens"]
    key = http.get("/key").json()
    assert key["algorithm"] == "ed25519" and len(bytes.fromhex(key["public"])) == 32
    assert check_signature(created["receipt"], "receipt", key["public"])
    answer = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 60},
                       headers={**auth(tokens["Anna"]), "Idempotency-Key": "bet-1"})
    assert answer.status_code == 201
    receipt = answer.json()["receipt"]
    check_signature(receipt, "receipt", key["public"])
    records = FileStore(server.store).read(game).records
    assert (receipt["game"], receipt["seq"], receipt["link"]) == (game, records[-1].seq,
                                                                  records[-1].link.hex())
    assert receipt["seq"] == answer.json()["events"][-1]["seq"]
    assert check_receipt_in(records, game, receipt).startswith(f"receipt: record {receipt['seq']}")
    # a retry with the same id: the same receipt (the record's own time, a deterministic
    # signature), nothing appended
    again = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 60},
                      headers={**auth(tokens["Anna"]), "Idempotency-Key": "bet-1"})
    assert again.status_code == 200 and again.json()["receipt"] == receipt
    # not finished: no seal yet
    missing = http.get(f"/games/{game}/seal", headers=auth(tokens["Ben"]))
    assert missing.status_code == 404 and "is not finished" in missing.json()["error"]


def test_a_finished_game_is_sealed_and_its_seal_served(server, http):
    created = http.post("/games", json={"kind": "atkr",
                                        "options": {"players": ["Anna", "Ben"]}}).json()
    game = created["game"]
    play_atkr(server, created)
    seal = http.get(f"/games/{game}/seal", headers=auth(created["tokens"]["spectator"])).json()
    key = http.get("/key").json()["public"]
    check_signature(seal, "seal", key)
    records = FileStore(server.store).read(game).records
    assert seal["seq"] == records[-1].seq and seal["link"] == records[-1].link.hex()
    assert check_seal_of(records, game, True, seal).startswith(
        f"seal: the final record {records[-1].seq}")
    # the remote client: the log and its seal exported, then verified with the server's key
    runner = CliRunner()
    folder = os.path.join(os.environ["DEVIL_CONFIG"], "exports")
    os.makedirs(folder, exist_ok=True)
    log = os.path.join(folder, f"{game}.devlog")
    client = server.remote(created["tokens"]["referee"])
    with open(log, "wb") as handle:
        handle.write(client.log_bytes(game))
    with open(log + ".seal.json", "w") as handle:
        json.dump(client.seal(game), handle)
    assert client.key() == {"algorithm": "ed25519", "public": key}
    out = runner.invoke(cli, ["verify", log, "--key", key], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert f"seal: the final record {records[-1].seq} is the one sealed" in out.output


def test_the_remote_client_keeps_the_receipts_a_server_gives(server, http):
    created = http.post("/games", json={"kind": "atkr",
                                        "options": {"players": ["Anna", "Ben"]}}).json()
    game = created["game"]
    client = server.remote(created["tokens"]["Ben"])
    # the CLI's submit path, on the in-process app (client.submit.submit_command)
    from client.context import Context
    from client.submit import submit_command

    obj = Context("unused", server.url, created["tokens"]["Ben"])
    obj._client = client
    import click

    with click.Context(cli, obj=obj):
        submit_command(obj, game, {"type": "bet", "amount": 30}, None, None, True)
    from client.receipts import kept

    receipts = kept(game)
    records = FileStore(server.store).read(game).records
    assert [(r["seq"], r["link"], r["from"]) for r in receipts] == [
        (records[-1].seq, records[-1].link.hex(), server.url)]
