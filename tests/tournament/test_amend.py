"""Amended results (TOUR-9.1 to 9.4) and a 3-round event with an adjudicated table and an
amended result after a desk correction: values worked by hand from the games' rules and
docs/tournaments.md."""

import json
import os
from fractions import Fraction

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.desk.commands import Correct, Dispute, Ruling
from engine.errors import IllegalCommand
from engine.replay import verify_bytes
from engine.store import FileStore
from engine.tournament import bundle
from engine.tournament import events as ev
from engine.tournament.adjudicate import adjudicate, amend
from engine.tournament.clock import MINUTE

from .amend_helpers import ROUND2, play_round, round_one
from .helpers import by_player, fixed, organiser, quick_atkr

P = ["Anna", "Ben", "Cleo", "Dora"]
#: quick_atkr's round 2 as the referee first recorded it (Cleo 200) and as it was (Cleo 600)
WRONG = {"Anna": 600, "Ben": 600, "Cleo": 200, "Dora": 0}
RIGHT = {"Anna": 600, "Ben": 600, "Cleo": 600, "Dora": 0}
#: record 21 ends round 1 of quick_atkr (its pawns and round 2's round_started)
ROUND1_END = 21


def _attach(org, t, round_, table, game):
    org.submit(t, ev.Attach(round=round_, table=table, game=game,
                            created=org.service.load(game).header.created))


def test_a_three_round_event_with_an_adjudicated_table_and_an_amended_result(tmp_path):
    """Round 1 (Anna, Ben, Cleo, Dora): recorded with Cleo's round-2 bet as 200: money 2000,
    1800, 800, 600 (quick_atkr): points 6, 4, 2, 1.  Round 2 (Ben, Cleo, Dora, Anna) runs
    out of time in its game's round 2: by ATKR-H1 the money after its round 1, Ben (seat 0)
    700 and 600 for the others: Ben 6, the others (4 + 2 + 1) / 3 = 7/3.  During round 2 the
    referee corrects round 1's game (Cleo bet 600) and records it again: 2000, 1800, 1800,
    600: Ben and Cleo share 2nd: (4 + 2) / 2 = 3 each, Dora 1.  Round 3 (Dora, Cleo, Ben,
    Anna): Dora 600 and Cleo 600 end with 2000 and 1800, Anna's 300 pays 2x: 900, Ben 600:
    6, 4, 2, 1.
    Totals: Anna 6 + 7/3 + 2 = 31/3, Ben 3 + 6 + 1 = 10, Cleo 3 + 7/3 + 4 = 28/3, Dora
    1 + 7/3 + 6 = 28/3.  Cleo and Dora tie on points and on opponents' points (each met all
    three others in every round: 3 x (31/3 + 10 + 28/3) = 89); money breaks it: Cleo 1800 +
    600 + 1800 = 4200, Dora 600 + 600 + 2000 = 3200."""
    org = organiser(FileStore(str(tmp_path / "store")))
    service = org.service
    t = org.create(fixed(P, rounds=3, game="atkr", options={"physical": True}, round_time=45))
    org.pair(t, seating=[P], games=False)
    first = quick_atkr(service, P, WRONG)
    assert org.attach(t, first)["result"]["points"] == ["6", "4", "2", "1"]
    org.close_round(t)
    r2 = ["Ben", "Cleo", "Dora", "Anna"]
    second = org.pair(t, seating=[r2])["tables"][0]["game"]
    round_one(service, second, r2)
    # the desk corrects round 1's game; the standings keep the old result until amended
    service.submit(first, Correct(to=ROUND1_END, reason="Cleo bet 600 in round 2, not 200"))
    with pytest.raises(IllegalCommand) as unfinished:
        amend(org, t, 1, "Cleo's bet", round_=1)
    assert unfinished.value.rule == "TOUR-9.3"
    assert by_player(org.standings(t))["Cleo"]["points_exact"] == "2"
    play_round(service, first, P, RIGHT, ROUND2)
    stream_before = len(org.store.log_bytes(t))
    done = amend(org, t, 1, "Cleo's round-2 bet corrected at the desk", round_=1)
    assert len(org.store.log_bytes(t)) > stream_before
    assert done["was"] == {"seq": 48, "places": [1, 2, 3, 4], "points": ["6", "4", "2", "1"],
                           "money": [2000, 1800, 800, 600]}
    assert done["result"]["money"] == [2000, 1800, 1800, 600]
    assert done["result"]["places"] == [1, 2, 2, 4]
    assert done["result"]["points"] == ["6", "3", "3", "1"]
    assert done["standing"] == [2]  # round 2 was paired with the old result: it stands
    with pytest.raises(IllegalCommand) as again:
        amend(org, t, 1, "once more", round_=1)
    assert again.value.rule == "TOUR-9.2"
    ends = org.state(t).paired_at[2] + 45 * MINUTE
    adjudicated = adjudicate(org, t, 1, "round time over", at=ends + MINUTE)
    assert adjudicated["result"]["points"] == ["6", "7/3", "7/3", "7/3"]
    org.close_round(t)
    r3 = ["Dora", "Cleo", "Ben", "Anna"]
    org.pair(t, seating=[r3], games=False)
    third = quick_atkr(service, r3, {"Dora": 600, "Cleo": 600, "Ben": 0, "Anna": 300})
    assert org.attach(t, third)["result"]["money"] == [2000, 1800, 600, 900]
    assert org.close_round(t)["finished"]
    table = org.standings(t)
    rows = by_player(table)
    assert [r["player"] for r in table["standings"]] == ["Anna", "Ben", "Cleo", "Dora"]
    assert {n: Fraction(r["points_exact"]) for n, r in rows.items()} == {
        "Anna": Fraction(31, 3), "Ben": Fraction(10), "Cleo": Fraction(28, 3),
        "Dora": Fraction(28, 3)}
    assert rows["Cleo"]["opponents_points"] == rows["Dora"]["opponents_points"] == 89
    assert rows["Cleo"]["money"] == 4200 and rows["Dora"]["money"] == 3200
    assert all(r["adjudicated"] == [2] and r["amended"] == [1] for r in rows.values())
    assert org.state(t).ranking == ["Anna", "Ben", "Cleo", "Dora"]
    # the stream re-decides; the bundle verifies and shows the history
    assert verify_bytes(org.store.log_bytes(t)).ok
    out = str(tmp_path / "cup")
    manifest = bundle.write(org.store, t, out)
    assert manifest["amendments"][0]["was"]["seq"] == 48
    assert manifest["amendments"][0]["now"]["points"] == ["6", "3", "3", "1"]
    checked = bundle.verify(out + ".zip")
    assert checked["ok"], checked["problems"]
    assert any("1 result amended (round 1 table 1: record 48 -> " in c
               for c in checked["checks"])
    # every page's history names both (engine/tournament/history.py, issue 22.9)
    from engine.tournament.history import lines
    from engine.tournament.printing import Printer

    history = {h["kind"]: h for h in lines(Printer(service).events(t))}
    assert history["adjudication"]["round"] == 2
    assert history["adjudication"]["text"] == (
        f"round 2 table 1 ({second}) ended at time (round time over)")
    amended = history["amendment"]["text"]
    assert amended.startswith(f"round 1 table 1's result amended from {first}'s record #")
    assert amended.endswith(" (was #48) (Cleo's round-2 bet corrected at the desk); "
                            "round 2 stands as paired")


def test_a_later_round_paired_with_the_old_result_stands_and_the_standings_say_so():
    org = organiser()
    t = org.create(fixed(P, rounds=2, game="atkr", options={"physical": True}))
    org.pair(t, seating=[P], games=False)
    first = quick_atkr(org.service, P, WRONG)
    org.attach(t, first)
    org.close_round(t)
    org.pair(t, seating=[P], games=False)
    org.service.submit(first, Correct(to=ROUND1_END, reason="Cleo bet 600"))
    play_round(org.service, first, P, RIGHT, ROUND2)
    done = amend(org, t, 1, "Cleo's bet", round_=1)
    assert done["standing"] == [2]
    note = org.standings(t)["notes"][0]
    assert note.startswith("round 1, table 1: result amended (Cleo's bet): read again from ")
    assert note.endswith("replacing the one read at record 48; round 2 had been paired with "
                         "the old result and stand")
    assert org.state(t).tables[2][0].players == P  # the pairing is not touched


def test_refusals_and_why_the_bundle_needed_the_amendment(tmp_path):
    org = organiser(FileStore(str(tmp_path / "store")))
    t = org.create(fixed(P, rounds=2, game="atkr", options={"physical": True}))
    org.pair(t, seating=[P], games=False)
    first = quick_atkr(org.service, P, WRONG)
    with pytest.raises(IllegalCommand) as none:
        amend(org, t, 1, "why")
    assert none.value.rule == "TOUR-9.1"
    org.attach(t, first)
    # a dispute and a rejected ruling after the end change nothing
    org.service.submit(first, Dispute(seq=24, text="my bet was 600", player="Cleo"))
    org.service.submit(first, Ruling(dispute=1, upheld=False, reason="the slip says 200"))
    with pytest.raises(IllegalCommand) as nothing:
        amend(org, t, 1, "why")
    assert nothing.value.rule == "TOUR-9.2" and "after record 48" in nothing.value.message
    org.service.submit(first, Correct(to=ROUND1_END, reason="Cleo bet 600 after all"))
    play_round(org.service, first, P, RIGHT, ROUND2)
    with pytest.raises(IllegalCommand) as no_reason:
        amend(org, t, 1, " ")
    assert no_reason.value.rule == "TOUR-9.1"
    # before the amendment the bundle cannot verify: the result's head is no longer the end
    bad = str(tmp_path / "before")
    bundle.write(org.store, t, bad)
    failed = bundle.verify(bad)
    assert not failed["ok"]
    assert any(f"game {first} (round 1, table 1): the recorded result" in p
               for p in failed["problems"])
    amend(org, t, 1, "Cleo's bet")
    good = str(tmp_path / "after")
    bundle.write(org.store, t, good)
    assert bundle.verify(good)["ok"]


def test_the_cli_warns_at_the_desk_and_amends(tmp_path):
    store = str(tmp_path / "store")
    org = organiser(FileStore(store))
    t = org.create(fixed(P, rounds=1, game="atkr", options={"physical": True}))
    org.pair(t, seating=[P], games=False)
    first = quick_atkr(org.service, P, WRONG)
    org.attach(t, first)

    def run(*args):
        return CliRunner().invoke(cli, ["--store", store, *args])

    corrected = run("correct", first, "--to", str(ROUND1_END), "--reason", "Cleo bet 600")
    assert corrected.exit_code == 0, corrected.output
    assert (f"warning: {first} is attached to table 1 of round 1 of {t}, whose standings use "
            "its result") in corrected.output
    refused = run("tournament", "amend", t, "1", "--reason", "Cleo's bet")
    assert refused.exit_code == 1 and "TOUR-9.3" in refused.output
    assert "Traceback" not in refused.output
    play_round(org.service, first, P, RIGHT, ROUND2)
    done = run("tournament", "amend", t, "1", "--reason", "Cleo's bet", "--json")
    assert done.exit_code == 0, done.output
    answer = json.loads(done.output)
    assert answer["tournament"] == t and answer["result"]["points"] == ["6", "3", "3", "1"]
    text = run("tournament", "standings", t)
    assert "  amended r1" in text.output and "note: round 1, table 1: result amended" in text.output
    usage = run("tournament", "amend", t, "1")
    assert usage.exit_code == 2 and "--reason" in usage.output
    logged = run("log", t)
    assert "round 1 table 1: result amended (Cleo's bet): ~~result at record 48~~ -> record " \
        in logged.output
    helped = run("tournament", "amend", "--help")
    assert "TOUR-9.2" in helped.output and "devil correct" in helped.output
    assert os.path.exists(os.path.join(store, f"{t}.devlog"))


def test_a_finished_tournament_takes_an_amendment_and_its_final_standings_follow(tmp_path):
    """TOUR-9.5: one round (Anna, Ben, Cleo, Dora), closed, so the tournament is finished:
    money 2000, 1800, 800, 600: points 6, 4, 2, 1.  The referee then finds Cleo's round-2 bet
    was 600, not 200, corrects the game at the desk and records it again: 2000, 1800, 1800,
    600: Ben and Cleo share 2nd, (4 + 2) / 2 = 3 each; the amendment is recorded after the
    end, the final standings follow, and the bundle verifies with it."""
    org = organiser(FileStore(str(tmp_path / "store")))
    service = org.service
    t = org.create(fixed(P, rounds=1, game="atkr", options={"physical": True}))
    org.pair(t, seating=[P], games=False)
    first = quick_atkr(service, P, WRONG)
    org.attach(t, first)
    assert org.close_round(t)["finished"]
    assert by_player(org.standings(t))["Cleo"]["points_exact"] == "2"
    service.submit(first, Correct(to=ROUND1_END, reason="Cleo bet 600 in round 2, not 200"))
    play_round(service, first, P, RIGHT, ROUND2)
    done = amend(org, t, 1, "Cleo's round-2 bet corrected at the desk after the event",
                 round_=1)
    assert done["result"]["points"] == ["6", "3", "3", "1"]
    rows = by_player(org.standings(t))
    assert [rows[p]["points_exact"] for p in P] == ["6", "3", "3", "1"]
    assert org.state(t).finished
    assert verify_bytes(org.store.log_bytes(t)).ok
    out = str(tmp_path / "b")
    bundle.write(org.store, t, out)
    checked = bundle.verify(out)
    assert checked["ok"], checked["problems"]
    with pytest.raises(IllegalCommand) as later:  # nothing else is recorded (TOUR-5.3)
        org.adjust(t, "Dora", "-1", "late")
    assert later.value.rule == "TOUR-5.3"
