"""The sample games in replays/ are complete, verify strictly and pass the audit."""

from __future__ import annotations

import glob
import os

import pytest

from engine.games.atkr.audit import audit
from engine.replay import open_log, verify_path

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "replays")
FILES = sorted(glob.glob(os.path.join(ROOT, "atkr-*.devlog")))


def test_two_four_and_six_players():
    counts = sorted(len(open_log(path).names) for path in FILES)
    assert {2, 4, 6} <= set(counts)


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_sample_verifies_and_audits(path):
    result = verify_path(path)
    assert result.ok and result.finished and result.seed_checked, result.reason
    ledger = audit(open_log(path))
    assert ledger.ok and ledger.finished
    log = open_log(path)
    assert list(ledger.money.values()) == list(log.events[-1].money)
    assert max(ledger.money.values()) >= 1600  # ATKR-8.1
