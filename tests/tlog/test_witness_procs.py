"""A real witness process (`devil witness serve`, uvicorn) and a real `devil serve --witness`
process (issue 20.4): the service sends its checkpoints in the background, GET /checkpoint
carries the cosignature, a receipt proved over HTTP verifies offline with `--witness`, and the
witness serves what it cosigned on its monitoring path.  Both are forks of tests/procs.py's
server (the engine imported once).  Slow: ``python -m pytest -q -m slow tests/tlog``."""

from __future__ import annotations

import hashlib
import json
import os
import time

import httpx
import pytest
from click.testing import CliRunner

from client.cli import cli
from tests import procs
from tests.service.conftest import auth, free_port


def _run_cli(args: list[str]) -> None:
    """A process's whole life: `devil ARGS` (uvicorn serving until SIGTERM)."""
    import sys

    from client.cli import cli

    sys.stdout = sys.stderr = open(os.devnull, "w")
    cli(args, prog_name="devil")


def _up(url: str, path: str, proc, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not proc.is_alive():
            raise RuntimeError(f"{url} exited with {proc.exitcode}")
        try:
            if httpx.get(url + path, timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.03)
    raise RuntimeError(f"{url} did not come up")


@pytest.mark.slow  # 3.5 s alone, up to 7 s on a busy machine: over the default run's budget
def test_a_witness_process_cosigns_what_a_serving_process_sends(tmp_path):
    runner = CliRunner()
    store = str(tmp_path / "store")

    def devil(*args, code=0):
        result = runner.invoke(cli, ["--store", store, *map(str, args)])
        assert result.exit_code == code, (args, result.output)
        return result.stdout

    wkey = devil("witness", "init", "--state", tmp_path / "w", "--name", "w.example/1").strip()
    log_key = json.loads(devil("checkpoint", "--json"))["key"]  # the store's key, made once
    wport, sport = free_port(), free_port()
    wurl, surl = f"http://127.0.0.1:{wport}", f"http://127.0.0.1:{sport}"
    ctx = procs.context()  # forks of a server that imported the engine once (tests/procs.py)
    witness = ctx.Process(target=_run_cli, args=(["witness", "serve", "--state",
                                                  str(tmp_path / "w"), "--log", log_key,
                                                  "--port", str(wport)],))
    server = ctx.Process(target=_run_cli, args=(["--store", store, "serve", "--port",
                                                 str(sport), "--no-seat-entropy",
                                                 "--witness", wurl],))
    witness.start()
    server.start()
    http = httpx.Client(base_url=surl, timeout=30.0)
    try:
        _up(wurl, "/key", witness)
        _up(surl, "/health", server)
        created = http.post("/games", json={"kind": "atkr", "seed": 9, "options": {
            "players": ["Anna", "Ben"], "first": "Anna"}}).json()
        answer = http.post(f"/games/{created['game']}/commands",
                           json={"type": "bet", "amount": 100},
                           headers={**auth(created["tokens"]["Anna"]), "Idempotency-Key": "b1"})
        receipt = answer.json()["receipt"]
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:  # the collector looks every 0.25 s
            got = http.get("/checkpoint")
            if got.headers["devil-witnessed-by"] == "w.example/1" and "\n2\n" in got.text:
                break
            time.sleep(0.1)
        assert got.headers["devil-witnessed-by"] == "w.example/1", got.text
        # prove the receipt over HTTP: the checkpoint in the proof carries the cosignature
        (tmp_path / "r.json").write_text(json.dumps(receipt))
        proved = tmp_path / "proved.json"
        runner.invoke(cli, ["--server", surl, "prove", str(tmp_path / "r.json"), "-o",
                            str(proved)])
        exported = tmp_path / "g.devlog"
        exported.write_bytes(http.get(f"/games/{created['game']}/log",
                                      headers=auth(created["tokens"]["referee"])).content)
        out = devil("verify", exported, "--receipt", proved, "--witness", wkey)
        assert "witnessed: cosigned by 1 of 1 witnesses (1 required): w.example/1" in out
        # the witness's monitoring path serves the checkpoint it cosigned last
        origin = got.text.split("\n")[0]
        mine = httpx.get(f"{wurl}/{hashlib.sha256(origin.encode()).hexdigest()}"
                         "/checkpoint")
        assert mine.status_code == 200 and mine.text.split("\n")[1] == "2"
        # a second witness run on a schedule pulls from the service's URL: first on trust,
        # then with the consistency proof it fetches from its last size
        w2 = devil("witness", "init", "--state", tmp_path / "w2", "--name", "w.example/2")
        first = json.loads(devil("witness", "cosign", "--state", tmp_path / "w2", "--from", surl,
                                 "--log", log_key, "--json"))
        assert first["ok"] and first["cosigned"].split("\n")[1] == "2"
        http.post(f"/games/{created['game']}/commands", json={"type": "bet", "amount": 50},
                  headers={**auth(created["tokens"]["Ben"]), "Idempotency-Key": "b2"})
        cosigned = devil("witness", "cosign", "--state", tmp_path / "w2", "--from", surl)
        assert cosigned.split("\n")[1] == "3"
        (tmp_path / "c3").write_text(cosigned)
        assert "cosigned by 1 of 1" in devil("verify", tmp_path / "c3", "--witness", w2.strip(),
                                             "--key", log_key)
    finally:
        http.close()
        for proc in (server, witness):
            proc.terminate()
        for proc in (server, witness):
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
                proc.join()
