"""Players files (``tournament new --players-file``; docs/tournaments.md, "Players files").
A CSV's header row was registered as a player and its other columns dropped: now a first line
with a comma and a ``name`` column (or just ``name``) is a header, every other column is kept
as the player's attribute (recorded in the stream's tournament_created, shown by show and
standings), a file of one name a line still works, and a bad file is refused (exit 2) naming
its line, with nothing recorded."""

import json
import os
import threading
import zipfile

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.log import scan

OLD = os.path.join(os.path.dirname(__file__), "old_streams", "cup-before-attributes.zip")


def run(store, *args):
    return CliRunner().invoke(cli, ["--store", store, "tournament", *args])


def new(tmp_path, content, *more, size="4-4"):
    path = tmp_path / "players.csv"
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    store = str(tmp_path / "store")
    got = run(store, "new", "Cup", "--game", "atkr", "--rounds", "1", "--table-size", size,
              "--seed", "3", "--players-file", str(path), *more, "--json")
    return store, path, got


def tournaments(store):
    return [f for f in os.listdir(store) if f.startswith("tournament-")] \
        if os.path.isdir(store) else []


CSV = ("\ufeffclub,Name,rating\n"       # a BOM (spreadsheets write one), name not first
       "# registered on 1 March\n"      # a comment
       "Köln,Anna,1500\n"
       "\n"                             # a blank line
       " Bonn , Ben ,1380\n"            # blanks around cells
       ",Cleo,1200\n"                   # an empty cell
       '"Aachen, Nord",Dora,\n')        # a quoted comma
ATTRIBUTES = {"Anna": {"club": "Köln", "rating": "1500"},
              "Ben": {"club": "Bonn", "rating": "1380"},
              "Cleo": {"club": "", "rating": "1200"},
              "Dora": {"club": "Aachen, Nord", "rating": ""}}


def test_a_csv_with_a_header_keeps_every_column(tmp_path):
    store, _path, made = new(tmp_path, CSV)
    assert made.exit_code == 0, made.output
    t = json.loads(made.output)["tournament"]
    # recorded with the registration, in the stream's first record
    first = scan(open(os.path.join(store, f"{t}.devlog"), "rb").read()).records[0].event
    assert first["type"] == "tournament_created"
    assert first["players"] == ["Anna", "Ben", "Cleo", "Dora"]
    assert first["attributes"] == ATTRIBUTES
    assert list(first["attributes"]["Dora"]) == ["club", "rating"]  # the header's order
    shown = run(store, "show", t)
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[1:] == [
        "  player  club          rating",
        "  Anna    Köln          1500",
        "  Ben     Bonn          1380",
        "  Cleo                  1200",
        "  Dora    Aachen, Nord"]
    assert json.loads(run(store, "show", t, "--json").output)["attributes"] == ATTRIBUTES
    rows = json.loads(run(store, "standings", t, "--json").output)["standings"]
    assert {r["player"]: r["attributes"] for r in rows} == ATTRIBUTES
    text = run(store, "standings", t).output.splitlines()
    assert text[1].endswith("money  club          rating")
    by_name = {line.split()[1]: line for line in text[2:]}
    assert by_name["Anna"].endswith("0  Köln          1500")
    assert by_name["Cleo"].endswith("0                1200")
    assert by_name["Dora"].endswith("0  Aachen, Nord")
    assert run(store, "standings", t, "--csv", str(tmp_path / "s.csv")).exit_code == 0
    lines = (tmp_path / "s.csv").read_text().splitlines()
    assert lines[0] == ("rank,player,points,played,byes,opponents_points,wins,money,dropped,"
                        "club,rating")
    assert any(line.endswith(',Dora,0,0,0,0,0,0,False,"Aachen, Nord",') for line in lines)
    # paired: every table lists its players with their attributes' values
    assert run(store, "pair", t, "--no-games").exit_code == 0
    table = run(store, "show", t).output.splitlines()[1]
    for seated in ("Anna (Köln, 1500)", "Ben (Bonn, 1380)", "Cleo (1200)", "Dora (Aachen, Nord)"):
        assert seated in table
    verified = CliRunner().invoke(cli, ["--store", store, "verify", t])
    assert verified.exit_code == 0
    assert "re-decided to exactly the recorded events" in verified.output


@pytest.mark.parametrize("content, players", [
    ("Anna\n\n# late entries\nBen\n  Cleo  \n", ["Anna", "Ben", "Cleo"]),   # one a line
    ("\ufeffAnna\nBen\nCleo\n", ["Anna", "Ben", "Cleo"]),                     # with a BOM
    ("name\nAnna\nBen\nCleo\n", ["Anna", "Ben", "Cleo"]),                     # just "name"
    ("NAME , club\nAnna,\nBen,\nCleo,\n", ["Anna", "Ben", "Cleo"]),           # any case
])
def test_files_of_names_and_one_column_headers(tmp_path, content, players):
    store, _path, made = new(tmp_path, content, size="3-3")
    assert made.exit_code == 0, made.output
    t = json.loads(made.output)["tournament"]
    view = json.loads(run(store, "show", t, "--json").output)
    assert view["players"] == players
    expected = {p: {"club": ""} for p in players} if "club" in content else {}
    assert view["attributes"] == expected
    if not expected:  # nothing more to show than before
        assert len(run(store, "show", t).output.splitlines()) == 1


@pytest.mark.parametrize("content, message", [
    ("Anna\nBen,Bonn\n", "line 2: 'Ben,Bonn' has a comma, but the file has no header: a CSV "
     "players file starts with a header row naming its columns, one of them name"),
    ("# players\nAnna\nBen\n\nanna\n", ": line 2 (Anna) and line 5 (anna) name the same "
     "player (names are compared ignoring case; TOUR-1.1)"),
    ("name,club\nAnna,Köln\nBEN,x\nben,y\n", ": line 3 (BEN) and line 4 (ben) name the same "
     "player"),
    ("name,club\nAnna,Köln\nBen\n", "line 3: 1 column; the header has 2 (name,club)"),
    ("name,club\nAnna,Köln,x\n", "line 2: 3 columns; the header has 2 (name,club)"),
    ("name,club\n,Köln\n", "line 2: a player's name must be a non-empty text"),
    ("name,club\nReferee,Köln\n", "line 2: a player cannot be called 'Referee'"),
    ("name,club,Club\nAnna,a,b\n", "line 1: the header names column 'Club' twice (columns 2 "
     "and 3)"),
    ("name,,rating\nAnna,a,b\n", "line 1: column 2 of the header has no name"),
    ('name,club\n"Anna,Köln\n', "line 2: not a CSV row"),
    (b"Anna\n\xffBen\n", "line 2: not UTF-8 text"),
])
def test_a_bad_players_file_is_refused_naming_its_line(tmp_path, content, message):
    store, path, made = new(tmp_path, content)
    assert made.exit_code == 2, made.output
    assert f"error: {path}{'' if message.startswith(':') else ' '}{message}" in made.output, \
        made.output
    assert "Traceback" not in made.output and tournaments(store) == []


def test_a_player_given_twice_ignoring_case_across_the_options(tmp_path):
    store, path, made = new(tmp_path, "Anna\nBen\nCleo\n", "--player", "anna")
    assert made.exit_code == 2
    assert (f"error: --player anna and Anna of {path} name the same player (names are "
            "compared ignoring case; TOUR-1.1)") in made.output
    assert tournaments(store) == []


def test_a_fifo_as_players_file_is_refused_not_waited_on(tmp_path):
    fifo = str(tmp_path / "players")
    os.mkfifo(fifo)
    got = {}

    def body():
        got["result"] = run(str(tmp_path / "store"), "new", "Cup", "--game", "atkr",
                            "--rounds", "1", "--players-file", fifo)
    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():  # before the fix: the open waited for a writer; give it its end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
    assert "result" in got and got["result"].exit_code == 2, got
    assert f"error: the players file {fifo} is not a regular file" in got["result"].output


def test_streams_recorded_before_attributes_still_verify(tmp_path):
    """A bundle written before players had attributes (tests/tournament/old_streams, by the
    tree at 5fc12f3): it verifies offline, its stream verifies strictly, and the stream
    read into a store shows no attributes."""
    from engine.store import FileStore
    from engine.tournament.bundle import verify

    result = verify(OLD)
    assert result["ok"], result["problems"]
    with zipfile.ZipFile(OLD) as archive:
        name = next(n for n in archive.namelist() if n.startswith("tournament-"))
        stream = archive.read(name)
    assert "attributes" not in scan(stream).records[0].event
    store = str(tmp_path / "store")
    FileStore(store).import_log(stream)
    t = name[:-len(".devlog")]
    verified = CliRunner().invoke(cli, ["--store", store, "verify", t])
    assert verified.exit_code == 0, verified.output
    assert json.loads(run(store, "show", t, "--json").output)["attributes"] == {}
    rows = json.loads(run(store, "standings", t, "--json").output)["standings"]
    assert len(rows) == 8 and all(r["attributes"] == {} for r in rows)


@pytest.mark.parametrize("attributes, message", [
    ({"Zed": {"club": "x"}}, "attributes for 'Zed', who is not registered"),
    ({"Anna": "Köln"}, "Anna's attributes are a map of at most 16 columns"),
    ({"Anna": {"name": "x"}}, "Anna's attribute 'name': a column is named in 1 to 32"),
    ({"Anna": {"club": 5}}, "Anna's club is at most 80 printable characters, not 5"),
    ({"Anna": {"club": "x" * 81}}, "Anna's club is at most 80 printable characters"),
])
def test_attributes_given_otherwise_are_checked_by_the_rules(attributes, message):
    """``attributes`` reach the rules from the HTTP body too (POST /tournaments): setup
    checks them; nothing is created."""
    from engine.errors import UsageError

    from .helpers import fixed, organiser

    d = organiser()
    with pytest.raises(UsageError, match=message):
        d.create(fixed(["Anna", "Ben", "Cleo", "Dora"], game="atkr", attributes=attributes))
    assert d.store.games() == []

