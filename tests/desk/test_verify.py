"""verify of a corrected log (the surviving commands re-decided strictly, the desk's commands
re-decided by the desk's rules), and tampered corrections (re-chained, so only the rules can
tell) failing it at the right record."""

from __future__ import annotations

import json

from engine.replay import verify_bytes

from ..tools.helpers import rechain, split
from .helpers import devil, log_json, ok


def _corrected_log(store) -> tuple[str, bytes]:
    game = ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
              "--physical").splitlines()[0]
    for args in (("bet", game, 60, "--as", "Anna"), ("bet", game, 40, "--as", "Ben"),
                 ("draw", game, "--as", "Anna", "--coal", 25),  # 6
                 ("draw", game, "--as", "Anna", "--coal", 50),  # 7
                 ("dispute", game, 7, "that was a 20", "--as", "Anna"),  # 8
                 ("ruling", game, 1, "--uphold", "--to", 6, "--reason", "a 20"),  # 9, 10
                 ("draw", game, "--as", "Anna", "--coal", 20),  # 11
                 ("stop", game, "--as", "Anna")):  # 12
        ok(store, *args)
    return game, (store / f"{game}.devlog").read_bytes()


def test_verify_checks_a_corrected_log_with_its_voids(tmp_path):
    store = tmp_path / "store"
    game, data = _corrected_log(store)
    assert [e["seq"] for e in log_json(store, game) if "voided" in e] == [7]
    result = devil(store, "verify", game)
    assert result.exit_code == 0, result.output
    assert ("referee's desk: 1 correction voiding 1 record (#7 by #10), 1 dispute (0 open)"
            in result.output)
    check = json.loads(ok(store, "verify", game, "--json"))
    assert check["voided"] == [{"from": 7, "to": 7, "by": 10, "reason": "a 20", "epoch": 1}]
    text = ok(store, "replay", game, "--events-only")
    assert "#7     ~~Anna draws 50~~  [VOID by #10: a 20]" in text


def _tampered(data: bytes, seq: int, change) -> bytes:
    header, _chunks, objs = split(data)
    change(objs[seq - 1])
    return rechain(header, objs)


def test_a_tampered_correction_fails_verify(tmp_path):
    _, data = _corrected_log(tmp_path / "store")
    assert verify_bytes(data).ok

    # the ruling and its correction recorded as given by Anna's seat
    def by_anna(obj):
        obj[1] = 0

    bad = verify_bytes(_tampered(_tampered(data, 9, by_anna), 10, by_anna))
    assert (bad.ok, bad.first_bad_seq) == (False, 9)
    assert "DESK-1: only the referee may give a ruling" in bad.reason

    # the correction returns farther back than the ruling says (to before Anna's 25)
    bad = verify_bytes(_tampered(data, 10, lambda obj: obj[4].update(to=5)))
    assert (bad.ok, bad.first_bad_seq) == (False, 10)
    assert "the referee's desk gives corrected(to=6" in bad.reason

    # the correction's epoch set back to 0 (its draws would reuse the voided labels)
    bad = verify_bytes(_tampered(data, 10, lambda obj: obj[4].update(epoch=0)))
    assert (bad.ok, bad.first_bad_seq) == (False, 10)
    assert "epoch=1" in bad.reason

    # a ruling that points at a dispute the log does not have
    bad = verify_bytes(_tampered(data, 9, lambda obj: obj[4].update(dispute=2)))
    assert (bad.ok, bad.first_bad_seq) == (False, 9)
    assert "there is no dispute 2" in bad.reason

    # Anna's stop after the correction recorded as Ben's: re-decided, it is not his to give
    bad = verify_bytes(_tampered(data, 12, lambda obj: obj[4].update(seat=1)))
    assert not bad.ok and bad.first_bad_seq == 12


def test_a_correction_to_a_record_not_before_it_is_damage_at_that_record(tmp_path):
    store = tmp_path / "store"
    game, data = _corrected_log(store)
    for to in (-10**15, 10, 10**15):  # before the log, itself, beyond it
        bad_log = _tampered(data, 10, lambda obj: obj[4].update(to=to))
        bad = verify_bytes(bad_log)
        assert (bad.ok, bad.first_bad_seq) == (False, 10), (to, bad.reason)
        assert f"cannot return to record {to}" in bad.reason
        (store / f"{game}.devlog").write_bytes(bad_log)  # the store's readers say so too
        result = devil(store, "show", game)
        assert result.exit_code == 3 and "record 10 is bad" in result.output
