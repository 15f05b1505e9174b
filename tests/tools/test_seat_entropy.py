"""Chance nobody can choose (issue 13.3): a game with seat entropy makes no draw before every
seat committed to a random value; every draw comes from the server's seed mixed with every
seat's value; verify re-derives them, and so does an independent script (hashlib only)."""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys

import pytest

from engine.bots import make_bot, play_out
from engine.errors import IllegalCommand, NotAllowed
from engine.log import scan
from engine.replay import verify_bytes
from engine.service import GameService
from engine.store import FileStore

from .helpers import rechain, run, split

VALUES = ["11" * 32, "22" * 32, "a7" * 32]
NAMES = ["Anna", "Ben", "Cleo"]


def seated(tmp_path, kind="atkr", names=NAMES, values=VALUES, seed=None):
    svc = GameService(FileStore(str(tmp_path / "store")))
    game = svc.create(kind, {"players": list(names)}, seed=seed, seat_entropy=True).game
    return svc, game


def sit_all(svc, game, names=NAMES, values=VALUES):
    for seat, (name, value) in enumerate(zip(names, values)):
        svc.submit(game, {"type": "seat_entropy", "player": name, "value": value}, actor=seat)


def types(svc, game):
    return [r.event["type"] for r in svc.store.read(game).records]


def test_no_draw_is_made_before_every_seat_committed(tmp_path):
    svc, game = seated(tmp_path)
    assert types(svc, game) == ["table_opened"]
    assert svc.view(game)["waiting_for"] == NAMES
    with pytest.raises(IllegalCommand, match="SEAT-1.*waiting for Anna, Ben, Cleo"):
        svc.submit(game, {"type": "bet", "player": "Anna", "amount": 60}, actor=0)
    with pytest.raises(NotAllowed, match="you sit as Ben and cannot act as Anna"):
        svc.submit(game, {"type": "seat_entropy", "player": "Anna", "value": VALUES[0]}, actor=1)
    with pytest.raises(IllegalCommand, match="SEAT-2: a seat's value is 64 lowercase hex"):
        svc.submit(game, {"type": "seat_entropy", "player": "Anna", "value": "12ab"}, actor=0)
    assert types(svc, game) == ["table_opened"]  # nothing recorded by a refusal
    first = svc.submit(game, {"type": "seat_entropy", "player": "Anna", "value": VALUES[0]},
                       actor=0)
    assert first.records[0].actor == 0 and first.receipt["seq"] == 2
    # the same value again: nothing new; another value: refused (one value per seat)
    again = svc.submit(game, {"type": "seat_entropy", "player": "Anna", "value": VALUES[0]},
                       actor=0)
    assert again.repeated and again.records == first.records
    with pytest.raises(IllegalCommand, match="SEAT-2: Anna has given its entropy already"):
        svc.submit(game, {"type": "seat_entropy", "player": "Anna", "value": VALUES[1]}, actor=0)
    svc.submit(game, {"type": "seat_entropy", "player": "Ben", "value": VALUES[1]}, actor=1)
    assert types(svc, game) == ["table_opened", "seat_committed", "seat_committed"]
    shown = run("--store", str(tmp_path / "store"), "show", game, "--as", "Cleo")
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[1:] == [
        "   Anna             in", "   Ben              in", " * Cleo             waiting",
        "Cleo may: nothing now"]
    assert json.loads(run("--store", str(tmp_path / "store"), "show", game, "--json").output
                      )["waiting_for"] == ["Cleo"]
    last = svc.submit(game, {"type": "seat_entropy", "player": "Cleo", "value": VALUES[2]},
                      actor=2)
    # the last seat in: the kind's own setup follows, as the referee, with the first draw
    assert [type(e).__name__ for e in last.events] == ["SeatCommitted", "GameCreated",
                                                       "RoundStarted"]
    assert last.records[1].actor == -1
    assert svc.view(game)["phase"] == "bet"
    # the values are kept private beside the log, never in it
    folder = tmp_path / "store"
    assert stat.S_IMODE(os.stat(folder / f"{game}.seatc.json").st_mode) == 0o600
    assert VALUES[2].encode() not in svc.store.log_bytes(game)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A seated 3-seat atkr game played to its end by bots: service, id and log bytes."""
    tmp = tmp_path_factory.mktemp("seated")
    svc, game = seated(tmp)
    sit_all(svc, game)
    bots = {s: make_bot("atkr", "cautious", random.Random(40 + s)) for s in range(3)}
    assert play_out(svc, game, bots)["over"]
    return svc, game, svc.store.log_bytes(game)


#: the independent check (no engine, no msgpack: hashlib and json only), run as its own
#: isolated Python process; it reads what a third party copies from the log and prints the
#: start player and the first coal it re-derives
INDEPENDENT = r'''
import hashlib, json, sys
given = json.load(sys.stdin)
seed, salt, values, game = given["seed"], given["salt"], given["values"], given["game"]
def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()
assert sha("devil-commit|" + salt + "|" + str(seed)) == given["commitment"], "seed commitment"
for seat, value in enumerate(values):
    assert sha("devil-seat|" + game + "|" + str(seat) + "|" + value) == given["seats"][seat]
mixed = sha("devil-mix|" + str(seed) + "".join("|" + v for v in values))
def randbelow(n, *label):
    digest = hashlib.sha256((mixed + "|" + "|".join(map(str, label))).encode()).digest()
    return int.from_bytes(digest[:8], "big") % n
first = randbelow(len(values), "first")
r = randbelow(48, "draw", 0)  # the first coal: the furnace is full (ATKR-1.1)
for coal, count in zip([100, 75, 50, 25, 20, 10, 0], [2, 3, 7, 9, 9, 9, 9]):
    if r < count:
        break
    r -= count
print(json.dumps({"mixed": mixed, "first": first, "first_coal": coal}))
'''


def test_an_independent_script_re_derives_the_draws_from_the_revealed_seed_and_values(finished):
    svc, game, data = finished
    events = [r.event for r in scan(data).records]
    opened = events[0]
    committed = [e["commitment"] for e in events if e["type"] == "seat_committed"]
    ended = next(e for e in events if e["type"] == "game_ended")
    revealed = events[-1]
    assert revealed["type"] == "seats_revealed" and revealed["values"] == VALUES
    given = {"seed": ended["seed"], "salt": ended["salt"], "values": revealed["values"],
             "game": game, "commitment": opened["commitment"], "seats": committed}
    out = subprocess.run([sys.executable, "-I", "-c", INDEPENDENT], input=json.dumps(given),
                         capture_output=True, text=True, check=True, cwd="/")
    derived = json.loads(out.stdout)
    created = next(e for e in events if e["type"] == "game_created")
    first_coal = next(e for e in events if e["type"] == "coal_drawn")
    assert created["first_drawn"] is True
    assert derived["first"] == created["first"]
    assert derived["first_coal"] == first_coal["coal"]
    # without the seats' values (the seed alone, as an older game draws) the start player and
    # the first coal would come from another seed material
    from engine.chance import SeededChance, mixed_seed

    assert derived["mixed"] == mixed_seed(ended["seed"], VALUES)
    plain = SeededChance(ended["seed"], ended["salt"])
    mixed = SeededChance(ended["seed"], ended["salt"], VALUES)
    assert [plain.randbelow(2**32, "draw", d) for d in range(4)] != \
        [mixed.randbelow(2**32, "draw", d) for d in range(4)]


def test_verify_re_derives_a_seated_game_and_reports_a_wrong_revealed_value(finished, tmp_path):
    _svc, _game, data = finished
    result = verify_bytes(data)
    assert result.ok and result.finished and result.seed_checked
    assert "seating: all 3 seats committed to their entropy before the first draw" in result.checks
    assert "every seat's revealed value matches the commitment it recorded" in result.checks
    assert result.checks[-2].endswith("re-derived from the revealed seed mixed with every "
                                      "seat's revealed value")
    header, _chunks, objs = split(data)
    # a revealed value swapped for another (chain recomputed): refused at that record
    swapped = [list(o) for o in objs]
    swapped[-1][4] = {**swapped[-1][4], "values": [VALUES[1], VALUES[0], VALUES[2]]}
    bad = verify_bytes(rechain(header, swapped))
    assert not bad.ok and bad.first_bad_seq == objs[-1][0]
    assert bad.reason == ("the value revealed for Anna does not match the commitment that seat "
                          "recorded")
    # Cleo's commitment removed (records renumbered, chain recomputed): record 1 opens the
    # table, 2 and 3 are Anna's and Ben's, 4 is now game_created, before Cleo gave hers
    dropped = [list(o) for o in objs[:3]] + [list(o) for o in objs[4:]]
    for seq, obj in enumerate(dropped, start=1):
        obj[0] = seq
    bad = verify_bytes(rechain(header, dropped))
    assert not bad.ok and bad.first_bad_seq == 4
    assert bad.reason == ("the game started (its first draw) before every seat gave its "
                          "entropy: Cleo had not (SEAT-1)")
    # the CLI says the same, exit 3
    path = str(tmp_path / "dropped.devlog")
    with open(path, "wb") as handle:
        handle.write(rechain(header, dropped))
    out = run("verify", path)
    assert out.exit_code == 3 and "Cleo had not (SEAT-1)" in out.output


def test_the_local_console_sits_every_seat_and_keeps_their_values(tmp_path):
    store = str(tmp_path / "store")
    out = run("--store", store, "new", "--seat-entropy", "castle", "--player", "Anna",
              "--player", "Ben", "--player", "Cleo", "--player", "Dan")
    assert out.exit_code == 0, out.output
    game = out.output.strip().splitlines()[0]
    kept_path = os.path.join(os.environ["DEVIL_CONFIG"], "entropy", game + ".json")
    kept = json.load(open(kept_path))
    assert sorted(kept) == ["Anna", "Ben", "Cleo", "Dan"]
    assert stat.S_IMODE(os.stat(kept_path).st_mode) == 0o600
    records = FileStore(store).read(game).records
    assert [r.event["type"] for r in records[:6]] == ["table_opened"] + ["seat_committed"] * 4 \
        + ["game_created"]
    assert [r.actor for r in records[1:5]] == [0, 1, 2, 3]
    from engine.entropy import seat_commitment

    assert [r.event["commitment"] for r in records[1:5]] == [
        seat_commitment(game, seat, kept[name]) for seat, name in enumerate(
            ["Anna", "Ben", "Cleo", "Dan"])]
    shown = run("--store", store, "log", game).output.splitlines()
    assert shown[1].startswith("#2    Anna gave its entropy (commitment ")
    verified = run("--store", store, "verify", game)
    assert verified.exit_code == 0 and ("seating: all 4 seats committed to their entropy before "
                                        "the first draw") in verified.output


def test_the_worked_example_in_the_log_format_is_what_the_engine_draws():
    """docs/log-format.md's example, worked by hand with hashlib there: the engine agrees."""
    from engine.chance import SeededChance, commitment, mixed_seed
    from engine.entropy import seat_commitment

    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                            "log-format.md")).read()
    salt, game, values = "0123456789abcdef0123456789abcdef", "atkr-k3f9qz", ["11" * 32, "22" * 32]
    for text in (commitment(42, salt), seat_commitment(game, 0, values[0]),
                 seat_commitment(game, 1, values[1]), mixed_seed(42, values)):
        assert f"= {text}" in doc
    chance = SeededChance(42, salt, values)
    assert chance.randbelow(2, "first") == 1  # Ben starts
    assert chance.randbelow(48, "draw", 0) == 47
    assert chance.pick([2, 3, 7, 9, 9, 9, 9], "draw", 0) == 6  # the devil (ATKR-1.1 order)
    assert "mod 2 = 1: Ben" in doc and "mod 48 = 47" in doc


def test_an_unfinished_seated_game_moves_with_its_seats_values_and_draws_on(tmp_path):
    store, other = str(tmp_path / "a"), str(tmp_path / "b")
    game = run("--store", store, "new", "--seat-entropy", "atkr", "--player", "Anna",
               "--player", "Ben", "--first", "Anna").output.strip().splitlines()[0]
    log, secret = str(tmp_path / "g.devlog"), str(tmp_path / "g.secret")
    assert run("--store", store, "export", game, "-o", log, "--secret", secret).exit_code == 0
    exported = json.load(open(secret))
    assert sorted(exported["seats"]) == ["seata", "seatb"]
    assert run("--store", other, "import", log, "--secret", secret).exit_code == 0
    run("--store", other, "bet", game, "50", "--as", "Anna")
    run("--store", other, "bet", game, "50", "--as", "Ben")
    drawn = run("--store", other, "draw", game, "--as", "Anna")
    assert drawn.exit_code == 0, drawn.output  # the mixed chance is there: a coal is drawn
    # records: 1 table_opened, 2-3 the seats, 4-5 game_created and round_started, 6-8 the
    # bets and their reveal, 9 the coal
    assert drawn.output.startswith("#9    Anna draws ")


def test_a_seated_game_takes_the_desk_corrections_and_disputes_and_still_verifies(tmp_path):
    """Seat entropy and the referee's desk (engine.desk) together: a correction in the
    middle (its draw after it re-derived from the mixed seed and the correction's epoch), a
    dispute after the end (the seats' reveal stays the game's last own record), the seal
    covering the final head, and verify holding all of it."""
    from engine.game import REFEREE

    svc, game = seated(tmp_path, names=NAMES[:2], values=VALUES[:2])
    sit_all(svc, game, NAMES[:2], VALUES[:2])
    svc.submit(game, {"type": "bet", "player": "Anna", "amount": 50}, actor=0)
    svc.submit(game, {"type": "bet", "player": "Ben", "amount": 50}, actor=1)
    first = svc.view(game)["turn"]
    drawn = svc.submit(game, {"type": "draw", "player": first}, actor=NAMES.index(first))
    corrected = svc.submit(game, {"type": "correct", "to": drawn.records[0].seq - 1,
                                  "reason": "the wrong seat drew"}, actor=REFEREE)
    assert corrected.receipt["seq"] == corrected.records[-1].seq  # desk answers have receipts
    bots = {s: make_bot("atkr", "random", random.Random(7 + s)) for s in range(2)}
    assert play_out(svc, game, bots)["over"]
    end = svc.store.head(game).seq
    assert svc.store.read(game, after=end - 1).records[0].event["type"] == "seats_revealed"
    svc.submit(game, {"type": "dispute", "player": "Ben", "seq": 6, "text": "my bet"}, actor=1)
    seal = svc.seal(game)
    assert seal["seq"] == end + 1  # sealed again at the final head, the dispute included
    result = verify_bytes(svc.store.log_bytes(game))
    assert result.ok and result.finished and result.seed_checked, result.reason
    assert "every seat's revealed value matches the commitment it recorded" in result.checks


@pytest.mark.parametrize("where", ["before the kind", "after the kind"])
def test_seat_entropy_is_taken_before_or_after_the_kind(tmp_path, where):
    """`devil new --seat-entropy atkr ...` and `devil new atkr ... --seat-entropy` make the
    same seated game (a newcomer types it after the kind, as every other option of new)."""
    store = str(tmp_path / "store")
    kind_args = ["atkr", "--player", "Anna", "--player", "Ben"]
    args = (["--seat-entropy", *kind_args] if where == "before the kind"
            else [*kind_args, "--seat-entropy"])
    out = run("--store", store, "new", *args)
    assert out.exit_code == 0, out.output
    game = out.output.split()[0]
    types = [r.event["type"] for r in FileStore(store).read(game).records]
    assert types == ["table_opened", "seat_committed", "seat_committed", "game_created",
                     "round_started"]


@pytest.mark.parametrize("kind", ["castle", "atkr"])
def test_a_game_still_seating_verifies_as_in_progress(tmp_path, kind):
    """Issue 19.1: a served game whose seats have not all sat (SEAT-1: no draw yet) is a sound
    log in progress; verify said exit 3 for Castle (its setup notes read the kind's state, and
    a seating game has none yet)."""
    svc, game = seated(tmp_path, kind)
    svc.submit(game, {"type": "seat_entropy", "player": "Anna", "value": VALUES[0]}, actor=0)
    result = verify_bytes(svc.store.log_bytes(game))
    assert result.ok and not result.finished, result.reason
    assert "seating: 1 of 3 seats have given their entropy; no draw yet" in result.checks
    path = str(tmp_path / "store" / f"{game}.devlog")
    out = run("verify", path)
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"OK {path}: {kind} game {game}, 2 events, in progress")
    # a table just opened, nobody sat yet: in progress too
    _svc, fresh = seated(tmp_path, kind)
    out = run("--store", str(tmp_path / "store"), "verify", fresh)
    assert out.exit_code == 0 and "1 events, in progress" in out.output, out.output


def test_the_audit_of_a_game_still_seating_says_there_is_nothing_to_audit_yet(tmp_path):
    """Issue 19.1 (atkr): the bank's audit of a sound log with no bet yet (SEAT-1) was
    reported as a damaged record 0 (exit 3); it is a usage error, exit 2, and a folder of
    games skips it."""
    svc, game = seated(tmp_path, "atkr")
    svc.submit(game, {"type": "seat_entropy", "player": "Anna", "value": VALUES[0]}, actor=0)
    store = str(tmp_path / "store")
    out = run("--store", store, "audit", game)
    assert out.exit_code == 2, out.output
    assert out.output.strip() == (f"error: game {game} is still seating (SEAT-1): nothing has "
                                  "been played yet, so there is nothing to audit")
    many = run("audit", store)
    assert many.exit_code == 0, many.output
    assert "0 damaged, 1 without an audit" in many.output
