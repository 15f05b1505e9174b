"""A fresh machine's test run passes (issue 19): without PostgreSQL's server programs or
without Chromium, the tests that need them are skipped and named in ONE line of the summary,
with how to enable them; under CI (``CI=true``) a missing one is a failure, never a skip.

pytest runs in a subprocess on a few tests that need each program, with the programs hidden:
``DEVIL_CHROMIUM=/nonexistent``, and PostgreSQL by ``DEVIL_PG_BIN=/nonexistent`` (a folder
without initdb) or ``DEVIL_TEST_NO_POSTGRES=1``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: each test runs pytest again in a subprocess (about 7 s each): in the slow run (README, Tests)
pytestmark = pytest.mark.slow


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = [
    # needs the cluster in a fixture (url), in the test's body, and not at all
    "tests/store/test_postgres.py::test_a_newer_schema_is_refused",
    "tests/store/test_postgres.py::"
    "test_a_database_without_the_schema_is_refused_until_init_and_init_is_idempotent",
    "tests/store/test_postgres.py::test_migrations_ship_in_the_package",
    # needs the browser fixture
    "tests/page/test_browser.py::test_replay_html_opens_offline_with_no_request",
]
POSTGRES_LINE = ("2 tests that need PostgreSQL's server programs (install postgresql, or run "
                 "bash .ci/run as root)")
CHROMIUM_LINE = ("1 test that needs Chromium (install Debian's chromium package or set "
                 "DEVIL_CHROMIUM=PATH, or run bash .ci/run as root)")


def run_pytest(**env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items()
            if k not in ("CI", "DEVIL_TEST_NO_POSTGRES", "DEVIL_PG_BIN", "DEVIL_CHROMIUM",
                         "PYTEST_ADDOPTS")}
    full.update(DEVIL_CHROMIUM="/nonexistent", **env)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *TESTS], cwd=ROOT, env=full, capture_output=True, text=True,
                          timeout=300)


def test_without_the_programs_the_run_passes_naming_the_skips_in_one_line():
    done = run_pytest(DEVIL_PG_BIN="/nonexistent")  # a folder without initdb: as if missing
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    named = [line for line in lines if line.startswith("skipped ")]
    assert named == [f"skipped {POSTGRES_LINE}; {CHROMIUM_LINE}"], done.stdout
    assert not [line for line in lines if line.startswith("SKIPPED")], done.stdout
    assert "1 passed" in lines[-1] and "3 skipped for a missing program" in lines[-1], lines[-1]


def test_under_ci_a_missing_program_is_a_failure_not_a_skip():
    done = run_pytest(CI="true", DEVIL_TEST_NO_POSTGRES="1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "skipped" not in done.stdout, done.stdout
    last = done.stdout.splitlines()[-1]
    # the cluster asked for in the test's body fails it; in a fixture (url, browser) errors it
    assert "1 failed" in last and "1 passed" in last and "2 errors" in last, last
    assert done.stdout.count("Under CI (CI=true)") >= 3, done.stdout
    assert "needs PostgreSQL" not in done.stdout
