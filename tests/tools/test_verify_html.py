"""`devil verify FILE --html OUT.html` (issue 20.8), the command's side (no browser: the page's
own verdict is tests/page/test_verify_page.py's): the page is written atomically and holds the
log's exact bytes, `devil verify`'s verdict and one script allowed by its hash; a bad FILE or
an existing OUT is refused (exit 2) and writes nothing; a file that is no devil log fails as
verify fails (exit 3) with no page."""

from __future__ import annotations

import json
import os
import re

from engine.store import FileStore
from engine.web.csp import source_hash
from engine.web.pages.verify import embedded

from .helpers import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOG = os.path.join(ROOT, "replays", "castle-3p.devlog")


def data() -> bytes:
    with open(LOG, "rb") as handle:
        return handle.read()


def test_the_page_holds_the_log_the_verdict_and_one_script_its_policy_allows(tmp_path):
    out = tmp_path / "check.html"
    result = run("verify", LOG, "--html", str(out), "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["ok"] and answer["html"] == str(out)
    assert "wrote " + str(out) in result.stderr
    html = out.read_text(encoding="utf-8")
    log, verdict = embedded(html)
    assert log == data()  # the exact bytes, every record and link
    assert verdict["ok"] and verdict["finished"] and verdict["first_bad_seq"] is None
    assert verdict["game"] == "castle-ydrb85" and verdict["events"] == 112
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 1
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert f"script-src {source_hash(scripts[0])};" in policy
    assert "default-src 'none'" in policy and "connect-src 'none'" in policy
    assert os.listdir(tmp_path) == ["check.html"]  # no temporary file left beside it
    assert oct(os.stat(out).st_mode & 0o777) == "0o644"


def test_an_existing_page_is_kept_unless_force(tmp_path):
    out = tmp_path / "check.html"
    out.write_text("mine")
    result = run("verify", LOG, "--html", str(out))
    assert result.exit_code == 2
    assert f"{out} exists already; give a new file name or --force" in result.output
    assert out.read_text() == "mine"
    assert run("verify", LOG, "--html", str(out), "--force").exit_code == 0
    assert embedded(out.read_text(encoding="utf-8"))[0] == data()
    assert sorted(os.listdir(tmp_path)) == ["check.html"]


def test_bad_sources_are_refused_and_write_nothing(tmp_path):
    out = tmp_path / "check.html"
    missing = run("verify", str(tmp_path / "nope.devlog"), "--html", str(out))
    assert missing.exit_code == 2 and "no such file" in missing.output
    folder = run("verify", os.path.join(ROOT, "replays"), "--html", str(out))
    assert folder.exit_code == 2 and "--html writes the page of one game" in folder.output
    two = run("verify", LOG, LOG, "--html", str(out))
    assert two.exit_code == 2 and "--html writes the page of one game" in two.output
    nowhere = run("verify", LOG, "--html", str(tmp_path / "no" / "such" / "dir.html"))
    assert nowhere.exit_code == 2 and "cannot write" in nowhere.output
    # not a devil log at all: verify's verdict and exit (3), and no page (no game to show)
    text = tmp_path / "notes.devlog"
    text.write_bytes(b"just some notes\n")
    bad = run("verify", str(text), "--html", str(out))
    assert bad.exit_code == 3
    assert "record 0: not a devil log (the header's magic is missing)" in bad.output
    assert "no page written" in bad.stderr
    assert sorted(os.listdir(tmp_path)) == ["notes.devlog"]


def test_a_damaged_log_gets_its_page_and_verify_exits_3(tmp_path):
    broken = bytearray(data())
    broken[-3] ^= 0xFF  # the last record's link: the chain breaks at the last record (112)
    path = tmp_path / "broken.devlog"
    path.write_bytes(bytes(broken))
    out = tmp_path / "broken.html"
    result = run("verify", str(path), "--html", str(out))
    assert result.exit_code == 3
    assert "FAILED" in result.output and "record 112: the hash chain breaks here" in result.output
    log, verdict = embedded(out.read_text(encoding="utf-8"))
    assert log == bytes(broken)
    assert not verdict["ok"] and verdict["first_bad_seq"] == 112


def test_a_game_of_the_local_store_by_its_id(tmp_path):
    store = str(tmp_path / "store")
    game = FileStore(store).import_log(data())
    out = tmp_path / "game.html"
    result = run("--store", store, "verify", game, "--html", str(out))
    assert result.exit_code == 0, result.output
    assert embedded(out.read_text(encoding="utf-8"))[0] == data()
