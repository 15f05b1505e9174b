"""The pages and their API asked with the WRONG token, as an attacker would (issue 25.8): no
token, a malformed one, another game's, a seat's acting or reading as another seat, a spectator's
or a seat's on the referee's routes, a token in the query string.  Every such answer is a JSON
error (401, 403 or 404: no 500, no traceback, no HTML), nothing is recorded (the game's version
does not move), and no answer to a wrong or another seat's token holds another seat's hidden data
(a sealed bet, a seat's entropy before the reveal, another seat's command id; a Castle seat's
society, profession and items).  Every served page carries a strict Content-Security-Policy and
``Referrer-Policy: no-referrer``, and the pages' scripts never put the token in a URL
(docs/service.md, "Tokens and what each answer may hold").

One in-process app (tests/service/conftest.py's App) for the module: a few seconds in all."""

from __future__ import annotations

import base64
import json
import re
from importlib import resources

import pytest

from client.seating import value_for
from .conftest import App, auth

ATKR = ["Anna", "Ben", "Cid"]
CASTLE = ["Ann", "Bo", "Cyd", "Dora"]
#: the command id of Anna's sealed bet: no other seat's answer may hold it
BET_KEY = "anna-sealed-bet-7f3c"
BET = 70


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """An atkr game in its bet phase (every seat's entropy in, not revealed; Anna's bet of 70
    sealed), a Castle game in its first turn, and another game whose tokens are foreign to both."""
    app = App(tmp_path_factory.mktemp("wrong-tokens"))
    http = app.http

    def create(body):
        answer = http.post("/games", json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()

    atkr = create({"kind": "atkr", "seat_entropy": True, "options": {"players": ATKR}})
    entropy = {}
    for name in ATKR:
        entropy[name] = value_for(atkr["game"], name)
        app.remote(atkr["tokens"][name]).submit(
            atkr["game"], {"type": "seat_entropy", "value": entropy[name]}, None)
    placed = http.post(f"/games/{atkr['game']}/commands", json={"type": "bet", "amount": BET},
                       headers={**auth(atkr["tokens"]["Anna"]), "Idempotency-Key": BET_KEY})
    assert placed.status_code == 201, placed.text
    castle = create({"kind": "castle", "options": {"players": CASTLE}})
    other = create({"kind": "atkr", "options": {"players": ["Xena", "Yuri"]}})
    yield {"app": app, "atkr": atkr, "castle": castle, "other": other, "entropy": entropy}
    app.close()


def version(world, created) -> int:
    answer = world["app"].http.get(f"/games/{created['game']}",
                                   headers=auth(created["tokens"]["referee"]))
    assert answer.status_code == 200
    return answer.json()["version"]


# -- what an answer may hold ------------------------------------------------------------------
def walk(body):
    """Every dict and list inside a JSON body (the body too)."""
    yield body
    if isinstance(body, dict):
        for value in body.values():
            yield from walk(value)
    elif isinstance(body, list):
        for value in body:
            yield from walk(value)


def secrets_of(world, kind: str, me: int | None) -> list[str]:
    """Texts no answer to a viewer other than the referee and seat ``me`` may hold."""
    if kind == "atkr":
        hidden = [world["atkr"]["tokens"][name] for name in ATKR + ["referee", "spectator"]
                  if name != (ATKR[me] if me is not None else None)]
        hidden += [value for name, value in world["entropy"].items()
                   if me is None or name != ATKR[me]]
        if me != 0:
            hidden.append(BET_KEY)  # Anna's command id
        return hidden
    return [world["castle"]["tokens"][name] for name in CASTLE + ["referee", "spectator"]
            if me is None or name != CASTLE[me]]


def check_holds_nothing_hidden(world, kind: str, body, me: int | None) -> None:
    """``body`` (any JSON answer) is fit for seat ``me`` (None: a spectator or nobody): no other
    seat's sealed bet, entropy or command id (atkr); no other seat's society, profession or
    items (Castle); no other role's token."""
    text = json.dumps(body)
    for secret in secrets_of(world, kind, me):
        assert secret not in text, f"an answer to seat {me} holds {secret!r}: {text[:400]}"
    for node in walk(body):
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("players"), list):
            for seat, row in enumerate(node["players"]):
                if not isinstance(row, dict) or seat == me:
                    continue
                if kind == "atkr" and seat == 0:  # Anna's bet is sealed (ATKR-3.2)
                    assert row.get("bet") in (None, 0) or row.get("bet") != BET, text[:400]
                if kind == "castle":
                    for field in ("society", "profession", "items"):
                        assert row.get(field) is None, f"seat {seat}'s {field} to {me}: {row}"
        if kind == "atkr" and node.get("type") == "bet_placed" and me != 0:
            assert "amount" not in node or node["amount"] is None, text[:400]
        if kind == "castle" and isinstance(node.get("knowledge"), dict):
            raise AssertionError(f"every seat's knowledge to seat {me}: {text[:400]}")


def check_refused(answer, statuses=(401, 403, 404)) -> dict:
    """A refusal: one of ``statuses``, as the API's JSON error (no traceback, no HTML)."""
    assert answer.status_code in statuses, (answer.status_code, answer.text[:400])
    assert answer.headers["content-type"].startswith("application/json"), answer.headers
    body = answer.json()
    assert set(body) == {"error", "rule", "code"} and isinstance(body["error"], str), body
    assert "Traceback" not in answer.text and "<html" not in answer.text.lower()
    assert answer.headers.get("referrer-policy") == "no-referrer"
    return body


# -- the routes the pages call ----------------------------------------------------------------
def routes(created) -> list[tuple[str, str, dict | None]]:
    """(method, path, JSON body) of every game route the pages (table, referee, replay, audit)
    and the CLI call."""
    game = created["game"]
    return [("GET", f"/games/{game}", None), ("GET", f"/games/{game}/view", None),
            ("GET", f"/games/{game}/legal", None), ("GET", f"/games/{game}/moves", None),
            ("GET", f"/games/{game}/events?after=0&wait=0", None),
            ("GET", f"/games/{game}/stream?after=0&timeout=0.2", None),
            ("GET", f"/games/{game}/log", None), ("GET", f"/games/{game}/seal", None),
            ("GET", f"/games/{game}/replay/data", None),
            ("GET", f"/games/{game}/audit/data", None),
            ("GET", f"/games/{game}/referee/moves", None),
            ("POST", f"/games/{game}/commands", {"type": "pass"}),
            ("POST", f"/games/{game}/commands", {"type": "correct", "to": 1, "reason": "x"}),
            ("POST", f"/games/{game}/referees", {"name": "Mallory"})]


def send(world, method: str, path: str, body, headers: dict, query: str = ""):
    http = world["app"].http
    url = path + (("&" if "?" in path else "?") + query if query else "")
    if method == "GET":
        return http.get(url, headers=headers)
    return http.post(url, json=body, headers={**headers, "Idempotency-Key": "mallory-1"})


def bad_credentials(world, created) -> list[tuple[str, dict, str]]:
    """(what, headers, query) of every credential that proves nothing for ``created``."""
    seat = created["tokens"][created["players"][0]]
    foreign = world["other"]["tokens"]
    forged = created["game"] + "." + "A" * 43  # this game's id, a made-up secret
    basic = base64.b64encode(f"x:{seat}".encode()).decode()
    return [
        ("no token", {}, ""),
        ("garbage", {"Authorization": "Bearer garbage"}, ""),
        ("empty Bearer", {"Authorization": "Bearer "}, ""),
        ("only the scheme", {"Authorization": "Bearer"}, ""),
        ("wrong scheme", {"Authorization": f"Basic {basic}"}, ""),
        ("token without scheme", {"Authorization": seat}, ""),
        ("Token scheme", {"Authorization": f"Token {seat}"}, ""),
        ("forged secret", auth(forged), ""),
        ("a path for a token", auth(created["game"] + "./../" + seat), ""),
        ("another game's seat", auth(foreign["Xena"]), ""),
        ("another game's referee", auth(foreign["referee"]), ""),
        ("another game's spectator", auth(foreign["spectator"]), ""),
        ("token in the query", {}, f"token={created['tokens']['referee']}"),
        ("access_token in the query", {}, f"access_token={created['tokens']['referee']}"),
        ("garbage header, token in the query", {"Authorization": "Bearer x"},
         f"token={created['tokens']['referee']}"),
    ]


@pytest.mark.parametrize("kind", ["atkr", "castle"])
def test_no_route_answers_a_token_that_proves_nothing(world, kind):
    created = world[kind]
    before = version(world, created)
    for what, headers, query in bad_credentials(world, created):
        for method, path, body in routes(created):
            answer = send(world, method, path, body, headers, query)
            refused = check_refused(answer)
            check_holds_nothing_hidden(world, kind, refused, None)
            if what.startswith("another game's"):
                assert answer.status_code == 403, (what, path, answer.text)
                # the same answer whether or not the game exists: it names only its own game
                assert created["game"] not in refused["error"] or "not" in refused["error"]
            else:
                assert answer.status_code == 401, (what, path, answer.text)
                assert "WWW-Authenticate" in answer.headers
    assert version(world, created) == before  # nothing recorded


@pytest.mark.parametrize("kind", ["atkr", "castle"])
def test_a_seat_cannot_act_or_read_as_another_seat(world, kind):
    created = world[kind]
    game, tokens, names = created["game"], created["tokens"], created["players"]
    http = world["app"].http
    before = version(world, created)
    me, other = 1, 0  # Ben / Bo tries to be Anna / Ann
    mine = auth(tokens[names[me]])
    reads = {"view": {}, "legal": {}, "moves": {}, "events": {"after": 0, "wait": 0},
             "stream": {"after": 0, "timeout": 0.2}, "replay/data": {}}
    for path, extra in reads.items():
        for as_name in (names[other], names[other].lower(), names[other].upper(), "referee",
                        "spectator", "", "0", "Nobody"):
            answer = http.get(f"/games/{game}/{path}", params={**extra, "as": as_name},
                              headers=mine)
            check_holds_nothing_hidden(world, kind, check_refused(answer, (400, 403)), me)
        own = http.get(f"/games/{game}/{path}", params={**extra, "as": names[me].lower()},
                       headers=mine)
        assert own.status_code == 200, (path, own.text)  # one's own seat in another case
        if "stream" not in path:
            check_holds_nothing_hidden(world, kind, own.json(), me)
    # the other seat's legal command, given with my token: as=, "player" in the body, or both
    legal = {name: http.get(f"/games/{game}/legal", headers=auth(tokens["referee"]),
                            params={"as": name}).json() for name in names if name != names[me]}
    actor = next((name for name, commands in legal.items() if commands), names[other])
    # nobody else may act now (it is my turn): my own command, in another seat's name
    command = dict((legal.get(actor) or http.get(f"/games/{game}/legal",
                                                  headers=mine).json())[0], player=actor)
    for number, query in enumerate(({"as": actor}, {}, {"as": names[me]})):
        answer = http.post(f"/games/{game}/commands", params=query, json=command,
                           headers={**mine, "Idempotency-Key": f"as-{number}"})
        check_holds_nothing_hidden(world, kind, check_refused(answer, (403,)), me)
    # a command id another seat used: refused, and its first answer is not handed out
    if kind == "atkr":
        answer = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 50},
                           headers={**mine, "Idempotency-Key": BET_KEY})
        refused = check_refused(answer, (403, 409))
        # the answer names the id this seat sent, and nothing of the command it belongs to
        refused["error"] = refused["error"].replace(BET_KEY, "<the id sent>")
        check_holds_nothing_hidden(world, kind, refused, me)
        assert str(BET) not in refused["error"] and "bet" not in refused["error"]
    assert version(world, created) == before


@pytest.mark.parametrize("kind", ["atkr", "castle"])
def test_the_referee_routes_refuse_a_seat_and_the_spectator(world, kind):
    created = world[kind]
    game, tokens, names = created["game"], created["tokens"], created["players"]
    http = world["app"].http
    before = version(world, created)
    for who in ("spectator", names[0], names[1]):
        headers = auth(tokens[who])
        me = None if who == "spectator" else names.index(who)
        for path in ("log", "audit/data", "referee/moves"):
            answer = http.get(f"/games/{game}/{path}", headers=headers)
            statuses = (400, 403) if path == "audit/data" and kind == "castle" else (403,)
            check_holds_nothing_hidden(world, kind, check_refused(answer, statuses), me)
        answer = http.post(f"/games/{game}/referees", json={"name": "Mallory"},
                           headers={**headers, "Idempotency-Key": "ref-" + who})
        check_refused(answer, (403,))
        # the desk: a correction, an amendment, a ruling are the referee's (DESK-1)
        for number, command in enumerate(({"type": "correct", "to": 1, "reason": "mine"},
                                          {"type": "amend", "seq": 2, "reason": "mine"},
                                          {"type": "ruling", "dispute": 1, "uphold": True,
                                           "reason": "mine"})):
            answer = http.post(f"/games/{game}/commands", json=command,
                               headers={**headers, "Idempotency-Key": f"desk-{who}-{number}"})
            check_holds_nothing_hidden(world, kind, check_refused(answer, (400, 403, 409)), me)
        # the spectator sees the public table only, and gives no command at all
        if who == "spectator":
            view = http.get(f"/games/{game}/view", headers=headers)
            assert view.status_code == 200
            check_holds_nothing_hidden(world, kind, view.json(), None)
            for as_name in names:
                check_refused(http.get(f"/games/{game}/view", params={"as": as_name},
                                       headers=headers), (403,))
            answer = http.post(f"/games/{game}/commands", json={"type": "pass"},
                               headers={**headers, "Idempotency-Key": "spectator-pass"})
            check_refused(answer, (403,))
    assert version(world, created) == before


@pytest.mark.parametrize("kind", ["atkr", "castle"])
def test_every_answer_to_a_seat_holds_only_what_the_seat_may_see(world, kind):
    created = world[kind]
    game, tokens, names = created["game"], created["tokens"], created["players"]
    http = world["app"].http
    for me, name in enumerate(names):
        headers = auth(tokens[name])
        for path in ("", "/view", "/legal", "/moves", "/events?after=0&wait=0",
                     "/replay/data"):
            answer = http.get(f"/games/{game}{path}", headers=headers)
            assert answer.status_code == 200, (path, answer.text)
            check_holds_nothing_hidden(world, kind, answer.json(), me)
        listed = http.get("/games", headers=headers)
        assert listed.status_code == 200
        check_holds_nothing_hidden(world, kind, listed.json(), me)
        stream = http.get(f"/games/{game}/stream", params={"after": 0, "timeout": 0.2},
                          headers=headers)
        for line in stream.text.splitlines():
            if line.startswith("data:"):
                check_holds_nothing_hidden(world, kind, json.loads(line[5:]), me)


# -- the pages' headers and scripts -----------------------------------------------------------
def check_strict_policy(answer, what: str) -> None:
    policy = answer.headers.get("content-security-policy", "")
    parts = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert parts.get("default-src") == ["'none'"], (what, policy)
    assert "'unsafe-inline'" not in parts.get("script-src", []), (what, policy)
    assert "'unsafe-eval'" not in parts.get("script-src", []), (what, policy)
    assert parts.get("frame-ancestors") == ["'none'"], (what, policy)
    assert parts.get("base-uri") == ["'none'"], (what, policy)
    assert not re.search(r"https?:|\*|wss?:|data:\S*\s*;?\s*script", policy.replace(
        "img-src 'self' data:", "").replace("img-src data:", "")), (what, policy)
    assert answer.headers.get("referrer-policy") == "no-referrer", what
    assert answer.headers.get("x-content-type-options") == "nosniff", what
    assert answer.headers.get("x-frame-options") == "DENY", what
    assert answer.headers.get("cache-control") == "no-store", what


@pytest.mark.parametrize("kind", ["atkr", "castle"])
def test_every_page_carries_a_strict_policy_and_no_game_data(world, kind):
    created = world[kind]
    http = world["app"].http
    game = created["game"]
    for page in ("table", "referee", "replay", "audit"):
        for headers in ({}, auth(created["tokens"]["spectator"]), {"Authorization": "Bearer x"}):
            answer = http.get(f"/games/{game}/{page}", headers=headers)
            assert answer.status_code == 200, (page, answer.text[:200])
            assert answer.headers["content-type"].startswith("text/html")
            check_strict_policy(answer, page)
            for name in created["players"]:  # the page holds no game data: it asks the API
                assert name not in answer.text, (page, name)
    for asset in ("table.js", "table.css", "table_castle.js", "referee/referee.js",
                  "referee/words.js", "referee/referee.css", "i18n/en.json", "autopass.js"):
        answer = http.get(f"/pages/{asset}")
        assert answer.status_code == 200, asset
        assert answer.headers.get("referrer-policy") == "no-referrer", asset
        assert answer.headers.get("x-content-type-options") == "nosniff", asset
    for missing in ("/pages/../app.py", "/pages/nothing.js", "/pages/referee/../table.py",
                    "/pages/i18n/xx.json"):
        check_refused(http.get(missing), (404,))


def scripts() -> dict[str, str]:
    """Every script the served pages load or inline: name -> text."""
    folder = resources.files("engine.web.pages")
    found = {entry.name: entry.read_text(encoding="utf-8") for entry in folder.iterdir()
             if entry.name.endswith((".js", ".html"))}
    verify = folder.joinpath("verify")
    found.update({"verify/" + entry.name: entry.read_text(encoding="utf-8")
                  for entry in verify.iterdir() if entry.name.endswith((".js", ".html"))})
    return found


def test_the_pages_send_the_token_in_a_header_never_in_a_url():
    texts = scripts()
    assert "table.js" in texts and "referee.js" in texts and "page.js" in texts
    for name, text in texts.items():
        # an EventSource cannot send a header: a page using one would need the token in a URL
        assert "EventSource" not in text and "WebSocket" not in text, name
        assert not re.search(r"[?&](access_)?token=", text), name
        for call in re.finditer(r"fetch\(([^,)]*)", text):
            assert "token" not in call.group(1).lower(), (name, call.group(0))
        # the token is read from the fragment (#token=...), which no browser sends
        if "token" in text and ("location" in text):
            assert "location.search" not in text, name
            assert re.search(r"location\.hash", text), name


def test_every_page_file_says_no_referrer_itself():
    """A page written as a file (the replay, audit, archive and verify pages: no server, so no
    header) says ``no-referrer`` and its policy in ``<meta>`` elements; the served ones too."""
    texts = {name: text for name, text in scripts().items() if name.endswith(".html")}
    assert {"replay.html", "audit.html", "archive.html", "verify/verify.html", "table.html",
            "referee.html"} <= set(texts)
    for name, text in texts.items():
        assert '<meta name="referrer" content="no-referrer">' in text, name
    from engine.web.pages import archive_html

    page = archive_html({"title": "t"})
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert "default-src 'none'" in policy and "connect-src 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]
    assert '<meta name="referrer" content="no-referrer">' in page
