"""Whole games through the `devil` command line, and its errors and exit codes."""

import json

import pytest
from click.testing import CliRunner

from client.cli import cli


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path), *map(str, args)])
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    run.store = tmp_path
    return run


def show(devil, game, *extra):
    return json.loads(devil("show", game, "--json", *extra).stdout)


def test_a_whole_digital_game_through_the_cli(devil):
    names = ["Anna", "Ben", "Cleo"]
    created = json.loads(devil("new", "atkr", *sum((["--player", n] for n in names), []),
                               "--seed", 11, "--json").stdout)
    game = created["game"]
    assert created["players"] == names
    for _ in range(3000):
        view = show(devil, game)
        if view["phase"] == "over":
            break
        if view["phase"] == "bet":
            for p in view["players"]:
                if not p["has_bet"]:
                    devil("bet", game, min(p["money"], 100), "--as", p["name"])
        else:
            turn = view["turn"]
            me = next(p for p in view["players"] if p["name"] == turn)
            if me["coals"] and me["total"] >= 100:
                devil("stop", game, "--as", turn)
            else:
                devil("draw", game, "--as", turn)
    view = show(devil, game)
    assert view["phase"] == "over" and view["winners"]
    richest = max(p["money"] for p in view["players"])
    assert richest >= 1600
    assert view["winners"] == [p["name"] for p in view["players"] if p["money"] == richest]
    entries = json.loads(devil("log", game, "--json").stdout)
    assert entries[0]["event"]["type"] == "game_created"
    assert entries[-1]["event"]["type"] == "game_ended"
    assert entries[-1]["event"]["seed"] == 11
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    listing = json.loads(devil("games", "--json").stdout)
    assert listing[0]["game"] == game and listing[0]["phase"] == "over"


def test_a_whole_physical_game_through_the_cli(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical", "--ring", 47).stdout.strip()
    # round 1: both bet 200; Anna 100+100, Ben 75 -> Anna 700, Ben 600 (see test_rules ATKR-8)
    devil("bet", game, 200, "--as", "Anna")
    devil("bet", game, 200, "--as", "Ben")
    devil("draw", game, "--as", "Anna", "--coal", 100)
    devil("draw", game, "--as", "Anna", "--coal", 100)
    devil("stop", game, "--as", "Anna")
    devil("draw", game, "--as", "Ben", "--coal", 75)
    devil("stop", game, "--as", "Ben")
    view = show(devil, game)
    assert [p["money"] for p in view["players"]] == [700, 600] and view["round"] == 2
    # round 2: Ben starts; Anna bets 700 and lays out 775 with 12 coals -> 2200, game over
    devil("bet", game, 700, "--as", "Anna")
    devil("bet", game, 0, "--as", "Ben")
    devil("draw", game, "--as", "Ben", "--coal", 10)
    devil("stop", game, "--as", "Ben")
    for coal in (100, 100, 75, 75, 75, 50, 50, 50, 50, 50, 50, 50):
        devil("draw", game, "--as", "Anna", "--coal", coal)
    out = devil("stop", game, "--as", "Anna").stdout
    assert "Game over. Winner: Anna" in out
    view = show(devil, game)
    assert view["phase"] == "over" and view["winners"] == ["Anna"]
    assert [p["money"] for p in view["players"]] == [2200, 600]


def test_a_refused_command_exits_1_names_the_rule_and_records_nothing(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical").stdout.strip()
    before = json.loads(devil("log", game, "--json").stdout)
    result = devil("bet", game, 25, "--as", "Anna", code=1)
    assert "ATKR-3.1" in result.stderr
    result = devil("draw", game, "--as", "Anna", "--coal", 10, code=1)
    assert "ATKR-2" in result.stderr
    result = devil("bet", game, 10, "--as", "Zed", code=2)  # unknown player: a usage error
    assert "ATKR-9.2: there is no player called 'Zed'" in result.stderr
    result = devil("show", game, "--as", "Zed", code=2)       # reading: a usage error
    assert "no player called 'Zed'" in result.stderr
    refused = json.loads(devil("bet", game, 15, "--as", "Anna", "--json", code=1).stdout)
    assert refused == {"ok": False, "rule": "ATKR-3.1", "exit": 1,
                       "error": "ATKR-3.1: a bet is a multiple of 10 from 0 up; 15 is not"}
    assert json.loads(devil("log", game, "--json").stdout) == before


def test_a_sealed_bet_is_not_shown_to_another_seat(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--seed", 1).stdout.strip()
    devil("bet", game, 60, "--as", "Anna")
    ben = show(devil, game, "--as", "Ben")
    assert [p["bet"] for p in ben["players"]] == [None, None]
    assert ben["legal"][0] == {"type": "bet", "player": "Ben", "amount": 0}
    log = devil("log", game, "--as", "Ben").stdout
    assert log.splitlines()[-1] == "#3    Anna places a sealed bet"
    assert '"amount": 60' not in devil("log", game, "--as", "Ben", "--json").stdout
    assert "Anna bets 60" in devil("log", game).stdout


def test_usage_errors_exit_2_and_damage_exits_3(devil):
    devil("show", "atkr-nosuch", code=2)
    devil("new", "atkr", "--player", "Solo", code=2)
    devil("new", "atkr", "--player", "A", "--player", "A", code=2)
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--seed", 2).stdout.strip()
    devil("submit", game, "not json", "--as", "Anna", code=2)
    result = devil("submit", game, '{"type": "dance"}', "--as", "Anna", code=2)
    assert "unknown atkr command type 'dance'" in result.stderr
    path = devil.store / f"{game}.devlog"
    data = bytearray(path.read_bytes())
    data[-12] ^= 0xFF
    path.write_bytes(bytes(data))
    result = devil("show", game, code=3)
    assert "record 2 is bad" in result.stderr
    devil("bet", game, 10, "--as", "Anna", code=3)
    assert path.read_bytes() == bytes(data)  # nothing appended, nothing cut


def test_retry_with_the_same_command_id_records_once(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--seed", 2).stdout.strip()
    first = json.loads(devil("bet", game, 30, "--as", "Anna", "--id", "k1", "--json").stdout)
    again = json.loads(devil("bet", game, 30, "--as", "Anna", "--id", "k1", "--json").stdout)
    assert first["repeated"] is False and again["repeated"] is True
    assert again["events"] == first["events"] == [{"seq": 3, "type": "bet_placed", "seat": 0,
                                                   "amount": 30}]
    assert len(json.loads(devil("log", game, "--json").stdout)) == 3


def test_review_findings_stay_fixed(devil):
    """Cases found by review: each gives a clear error and changes nothing."""
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--seed", 5).stdout.strip()
    before = devil("log", game, "--json").stdout
    assert "ATKR-3.1" in devil("bet", game, -10, "--as", "Anna", code=1).stderr
    result = devil("submit", game, '{"type": "bet", "player": "Ben", "amount": 30}',
                   "--as", "Anna", code=2)
    assert "does not match" in result.stderr
    result = devil("submit", game, '{"type": "bet", "amount": 60.5}', "--as", "Anna", code=2)
    assert "expected int" in result.stderr
    result = devil("submit", game, '{"type": "bet", "amount": "70"}', "--as", "Anna", code=2)
    assert "expected int" in result.stderr
    devil("new", "atkr", "--player", "A", "--player", "B", "--seed", 2**64, code=2)
    devil("new", "atkr", "--player", "A", "--player", "B", "--track", "0-50,200,10000000000000",
          code=2)
    devil("new", "atkr", "--player", "A\nB", "--player", "C", code=2)
    devil("show", "", code=2)
    assert json.loads(devil("bet", game, "abc", "--as", "Anna", "--json", code=2).stdout)["ok"] \
        is False
    devil("bet", game, 30, "--as", "Anna", "--id", "same")
    result = devil("bet", game, 40, "--as", "Ben", "--id", "same", code=2)
    assert "already used for a different command; give a new id" in result.stderr
    assert "30" not in result.stderr.split("id")[-1]  # the original is not echoed
    assert len(json.loads(devil("log", game, "--json").stdout)) == \
        len(json.loads(before)) + 1
    # a wrong secret is caught before any draw is made from it; bets need no secret
    (devil.store / f"{game}.secret").write_text('{"seed": 6, "salt": "00"}')
    devil("bet", game, 0, "--as", "Ben")
    result = devil("draw", game, "--as", "Anna", code=3)
    assert "does not match the commitment" in result.stderr


def test_a_rehashed_impossible_event_is_damage_everywhere(devil):
    game = devil("new", "atkr", "--player", "A", "--player", "B", "--first", "A",
                 "--physical").stdout.strip()
    devil("bet", game, 0, "--as", "A")
    devil("bet", game, 0, "--as", "B")   # records 4 (bet) and 5 (reveal): left 1, 0
    devil("draw", game, "--as", "A", "--coal", 25)
    path = devil.store / f"{game}.devlog"
    from engine.log import read_path
    assert [r.left for r in read_path(str(path)).records] == [1, 0, 0, 1, 0, 0]
    # records 1-2 and 4-5 are two-record commands: forge only single-record ones
    import engine.log as log
    result = log.scan(path.read_bytes())
    h = result.header
    out = log.encode_header(h.kind, h.game, h.created)
    previous = log.scan(out).header.link
    for r in result.records:
        event = {**r.event, "seat": 9} if r.seq == 6 else r.event
        pack = __import__("msgpack").Packer(use_bin_type=True).pack
        covered = (b"\x97" + pack(r.seq) + pack(r.actor) + pack(r.cmd) + pack(r.ts)
                   + pack(event) + pack(r.left))
        previous = log.link_of(previous, covered)
        out += covered + b"\xc4\x08" + previous
    path.write_bytes(out)
    for args in (("show", game), ("log", game), ("games",), ("replay", str(path)),
                 ("audit", str(path)), ("verify", str(path))):
        result = devil(*args, code=3 if args[0] != "games" else 0)
        if args[0] == "games":
            assert "DAMAGED" in result.stdout and "record 6" in result.stdout
        elif args[0] != "verify":
            assert "record 6 is bad" in result.stderr


def test_game_ids_by_unique_part_and_export(devil, tmp_path):
    game = devil("new", "atkr", "--player", "A", "--player", "B", "--seed", 1).stdout.strip()
    tail, head = game[-3:], game.split("-")[1][:3]
    assert json.loads(devil("show", tail, "--json").stdout)["game"] == game
    assert json.loads(devil("show", head, "--json").stdout)["game"] == game
    assert "too short" in devil("show", game[-1], code=2).stderr
    out = tmp_path / "copy.devlog"
    devil("export", tail, "-o", out)
    assert out.read_bytes() == (devil.store / f"{game}.devlog").read_bytes()
    assert "exists already" in devil("export", tail, "-o", out, code=2).stderr
    assert "no such file" in devil("verify", tmp_path / "missing.devlog", code=2).stderr
