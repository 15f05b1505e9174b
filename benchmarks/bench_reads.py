"""What one command costs the store: store calls, service refreshes and opens of the .devlog for
one local ``devil bet`` and one HTTP command, before and after one fold, one answer (issue 19).

    python -m benchmarks.bench_reads [--before 5fc12f3]

Each tree runs in a fresh process (``PYTHONPATH`` = the tree; "before" is ``git archive <rev>
engine client`` unpacked into a temporary folder).  In it:

* **local**: ``devil new atkr`` (3 players), then ``devil bet GAME 60 --as Anna`` in-process
  through the CLI's own entry (a fresh service, as a new ``devil`` process has); only the bet
  is counted;
* **HTTP**: the app (in-process, over httpx's ASGI transport) creates a game and takes a first
  bet; the second bet (POST /games/{id}/commands with a seat's token) is counted, on the warm
  server.

Counted: every method of the file store called (``read``, ``head``, ``command``, ``exists``,
``damage`` ...), the service's refreshes of the game (reading what was appended since), and
every ``open`` of the game's .devlog file (``builtins.open``/``os.open``).  Prints a table and
one JSON line.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r'''
import builtins, collections, json, os, sys, tempfile
tree = sys.argv[1]
import engine
assert os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__))) == tree, engine.__file__
from engine.store.file import FileStore

counts = collections.Counter()
on = [False]

def counted(name, fn):
    def wrapper(*args, **kwargs):
        if on[0]:
            counts["store." + name] += 1
        return fn(*args, **kwargs)
    return wrapper

for name in ("read", "head", "command", "exists", "resolve", "games", "snapshot", "damage",
             "private", "secret", "store_private", "append", "create", "log_bytes", "wait"):
    if hasattr(FileStore, name):
        setattr(FileStore, name, counted(name, getattr(FileStore, name)))
if os.path.isdir(os.path.join(tree, "engine", "service")):  # engine.service.cache: issue 19
    from engine.service.cache import GameCache as Refreshing
    attr = "refresh"
else:  # GameService._refresh before
    from engine.service import GameService as Refreshing
    attr = "_refresh"
original = getattr(Refreshing, attr)
def refresh(self, game):
    if on[0]:
        counts["service refreshes"] += 1
    return original(self, game)
setattr(Refreshing, attr, refresh)

real_open, real_os_open = builtins.open, os.open
def count_open(path):
    if on[0] and str(path).endswith(".devlog"):
        counts["opens of the .devlog"] += 1
def my_open(file, *a, **k):
    count_open(file)
    return real_open(file, *a, **k)
def my_os_open(path, *a, **k):
    count_open(path)
    return real_os_open(path, *a, **k)
builtins.open, os.open = my_open, my_os_open

out = {}
store = tempfile.mkdtemp(prefix="devil-reads-")
os.environ["DEVIL_CONFIG"] = tempfile.mkdtemp(prefix="devil-reads-config-")
from client.cli import cli
import contextlib
def run(args):
    with (contextlib.redirect_stdout(io.StringIO()) as text,
          contextlib.redirect_stderr(io.StringIO())):
        try:
            cli.main(["--store", store] + args, prog_name="devil", standalone_mode=False)
        except SystemExit:
            pass
    return text.getvalue()
import io
game = run(["new", "atkr", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
            "--first", "Anna"]).split()[0]
on[0] = True
printed = run(["bet", game, "60", "--as", "Anna"])
on[0] = False
assert "60" in printed, printed
out["local"] = dict(counts)
counts.clear()

import asyncio, httpx
from engine.service import GameService
try:
    from engine.web import create_app
except ImportError:
    from engine.http import create_app
served = tempfile.mkdtemp(prefix="devil-reads-http-")
app = create_app(served)

async def http_run():
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=transport, base_url="http://devil.test") as client:
            made = (await client.post("/games", json={"kind": "atkr", "options": {
                "players": ["Anna", "Ben", "Cleo"], "first": "Anna"}, "seed": 3,
                "seat_entropy": False})).json()
            g = made["game"]
            def post(name, amount, key):
                return client.post(f"/games/{g}/commands", json={"type": "bet", "amount": amount},
                                   headers={"Authorization": "Bearer " + made["tokens"][name],
                                            "Idempotency-Key": key})
            first = await post("Anna", 60, "k1")
            assert first.status_code < 300, first.text
            on[0] = True
            second = await post("Ben", 40, "k2")
            on[0] = False
            assert second.status_code < 300, second.text
asyncio.run(http_run())
out["http"] = dict(counts)
print(json.dumps(out))
'''


def unpack(rev: str) -> str:
    """``git archive <rev> engine client`` unpacked into a temporary folder."""
    data = subprocess.run(["git", "-C", ROOT, "archive", rev, "engine", "client"],
                          check=True, capture_output=True).stdout
    tree = tempfile.mkdtemp(prefix=f"devil-{rev}-")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(tree)
    return tree


def measure(tree: str) -> dict:
    env = {**os.environ, "PYTHONPATH": tree}
    done = subprocess.run([sys.executable, "-c", CHILD, tree], env=env, cwd=tree,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the run in {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="5fc12f3", help="the tree to compare with")
    args = parser.parse_args(argv)
    before = measure(unpack(args.before))
    after = measure(ROOT)
    for path in ("local", "http"):
        keys = sorted(set(before[path]) | set(after[path]))
        print(f"\n{'one local devil bet' if path == 'local' else 'one HTTP command'}"
              f"{'':>18}before  after")
        for key in keys:
            print(f"  {key:<34} {before[path].get(key, 0):>6} {after[path].get(key, 0):>6}")
        total = lambda d: sum(v for k, v in d.items() if k.startswith("store."))  # noqa: E731
        print(f"  {'store calls in all':<34} {total(before[path]):>6} {total(after[path]):>6}")
    print(json.dumps({"before": args.before, "figures": {"before": before, "after": after}}))


if __name__ == "__main__":
    main()
