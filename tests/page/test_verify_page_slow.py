"""The verify page at scale (issue 20.8, `@pytest.mark.slow`): its verdict equals `devil
verify`'s on 1,000 simulated games of both kinds (engine.simulate: bots play digital games to
their end), on a seated game (seat entropy: the mixed seed, SEAT-1, SEAT-2), a physical game
and a game in progress, on every tampered copy opened as a written page, and on any one byte
changed anywhere in a recording."""

from __future__ import annotations

import random

import pytest

from engine.bots import make_bot, play_out
from engine.service import GameService
from engine.simulate import simulate
from engine.store import FileStore
from tests.tools.helpers import rechain

from .test_verify_page import (COALS, REPLAYS, SHIPPED, open_page, read, tampered_copies,  # noqa: F401
                               write_page)
from .verify_helpers import agree, objects, page_check, python_verdict, with_event

pytestmark = pytest.mark.slow

NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jana"]
GAMES = 1000


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    """One page of the verify page (a shipped recording's), opened from file://."""
    tab = browser.new_page()
    path, _answer = write_page(tmp_path_factory.mktemp("verify"), "castle-3p.devlog",
                               read("castle-3p.devlog"))
    open_page(tab, path)
    yield tab
    tab.close()


def options(kind: str, i: int) -> dict:
    """Game ``i``'s options: every player count in turn, and for castle the beginner game
    (CASTLE-2.6) and the advanced three-player variant (CASTLE-10.4) now and then."""
    if kind == "atkr":
        return {"players": NAMES[:2 + i % 5]}
    n = 3 + i % 8
    out: dict = {"players": NAMES[:n]}
    if i % 7 == 3:
        out["beginner"] = True
    if n == 3 and i % 2:
        out["variants"] = ["advanced-3p"]
    return out


def test_a_thousand_simulated_games_get_devil_verifys_verdict(page):
    seen = {"atkr": 0, "castle": 0}
    for i in range(GAMES):
        kind = "atkr" if i % 2 == 0 else "castle"
        opts = options(kind, i)
        bots = {s: make_bot(kind, "random", random.Random(i * 100 + s))
                for s in range(len(opts["players"]))}
        played = simulate(kind, opts, bots, seed=i + 1, max_rounds=200)
        ok, seq, finished = python_verdict(played.data)
        got = page_check(page, played.data)
        assert ok, (kind, i, seq)
        assert got["state"] == ("verified" if finished else "in-progress"), (kind, i, opts, got)
        if finished:
            assert got["draws"] >= 2, (kind, i)  # the start player and at least one draw
        seen[kind] += 1
        if i % 50 == 0:  # and now and then one draw changed: named where verify names it
            header, _chunks, objs = objects(played.data)
            kinds = ("coal_drawn",) if kind == "atkr" else ("cards_dealt",)
            target = next(o for o in objs if o[4]["type"] in kinds)
            if kind == "atkr":
                copy = with_event(played.data, target[0],
                                  coal=10 if target[4]["coal"] != 10 else 20)
            else:
                pile = list(target[4]["item_pile"])
                copy = with_event(played.data, target[0], item_pile=pile[::-1])
            if copy != played.data:
                assert python_verdict(copy)[:2] == (False, target[0]), (kind, i)
                assert page_check(page, copy)["seq"] == target[0], (kind, i)
    assert seen == {"atkr": GAMES // 2, "castle": GAMES // 2}


def test_a_seated_game_is_derived_from_the_mixed_seed(page, tmp_path):
    values = ["11" * 32, "22" * 32, "a7" * 32]
    for kind in ("atkr", "castle"):
        svc = GameService(FileStore(str(tmp_path / kind)))
        game = svc.create(kind, {"players": NAMES[:3]}, seat_entropy=True).game
        for seat, value in enumerate(values):
            svc.submit(game, {"type": "seat_entropy", "player": NAMES[seat], "value": value},
                       actor=seat)
        bots = {s: make_bot(kind, "random", random.Random(7 + s)) for s in range(3)}
        assert play_out(svc, game, bots, max_rounds=200)["over"]
        data = svc.store.log_bytes(game)
        assert python_verdict(data) == (True, None, True)
        got = page_check(page, data)
        assert got["state"] == "verified", got
        header, _chunks, objs = objects(data)
        assert objs[-1][4]["type"] == "seats_revealed"
        # a revealed value swapped for another (chain recomputed): SEAT-2's commitment fails
        swapped = with_event(data, objs[-1][0], values=[values[1], values[0], values[2]])
        assert python_verdict(swapped)[:2] == (False, objs[-1][0])
        got = page_check(page, swapped)
        assert (got["state"], got["seq"]) == ("failed", objs[-1][0])
        assert got["reason"] == ("the value revealed for Anna does not match the commitment "
                                 "that seat recorded")
        # Cleo's commitment removed (renumbered): the kind's first event comes before it
        # (SEAT-1), at record 4
        dropped = [o for o in objs[:3]] + [o for o in objs[4:]]
        for seq, obj in enumerate(dropped, start=1):
            obj[0] = seq
        copy = rechain(header, dropped)
        assert python_verdict(copy)[:2] == (False, 4)
        assert page_check(page, copy)["seq"] == 4
        # the table opened, only two seats in: in progress, nothing drawn
        assert page_check(page, rechain(header, objs[:3]))["state"] == "in-progress"


def test_a_physical_game_reports_its_draws_as_reported(page, tmp_path):
    svc = GameService(FileStore(str(tmp_path / "store")))
    game = svc.create("atkr", {"players": NAMES[:2], "physical": True}).game
    data = svc.store.log_bytes(game)
    assert python_verdict(data) == (True, None, False)
    assert page_check(page, data)["state"] == "physical"


def test_every_tampered_copy_opened_as_a_written_page(page, tmp_path):
    copies = tampered_copies(read("atkr-2p-random-seed102.devlog"))
    for label in ("coal", "byte", "cut", "seed"):
        copy, seq, _other = copies[label]
        path, answer = write_page(tmp_path, f"{label}.devlog", copy)
        seen = open_page(page, path)
        assert (seen["state"], seen["seq"]) == ("failed", seq), (label, seen)
        assert answer["first_bad_seq"] == seq and not answer["ok"]
        assert seen["agree"] == "The two verdicts agree."
        assert page.inner_text("#python-verdict").startswith(f"FAILED at record {seq}: ")
    path, answer = write_page(tmp_path, "boundary.devlog", copies["boundary"][0])
    assert open_page(page, path)["state"] == "in-progress" and answer["ok"]


def test_castle_deal_and_seed_tampered_are_named_as_verify_names_them(page):
    data = read("castle-3p.devlog")
    header, _chunks, objs = objects(data)
    dealt = next(o for o in objs if o[4]["type"] == "cards_dealt")
    pile = list(dealt[4]["item_pile"])
    swapped = with_event(data, dealt[0], item_pile=[pile[1], pile[0]] + pile[2:])
    other = with_event(data, dealt[0], professions=list(reversed(dealt[4]["professions"])))
    last = objs[-1]
    reveal = dict(last[4]["reveal"])
    wrong = with_event(data, last[0], reveal={**reveal, "seed": reveal["seed"] + 1})
    for copy, seq in ((swapped, dealt[0]), (other, dealt[0]), (wrong, last[0])):
        assert python_verdict(copy)[:2] == (False, seq)
        got = page_check(page, copy)
        assert (got["state"], got["seq"]) == ("failed", seq)
    assert "the deal's item pile re-derived from the seed" in page_check(page, swapped)["reason"]


@pytest.mark.parametrize("name", ["castle-3p.devlog", "atkr-4p-cautious-seed104.devlog"])
def test_any_one_byte_changed_gets_the_same_verdict(page, name):
    """A seeded sample of single-byte changes anywhere (header, lengths, links, events): the
    page and verify agree, record for record."""
    data = read(name)
    rng = random.Random(208)
    for _ in range(400):
        copy = bytearray(data)
        at = rng.randrange(len(copy))
        copy[at] = (copy[at] + rng.randrange(1, 256)) % 256
        assert agree(page_check(page, bytes(copy)), bytes(copy)), at


def test_a_corrected_game_draws_on_with_the_epoch(page):
    """DESK-6: after a correction the draws go on, labelled with its epoch; the voided draw
    replayed in its place (chain recomputed) fails at that record, on both sides."""
    from engine.store import MemoryStore

    for seed in range(1, 40):
        svc = GameService(MemoryStore())
        game = svc.create("atkr", {"players": NAMES[:2], "first": "Anna"}, seed=seed).game
        svc.submit(game, {"type": "bet", "player": "Anna", "amount": 60})
        svc.submit(game, {"type": "bet", "player": "Ben", "amount": 40})
        before = svc.load(game).version
        voided = svc.submit(game, {"type": "draw", "player": "Anna"}).events[0].coal
        svc.submit(game, {"type": "correct", "to": before, "reason": "Anna's hand slipped"})
        again = svc.submit(game, {"type": "draw", "player": "Anna"})
        if again.events[0].coal != voided:
            break
    bots = {s: make_bot("atkr", "cautious", random.Random(seed + s)) for s in range(2)}
    assert play_out(svc, game, bots)["over"]
    data = svc.store.log_bytes(game)
    assert python_verdict(data) == (True, None, True)
    got = page_check(page, data)
    assert got["state"] == "verified", got
    seq = again.records[0].seq
    copy = with_event(data, seq, coal=voided)
    assert python_verdict(copy)[:2] == (False, seq)
    got = page_check(page, copy)
    assert (got["state"], got["seq"]) == ("failed", seq)


def test_a_game_with_a_takeback_verifies_on_both_sides(page, tmp_path):
    """DESK-12.6: Ben's sealed bet taken back with every seat's consent (record 4 voided, the
    epoch unchanged), the game then played to its end: every draw as the seed gives it."""
    from tests.desk.helpers import ok

    store = tmp_path / "store"
    game = ok(store, "new", "atkr", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
              "--first", "Anna", "--seed", 7).splitlines()[0]
    ok(store, "bet", game, 60, "--as", "Anna")
    ok(store, "bet", game, 40, "--as", "Ben")
    ok(store, "takeback", game, "--as", "Ben")
    ok(store, "takeback", game, "--as", "Anna", "--consent")
    ok(store, "takeback", game, "--as", "Cleo", "--consent")
    svc = GameService(FileStore(str(store)))
    bots = {s: make_bot("atkr", "cautious", random.Random(70 + s)) for s in range(3)}
    assert play_out(svc, game, bots)["over"]
    data = svc.store.log_bytes(game)
    header, _chunks, objs = objects(data)
    assert [o[4]["type"] for o in objs[7:8]] == ["takeback_granted"]
    assert python_verdict(data) == (True, None, True)
    got = page_check(page, data)
    assert got["state"] == "verified", got
