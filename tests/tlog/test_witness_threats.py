"""The witness against an operator who holds the store and its key (issue 20.4, docs/trust.md's
threat table): each test is one attack and the witness's answer (C2SP tlog-witness statuses).

The stream of every test is tests/tlog/test_threats.py's: a creation (records 1-2), then
commands of 1, 2 and 1 events (records 3, 4-5, 6): leaves (game, 2), (game, 3), (game, 5),
(game, 6), a tree of 4.  Before this work nothing held the checkpoints anyone was shown side by
side: the rewritten log's checkpoint of 4 leaves was as good as the first to anyone without it.
"""

from __future__ import annotations

import base64
import os
import threading

from engine.receipts import Signer
from engine.store import FileStore
from engine.tlog import log as tlog
from engine.tlog import merkle
from engine.tlog.witness import Witness, WitnessState, check_split_view, request_body

GAME = "atkr-threat1"
NOW = 1_800_000_000


def _stream(tmp_path):
    store = FileStore(str(tmp_path / "store"))
    signer = Signer.of(store)  # the key first: a store holding records never makes one (20.5)
    store.create("atkr", GAME, -1, [{"type": "a"}, {"type": "b"}], created=1)
    store.append(GAME, 2, 0, "c3", [{"type": "c"}])
    cut = os.path.getsize(store.path(GAME))
    store.append(GAME, 3, 0, "c4", [{"type": "d"}, {"type": "e"}])
    store.append(GAME, 5, 0, "c6", [{"type": "f"}])
    return store, signer, cut


def _witness(tmp_path, key):
    state = WitnessState.init(str(tmp_path / "witness"), "witness.example/w1")
    state.pin(key)
    return Witness(state, clock=lambda: NOW)


def _send(wit, store, signer, old, size=None):
    signed = tlog.checkpoint(store, signer, size)
    proof = merkle.consistency_proof(tlog.tree(store), old, signed["size"])
    return wit.add_checkpoint(request_body(old, proof, signed["checkpoint"])), signed


def _rewrite(store, cut):
    """The operator cuts the game back to record 3 and the log back to its leaves then, and
    writes other records with the store's own key."""
    with open(store.path(GAME), "r+b") as handle:
        handle.truncate(cut)
    with open(os.path.join(store.root, ".devil-tlog"), "r+b") as handle:
        lines = handle.read().split(b"\n")
        handle.seek(0)
        handle.truncate(len(lines[0]) + len(lines[1]) + 2)
    again = FileStore(store.root)
    again.append(GAME, 3, 0, "x4", [{"type": "o"}, {"type": "o"}])
    again.append(GAME, 5, 0, "x6", [{"type": "o"}])
    return again, Signer.of(again)


def _root(signed):
    return base64.b64encode(bytes.fromhex(signed["root"])).decode()


def test_a_log_extended_honestly_is_cosigned_and_the_state_survives_a_restart(tmp_path):
    store, signer, _ = _stream(tmp_path)
    wit = _witness(tmp_path, tlog.checkpoint(store, signer)["key"])
    first, _ = _send(wit, store, signer, 0, 2)  # trust on first use: no proof from 0
    assert (first.status, first.reason) == (200, f"cosigned 2 leaves of {tlog.origin(store)}")
    answer, signed = _send(wit, store, signer, 2)  # 2 -> 4, with the proof
    assert answer.status == 200 and answer.body.startswith("\u2014 witness.example/w1 ")
    assert answer.cosigned == signed["checkpoint"] + answer.body
    restarted = Witness(WitnessState(wit.state.root))  # a new process on the same folder
    stale, _ = _send(restarted, store, signer, 2)  # a client that lost track of the size
    assert (stale.status, stale.body, stale.content_type) == (409, "4\n", "text/x.tlog.size")
    again, _ = _send(restarted, store, signer, 4)  # the same tree again: cosigned again
    assert again.status == 200
    assert restarted.state.latest(tlog.origin(store))["size"] == 4


def test_a_fork_with_the_stores_own_key_is_refused_and_its_split_view_kept(tmp_path):
    store, signer, cut = _stream(tmp_path)
    wit = _witness(tmp_path, tlog.checkpoint(store, signer)["key"])
    honest, seen = _send(wit, store, signer, 0)
    assert honest.status == 200
    again, signer2 = _rewrite(store, cut)  # 4 leaves again, other leaves 2 and 3
    forked, other = _send(wit, again, signer2, 4)
    assert other["size"] == 4 and other["root"] != seen["root"]
    assert forked.status == 422
    assert forked.reason == (f"split view: {tlog.origin(store)} signed two checkpoints of 4 "
                             f"leaves, with roots {_root(seen)} (cosigned before) and "
                             f"{_root(other)} (this one); both kept as proof")
    kept = wit.state.splits()
    assert len(kept) == 1 and kept[0]["second"] == other["checkpoint"]
    assert check_split_view(kept[0]["first"], kept[0]["second"], kept[0]["key"])["split"]
    # the fork grown by one more leaf: the store's proof from 4 is of its rewritten tree
    again.append(GAME, 6, 0, "x7", [{"type": "o"}])
    grown, bigger = _send(wit, again, signer2, 4)
    assert grown.status == 422 and grown.reason.startswith(
        f"a fork: the checkpoint of 5 leaves (root {_root(bigger)}) does not extend the 4 "
        f"leaves (root {_root(seen)}) this witness cosigned")
    assert wit.state.latest(tlog.origin(store))["size"] == 4  # nothing cosigned, nothing moved


def test_a_smaller_tree_is_refused_naming_both_roots(tmp_path):
    store, signer, _ = _stream(tmp_path)
    wit = _witness(tmp_path, tlog.checkpoint(store, signer)["key"])
    assert _send(wit, store, signer, 0)[0].status == 200
    small = tlog.checkpoint(store, signer, 2)  # signed by the log's key, 2 leaves
    answer = wit.add_checkpoint(request_body(0, [], small["checkpoint"]))
    assert (answer.status, answer.body) == (409, "4\n")
    assert answer.reason == (f"a smaller tree: the checkpoint has 2 leaves (root {_root(small)}),"
                             f" fewer than the 4 (root {_root(tlog.checkpoint(store, signer))})"
                             " this witness cosigned for the log")
    above = wit.add_checkpoint(request_body(4, [], small["checkpoint"]))
    assert above.status == 400 and "above the checkpoint's size 2" in above.reason


def test_a_game_cut_and_extended_inside_the_log_is_cosigned_but_the_audit_names_it(tmp_path):
    # what a witness does not see: the log stays append-only, so it extends; the old leaves
    # name the game (engine.tlog.log.audit), as without witnesses
    store, signer, cut = _stream(tmp_path)
    wit = _witness(tmp_path, tlog.checkpoint(store, signer)["key"])
    assert _send(wit, store, signer, 0)[0].status == 200
    with open(store.path(GAME), "r+b") as handle:
        handle.truncate(cut)
    again = FileStore(store.root)
    again.append(GAME, 3, 0, "x4", [{"type": "o"}] * 3)  # records 4-6 again, other ones
    assert _send(wit, again, Signer.of(again), 4)[0].status == 200
    # leaf 2 shows record 5, which the game no longer has; leaf 1 (record 3) still holds
    findings = tlog.audit(again)["findings"]
    assert [(f["game"], f["seq"]) for f in findings] == [(GAME, 4)]
    assert "changed or forked after record 3" in findings[0]["reason"]


def test_unknown_logs_other_keys_and_bad_proofs_are_refused(tmp_path):
    store, signer, _ = _stream(tmp_path)
    wit = _witness(tmp_path, tlog.checkpoint(store, signer)["key"])
    other = FileStore(str(tmp_path / "other"))
    other_signer = Signer.of(other)
    other.create("atkr", "atkr-other1", -1, [{"type": "a"}], created=1)
    unknown, _ = _send(wit, other, other_signer, 0)
    assert unknown.status == 404 and "does not witness the log devil.store/" in unknown.reason
    # the store's origin signed by another key (the operator replaced the key): 403
    signed = tlog.checkpoint(store, signer)
    text = signed["checkpoint"].split("\n\n")[0] + "\n"
    stranger = other_signer.note(text, tlog.origin(store))
    assert wit.add_checkpoint(request_body(0, [], stranger)).status == 403
    assert _send(wit, store, signer, 0, 2)[0].status == 200
    proof = merkle.consistency_proof(tlog.tree(store), 2, 4)
    proof[0] = bytes(32)
    bad = wit.add_checkpoint(request_body(2, proof, signed["checkpoint"]))
    assert bad.status == 422 and bad.reason.startswith("a fork: the checkpoint of 4 leaves")
    nonempty = wit.add_checkpoint(request_body(0, proof, signed["checkpoint"]))
    assert nonempty.status == 409  # the old size is checked before the proof
    assert wit.add_checkpoint(b"old 2\n").status == 400


def test_two_requests_at_once_cannot_roll_the_state_back(tmp_path):
    store, signer, _ = _stream(tmp_path)
    wit = _witness(tmp_path, tlog.checkpoint(store, signer)["key"])
    assert _send(wit, store, signer, 0, 2)[0].status == 200
    bodies = []
    for size in (3, 4):
        signed = tlog.checkpoint(store, signer, size)
        bodies.append(request_body(2, merkle.consistency_proof(tlog.tree(store), 2, size),
                                   signed["checkpoint"]))
    answers: list = [None, None]
    start = threading.Barrier(2)

    def send(i):
        start.wait()
        answers[i] = Witness(WitnessState(wit.state.root)).add_checkpoint(bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(a.status for a in answers)
    assert statuses == [200, 409]  # whichever came second was told the new size
    won = [i for i in range(2) if answers[i].status == 200][0]
    assert wit.state.latest(tlog.origin(store))["size"] == (3, 4)[won]
