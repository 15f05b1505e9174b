"""A tournament stream that holds only its header record (no ``tournament_created``: an
unfinished creation, or a stream cut back to its header) is a damaged record: ``bundle`` and
``verify`` say so with exit 3 (README: 3 damaged log or failed check); they ended in an
AttributeError (exit 70)."""

import glob
import json
import os
import shutil

from click.testing import CliRunner

from client.cli import cli
from engine.log import encode_header, scan
from engine.store import FileStore
from engine.tournament.bundle import verify, write

from .helpers import fixed, organiser, quick_atkr


def run(store, *args):
    return CliRunner().invoke(cli, ["--store", store, "tournament", *args])


def cut_to_header(path: str) -> bytes:
    """Cut the .devlog at ``path`` back to its header record; returns the header's bytes."""
    data = open(path, "rb").read()
    header = scan(data).header
    head = encode_header(header.kind, header.game, header.created)
    assert data.startswith(head) and len(data) > len(head)
    open(path, "wb").write(head)
    return head


def test_bundle_and_verify_of_a_header_only_stream_exit_3(tmp_path):
    store = str(tmp_path / "store")
    made = run(store, "new", "Cup", "--game", "atkr", "--rounds", "1", "--table-size", "3-3",
               "--player", "A", "--player", "B", "--player", "C", "--json")
    assert made.exit_code == 0, made.output
    t = json.loads(made.output)["tournament"]
    cut_to_header(os.path.join(store, f"{t}.devlog"))
    out = str(tmp_path / "cup")
    for args in (("bundle", t, out), ("verify", t)):
        got = run(store, *args)
        assert got.exit_code == 3, (args, got.output)
        assert "internal error" not in got.output and "Traceback" not in got.output
        assert "record 1 is bad: the tournament stream holds only its header" in got.output
    # nothing written: no bundle folder, no .zip
    assert not os.path.exists(out) and not os.path.exists(out + ".zip")


def test_a_bundle_whose_stream_holds_only_its_header_fails_verify(tmp_path):
    """A bundle edited consistently (sizes, hashes, heads and the Merkle root recomputed)
    around a stream cut back to its header: named as a problem, exit 3, never a crash."""
    from .test_bundle import _reman

    d = organiser(FileStore(str(tmp_path / "store")))
    t = d.create(fixed(list("ABCD"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD")], games=False)
    d.attach(t, quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0}))
    out = str(tmp_path / "cup")
    write(d.store, t, out)
    forged = str(tmp_path / "forged")
    shutil.copytree(out, forged)
    cut_to_header(os.path.join(forged, f"{t}.devlog"))
    _reman(forged, lambda manifest: None)
    result = verify(forged)
    assert not result["ok"]
    assert any("the tournament stream cannot be read: record 1 is bad: the tournament stream "
               "holds only its header" in p for p in result["problems"]), result["problems"]
    got = CliRunner().invoke(cli, ["--store", str(tmp_path / "other"), "tournament", "verify",
                                   forged])
    assert got.exit_code == 3 and "internal error" not in got.output, got.output
    assert glob.glob(os.path.join(forged, "games", "*.devlog"))
