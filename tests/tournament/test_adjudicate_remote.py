"""`devil --server URL --token KEY tournament adjudicate|amend` against a real `devil serve
--organiser-key KEY` process: the same answers and exit codes as on a local store.  Slow (a
server process of its own: 2 to 8 s): the same operations over HTTP in process are in the
default run (test_adjudicate_http.py)."""

import json

import pytest
from click.testing import CliRunner

from client.cli import cli
from tests.service.conftest import Server

KEY = "the-organisers-key"


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("store"), organiser_key=KEY).start()
    yield srv
    srv.stop()


def devil(server, *args, code=0):
    result = CliRunner().invoke(cli, ["--server", server.url, "--token", KEY, "tournament",
                                      *map(str, args)],
                                env={"DEVIL_SERVER": None, "DEVIL_TOKEN": None})
    assert result.exit_code == code, (args, result.output)
    return result


def test_adjudicate_and_amend_from_another_terminal(server):
    t = devil(server, "new", "Net cup", "--game", "castle", "--rounds", "1", "--table-size",
              "6-6", "--round-time", "90", "--seed", "4",
              *[x for p in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo") for x in ("--player", p)]
              ).stdout.strip()
    devil(server, "pair", t)
    early = devil(server, "adjudicate", t, "1", "--reason", "slow", code=1)
    assert "TOUR-8.1: round 1's time runs out at " in early.output
    assert "(90 min from now)" in early.output
    done = json.loads(devil(server, "adjudicate", t, "1", "--force", "--reason", "slow",
                            "--json").stdout)
    # CASTLE-H1: six seats share 6 + 4 + 2 + 1 + 0 + 0: 13/6 each
    assert done["rule"] == "CASTLE-H1" and done["result"]["points"] == ["13/6"] * 6
    nothing = devil(server, "amend", t, "1", "--reason", "check", code=1)
    assert "TOUR-9.2: nothing changed" in nothing.output
