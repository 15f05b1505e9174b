"""Fixtures for every test.

The CLI client keeps the receipts it is given in its config folder (client/receipts.py):
every test run points ``DEVIL_CONFIG`` at a fresh temporary folder, inherited by the
subprocesses tests start, so no test writes into the user's own config folder.

Temporary folders (pytest's ``tmp_path``, ``tempfile.mkdtemp``, the PostgreSQL test cluster's
folder, the store folders of the servers and CLI processes tests start) are made on a RAM file
system where there is one (:func:`temp_root`: ``/dev/shm`` on Linux), unless ``TMPDIR`` or
``DEVIL_TEST_TMPDIR`` names another folder: the file store fsyncs every append, which costs
milliseconds on a disk and nothing on tmpfs, while every check stays the same (the code still
calls fsync; what reaches "the disk" at a power cut is simulated in
tests/store/test_power_loss.py, not left to the machine).

The tests skipped because a program they need is missing (PostgreSQL's server programs,
Chromium: tests/needs.py) are named in one line of the summary, with how to enable them."""

from __future__ import annotations

import os
import tempfile

import pytest

from tests import needs


def temp_root() -> str | None:
    """The folder the tests' temporary folders go in: ``DEVIL_TEST_TMPDIR`` if set (empty:
    the system's default), else the system's default when ``TMPDIR`` is set, else ``/dev/shm``
    when it is a writable tmpfs with at least 2 GiB free (RAM: an fsync costs nothing), else
    None (the default)."""
    chosen = os.environ.get("DEVIL_TEST_TMPDIR")
    if chosen is not None:
        return chosen or None
    if os.environ.get("TMPDIR"):
        return None
    shm = "/dev/shm"
    try:
        with open("/proc/mounts") as handle:
            tmpfs = any(line.split()[1:3] == [shm, "tmpfs"] for line in handle)
    except OSError:
        return None
    if not tmpfs or not os.access(shm, os.W_OK | os.X_OK):
        return None
    try:  # a container's /dev/shm is often 64 MB: too small for a cluster and the logs
        stats = os.statvfs(shm)
    except OSError:
        return None
    return shm if stats.f_bavail * stats.f_frsize >= 2 * 1024 ** 3 else None


_ROOT = temp_root()
if _ROOT:
    # here, at import (before pytest makes its base temporary folder), and in the environment,
    # which the xdist workers and every subprocess a test starts inherit
    os.environ["TMPDIR"] = _ROOT
    tempfile.tempdir = _ROOT


def pytest_report_teststatus(report, config):
    """A test skipped for a missing program is counted apart (``needs.CATEGORY``), so the
    summary names those skips in one line (below), not one ``SKIPPED`` line each."""
    if needs.need_of(report) is not None:
        return needs.CATEGORY, "s", "SKIPPED"
    return None


def pytest_terminal_summary(terminalreporter):
    """One line naming the tests skipped for a missing program (tests/needs.py); and, as the
    controller of a ``-n 2`` run, the fuzz suites' table (its workers' tallies)."""
    line = needs.summary(terminalreporter.stats.get(needs.CATEGORY, []))
    if line:
        terminalreporter.write_line(line, yellow=True, bold=True)
    if _RELAYED:
        from tests.fuzz import conftest as fuzz

        fuzz.summary(terminalreporter)


#: whether a worker sent a fuzz tally (pytest_testnodedown)
_RELAYED: list = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist: a worker is done; add its fuzz tally (tests/fuzz/conftest.py) to the one
    summary the controller prints."""
    tallies = getattr(node, "workeroutput", {}).get("fuzz_tally")
    if tallies:
        from tests.fuzz import conftest as fuzz

        fuzz.merge(tallies)
        _RELAYED.append(True)


@pytest.fixture(autouse=True, scope="session")
def _client_config_folder(tmp_path_factory):
    before = os.environ.get("DEVIL_CONFIG")
    os.environ["DEVIL_CONFIG"] = str(tmp_path_factory.mktemp("devil-config"))
    yield
    if before is None:
        os.environ.pop("DEVIL_CONFIG", None)
    else:
        os.environ["DEVIL_CONFIG"] = before
