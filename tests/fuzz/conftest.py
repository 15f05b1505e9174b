"""The fuzz suites (issue 4): hypothesis against command objects, new-game options and deal
files, .devlog bytes, and schemathesis against the service's /openapi.json.

Small by default (CI): :data:`EXAMPLES` cases per test.  Run them large with
``DEVIL_FUZZ_EXAMPLES=2000 python -m pytest -q -p no:cacheprovider tests/fuzz`` (README,
"Reliability").  Every case runs under a deadline (:data:`DEADLINE` seconds, env
``DEVIL_FUZZ_DEADLINE``): a case that takes longer is a hang and fails its test.  The
terminal summary prints how many cases each suite tried, and the crashes, hangs and changes
to stored games it saw.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections import defaultdict

from hypothesis import HealthCheck, settings

#: cases per fuzz test (hypothesis max_examples)
EXAMPLES = max(1, int(os.environ.get("DEVIL_FUZZ_EXAMPLES", "50")))
#: the longest one case may take before it counts as a hang (seconds)
DEADLINE = float(os.environ.get("DEVIL_FUZZ_DEADLINE", "20"))

#: suite -> {"cases": n, "crashes" / "hangs" / "changes": the tests that saw one}, filled in
#: by :func:`case` (a test counts once however often hypothesis replays it while shrinking)
TALLY: dict[str, dict] = defaultdict(lambda: {"cases": 0, "crashes": set(), "hangs": set(),
                                              "changes": set()})


def fuzz_settings(scale: float = 1.0, **more) -> settings:
    """hypothesis settings of a fuzz test: ``EXAMPLES * scale`` cases, no per-example timing
    from hypothesis (:func:`case` has a real deadline), no example database (the tree stays
    clean; a failure prints its reproduction)."""
    return settings(max_examples=max(1, int(EXAMPLES * scale)), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=True, **more)


class Hang(Exception):
    """A case ran past :data:`DEADLINE`."""


class StoredGameChanged(AssertionError):
    """A refused input changed a stored game."""


@contextlib.contextmanager
def case(suite: str, deadline: float | None = None):
    """One fuzz case of ``suite``: counted, bounded by a deadline (SIGALRM), and its outcome
    tallied: an exception that escapes is a crash, :class:`Hang` a hang,
    :class:`StoredGameChanged` a change to a stored game."""
    tally = TALLY[suite]
    tally["cases"] += 1
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0]
    limit = DEADLINE if deadline is None else deadline

    def expire(signum, frame):
        raise Hang(f"a {suite} case ran longer than {limit:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    except Hang:
        tally["hangs"].add(test)
        raise
    except StoredGameChanged:
        tally["changes"].add(test)
        raise
    except BaseException as exc:  # schemathesis' failures are a BaseExceptionGroup
        if not isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
            tally["crashes"].add(test)
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def pytest_sessionfinish(session):
    """Under pytest-xdist (README's test command runs ``-n 2``) each worker sends its tally to
    the controller, which prints the one summary (:func:`merge`, tests/conftest.py)."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["fuzz_tally"] = {suite: {key: value if key == "cases" else sorted(value)
                                        for key, value in tally.items()}
                                for suite, tally in TALLY.items()}


def merge(tallies: dict) -> None:
    """Add a worker's tally (:func:`pytest_sessionfinish`'s) to :data:`TALLY`: the controller
    of a ``-n 2`` run does this (tests/conftest.py: this folder's conftest is not loaded there,
    as the controller collects nothing)."""
    for suite, tally in tallies.items():
        mine = TALLY[suite]
        mine["cases"] += tally["cases"]
        for key in ("crashes", "hangs", "changes"):
            mine[key].update(tally[key])


def pytest_terminal_summary(terminalreporter):
    summary(terminalreporter)


def summary(terminalreporter) -> None:
    """The table of cases tried per suite (nothing when no fuzz test ran)."""
    if not TALLY:
        return
    write = terminalreporter.write_line
    terminalreporter.section("fuzz cases tried (crashes, hangs, changes: tests that saw one)")
    total = {"cases": 0, "crashes": 0, "hangs": 0, "changes": 0}
    for suite in sorted(TALLY):
        tally = {key: value if key == "cases" else len(value)
                 for key, value in TALLY[suite].items()}
        for key in total:
            total[key] += tally[key]
        write(f"{suite:<24} {tally['cases']:>7} cases, {tally['crashes']} crashes, "
              f"{tally['hangs']} hangs, {tally['changes']} changes to stored games")
    write(f"{'all fuzz suites':<24} {total['cases']:>7} cases, {total['crashes']} crashes, "
          f"{total['hangs']} hangs, {total['changes']} changes to stored games "
          f"(DEVIL_FUZZ_EXAMPLES={EXAMPLES})")
