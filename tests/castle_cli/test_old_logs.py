"""Castle logs recorded before the rules text was corrected (issue 10) still verify and replay
under the rules their first event records (``game_created.rules`` = ``castle-2006``).

The four files in ``old_logs/`` are the shipped recordings as they were before they were
re-made under ``castle-2006-r2`` (replays/README.md).
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.games.castle import RULES
from engine.replay import open_log, verify_path

OLD = os.path.join(os.path.dirname(__file__), "old_logs")
NAMES = sorted(n for n in os.listdir(OLD) if n.endswith(".devlog"))


@pytest.mark.parametrize("name", NAMES)
def test_an_old_castle_log_verifies_strictly_under_its_own_rules(name):
    path = os.path.join(OLD, name)
    result = verify_path(path)
    assert result.ok, (result.first_bad_seq, result.reason)
    assert result.finished and result.seed_checked
    assert any("castle-2006 (recorded before the rules were corrected" in c for c in result.checks)
    log = open_log(path)
    created = log.events[0]
    assert created.rules == "castle-2006" and created.house["sextant_last"] is True
    assert "duelist_bonus" not in created.house
    state = RULES.fold(log.events)
    assert state.rules == "castle-2006" and not state.r2
    # the old text had no duel window and no count parts: none were recorded, none re-derived
    assert not any(e.TYPE == "fight_counted" and e.parts is not None for e in log.events)
    assert not any(e.TYPE == "window_passed" and e.window == "duel" for e in log.events)


def test_an_old_castle_log_replays_as_a_player():
    path = os.path.join(OLD, "castle-2006-6p.devlog")
    result = CliRunner().invoke(cli, ["replay", path, "--as", "Ben", "--to", "40"])
    assert result.exit_code == 0, result.output
    assert "rules text castle-2006" in result.output


def test_the_shipped_recordings_are_under_the_corrected_rules():
    replays = os.path.join(os.path.dirname(__file__), "..", "..", "replays")
    for name in ("castle-3p.devlog", "castle-6p.devlog", "castle-7p.devlog", "castle-10p.devlog"):
        log = open_log(os.path.join(replays, name))
        assert log.events[0].rules == "castle-2006-r2"
        assert log.events[0].house == {"doctor_cancels_tie_draw": True, "sextant_last": False,
                                       "coat_of_arms_refused": True, "diplomat_smuggling": True,
                                       "duelist_bonus": True}
        counts = [e for e in log.events if e.TYPE == "fight_counted"]
        assert all(e.parts for e in counts) and (counts or name == "castle-3p.devlog")


def test_a_state_pickled_before_the_new_fields_unpickles_as_an_old_rules_game():
    """A service snapshot written before issue 10 lacks ``rules``, ``pile_known``...: it loads
    with their defaults (the old rules text), so the game folds on as recorded."""
    log = open_log(os.path.join(OLD, "castle-2006-3p.devlog"))
    state = RULES.fold(log.events[:20])
    _, slots = state.__getstate__()
    old = {k: v for k, v in slots.items() if k not in ("rules", "position", "pile_known",
                                                        "society_cards", "first_turn")}
    restored = type(state).__new__(type(state))
    restored.__setstate__((None, old))
    assert restored.rules == "castle-2006" and restored.society_cards is None
    assert restored.pile_known == len(restored.pile) > 0  # the old text: an ordered pile
    for e in log.events[20:]:
        restored = RULES.evolve(restored, e)
    assert restored.over and restored.winners == RULES.fold(log.events).winners
