"""Bad input gets a clear error, never a crash (issue 4): deal files, `devil submit COMMAND`
and HTTP bodies that are binary, UTF-16, nested 100,000 deep or hold a 5,000-digit number are
refused with exit 2 (400 over HTTP), no traceback, and nothing recorded; `devil serve` on a
busy port says so (exit 2) before any listening line; `--coal` takes any case (issue 8)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.errors import UsageError
from engine.jsonsafe import MAX_DEPTH, loads

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEAL = {"seats": {"A": {"society": "order", "profession": "priest", "items": ["bag-key"]},
                  "B": {"society": "brotherhood", "profession": "doctor",
                        "items": ["bag-goblet"]},
                  "C": {"society": "order", "profession": "thug", "items": ["key"]}}}

#: (name, bytes) of input every JSON reader must refuse
BAD = [
    ("binary", bytes(range(256)) * 4),
    ("utf-16", json.dumps(DEAL).encode("utf-16")),
    ("utf-16-be without BOM", json.dumps(DEAL).encode("utf-16-be")),
    ("utf-32", json.dumps(DEAL).encode("utf-32")),
    ("latin-1", '{"seats": "Müller"}'.encode("latin-1")),
    ("nested 100,000 deep", b"[" * 100_000 + b"]" * 100_000),
    ("objects nested 100,000 deep", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
    ("nested just too deep", b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)),
    ("a 5,000-digit number", b'{"seats": ' + b"7" * 5000 + b"}"),
    ("a negative 5,000-digit number", b'{"seats": -' + b"7" * 5000 + b"}"),
    ("a 5,000-digit fraction", b'{"seats": 0.' + b"7" * 5000 + b"}"),
    ("NaN", b'{"seats": NaN}'),
    ("Infinity", b'{"seats": -Infinity}'),
    ("a number beyond floats", b'{"seats": 1e400}'),
    ("a lone surrogate", b'{"seats": {"\\ud800": 1}}'),
    ("not JSON", b"{seats: 1}"),
    ("empty", b""),
]


@pytest.mark.parametrize("name,data", BAD, ids=[name for name, _ in BAD])
def test_the_safe_reader_refuses_with_a_usage_error(name, data):
    with pytest.raises(UsageError) as info:
        loads(data, "the input")
    assert "the input" in info.value.message


def test_the_safe_reader_reads_ordinary_json():
    assert loads(b'\xef\xbb\xbf{"a": [1, -2.5, "[{", null, true]}', "x") == \
        {"a": [1, -2.5, "[{", None, True]}
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(nested, "x") is not None
    assert loads("9" * 4300, "x") == int("9" * 4300)
    assert loads('"\\"[[[[[[" ', "x") == '"[[[[[['


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path / "store"), *map(str, args)])
        assert result.exit_code == code, (args, result.output, result.stderr)
        assert "Traceback" not in result.output + result.stderr
        assert "internal error" not in result.output + result.stderr
        return result

    run.store = tmp_path / "store"
    return run


def store_bytes(store) -> dict[str, bytes]:
    """Every file of the store folder and its bytes (nothing may change on a refusal)."""
    if not os.path.isdir(store):
        return {}
    return {name: open(os.path.join(store, name), "rb").read() for name in os.listdir(store)
            if os.path.isfile(os.path.join(store, name))}


@pytest.mark.parametrize("name,data", BAD, ids=[name for name, _ in BAD])
def test_a_bad_deal_file_exits_2_and_creates_nothing(devil, tmp_path, name, data):
    path = tmp_path / "deal.json"
    path.write_bytes(data)
    result = devil("new", "castle", "--deal", path, code=2)
    assert "--deal" in result.stderr
    assert not store_bytes(devil.store) or not any(n.endswith(".devlog")
                                                   for n in store_bytes(devil.store))


def test_a_deal_file_over_a_megabyte_is_refused(devil, tmp_path):
    path = tmp_path / "deal.json"
    path.write_bytes(b'{"seats": "' + b"x" * (1024 * 1024) + b'"}')
    result = devil("new", "castle", "--deal", path, code=2)
    assert "larger than 1,048,576 bytes" in result.stderr


def test_a_deal_that_is_a_folder_or_missing_exits_2(devil, tmp_path):
    devil("new", "castle", "--deal", tmp_path, code=2)
    devil("new", "castle", "--deal", tmp_path / "nope.json", code=2)


TEXT_BAD = [
    ("a number of 4,301 digits", '{"type": "bet", "amount": %s}' % ("1" * 4301)),
    ("a number of 5,000 digits", '{"type": "bet", "amount": -%s}' % ("1" * 5000)),
    ("nested 100,000 deep", '{"type": "bet", "amount": %s}' % ("[" * 100_000 + "]" * 100_000)),
    ("objects nested deep", '{"type": "bet", "amount": %s1%s' % ('{"a":' * 50_000, "}" * 50_001)),
    ("NaN", '{"type": "bet", "amount": NaN}'),
    ("1e999", '{"type": "bet", "amount": 1e999}'),
    ("a lone surrogate", '{"type": "bet", "amount": 10, "player": "\\udc00"}'),
]


@pytest.mark.parametrize("name,text", TEXT_BAD, ids=[name for name, _ in TEXT_BAD])
def test_devil_submit_refuses_bad_json_with_exit_2_and_records_nothing(devil, name, text):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--seed", 1).stdout.strip()
    before = store_bytes(devil.store)
    result = devil("submit", game, text, "--as", "Anna", code=2)
    assert "COMMAND" in result.stderr
    assert store_bytes(devil.store) == before
    # and as JSON: an error object, still exit 2
    result = devil("submit", game, text, "--as", "Anna", "--json", code=2)
    assert json.loads(result.stdout.splitlines()[0])["exit"] == 2
    assert store_bytes(devil.store) == before


def test_devil_submit_in_a_subprocess_says_what_is_wrong(tmp_path):
    """The real process (argv is not a CliRunner's): a 5,000-digit number exits 2 with one
    error line and no traceback."""
    env = dict(os.environ, PYTHONPATH=ROOT, DEVIL_STORE=str(tmp_path / "store"))
    run = [sys.executable, "-m", "client.cli"]
    game = subprocess.run([*run, "new", "atkr", "--player", "A", "--player", "B"], env=env,
                          capture_output=True, text=True, check=True).stdout.strip()
    before = store_bytes(tmp_path / "store")
    done = subprocess.run([*run, "submit", game, '{"type": "bet", "amount": %s}' % ("9" * 5000),
                           "--as", "A"], env=env, capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "5,000 digits" in done.stderr and "Traceback" not in done.stderr
    assert store_bytes(tmp_path / "store") == before


# -- the HTTP body: the same rules, 400 -------------------------------------------------------
@pytest.fixture
def http(tmp_path):
    from starlette.testclient import TestClient

    from engine.web import create_app

    with TestClient(create_app(str(tmp_path / "served"))) as client:
        client.store = tmp_path / "served"
        yield client


@pytest.mark.parametrize("name,data", BAD, ids=[name for name, _ in BAD])
def test_a_bad_http_body_is_a_400_and_creates_nothing(http, name, data):
    answer = http.post("/games", content=data, headers={"content-type": "application/json"})
    if name in ("nested 100,000 deep", "objects nested 100,000 deep"):
        assert answer.status_code in (400, 413)  # larger than the 64 KiB body limit
    else:
        assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == 2
    assert not any(n.endswith(".devlog") for n in store_bytes(http.store))


@pytest.mark.parametrize("name,text", TEXT_BAD[:2] + TEXT_BAD[4:],
                         ids=[name for name, _ in TEXT_BAD[:2] + TEXT_BAD[4:]])
def test_a_bad_http_command_is_a_400_and_records_nothing(http, name, text):
    created = http.post("/games", json={"kind": "atkr", "options": {"players": ["A", "B"]}})
    assert created.status_code == 201, created.text
    game, token = created.json()["game"], created.json()["tokens"]["A"]
    before = store_bytes(http.store)
    answer = http.post(f"/games/{game}/commands", content=text.encode(),
                       headers={"authorization": f"Bearer {token}", "idempotency-key": "k1",
                                "content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert store_bytes(http.store) == before


# -- devil serve on a busy port (issue 8) ------------------------------------------------------
def test_serve_on_a_busy_port_exits_2_before_any_listening_line(tmp_path):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        done = subprocess.run([sys.executable, "-m", "client.cli", "--store", str(tmp_path),
                               "serve", "--port", str(port), "--json"], cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True,
                              text=True, timeout=60)
    finally:
        holder.close()
    assert done.returncode == 2, done.stderr
    assert f"port {port} on 127.0.0.1 is busy" in done.stderr and "--port" in done.stderr
    assert "devil serve: games in" not in done.stderr
    assert '"url"' not in done.stdout.split("\n")[0] if done.stdout else True
    assert "Traceback" not in done.stderr


def test_serve_on_an_address_it_cannot_use_exits_2(tmp_path):
    done = subprocess.run([sys.executable, "-m", "client.cli", "--store", str(tmp_path),
                           "serve", "--host", "203.0.113.7", "--port", "1"], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "cannot listen on 203.0.113.7" in done.stderr


# -- --coal in any case (issue 8) --------------------------------------------------------------
@pytest.mark.parametrize("devil_word", ["Devil", "DEVIL", "devil"])
def test_coal_devil_in_any_case_in_a_physical_game(devil, devil_word):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--physical").stdout.strip()
    devil("bet", game, 10, "--as", "Anna")
    devil("bet", game, 10, "--as", "Ben")
    result = devil("draw", game, "--as", "Anna", "--coal", devil_word, "--json")
    events = json.loads(result.stdout)["events"]
    assert events[0]["type"] == "coal_drawn" and events[0]["coal"] == 0, events


# -- found by the fuzz suites (tests/fuzz) -----------------------------------------------------
def test_the_service_refuses_a_command_that_is_no_map_and_no_command_object():
    from engine.errors import CodecError
    from engine.service import GameService
    from engine.store import MemoryStore

    service = GameService(MemoryStore())
    game = service.create("atkr", {"players": ["A", "B"]}, seed=1).game
    before = service.store.log_bytes(game)
    for command in (None, [], "bet", 7):
        with pytest.raises(CodecError):
            service.submit(game, command)
    assert service.store.log_bytes(game) == before


@pytest.mark.parametrize("options,seed", [(None, None), ([], None), ("x", 1),
                                          ({"players": ["A", "B"]}, []),
                                          ({"players": ["A", "B"]}, "1"),
                                          ({"players": ["A", "B"]}, True),
                                          ({"players": ["A", "B"]}, 1.0),
                                          ({"players": ["A", "B"]}, -1),
                                          ({"players": ["A", "B"]}, 2**64)])
def test_create_refuses_options_that_are_no_map_and_seeds_that_are_no_seed(options, seed):
    from engine.service import GameService
    from engine.store import MemoryStore

    store = MemoryStore()
    with pytest.raises(UsageError):
        GameService(store).create("atkr", options, seed=seed)
    assert store.games() == []


def forged_log(tmp_path):
    """A short atkr log whose third record (a bet) names seat 9, with the hash chain
    recomputed: well-formed bytes no rules could have written."""
    from tests.fuzz.test_commands import played
    from tests.fuzz.test_devlog import rechained

    service, game = played("atkr", 2, False, 7, 6)

    def edit(header, commands):
        commands[1]["events"][0] = {"type": "bet_placed", "seat": 9, "amount": 200}

    path = tmp_path / "forged.devlog"
    path.write_bytes(rechained(service.store.log_bytes(game), edit))
    return path


def test_fold_bytes_calls_an_impossible_rechained_event_damage(tmp_path):
    from engine.errors import LogDamaged
    from engine.replay import fold_bytes

    with pytest.raises(LogDamaged) as info:
        fold_bytes(forged_log(tmp_path).read_bytes())
    assert info.value.seq == 3


def test_devil_import_refuses_a_log_verify_refuses(devil, tmp_path):
    path = forged_log(tmp_path)
    result = devil("import", path, code=3)
    assert "not imported" in result.stderr
    assert not any(n.endswith(".devlog") for n in store_bytes(devil.store))
