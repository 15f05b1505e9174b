"""A Castle of the Devil trade and a fight with two supporters played through four seats' pages
and followed on the spectator's (issue 25.1, 25.3, 25.5, 25.6, 25.8), in Debian's Chromium
against a real uvicorn serving the service; every command is a click on a control found by its
accessible name (and a choice in a list found by its label).

The game is tests/page/castle_scenario.py's, dealt by hand, so what every seat may know at
every step is worked out here from the rules, never read from the page or the service:

* a seat sees its own society, profession and items (CASTLE-2.1, 2.9), and keeps knowing an
  item it once held (it gave it away, CASTLE-4.2);
* an offered item and the one given back only the two partners see (CASTLE-4.1, 4.2);
* a profession once used and an item once shown in a fight are public (CASTLE-6.9, 5.15);
* the fight's winner who chooses to look sees the loser's society and profession, and nobody
  else does (CASTLE-6.8); the profession pile and the item pile nobody sees (CASTLE-2.1, 2.4).

After every step, every seat's page and the spectator's: the DOM (both languages' names of
every card, profession and society it may not know) and every network answer (the view, the
moves, the events: a structural check of each hidden field and a search of every value) hold
nothing more.  The count is worked out by hand (CASTLE-6.6): Ben attacks Ann; Dora supports
Ben, Cid supports Ann; Ben uses the Thug (+1), Cid the Bodyguard (+1), Ann shows the Gloves
(+1) and uses the Grand Master (+1): attacker 1 + 1 + 1 = 3, defender 1 + 1 + 1 + 1 + 1 = 5.
"""

from __future__ import annotations

import json
import os
import re
import time

import pytest

from engine.games.castle.cards import ALL_ITEMS, PROFESSIONS, kind
from engine.web.pages.table import languages
from tests.page.castle_scenario import CARDS, PLAYERS, new_game
from tests.page.test_table_page import CUT_OFF, Seat, ThreadServer
from tests.service.conftest import auth

pytestmark = pytest.mark.slow


def catalogue(lang: str) -> dict:
    from importlib import resources

    folder = resources.files("engine.web.pages").joinpath("i18n")
    return json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8"))["kinds"]["castle"]


WORDS = {lang: catalogue(lang) for lang in languages()}
#: the pages' languages: Dora's is German, on a phone
LANG = {"Ann": "en", "Ben": "en", "Cid": "en", "Dora": "de"}

#: the script, step by step: (seat, verb, {input label: option label}) in English; the
#: fight's many windows (CASTLE-6.2, 6.4, 6.5, 6.7) are passed by whoever is asked
TRADE = [("Ann", "trade", {"trade.to": "Dora"}),        # CASTLE-4.1: Ann offers the dagger
         ("Dora", "accept", {}),                        # CASTLE-4.2: she gives the gloves back
         ("Ben", "attack", {"attack.defender": "Ann"})]  # CASTLE-6.1
SUPPORT = {"Cid": "defender", "Dora": "attacker"}        # CASTLE-6.3
#: CASTLE-6.5: what each uses in the abilities round, in turn from the attacker
USES = {"Ben": ["thug"], "Cid": ["bodyguard"], "Ann": ["gloves", "grand-master"]}


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    server = ThreadServer(str(tmp_path_factory.mktemp("castle-table-store"))).start()
    try:
        yield server
    finally:
        server.stop()


def referee(server, created, path="view") -> dict:
    return server.http.get(f"/games/{created['game']}/{path}",
                           headers=auth(created["tokens"]["referee"])).json()


def next_step(view: dict, steps: int):
    """The next command of the script from the referee's view: ``(seat, verb, {input: option
    value})``, or None once the fight is over (turn 3 has begun)."""
    if steps < len(TRADE):
        return TRADE[steps]
    if view["phase"] != "fight":
        return None
    fight, seat = view["fight"], view["waiting_for"][0]
    if fight["stage"] == "support":
        return seat, "support", {"support.side": SUPPORT[seat]}
    if fight["stage"] == "abilities":
        used = [use["power"] for use in fight["uses"]]
        left = [power for power in USES.get(seat, []) if power not in used]
        if left:
            return seat, "use", {"use.power": left[0]} if len(left) > 1 else {}
    if fight["stage"] == "choice":
        return seat, "choose", {"choose.option": "look"}  # CASTLE-6.8a
    return seat, "pass", {}


def option_text(lang: str, field: str, value: str) -> str:
    """What the page's list shows for ``value`` (the catalogue's words, not the page's)."""
    words = WORDS[lang]
    if field.endswith((".to", ".defender")):
        return value
    if field == "support.side":
        return words["values"]["side_choice"][value]
    if field == "use.power":
        return words["values"]["profession"].get(value) or words["cards"][kind(value)]
    return words["values"]["option"][value]


class Knowledge:
    """What each page may know, worked out from the rules as the script goes (module
    docstring): the items each seat ever held, the public professions and items, whose
    society and profession each seat has seen.  ``None`` is the spectator."""

    def __init__(self):
        self.held = {name: {CARDS[name][2]} for name in PLAYERS}
        self.public: set[str] = set()
        self.seen = {name: {name} for name in PLAYERS}

    def step(self, seat: str, verb: str, chosen: dict, before: dict, after: dict) -> None:
        if verb == "trade":  # the receiver sees the item offered (CASTLE-4.1): Ann's only one
            (offered,) = before["players"][PLAYERS.index(seat)]["items"]
            self.held[chosen["trade.to"]].add(offered)
        for row in after["players"]:
            self.held[row["name"]] |= set(row["items"])
        if verb == "use":
            self.public.add(chosen.get("use.power") or USES[seat][-1])
        if verb == "choose":  # the winner looks at the loser's cards (CASTLE-6.8a)
            self.seen[seat].add("Ben")

    def items(self, me) -> set[str]:
        return (self.held[me] if me else set()) | (self.public & set(ALL_ITEMS))

    def professions(self, me) -> set[str]:
        mine = {CARDS[name][1] for name in self.seen[me]} if me else set()
        return mine | (self.public & set(PROFESSIONS))

    def societies(self, me) -> set[str]:
        return {CARDS[name][0] for name in self.seen[me]} if me else set()


def leaves(body, key=None):
    """Every string value in a JSON answer, with the key it is under."""
    if isinstance(body, dict):
        for k, value in body.items():
            yield from leaves(value, k)
    elif isinstance(body, list):
        for value in body:
            yield from leaves(value, key)
    elif isinstance(body, str):
        yield key, body


def dicts(body):
    if isinstance(body, dict):
        yield body
        for value in body.values():
            yield from dicts(value)
    elif isinstance(body, list):
        for value in body:
            yield from dicts(value)


def check_answer(me, url: str, body, known: Knowledge) -> None:
    """One network answer to ``me``'s page (a seat's name, None for the spectator) holds no
    card it may not know: each hidden field of the views and events is null, and no value
    anywhere names another card."""
    index = PLAYERS.index(me) if me else None
    where = (me, url)
    for node in dicts(body):
        if "players" in node and "phase" in node:  # a view
            for seat, row in enumerate(node["players"]):
                if seat == index:
                    continue
                assert row["items"] is None, (where, row)
                if row["name"] not in known.seen[me] if me else True:
                    assert row["society"] is None, (where, row)
                    if not row["profession_used"]:
                        assert row["profession"] is None, (where, row)
        kind_ = node.get("type")
        if kind_ == "cards_dealt":
            for seat in range(len(PLAYERS)):
                if seat != index:
                    assert node["societies"][seat] is None and node["professions"][seat] is None
                    assert node["hands"][seat] == [None], (where, node)
            assert set(node["item_pile"]) == {None} and set(node["profession_pile"]) == {None}
        if kind_ in ("trade_offered", "trade_refused", "trade_completed") \
                and index not in (node["giver"], node["receiver"]):
            assert all(node.get(k) is None for k in ("item", "offered", "returned")), where
        if kind_ in ("society_seen", "profession_seen") \
                and index not in (node["viewer"], node["owner"]):
            assert node.get("society") is None and node.get("profession") is None, where
    items, professions = known.items(me), known.professions(me)
    for key, value in leaves(body):
        if key in ("type", "kind", "phase", "stage", "window"):  # names of steps, not cards
            continue
        assert not (value in ALL_ITEMS and value not in items), (where, key, value)
        assert not (value in PROFESSIONS and value not in professions), (where, key, value)


def names_of(cards: set[str], professions: set[str], societies: set[str]) -> list[str]:
    """Every language's names of these cards, professions and societies, longest first."""
    out = set()
    for words in WORDS.values():
        out |= {words["cards"][kind(card)] for card in cards}
        out |= {words["values"]["profession"][p] for p in professions}
        out |= {words["values"]["society"][s] for s in societies}
    return sorted(out, key=len, reverse=True)


def check_page(seat: Seat, me, known: Knowledge) -> None:
    """``seat``'s DOM and every answer it got since the last check hold only what ``me`` may
    know (:class:`Knowledge`)."""
    for url, body in seat.bodies():
        if "/pages/" not in url:  # the catalogues name every card by design
            check_answer(me, url, body, known)
    allowed_items, allowed_profs = known.items(me), known.professions(me)
    allowed_socs = known.societies(me)
    text = seat.page.inner_text("body")
    for name in names_of(allowed_items, allowed_profs, allowed_socs):
        text = text.replace(name, " ")  # "Secret Bag (Key)" is not a Key
    secret = names_of(set(ALL_ITEMS) - allowed_items, set(PROFESSIONS) - allowed_profs,
                      {"order", "brotherhood"} - allowed_socs)
    for name in secret:
        assert not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text), (seat.name, name)
    hidden = ("hidden", "verdeckt")
    for other in PLAYERS:
        if other == me:
            continue
        row = seat.page.locator(f'#players tr[data-player="{other}"]').inner_text().split("\t")
        assert row[1] in hidden, (seat.name, row)  # the items (CASTLE-4.1)
        if not me or other not in known.seen[me]:
            assert row[3] in hidden, (seat.name, row)  # the society (CASTLE-2.2)


def test_a_trade_and_a_fight_with_two_supporters_through_four_seats_pages(live, browser, shots):
    from click.testing import CliRunner

    from client.cli import cli

    created = new_game(live)
    game = created["game"]
    seats = {name: Seat(browser, live, created, name,
                        locale="de-DE" if LANG[name] == "de" else "en-GB",
                        width=390 if LANG[name] == "de" else 1200) for name in PLAYERS}
    watcher = Seat(browser, live, created, "spectator")
    pages = list(seats.values()) + [watcher]
    known = Knowledge()
    cut: list = []
    try:
        for name, seat in seats.items():
            check_page(seat, name, known)
        check_page(watcher, None, known)
        assert watcher.page.locator("#moves button").count() == 0  # a spectator has none
        steps = 0
        while True:
            view = referee(live, created)
            step = next_step(view, steps)
            if step is None:
                break
            assert steps < 60, "the scripted fight did not end"
            who, verb, chosen = step
            seat, lang = seats[who], LANG[who]
            for field, value in chosen.items():
                seat.page.get_by_label(WORDS[lang]["inputs"][field], exact=True) \
                    .select_option(label=option_text(lang, field, value))
            button = seat.page.get_by_role("button", name=WORDS[lang]["verbs"][verb], exact=True)
            button.click()
            deadline = time.monotonic() + 15
            while referee(live, created)["version"] == view["version"]:
                assert time.monotonic() < deadline, f"{verb} by {who} not recorded"
                time.sleep(0.02)
            after = referee(live, created)
            steps += 1
            known.step(who, verb, chosen, view, after)
            for other in pages:
                other.at(after["version"])
            for name, other in seats.items():
                check_page(other, name, known)
            check_page(watcher, None, known)
            if steps == 1:  # the offer open: its item only for the two partners (CASTLE-4.1)
                offer = lambda name: seats[name].page.locator(  # noqa: E731
                    '#castle-pending li[data-frame="offer"]').inner_text()
                assert offer("Dora") == ("Ann bietet Dora einen Gegenstand an: Dolch; Dora "
                                         "nimmt an oder lehnt ab (CASTLE-4.2)")
                assert offer("Ann") == ("Ann offers Dora an item: Dagger; Dora accepts or "
                                        "refuses (CASTLE-4.2)")
                assert offer("Cid") == ("Ann offers Dora an item face down; Dora accepts or "
                                        "refuses (CASTLE-4.2)")
                assert seats["Dora"].page.get_by_role("button", name="Ablehnen").count() == 1
            if after["phase"] == "fight" and after["fight"]["stage"] == "abilities" \
                    and not cut:
                # the fight as the spectator follows it: the sides and who is asked (CASTLE-6.3)
                fight = lambda key: watcher.page.locator(  # noqa: E731
                    f'#castle-fight dd[data-fight="{key}"]').inner_text()
                assert (fight("attacker"), fight("defender")) == ("Ben", "Ann")
                assert fight("supporters") == "Cid: defender, Dora: attacker"
                assert fight("stage") == ("items and professions (CASTLE-6.5) \u00b7 Ben is "
                                          "asked")
                # Dora's phone in the fight's busiest moment
                dora = seats["Dora"].page
                cut.append(dora.evaluate(CUT_OFF))
                dora.screenshot(path=os.path.join(shots, "table-castle-de-390.png"),
                                full_page=True)
        assert cut and cut[0]["cut"] == [] and cut[0]["width"] <= cut[0]["inner"], cut
        final = referee(live, created)
        assert final["turn"] == "Cid" and final["turn_number"] == 3  # CASTLE-3.1: clockwise
        # the count by hand (module docstring), as every page's event list words it
        count = [e["event"] for e in referee(live, created, "events?after=0")["events"]
                 if e["event"]["type"] == "fight_counted"]
        assert (count[0]["attacker_total"], count[0]["defender_total"], count[0]["winner"]) == \
            (3, 5, 0)
        line = seats["Cid"].page.locator("#events li", has_text="Count:").inner_text()
        assert line.endswith(": Ann wins (CASTLE-6.6)") and "attacker 3, defender 5" in line
        assert "Dora supports" in line and "Ben: Thug" in line and "Ann: Gloves" in line
        german = seats["Dora"].page.locator("#events li", has_text="Auszählung").inner_text()
        assert "Angreifer 3, Verteidiger 5" in german and german.endswith(
            ": Ann gewinnt (CASTLE-6.6)")
        # only Ann saw Ben's society (CASTLE-6.8a): her table and her knowledge say so
        ann = seats["Ann"].page
        ben = ann.locator('#players tr[data-player="Ben"]').inner_text().split("\t")
        assert ben[3] == "Brotherhood of True Lies" and ben[4] == "Thug (face up)", ben
        assert "Ben's society: Brotherhood of True Lies (the fight, CASTLE-6.8)" in \
            ann.locator("#castle-knowledge").inner_text()
        # Dora's knowledge: the dagger Ann offered her (CASTLE-4.1), in German
        assert "Ann hat Ihnen angeboten: Dolch (Tausch, CASTLE-4.2)" in \
            seats["Dora"].page.locator("#castle-knowledge").inner_text()
        # the trade as the two partners and as the others saw it (CASTLE-4.1, 4.2)
        trade = lambda page: page.locator("#events li").nth(4).inner_text()  # noqa: E731
        assert trade(ann) == ("#5 Dora accepts from Ann: Dagger, and gives back: Gloves "
                              "(CASTLE-4.2); nothing is named (CASTLE-4.5)")
        assert trade(seats["Cid"].page) == ("#5 Dora accepts Ann's offer and gives an item "
                                            "back (CASTLE-4.2); nothing is named (CASTLE-4.5)")
        # the spectator followed live: every event, and the fight's supporters while it ran
        log = referee(live, created, "events?after=0")["events"]
        shown = watcher.page.locator("#events li").evaluate_all(
            "(items) => items.map((li) => Number(li.dataset.seq))")
        assert shown == [entry["seq"] for entry in log]
        assert watcher.page.locator("#events li").nth(12).inner_text() == \
            "#13 Cid supports the defender (CASTLE-6.3)"
        # the log verifies (`devil verify`): format, chain and every command re-decided
        path = os.path.join(shots, f"{game}.devlog")
        with open(path, "wb") as handle:
            handle.write(live.http.get(f"/games/{game}/log", headers=auth(
                created["tokens"]["referee"])).content)
        verified = CliRunner().invoke(cli, ["verify", path, "--json"])
        assert verified.exit_code == 0, verified.output
        assert json.loads(verified.stdout)["ok"]
        for other in pages:
            assert other.errors == []
            assert not any(created["tokens"][other.name] in url for url in other.urls)
    finally:
        for other in pages:
            other.close()


def test_every_event_of_a_whole_recorded_game_reads_as_a_sentence(finished_games, browser):
    """The shipped seven-player recording (replays/castle-7p.devlog: trades refused and
    completed with named effects, the sextant, the Clairvoyant, the Diplomat, tome and coat,
    fights with ties, the bags turned, a declaration), on the referee's page in English and a
    seat's in German: every event is a sentence of the catalogue, with its rule id, no field
    left unworded; the game's end as the declaration decided it (CASTLE-9.2)."""
    server, games = finished_games
    castle = games["castle"]
    created = {"game": castle["game"], "tokens": castle["tokens"]}
    pages = [Seat(browser, server, created, "referee"),
             Seat(browser, server, created, castle["players"][0], locale="de-DE")]
    try:
        for seat in pages:
            lines = seat.page.locator("#events li").all_inner_texts()
            assert len(lines) == 332
            for line in lines:
                assert not re.search(r"\{|\}|undefined|null|\[object", line), line
                assert re.search(r"\b(?:CASTLE|SEAT)-\d+", line), line
            assert seat.page.locator("#turn").inner_text().startswith(("Game over", "Spielende"))
            assert seat.errors == []
        ended = pages[0].page.locator("#events li").last.inner_text()
        assert ended.startswith("#332 Game over. Winners: ") and ended.endswith("(CASTLE-9.2)")
    finally:
        for seat in pages:
            seat.close()


def test_each_castle_seat_sits_from_its_page_and_the_deal_follows(live, browser):
    """A Castle game with seat entropy (`devil serve`'s default): before the deal each seat's
    page offers only its Sit button (SEAT-1) and makes its own random value (SEAT-2); once all
    four are in, the cards are dealt and Ann, the start player, may trade (CASTLE-2.8, 3.1)."""
    answer = live.http.post("/games", json={"kind": "castle", "seat_entropy": True, "options": {
        "players": PLAYERS, "first": "Ann"}})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    seats = [Seat(browser, live, created, name) for name in PLAYERS]
    try:
        for index, seat in enumerate(seats):
            assert seat.page.locator("#moves button").all_inner_texts() == ["Sit"]
            assert seat.page.locator("#castle-box").is_hidden()
            seat.page.get_by_role("button", name="Sit", exact=True).click()
            seat.page.locator("#events li", has_text=f"{PLAYERS[index]} gave its entropy "
                                                     "(SEAT-2)").wait_for()
        ann = seats[0].page
        ann.get_by_role("button", name="Trade", exact=True).wait_for(timeout=15000)
        assert ann.locator("#castle-box").is_visible()
        assert ann.locator('#you dd[data-field="items"]').inner_text() not in ("", "hidden")
        for seat in seats:
            assert seat.errors == []
    finally:
        for seat in seats:
            seat.close()
