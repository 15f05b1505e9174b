"""Test sizes: small by default (CI), larger with DEVIL_TEST_SCALE=N (N times the examples)."""

import os

SCALE = max(1, int(os.environ.get("DEVIL_TEST_SCALE", "1")))


def examples(n: int) -> int:
    return n * SCALE
