"""Each kind's renderer says an event through a dispatch table (event class -> describer,
client/games/<kind>/describe.py): every event type of the kind has exactly one, and the
renderer's ``describe`` is that module's."""

from __future__ import annotations

import pytest

from client.games import part
from tests.registry import kinds, rules_for


@pytest.mark.parametrize("kind", kinds())
def test_every_event_type_of_the_kind_has_its_describer(kind):
    module = part(kind, "describe")
    own = {cls for cls in rules_for(kind).events.by_type.values()
           if cls.__module__ == f"engine.games.{kind}.events"}
    assert len(own) > 10
    assert set(module.DESCRIBERS) == own
    assert part(kind, "render").describe is module.describe

