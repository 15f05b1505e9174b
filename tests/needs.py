"""Tests that need a program the README's install does not bring (issue 19): PostgreSQL's
server programs (tests/pg.py) and Chromium (tests/page/conftest.py).

On a machine without one, the tests that need it are skipped with its :class:`Need`'s reason,
and tests/conftest.py's ``pytest_terminal_summary`` names them all in one line of the summary,
with how to enable them.  Under CI (env ``CI=true``) a missing program is a failure, never a
skip: CI installs both (.ci/run), so a missing one is a broken CI, not a choice.
"""

from __future__ import annotations

import os

import pytest


def under_ci() -> bool:
    """Whether the tests run under CI: env ``CI`` is ``true`` (or ``1``, ``yes``)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


class Need:
    """A program some tests need: ``what`` it is, ``how`` to get it."""

    def __init__(self, what: str, how: str):
        self.what, self.how = what, how

    @property
    def reason(self) -> str:
        """The skip reason of every test that needs it (the summary counts them by it)."""
        return f"needs {self.what} ({self.how})"

    def missing(self, detail: str) -> None:
        """The program is missing (``detail``: where it was looked for): skip the test, or
        under CI fail it."""
        if under_ci():
            pytest.fail(f"{detail}. Under CI (CI=true) the tests that need {self.what} fail "
                        f"instead of skipping: {self.how}", pytrace=False)
        pytest.skip(self.reason)


POSTGRES = Need("PostgreSQL's server programs",
                "install postgresql, or run bash .ci/run as root")
CHROMIUM = Need("Chromium", "install Debian's chromium package or set DEVIL_CHROMIUM=PATH, "
                            "or run bash .ci/run as root")
NEEDS = (POSTGRES, CHROMIUM)


#: the category the summary counts these skips under ("33 skipped for a missing program"),
#: instead of one "SKIPPED" line per test
CATEGORY = "skipped for a missing program"


def need_of(report) -> Need | None:
    """The Need a skipped test report was skipped for, or None."""
    longrepr = getattr(report, "longrepr", None)
    if getattr(report, "skipped", False) and isinstance(longrepr, tuple) and len(longrepr) == 3:
        for need in NEEDS:
            if str(longrepr[2]).endswith(need.reason):
                return need
    return None


def summary(reports) -> str | None:
    """The one summary line naming the tests skipped for a missing program, or None."""
    counts = {need: 0 for need in NEEDS}
    for report in reports:
        need = need_of(report)
        if need is not None:
            counts[need] += 1
    parts = [f"{count} test{'s' if count != 1 else ''} that need{'s' if count == 1 else ''} "
             f"{need.what} ({need.how})" for need, count in counts.items() if count]
    if not parts:
        return None
    return "skipped " + "; ".join(parts)
