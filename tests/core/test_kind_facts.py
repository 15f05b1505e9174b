"""A kind's title and player counts have one source, its RULES (GameRules.title,
min_players, max_players, players_rule), and every place that states them agrees: the
registry's light copy (engine.games.KINDS / PLAYERS, for `devil --help`), the CLI's help and
errors, the table's head, `devil games`, and the docs."""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.games import KINDS, PLAYERS
from tests.registry import kinds, rules_for

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: From the rules: ATKR-1.6 "2 to 6 players"; docs/rules/castle.md's head "3 to 10 players"
#: (the count is cited with CASTLE-2.8, seat order as given at creation).
FROM_THE_RULES = {"atkr": ("Auf Teufel komm raus", 2, 6, "ATKR-1.6"),
                  "castle": ("Castle of the Devil", 3, 10, "CASTLE-2.8")}
NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim"]


def facts(kind):
    rules = rules_for(kind)
    return rules.title, rules.min_players, rules.max_players, rules.players_rule


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0):
        result = runner.invoke(cli, ["--store", str(tmp_path / "store"), *map(str, args)])
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    return run


def test_every_kind_is_checked_here():
    assert sorted(FROM_THE_RULES) == kinds()


@pytest.mark.parametrize("kind", kinds())
def test_rules_carry_the_facts_and_the_light_copy_equals_them(kind):
    assert facts(kind) == FROM_THE_RULES[kind]
    title, low, high, _rule = facts(kind)
    assert KINDS[kind] == title
    assert PLAYERS[kind] == (low, high)


def test_devil_help_names_every_title(devil):
    text = " ".join(devil("--help").output.split())
    assert " and ".join(f"'{FROM_THE_RULES[k][0]}'" for k in KINDS) in text


@pytest.mark.parametrize("kind", kinds())
def test_new_help_and_simulate_range_state_the_counts(devil, kind):
    title, low, high, _rule = facts(kind)
    text = " ".join(devil("new", kind, "--help").output.split())
    assert f"A new {title}" in text
    assert f"A player, {low} to {high} in seat order" in text
    refused = devil("simulate", kind, "--players", high + 1, code=2)
    assert f"{low}<=x<={high}" in refused.stderr


@pytest.mark.parametrize("kind", kinds())
@pytest.mark.parametrize("edge", ["few", "many"])
def test_too_few_or_too_many_players_are_refused_with_the_counts(devil, kind, edge):
    title, low, high, rule = facts(kind)
    count = low - 1 if edge == "few" else high + 1
    args = [arg for name in NAMES[:count] for arg in ("--player", name)]
    result = devil("new", kind, *args, code=2)
    assert f"{title} takes {low} to {high} players, not {count} ({rule})" in result.stderr


def test_play_castle_refuses_two_seats_with_the_counts(devil):
    result = devil("play", "castle", "--bot", "Ann=random", "--bot", "Ben=random", code=2)
    assert "Castle of the Devil takes 3 to 10 players, not 2 (--player / --bot)" in result.stderr


@pytest.mark.parametrize("kind", kinds())
def test_the_table_head_and_devil_games_say_the_title(devil, kind):
    title, low, _high, _rule = facts(kind)
    args = [arg for name in NAMES[:low] for arg in ("--player", name)]
    game = devil("new", kind, *args, "--seed", 1).stdout.strip()
    assert devil("show", game).stdout.splitlines()[0].startswith(f"{game}  {title}")
    (row,) = json.loads(devil("games", "--json").stdout)
    assert row["title"] == title


@pytest.mark.parametrize("kind", kinds())
def test_the_rules_document_states_the_title_and_counts(kind):
    title, low, high, rule = facts(kind)
    head = "\n".join((ROOT / "docs" / "rules" / f"{kind}.md").read_text().splitlines()[:4])
    assert title in head
    assert re.findall(r"(\d+) to (\d+) players", head)[0] == (str(low), str(high))


def test_every_count_the_docs_state_is_the_rules():
    """Every "N to M players" (or `--player`s, unique names) the docs say of a kind: on a
    line that names it, under a heading (of any level) that names it, or in its own document
    (docs/rules/<kind>.md, docs/<kind>-rules.md)."""
    stated = re.compile(r"(\d+) to (\d+) (?:players|`--player`s|unique names)")
    found = 0
    for kind in kinds():
        title, low, high, _rule = facts(kind)
        named = re.compile(rf"\b{kind}\b|{re.escape(title)}", re.IGNORECASE)
        own = {ROOT / "docs" / "rules" / f"{kind}.md", ROOT / "docs" / f"{kind}-rules.md"}
        for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
            if path.parent.name == "rules" and path not in own:
                continue
            headings: list[str] = []  # the headings the line is under, outermost first
            for line in path.read_text().splitlines():
                if line.startswith("#"):
                    level = len(line) - len(line.lstrip("#"))
                    headings = headings[:level - 1] + [line]
                if not (path in own or named.search(line) or named.search(" ".join(headings))):
                    continue
                for match in stated.finditer(line):
                    if line[:match.start()].endswith("best with "):  # advice, not a count
                        continue
                    assert (int(match[1]), int(match[2])) == (low, high), (path.name, line)
                    found += 1
    # atkr.md twice; castle.md, castle-rules.md, commands.md, guide.md, README.md
    assert found >= 7


@pytest.mark.parametrize("doc", ["docs/guide.md", "docs/commands.md"])
def test_the_guides_head_each_kind_with_its_title(doc):
    headings = re.findall(r"^## (.+)$", (ROOT / doc).read_text(), re.MULTILINE)
    for kind in kinds():
        assert facts(kind)[0] in headings, (doc, kind)
