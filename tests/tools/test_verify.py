"""devil verify: format, hash chain, seed commitment, strict refold, finished or not."""

from __future__ import annotations

import json

import pytest

from engine.replay import verify_bytes, verify_path

from .helpers import bot_game, rechain, run, service, split


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("verify")
    svc = service(tmp)
    game = bot_game(svc, 4, seed=11)
    path = svc.store.path(game)
    with open(path, "rb") as handle:
        return path, handle.read()


def first_of_type(objs, type_name, skip=0):
    hits = [i for i, o in enumerate(objs) if o[4]["type"] == type_name]
    return hits[skip]


def test_a_finished_game_verifies(finished):
    path, data = finished
    _, chunks, objs = split(data)
    result = verify_path(path)
    assert result.ok and result.finished and result.seed_checked
    assert result.events == len(objs)
    assert result.first_bad_seq is None and result.reason is None
    assert objs[-1][4]["type"] == "game_ended"
    out = run("verify", path, "--json")
    assert out.exit_code == 0
    data_json = json.loads(out.output)
    assert {"ok": True, "finished": True, "events": len(objs), "first_bad_seq": None,
            "reason": None}.items() <= data_json.items()


def test_flipped_byte_is_found_at_its_record(finished, tmp_path):
    _, data = finished
    header, chunks, objs = split(data)
    k = 40  # record seq 40: change one letter of its event's type tag
    chunk = bytearray(chunks[k - 1])
    where = chunk.find(objs[k - 1][4]["type"].encode())
    chunk[where] ^= 0x01
    bad = header + b"".join(chunks[:k - 1]) + bytes(chunk) + b"".join(chunks[k:])
    result = verify_bytes(bad)
    assert not result.ok and result.first_bad_seq == 40
    path = tmp_path / "flipped.devlog"
    path.write_bytes(bad)
    out = run("verify", str(path))
    assert out.exit_code == 3 and "record 40" in out.output


def test_removed_record(finished):
    _, data = finished
    header, chunks, _ = split(data)
    bad = header + b"".join(chunks[:29]) + b"".join(chunks[30:])  # seq 30 removed
    result = verify_bytes(bad)
    assert not result.ok and result.first_bad_seq == 30


def test_reordered_pair(finished):
    _, data = finished
    header, chunks, _ = split(data)
    swapped = chunks[:49] + [chunks[50], chunks[49]] + chunks[51:]  # seq 50 and 51 swapped
    result = verify_bytes(header + b"".join(swapped))
    assert not result.ok and result.first_bad_seq == 50


def test_reordered_pair_rehashed_is_caught_by_the_refold(finished):
    _, data = finished
    header, _, objs = split(data)
    # renumbered and re-hashed, the chain holds; two draws of one player trade places, so
    # each is a draw the revealed seed did not give at that point
    j = next(k for k in range(len(objs) - 1) if objs[k][4]["type"] == "coal_drawn"
             and objs[k + 1][4]["type"] == "coal_drawn" and objs[k][5] == 0
             and objs[k + 1][5] == 0 and objs[k][4]["coal"] != objs[k + 1][4]["coal"]
             and objs[k][4]["seat"] == objs[k + 1][4]["seat"])
    c, d = objs[j], objs[j + 1]
    moved = list(objs)
    moved[j] = [c[0], d[1], d[2], d[3], d[4], d[5], d[6]]
    moved[j + 1] = [d[0], c[1], c[2], c[3], c[4], c[5], c[6]]
    result = verify_bytes(rechain(header, moved))
    assert not result.ok and result.first_bad_seq == c[0]
    assert "seed" in result.reason


def test_cut_off_end_is_not_finished(finished, tmp_path):
    path, data = finished
    header, chunks, objs = split(data)
    # cut after the last complete command before the final one (a command boundary)
    last_start = max(i for i in range(len(objs) - 1) if objs[i][5] == 0) + 1
    cut = header + b"".join(chunks[:last_start])
    result = verify_bytes(cut)
    assert result.ok and not result.finished and not result.seed_checked
    assert result.events == last_start
    target = tmp_path / "cut.devlog"
    target.write_bytes(cut)
    out = run("verify", str(target), "--json")
    assert out.exit_code == 0 and json.loads(out.output)["finished"] is False
    refused = run("verify", str(target), "--finished")
    assert refused.exit_code == 3
    assert refused.output.startswith("FAILED")  # the first line says so (issue 9.1)
    # cut in the middle of the last command's records: the end cannot be read as a command;
    # a reader cannot know whether it was acknowledged, so the record is not whole
    torn = header + b"".join(chunks[:-1]) + chunks[-1][:-3]
    result = verify_bytes(torn)
    assert not result.ok and not result.finished and result.torn > 0
    assert result.first_bad_seq == last_start + 1
    assert "cannot be read as a complete command" in result.reason
    assert "never acknowledged" not in result.reason
    assert result.events == last_start
    target.write_bytes(torn)
    out = run("verify", str(target))
    assert out.exit_code == 3 and out.output.startswith("FAILED")


def test_a_draw_that_does_not_match_the_seed(finished):
    _, data = finished
    header, _, objs = split(data)
    # the first non-devil draw of the game becomes another numbered coal (still in the furnace)
    i = next(k for k, o in enumerate(objs) if o[4]["type"] == "coal_drawn" and o[4]["coal"] != 0)
    doctored = [list(o) for o in objs]
    coal = doctored[i][4]["coal"]
    doctored[i][4] = {**doctored[i][4], "coal": 10 if coal != 10 else 20}
    result = verify_bytes(rechain(header, doctored))
    assert not result.ok and result.first_bad_seq == objs[i][0]
    assert "revealed seed" in result.reason


def test_a_revealed_seed_that_does_not_match_the_commitment(finished):
    _, data = finished
    header, _, objs = split(data)
    doctored = [list(o) for o in objs]
    doctored[-1][4] = {**doctored[-1][4], "seed": doctored[-1][4]["seed"] + 1}
    result = verify_bytes(rechain(header, doctored))
    assert not result.ok and result.first_bad_seq == objs[-1][0]
    assert "commitment" in result.reason


def test_a_doctored_payout_fails_the_refold(finished):
    _, data = finished
    header, _, objs = split(data)
    i = first_of_type(objs, "bet_won")
    doctored = [list(o) for o in objs]
    doctored[i][4] = {**doctored[i][4], "win": doctored[i][4]["win"] + 10}
    result = verify_bytes(rechain(header, doctored))
    assert not result.ok and result.first_bad_seq == objs[i][0]


def test_wrong_version_and_not_a_log(tmp_path):
    import msgpack
    not_log = tmp_path / "x.devlog"
    not_log.write_bytes(msgpack.packb({"hello": 1}))
    out = run("verify", str(not_log), "--json")
    assert out.exit_code == 3
    assert json.loads(out.output)["first_bad_seq"] == 0


def test_in_progress_game_checks_draws_as_possible(tmp_path):
    svc = service(tmp_path)
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna"}, seed=5).game
    svc.submit(game, {"type": "bet", "player": "Anna", "amount": 10})
    svc.submit(game, {"type": "bet", "player": "Ben", "amount": 20})
    svc.submit(game, {"type": "draw", "player": "Anna"})
    result = verify_path(svc.store.path(game))
    assert result.ok and not result.finished and not result.seed_checked
    assert any("possible only" in c for c in result.checks)


def test_physical_game_impossible_coal_rehashed(tmp_path):
    svc = service(tmp_path)
    game = svc.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                               "physical": True}).game
    svc.submit(game, {"type": "bet", "player": "Anna", "amount": 0})
    svc.submit(game, {"type": "bet", "player": "Ben", "amount": 0})
    for _ in range(3):  # only two 100s are in the box (ATKR-1.1)
        try:
            svc.submit(game, {"type": "draw", "player": "Anna", "coal": 75})
        except Exception:
            break
    path = svc.store.path(game)
    assert verify_path(path).ok
    with open(path, "rb") as handle:
        header, _, objs = split(handle.read())
    # make the three 75s into 100s: the third cannot have been drawn
    doctored = [list(o) for o in objs]
    draws = [k for k, o in enumerate(objs) if o[4]["type"] == "coal_drawn"]
    for k in draws:
        doctored[k][4] = {**doctored[k][4], "coal": 100}
    result = verify_bytes(rechain(header, doctored))
    assert not result.ok and result.first_bad_seq == objs[draws[2]][0]
