"""Fixtures for every test.

The CLI client keeps the receipts it is given in its config folder (client/receipts.py):
every test run points ``DEVIL_CONFIG`` at a fresh temporary folder, inherited by the
subprocesses tests start, so no test writes into the user's own config folder."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _client_config_folder(tmp_path_factory):
    before = os.environ.get("DEVIL_CONFIG")
    os.environ["DEVIL_CONFIG"] = str(tmp_path_factory.mktemp("devil-config"))
    yield
    if before is None:
        os.environ.pop("DEVIL_CONFIG", None)
    else:
        os.environ["DEVIL_CONFIG"] = before
