"""One terminal, several people (issue 10.5): `devil play` driven through a real
pseudo-terminal (pexpect), the way people at one keyboard use it.

The screen is cut at every clear-screen sequence; what lies between two clears is what one
person could see.  A person's hand must never be on the screen when the next person is asked,
what a person types for a secret is not echoed, and an interrupted game goes on with
`devil play --resume GAME`.
"""

from __future__ import annotations

import os
import re
import signal
import sys

import pexpect

from client.play import CLEAR
from engine.replay import verify_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEOPLE = ("Ann", "Ben")
NAMES = ("Ann", "Ben", "Cid", "Dora", "Eve")

PASS_ON = r"Pass the terminal to (\w+), then press Enter\. "
CHOICE = r"(\w+), your choice: "
FIELD = r"(\w+), (?:which item|to whom|whom|which item kind|which side|which option|" \
        r"which power|giving back which item|which order|silently \(smuggled\)) \[([^\]]*)\]: "
ALLIES = r"(\w+), name your [^\n]*: "
CONFIRM = r"Declare\? \[y/N\]: "
BET = r"(\w+), your secret bet \([^)]*\): "
DRAW = r"(\w+): draw (?:or stop\?|your first coal)[^:]*: "


def spawn(store, *args) -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "250", "DEVIL_STORE": str(store)}
    env.pop("DEVIL_SERVER", None)
    # Ctrl-C must reach the program as at a terminal, even when the tests run from a shell that
    # ignores SIGINT (a background job inherits SIG_IGN, and Python keeps an ignored SIGINT)
    return pexpect.spawn(sys.executable, ["-m", "client.cli", *map(str, args)], cwd=ROOT,
                         env=env, encoding="utf-8", dimensions=(60, 250), timeout=20,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def drive(child, answers=None, limit=400) -> tuple[str, list[tuple[str, str]]]:
    """Answer every prompt until the program ends; the whole screen text (line ends
    normalised) and the prompts answered: ``[(person, what)]``.  Castle menus: the second
    line when there is one (so people trade and accept), the first field offered, no
    declaration.  ``answers``: ``{"bet": "70", ...}`` for atkr."""
    answers = answers or {}
    screen, asked = [], []
    for _ in range(limit):
        index = child.expect([PASS_ON, CHOICE, FIELD, ALLIES, CONFIRM, BET, DRAW, pexpect.EOF])
        screen.append(child.before)
        if index == 7:
            break
        screen.append(child.after)
        who = child.match.group(1) if index not in (4,) else None
        if index == 0:
            asked.append((who, "pass on"))
            child.sendline("")
        elif index == 1:
            entries = re.findall(r"^\s+(\d+)  ", child.before.replace("\r", ""), re.M)
            asked.append((who, "choice"))
            child.sendline("2" if len(entries) >= 2 else "1")
        elif index == 2:
            asked.append((who, "field"))
            child.sendline(child.match.group(2).split(" / ")[0].split()[1].rstrip(";"))
        elif index == 3:
            asked.append((who, "allies"))
            child.sendline("-")
        elif index == 4:
            child.sendline("n")
        elif index == 5:
            asked.append((who, "bet"))
            child.sendline(answers.get("bet", "10"))
        elif index == 6:
            asked.append((who, "draw"))
            child.sendline("s" if "or stop" in child.after else "d")
    else:  # pragma: no cover
        raise AssertionError("the game asked too many questions")
    child.close()
    return "".join(screen).replace("\r\n", "\n"), asked


def tables(segment: str) -> list[dict[str, dict[str, str]]]:
    """Every castle table in a screen segment: ``{player: {"society", "profession",
    "items"}}``, read by the columns of its header line."""
    out = []
    lines = segment.split("\n")
    for number, line in enumerate(lines):
        if not re.match(r"^\s+player\s+society\s+profession\s+items\s+#", line):
            continue
        cols = {key: line.index(key) for key in ("player", "society", "profession", "items")}
        cols["#"] = line.index("#", cols["items"])
        rows = {}
        for row in lines[number + 1:number + 1 + len(NAMES)]:
            name = row[cols["player"]:cols["society"]].strip()
            rows[name] = {"society": row[cols["society"]:cols["profession"]].strip(),
                          "profession": row[cols["profession"]:cols["items"]].strip(),
                          "items": row[cols["items"]:cols["#"]].strip()}
        assert sorted(rows) == sorted(NAMES), rows
        out.append(rows)
    return out


def test_castle_two_people_and_three_bots_never_see_each_others_hands(tmp_path):
    child = spawn(tmp_path, "play", "castle", "--player", "Ann", "--player", "Ben",
                  "--bot", "Cid=sensible", "--bot", "Dora=sensible", "--bot", "Eve=sensible",
                  "--seed", 11, "--max-rounds", 2)
    text, asked = drive(child)
    assert child.exitstatus == 0, text[-2000:]
    segments = text.split(CLEAR)
    assert "screen cleared" not in text  # a terminal: the real sequence, not the marker
    askers = [[who for who in PEOPLE if f"{who}, your choice: " in seg] for seg in segments]
    handed = [who for who, what in asked if what == "pass on"]
    assert set(handed) == set(PEOPLE) and len(handed) >= 4  # both, back and forth
    people_segments = 0
    for segment, who in zip(segments, askers):
        if not who:
            continue
        # one person per screen: between two people there is always a clear
        assert len(who) == 1, segment
        person = who[0]
        other = next(p for p in PEOPLE if p != person)
        people_segments += 1
        # the screen begins by waiting for the person to take the terminal
        assert segment.lstrip().startswith(f"Pass the terminal to {person}, then press Enter.")
        # what the person saw while asked (a game that ends shows everything after that)
        segment = segment[:segment.rindex(f"{person}, your choice: ")]
        seen = tables(segment)
        assert seen, segment
        for rows in seen:
            # the person's own hand is there (so the check below means something) ...
            assert rows[person]["items"] and "?" not in rows[person]["items"], rows
            assert rows[person]["society"] in ("order", "brotherhood")
            # ... the other person's hand is not (nobody sees another's items, CASTLE-11)
            assert set(rows[other]["items"].replace(",", " ").split()) <= {"?"}, rows
        # nor the other's dealt cards from the recap of the deal
        assert not re.search(rf"\b{other}: (order|brotherhood), ", segment), segment
    assert people_segments >= 4
    # what a person types at the menu is not echoed: the line ends right after the prompt
    typed = re.findall(r"(?:Ann|Ben), your choice: (.*)\n", text)
    assert typed and set(typed) == {""}, typed
    logs = list(tmp_path.glob("castle-*.devlog"))
    assert len(logs) == 1 and verify_path(str(logs[0])).ok


def test_atkr_bets_are_typed_hidden_and_cleared_before_the_next_person(tmp_path):
    child = spawn(tmp_path, "play", "atkr", "--player", "Anna", "--player", "Ben",
                  "--bot", "Rex=cautious", "--seed", 3, "--first", "Anna", "--max-rounds", 1)
    child.expect(PASS_ON)
    assert child.match.group(1) == "Anna"
    child.sendline("")
    child.expect(BET)
    child.sendline("70")
    child.expect(r"\n")
    assert "70" not in child.before  # not echoed
    child.expect(r"Anna bets 70")  # her own screen says what she bet (it is hers) ...
    child.expect(PASS_ON)
    assert child.match.group(1) == "Ben"
    # ... and it is cleared before the terminal goes to Ben
    assert CLEAR in child.before
    child.sendline("")
    child.expect(BET)
    ben_screen = child.before
    assert "Anna places a sealed bet" in ben_screen
    assert "Anna bets 70" not in ben_screen and not re.search(r"\b70\b", ben_screen)
    child.sendline("20")
    text, _ = drive(child, {"bet": "20"})
    assert child.exitstatus == 0, text[-2000:]
    assert re.search(r"Ben\s+\S+\s+20\b|Ben bets 20|bets revealed", text), text[-3000:]
    logs = list(tmp_path.glob("atkr-*.devlog"))
    assert len(logs) == 1 and verify_path(str(logs[0])).ok


def test_ctrl_c_clears_a_private_screen_and_keeps_the_game(tmp_path):
    child = spawn(tmp_path, "play", "castle", "--player", "Ann", "--player", "Ben",
                  "--bot", "Cid=sensible", "--seed", 11)
    child.expect(PASS_ON)
    child.sendline("")
    child.expect(CHOICE)  # Ann's table and menu are on the screen
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    tail = child.before.replace("\r\n", "\n")
    assert CLEAR in tail  # cleared before anything else is printed
    after = tail.split(CLEAR)[-1]
    assert "devil play --resume castle-" in after and "your move" not in after
    (log,) = tmp_path.glob("castle-*.devlog")
    assert verify_path(str(log)).ok
