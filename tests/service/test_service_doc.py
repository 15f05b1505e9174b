"""docs/service.md's "A whole game with curl" is run, not just read (issue 19): every `$ curl`
of the section is sent to the app in this process (the doc's headers, bodies and keys, its
`jq`/`cut` filters applied in Python), the doc's loop is played by the same policy, and what
each command prints is compared with what the doc says it prints: the events, the refusals
and their rules (ATKR-3.1, ATKR-3.2), the number of commands, the spectator's view of the
finished game (every player's money is public once the game ends, ATKR-8.2), and `devil
verify` of the exported log.  The game is seeded (`"seed": 7`), so the doc's game is this one;
only its id and tokens differ."""

from __future__ import annotations

import json
import pathlib
import re
import shlex

import pytest
from click.testing import CliRunner

from client.cli import cli
from tests.service.conftest import App

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "service.md"


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("## A whole game with curl", 1)[1].split("\nFollowing the game live", 1)[0]


def console_blocks(text: str) -> list[list[str]]:
    return [block.splitlines() for block in re.findall(r"```console\n(.*?)```", text, re.S)]


def commands(text: str):
    """``(command line, [printed lines])`` for every ``$ `` line of the console blocks, with
    its ``\\`` continuations joined; and the lines of a block that precede any command."""
    out, loose = [], []
    for lines in console_blocks(text):
        current = None
        for line in lines:
            if line.startswith("$ "):
                current = [line[2:], []]
                out.append(current)
            elif current is not None and current[0].endswith("\\"):
                current[0] = current[0][:-1].rstrip() + " " + line.strip()
            elif current is not None:
                current[1].append(line)
            else:
                loose.append(line)
    return out, loose


def pipeline(line: str) -> list[str]:
    """``line`` split at its pipes outside quotes."""
    stages, current, quote = [], "", None
    for char in line:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "|":
            stages.append(current.strip())
            current = ""
            continue
        current += char
    return stages + [current.strip()]


def compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def spectator_table(view: dict) -> str:
    """jq -c '{phase, winners, money: [.players[] | {name, money, track}]}'"""
    return compact({"phase": view["phase"], "winners": view["winners"],
                    "money": [{"name": p["name"], "money": p["money"], "track": p["track"]}
                              for p in view["players"]]})


JQ = {  # the doc's jq filters
    "-c .events": lambda v: [compact(v["events"])],
    "-c '.events[]'": lambda v: [compact(e) for e in v["events"]],
    "-c '.events[].event'": lambda v: [compact(e["event"]) for e in v["events"]],
    "-c .": lambda v: [compact(v)],
    "-c '{phase, winners, money: [.players[] | {name, money, track}]}'":
        lambda v: [spectator_table(v)],
}


class Session:
    """The doc's shell: its variables and the app it talks to."""

    def __init__(self, app: App, tmp: pathlib.Path):
        self.app, self.tmp = app, tmp
        self.vars = {"S": app.url}
        self.created: dict = {}

    def expand(self, line: str) -> str:
        return re.sub(r"\$(\w+)", lambda m: self.vars.get(m.group(1), m.group(0)), line)

    def curl(self, args: list[str]) -> tuple[str, int, bytes]:
        method, headers, body, write_out, url, out_file = "GET", {}, None, None, None, None
        items = iter(args[1:])
        for arg in items:
            if arg == "-s" or arg == "-N":
                continue
            if arg == "-X":
                method = next(items)
            elif arg == "-H":
                name, value = next(items).split(": ", 1)
                headers[name] = value
            elif arg == "-d":
                body = next(items)
            elif arg == "-w":
                write_out = next(items)
            elif arg == "-o":
                out_file = next(items)
            else:
                url = arg
        if body is not None and method == "GET":
            method = "POST"
        answer = self.app.http.request(method, url.replace(self.app.url, ""), headers=headers,
                                       content=body)
        if out_file and out_file != "/dev/null":
            (self.tmp / out_file).write_bytes(answer.content)
            return "", answer.status_code, answer.content
        text = answer.text
        if write_out is not None:
            text += write_out.replace("%{http_code}", str(answer.status_code)).replace("\\n", "")
        return text, answer.status_code, answer.content

    def run(self, line: str) -> list[str] | None:
        """What ``line`` prints, or None for a line whose output the test compares itself."""
        if re.fullmatch(r"S=\S+", line):
            return []
        assignments = re.findall(r"(\w+)=\$\(jq -r (\S+) created\.json\)", line)
        if assignments:
            for name, path in assignments:
                value = self.created
                for key in path.strip(".").split("."):
                    value = value[key]
                self.vars[name] = value
            return []
        if line.startswith("devil verify "):
            result = CliRunner().invoke(cli, ["verify", str(self.tmp / line.split()[-1])])
            assert result.exit_code == 0, result.output
            return result.output.replace(f"{self.tmp}/", "").splitlines()  # as run in tmp
        stages = pipeline(self.expand(line))
        text, status, raw = self.curl(shlex.split(stages[0]))
        lines = [text] if text else []
        for stage in stages[1:]:
            if stage == "tee created.json":
                self.created = json.loads(raw)
            elif stage == "jq .":
                return None
            elif stage.startswith("jq "):
                lines = JQ[stage[3:]](json.loads(raw))
            elif stage.startswith("cut -c1-"):
                width = int(stage.split("-")[-1])
                lines = [x[:width] for x in lines]
            else:  # pragma: no cover - a new filter in the doc
                raise AssertionError(f"the test does not know {stage!r}")
        return lines


def play_the_loop(session: Session) -> int:
    """The doc's bash loop: each seat in turn reads its view with its legal commands, bets
    the largest legal bet of at most 100, stops once someone's total reaches the highest bet
    (or 30), else draws; the number of commands it sent."""
    http, game = session.app.http, session.vars["GAME"]
    seats = [session.vars["ANNA"], session.vars["BEN"]]
    n = 0
    while n < 2000:
        if http.get(f"/games/{game}", headers=auth(session.vars["REF"])).json()["over"]:
            break
        for token in seats:
            view = http.get(f"/games/{game}/view?legal=true", headers=auth(token)).json()
            legal = view["legal"]
            if not legal:
                continue
            high = max(p["bet"] or 0 for p in view["players"])
            stops = [c for c in legal if c["type"] == "stop"]
            if legal[0]["type"] == "bet":
                cmd = [c for c in legal if c["amount"] <= 100][-1]
            elif stops and max(p["total"] for p in view["players"]) >= max(high, 30):
                cmd = stops[0]
            else:
                cmd = legal[0]
            n += 1
            http.post(f"/games/{game}/commands", headers={**auth(token),
                      "Idempotency-Key": f"{game}-{n}"}, content=json.dumps(cmd))
            break
    return n


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def app(tmp_path):
    served = App(tmp_path / "store")
    yield served
    served.close()


def test_the_curl_session_of_docs_service_md_prints_what_the_doc_says(app, tmp_path):
    text = section()
    session = Session(app, tmp_path)
    doc_game = re.search(r'"game": "(atkr-\w+)"', text).group(1)
    run, loose = commands(text)
    loop = re.search(r"```bash\n(n=0\nwhile .*?)```", text, re.S)
    assert loop and "jq" in loop.group(1)
    (counted,) = [line for line in loose if line.startswith("commands: ")]
    played = False
    for line, printed in run:
        if not played and "/view\"" in line and "$SPEC" in line:
            # the doc's loop runs before the spectator's last look
            assert counted == f"commands: {play_the_loop(session)}"
            played = True
        got = session.run(line)
        if got is None:  # the created game, pretty-printed with the tokens elided
            shown = "\n".join(printed)
            assert set(re.findall(r'^  "(\w+)":', shown, re.M)) == set(session.created)
            assert session.created["players"] == ["Anna", "Ben"]
            assert set(re.findall(r'^    "(\w+)":', shown, re.M)) == set(session.created["tokens"])
            continue
        expected = [x.replace(doc_game, session.vars.get("GAME", doc_game)) for x in printed]
        assert got == expected, line
    assert played
    # what the doc says about it in words: the end publishes everyone's money
    final = json.loads(app.http.get(f"/games/{session.vars['GAME']}/view",
                                    headers=auth(session.vars["SPEC"])).text)
    assert final["phase"] == "over"
    assert all(p["money"] is not None for p in final["players"])
    assert max(p["money"] for p in final["players"]) >= 1600  # ATKR-8.1 ended it
