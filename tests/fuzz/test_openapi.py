"""Fuzz: schemathesis against the service's own /openapi.json (engine/web/openapi.py), in process
through the ASGI app (issue 4d).  Every operation is called with generated parameters and
bodies, as the referee of a real game (so most requests get past authentication): no answer
may be a 500, every answer must conform to the document (status, content type, schema), and
a refused request must not change the stored game."""

from __future__ import annotations

import pytest
from hypothesis import given

schemathesis = pytest.importorskip("schemathesis")

from engine.web import create_app  # noqa: E402
from engine.store import MemoryStore  # noqa: E402

from .conftest import StoredGameChanged, case, fuzz_settings  # noqa: E402


class Served:
    """The app on a memory store with one game; ``token`` is its referee's."""

    def __init__(self):
        self.store = MemoryStore()
        self.app = create_app(self.store)
        from starlette.testclient import TestClient

        with TestClient(self.app) as client:
            created = client.post("/games", json={"kind": "atkr", "options": {
                "players": ["Anna", "Ben", "Cleo"]}, "seed": 5}).json()
        self.game = created["game"]
        self.token = created["tokens"]["referee"]


SERVED = Served()
OPERATIONS = [result.ok() for result in
              schemathesis.openapi.from_asgi("/openapi.json", SERVED.app).get_all_operations()]


@pytest.mark.parametrize("operation", OPERATIONS,
                         ids=[f"{op.method.upper()} {op.path}" for op in OPERATIONS])
def test_every_operation_answers_without_a_500_and_as_documented(operation):
    # the operation's strategy with hypothesis directly (not schemathesis' pytest plugin):
    # one test per operation, sized by DEVIL_FUZZ_EXAMPLES like every fuzz suite
    @given(api_case=operation.as_strategy())
    @fuzz_settings(scale=0.4)
    def run(api_case):
        with case("openapi (schemathesis)"):
            _call(SERVED, api_case)

    run()


def _call(served, api_case):
    path = api_case.path_parameters or {}
    if "game" in path and api_case.query is not None and hash(str(api_case.query)) % 4:
        path["game"] = served.game  # usually the real game, sometimes what was generated
    elif "game" in path and api_case.query is None:
        path["game"] = served.game
    query = dict(api_case.query or {})
    if api_case.path.endswith("/stream"):
        query["timeout"] = "0.01"  # an event stream stays open for its timeout
    if api_case.path.endswith("/events"):
        query["wait"] = "0"
    api_case.query = query
    before = served.store.log_bytes(served.game)
    headers = {"Authorization": f"Bearer {served.token}"}
    response = api_case.call_and_validate(headers=headers, excluded_checks=[
        schemathesis.checks.positive_data_acceptance])
    if response.status_code >= 400 and served.store.log_bytes(served.game) != before:
        raise StoredGameChanged(f"{api_case.method} {api_case.path} answered "
                                f"{response.status_code} but changed {served.game}")
