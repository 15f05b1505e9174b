"""`devil tournament checkin/forfeit/swap/unpair` and `devil replace` end to end on a file
store: what they print, --json, and the exit codes of a refusal (1) and a usage error (2)."""

import json

from click.testing import CliRunner

from client.cli import cli


def run(store, *args):
    return CliRunner().invoke(cli, ["--store", store, *args])


def test_the_organisers_commands(tmp_path):
    store = str(tmp_path / "store")
    made = run(store, "tournament", "new", "Cup", "--game", "atkr", "--rounds", "2",
               "--table-size", "2-3", "--check-in", "--seed", "3", "--json",
               *[a for p in "ABCDE" for a in ("--player", p)])
    assert made.exit_code == 0, made.output
    t = json.loads(made.output)["tournament"]
    for name in "ABCD":
        got = run(store, "tournament", "checkin", t, name)
        assert got.exit_code == 0 and got.output == f"{name} checked in for round 1\n"
    twice = run(store, "tournament", "checkin", t, "A", "--json")
    assert twice.exit_code == 1 and "TOUR-7.1" in twice.output and "Traceback" not in twice.output
    paired = json.loads(run(store, "tournament", "pair", t, "--json").output)
    # 4 checked in at tables of 2 to 3: two tables of 2; E (not checked in) has no bye
    assert [len(r["players"]) for r in paired["tables"]] == [2, 2] and paired["byes"] == []
    one, two = paired["tables"][0]["players"][0], paired["tables"][1]["players"][0]
    swapped = run(store, "tournament", "swap", t, one, two, "--reason", "clubs")
    assert swapped.exit_code == 0, swapped.output
    assert swapped.output.startswith(f"round 1: {one} and {two} swapped\n  table 1 ")
    undone = run(store, "tournament", "unpair", t, "--reason", "paired too early")
    assert undone.exit_code == 0, undone.output
    assert undone.output == ("round 1 unpaired; 2 game(s) detached: pair it again with "
                             "`devil tournament pair`\n")
    again = json.loads(run(store, "tournament", "pair", t, "--json").output)
    assert again["tables"] == [{**row, "game": again["tables"][i]["game"]}
                               for i, row in enumerate(paired["tables"])]
    no_reason = run(store, "tournament", "forfeit", t, "A")
    assert no_reason.exit_code == 2 and "--reason" in no_reason.output
    gone = run(store, "tournament", "forfeit", t, "A", "--reason", "did not turn up", "--json")
    assert gone.exit_code == 0, gone.output
    answer = json.loads(gone.output)
    # a table of 2 cannot be made again with 1 (atkr seats 2 to 6): a bot takes the seat
    assert (answer["remade"], answer["bot"]) == (False, "cautious")
    late = run(store, "tournament", "unpair", t, "--reason", "oops")
    assert late.exit_code == 1 and "TOUR-7.5" in late.output
    game = answer["game"]
    taken = run(store, "replace", game, "A", "--bot", "random", "--reason", "again")
    assert taken.exit_code == 1 and "DESK-7" in taken.output
    assert run(store, "verify", t).exit_code == 0
    assert run(store, "verify", game).exit_code == 0
