"""What one HTTP command costs PostgreSQL: SQL statements per command, before and after
(issue 21.4).

    python -m benchmarks.bench_statements [--before 006968e] [--commands 30]

Each tree runs in a fresh process (``PYTHONPATH`` = the tree, then this checkout for tests/pg.py;
"before" is ``git archive <rev> engine client`` unpacked into a temporary folder) with its own
throwaway cluster (tests/pg.py).  The app runs in that process on a PostgresStore (httpx's ASGI
transport); a game of Auf Teufel komm raus (2 players) is played with
``POST /games/{id}/commands?legal=true`` (a seat's token, a fresh Idempotency-Key), each seat
reading its view first.  Only the POSTs are counted, by the server itself: the database's
``log_statement = all`` (tests/pg.StatementLog; BEGIN and COMMIT count).  The first two
commands (the game's cold load, the first draw reading the secret) are left out of "warm".
Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r'''
import collections, json, os, sys
tree, root, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [tree, root]
import engine
assert os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__))) == tree, engine.__file__
import httpx
from engine.store.postgres import PostgresStore
from engine.web import create_app
from tests import pg
from tests.service.conftest import InProcessTransport
from tests.service.helpers import atkr_choice

url = pg.fresh_database()
log = pg.StatementLog(url)
store = PostgresStore(url)
transport = InProcessTransport(create_app(store))
http = httpx.Client(base_url="http://devil.test", transport=transport, timeout=30)
created = http.post("/games", json={"kind": "atkr", "seed": 5,
                                   "options": {"players": ["Anna", "Ben"]}}).json()
game = created["game"]
counts, kinds = [], collections.Counter()
for i in range(count):
    for name in created["players"]:
        headers = {"Authorization": "Bearer " + created["tokens"][name]}
        view = http.get(f"/games/{game}/view", params={"legal": "true"}, headers=headers).json()
        if view["legal"]:
            break
    if not view["legal"]:
        break
    body = atkr_choice(view, name, view["legal"])
    mark = log.mark()
    answer = http.post(f"/games/{game}/commands", json=body, params={"legal": "true"},
                       headers={**headers, "Idempotency-Key": f"k{i}"})
    assert answer.status_code == 201, answer.text
    statements = log.since(mark)
    counts.append(len(statements))
    if i >= 2:
        kinds.update(" ".join(s.split()[:4])[:48] for s in statements)
transport.close()
store.close()
print(json.dumps({"counts": counts, "kinds": kinds}))
'''


def run_tree(tree: str, commands: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, tree, ROOT, str(commands)],
                          capture_output=True, text=True, timeout=600, cwd=tree,
                          env=dict(os.environ, PYTHONPATH=f"{tree}:{ROOT}"))
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def unpack(rev: str) -> str:
    data = subprocess.run(["git", "archive", rev, "engine", "client"], cwd=ROOT,
                          capture_output=True, check=True).stdout
    folder = tempfile.mkdtemp(prefix=f"devil-{rev}-")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder)
    return folder


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REV", help="also measure this revision")
    parser.add_argument("--commands", type=int, default=30)
    args = parser.parse_args(argv)
    trees = ([(args.before, unpack(args.before))] if args.before else []) + [("this tree", ROOT)]
    rows = []
    for label, tree in trees:
        found = run_tree(tree, args.commands)
        warm = found["counts"][2:]
        rows.append({"tree": label, "commands": len(found["counts"]),
                     "first": found["counts"][:2], "warm_mean": round(sum(warm) / len(warm), 2),
                     "warm_max": max(warm), "per_command": {
                         kind: round(n / len(warm), 2)
                         for kind, n in collections.Counter(found["kinds"]).most_common()}})
    print("| tree | commands | first two | warm: statements a command (mean) | max |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['tree']} | {row['commands']} | {row['first']} | {row['warm_mean']} | "
              f"{row['warm_max']} |")
    for row in rows:
        print(f"\n{row['tree']}, a warm command:")
        for kind, n in row["per_command"].items():
            print(f"  {n:5} x  {kind}")
    print(json.dumps({"benchmark": "statements", "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
