"""Signed receipts and seals kept by the local CLI, and `devil verify --receipt/--key/--seal`
(issue 13.2): a log cut before a receipt's record fails, a finished game without its seal is
reported, a wrong key or a changed signature is reported."""

from __future__ import annotations

import json
import os
import stat

import pytest

from engine.log import scan
from engine.receipts import BadSignature, check_signature

from .helpers import bot_game, run, service, split


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A 3-seat digital game played to its end through the service on a file store: the log's
    bytes, its store folder, the seal the store kept and the store's public key."""
    tmp = tmp_path_factory.mktemp("receipts")
    svc = service(tmp)
    game = bot_game(svc, 3, seed=23)
    with open(svc.store.path(game), "rb") as handle:
        data = handle.read()
    return {"game": game, "data": data, "store": svc.store.root,
            "seal": svc.store.private(game, "seal"), "key": svc.signer().public, "svc": svc}


def write(tmp_path, name, data: bytes) -> str:
    path = str(tmp_path / name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def command_ends(data: bytes) -> list[int]:
    """Byte offsets where each complete command ends (after its ``left == 0`` record)."""
    header, chunks, objs = split(data)
    ends, offset = [], len(header)
    for chunk, obj in zip(chunks, objs):
        offset += len(chunk)
        if obj[5] == 0:
            ends.append(offset)
    return ends


def test_a_finished_game_keeps_a_seal_of_its_final_record_signed_by_the_store_key(finished):
    records = scan(finished["data"]).records
    seal = finished["seal"]
    assert seal["seal"] == 2 and seal["voided"] == "" and seal["game"] == finished["game"]
    assert seal["seq"] == records[-1].seq and seal["link"] == records[-1].link.hex()
    assert check_signature(seal, "seal", finished["key"]) is seal
    key_file = os.path.join(finished["store"], ".devil-signing.json")
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    out = run("--store", finished["store"], "key", "--json")
    assert json.loads(out.output) == {"algorithm": "ed25519", "public": finished["key"]}
    assert run("--store", finished["store"], "key").output.strip() == finished["key"]


def test_verify_with_the_key_and_the_exported_seal_passes(finished, tmp_path):
    log = str(tmp_path / "game.devlog")
    out = run("--store", finished["store"], "export", finished["game"], "-o", log,
              "--seal", log + ".seal.json")
    assert out.exit_code == 0, out.output
    out = run("verify", log, "--key", finished["key"])
    assert out.exit_code == 0, out.output
    last = scan(finished["data"]).records[-1]
    assert f"seal: the final record {last.seq} is the one sealed" in out.output
    # the same game in the store: the seal the store keeps
    out = run("--store", finished["store"], "verify", finished["game"], "--key", finished["key"])
    assert out.exit_code == 0, out.output


def test_a_finished_game_without_its_seal_is_reported(finished, tmp_path):
    log = write(tmp_path, "noseal.devlog", finished["data"])
    out = run("verify", log, "--key", finished["key"])
    assert out.exit_code == 3
    assert out.output.startswith("FAILED")
    assert "the game is finished but has no seal" in out.output
    # without --key a missing seal is not asked for: the plain checks pass
    assert run("verify", log).exit_code == 0


def test_a_log_cut_before_its_end_fails_against_the_seal(finished, tmp_path):
    data = finished["data"]
    ends = command_ends(data)
    cut = write(tmp_path, "cut.devlog", data[:ends[-2]])  # the last command removed
    with open(cut + ".seal.json", "w") as handle:
        json.dump(finished["seal"], handle)
    records = scan(data).records
    last_kept = scan(data[:ends[-2]]).records[-1].seq
    out = run("verify", cut, "--key", finished["key"], "--json")
    result = json.loads(out.output)
    assert out.exit_code == 3 and result["ok"] is False
    assert result["finished"] is False  # the plain chain calls it "in progress"
    assert result["reason"] == (f"the seal's final record is {records[-1].seq}, but the log ends "
                                f"at record {last_kept}: its end was cut off")
    assert result["first_bad_seq"] == last_kept + 1


def test_a_log_cut_before_a_receipts_record_fails_the_receipt(finished, tmp_path):
    svc, game = finished["svc"], finished["game"]
    records = scan(finished["data"]).records
    ends = command_ends(finished["data"])
    middle = len(ends) // 2
    target = [r for r in records if r.left == 0][middle]  # the last record of a command
    receipt = svc.receipt(game, target)
    rfile = str(tmp_path / "receipt.json")
    with open(rfile, "w") as handle:
        json.dump(receipt, handle)
    whole = write(tmp_path, "whole.devlog", finished["data"])
    out = run("verify", whole, "--receipt", rfile, "--key", finished["key"], "--seal",
              write(tmp_path, "s.json", json.dumps(finished["seal"]).encode()))
    assert out.exit_code == 0, out.output
    assert f"receipt: record {target.seq} with link {target.link.hex()} is in the log" in out.output
    # cut just before the receipt's command ended: its record is gone
    cut = write(tmp_path, "cut.devlog", finished["data"][:ends[middle - 1]])
    out = run("verify", cut, "--receipt", json.dumps(receipt))
    assert out.exit_code == 3
    kept = scan(finished["data"][:ends[middle - 1]]).records[-1].seq
    assert (f"record {kept + 1}: the log ends at record {kept}, before the receipt's record "
            f"{target.seq}: it was cut off after the receipt was given") in out.output
    # cut right after it: the receipt still holds (a receipt proves a prefix, not the end)
    after = write(tmp_path, "after.devlog", finished["data"][:ends[middle]])
    assert run("verify", after, "--receipt", rfile).exit_code == 0


def test_a_wrong_key_or_a_changed_receipt_is_reported(finished, tmp_path):
    svc, game = finished["svc"], finished["game"]
    records = scan(finished["data"]).records
    receipt = svc.receipt(game, records[4])
    log = write(tmp_path, "g.devlog", finished["data"])
    other = "11" * 32
    out = run("verify", log, "--receipt", json.dumps(receipt), "--key", other)
    assert out.exit_code == 3
    assert (f"the receipt was signed by key {finished['key'][:16]}..., not by the key given "
            f"({other[:16]}...)") in out.output
    # a receipt moved to another record (seq and link of record 6): the signature fails
    forged = {**receipt, "seq": records[5].seq, "link": records[5].link.hex()}
    out = run("verify", log, "--receipt", json.dumps(forged))
    assert out.exit_code == 3
    assert "the receipt's signature does not hold" in out.output
    with pytest.raises(BadSignature, match="signature does not hold"):
        check_signature(forged, "receipt", finished["key"])
    # a seal signed by another store's key, named as its own: refused with --key
    foreign = service(tmp_path / "other").signer().seal(game, records[-1].seq, records[-1].link,
                                                        finished["seal"]["time"])
    out = run("verify", log, "--seal", write(tmp_path, "f.json", json.dumps(foreign).encode()),
              "--key", finished["key"])
    assert out.exit_code == 3 and "the seal was signed by key" in out.output


def test_the_cli_keeps_every_receipt_it_is_given(tmp_path):
    store = str(tmp_path / "store")
    game = run("--store", store, "new", "atkr", "--player", "Anna", "--player", "Ben",
               "--seed", "3").output.strip().splitlines()[0]
    bet = run("--store", store, "bet", game, "60", "--as", "Anna", "--json")
    assert bet.exit_code == 0, bet.output
    answer = json.loads(bet.output)
    receipt = answer["receipt"]
    records = scan(open(os.path.join(store, game + ".devlog"), "rb").read()).records
    assert receipt["game"] == game
    assert receipt["seq"] == records[-1].seq == answer["events"][-1]["seq"]
    assert receipt["link"] == records[-1].link.hex()
    run("--store", store, "bet", game, "30", "--as", "Ben")
    out = run("receipts", game[-6:], "--json")
    kept = json.loads(out.output)
    # game_created and round_started (the creation's receipt: record 2), Anna's bet (3), Ben's
    # bet and the reveal of both bets (4, 5)
    assert [r["seq"] for r in kept] == [2, 3, 5]
    assert kept[1]["from"] == store and kept[1]["sig"] == receipt["sig"]
    path = os.path.join(os.environ["DEVIL_CONFIG"], "receipts", game + ".jsonl")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    text = run("receipts", game).output.splitlines()
    assert text[1].startswith(f"#{records[-1].seq:<5} link {receipt['link']}")
    # a receipt named by its number, from the kept ones
    log = str(tmp_path / "g.devlog")
    run("--store", store, "export", game, "-o", log)
    out = run("verify", log, "--receipt", str(records[-1].seq))
    assert out.exit_code == 0 and f"receipt: record {records[-1].seq}" in out.output
    assert run("receipts", "atkr-nosuch").exit_code == 2
    # the referee's desk is answered with receipts too, and the CLI keeps them: a dispute by
    # Anna (record 6) and the referee's correction back to record 3, her bet (record 7)
    assert run("--store", store, "dispute", game, "4", "Ben bet 40", "--as", "Anna").exit_code == 0
    assert run("--store", store, "correct", game, "--to", "3", "--reason", "a test").exit_code == 0
    kept = json.loads(run("receipts", game, "--json").output)
    assert [r["seq"] for r in kept] == [2, 3, 5, 6, 7]


def test_an_archive_checked_with_the_key_reports_the_finished_game_without_its_seal(finished,
                                                                                     tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    sealed = write(folder, "a.devlog", finished["data"])
    with open(sealed + ".seal.json", "w") as handle:
        json.dump(finished["seal"], handle)
    unsealed = write(folder, "b.devlog", finished["data"])
    out = run("verify", str(folder), "--key", finished["key"], "--jobs", "1")
    assert out.exit_code == 3
    lines = out.output.splitlines()
    assert any(line.startswith(f"OK   {sealed}:") for line in lines)
    assert f"BAD  {unsealed}: record {scan(finished['data']).records[-1].seq}: the game is " \
           "finished but has no seal" in out.output
    assert lines[-1].startswith("FAILED: 2 games: 1 finished and verified, 0 in progress, "
                                "1 damaged")
    # without --key the same archive passes: a seal is asked for only with the key
    assert run("verify", str(folder), "--jobs", "1").exit_code == 0


def test_an_imported_finished_game_is_sealed_by_the_store_it_lands_in(finished, tmp_path):
    log = write(tmp_path, "g.devlog", finished["data"])
    store = str(tmp_path / "other")
    assert run("--store", store, "import", log).exit_code == 0
    key = run("--store", store, "key").output.strip()
    assert key != finished["key"]  # another store, another key
    out = run("--store", store, "verify", finished["game"], "--key", key)
    assert out.exit_code == 0, out.output
    assert f"seal: the final record {scan(finished['data']).records[-1].seq}" in out.output


def test_an_empty_key_or_a_missing_seal_file_is_a_usage_error(finished, tmp_path):
    """`--key "$(devil key)"` whose command failed gave --key '' : it was ignored and a finished
    game without its seal verified (exit 0).  A --seal file that does not exist was read as
    JSON text ("the seal is not JSON")."""
    path = write(tmp_path, "game.devlog", finished["data"])
    for key in ("", "  "):
        out = run("verify", path, "--key", key)
        assert out.exit_code == 2, out.output
        assert "--key is empty" in out.output
    out = run("verify", path, "--seal", str(tmp_path / "nothing.seal.json"))
    assert out.exit_code == 2 and "does not exist" in out.output, out.output


def test_a_kept_line_that_is_not_a_receipt_is_skipped(tmp_path):
    """A receipts file line that is JSON but not a map (a hand edit, another tool) made
    `devil receipts` fail with AttributeError (exit 70); it is skipped like a torn line."""
    store = str(tmp_path / "store")
    game = run("--store", store, "new", "atkr", "--player", "Anna", "--player", "Ben",
               "--seed", "4").output.strip().splitlines()[0]
    path = os.path.join(os.environ["DEVIL_CONFIG"], "receipts", game + ".jsonl")
    with open(path, "a") as handle:
        handle.write("[1, 2]\n7\n")
    out = run("receipts", game, "--json")
    assert out.exit_code == 0, out.output
    assert [r["seq"] for r in json.loads(out.output)] == [2]
