"""engine.jsonsafe.loads's fast paths (issue 21: the checks in C first, one decoder) answer
exactly as the full checks do: the same value, or the same refusal, for any input."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from engine import jsonsafe
from engine.errors import UsageError


def reference(data, what="the input"):
    """loads as it was before the fast paths: every check on every input."""
    if isinstance(data, bytes):
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        if b"\0" in data or data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise UsageError(f"{what} is not UTF-8 JSON (binary, UTF-16 or UTF-32 bytes)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UsageError(f"{what} is not UTF-8 JSON (byte {exc.start} is not UTF-8)"
                             ) from None
    else:
        text = data
        if "\0" in text:
            raise UsageError(f"{what} is not JSON (it holds a NUL character)")
    if jsonsafe.depth(text, jsonsafe.MAX_DEPTH) > jsonsafe.MAX_DEPTH:
        raise UsageError(f"{what} is nested more than {jsonsafe.MAX_DEPTH} deep (arrays or "
                         "objects within each other)")
    try:
        value = json.loads(text, parse_int=jsonsafe._int, parse_float=jsonsafe._float,
                           parse_constant=jsonsafe._constant)
    except jsonsafe._Refused as exc:
        raise UsageError(f"{what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{what} is not JSON ({exc})") from None
    jsonsafe._check_strings(value, what)
    return value


def outcome(fn, data):
    try:
        return "value", fn(data)
    except UsageError as exc:
        return "refused", exc.message


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=4),
    max_leaves=20)
pieces = st.sampled_from(['"\\ud800"', "[", "]", "{", "}", "1e999", "NaN", "9" * 4301, "\ufeff",
                          '"\\u00e9"', "-0", "1.5", ",", ":", "\0", '"', "\\"])


@settings(max_examples=300, deadline=None)
@given(values, st.lists(st.tuples(st.integers(min_value=0), pieces), max_size=3),
       st.booleans(), st.booleans())
def test_the_fast_paths_answer_as_the_full_checks(value, edits, ascii_only, as_bytes):
    text = json.dumps(value, ensure_ascii=ascii_only)
    for at, piece in edits:
        at %= len(text) + 1
        text = text[:at] + piece + text[at:]
    data = text.encode("utf-8", "surrogatepass") if as_bytes else text
    assert outcome(jsonsafe.loads, data) == outcome(reference, data)


def test_deep_long_and_escaped_inputs_are_still_refused_as_before():
    for data in [b"[" * 201 + b"]" * 201, b"[" + b"9" * 4301 + b"]", b'["\\ud800"]',
                 "\ufeff{}", '{"a": 1e999}']:
        assert outcome(jsonsafe.loads, data) == outcome(reference, data)
        assert outcome(jsonsafe.loads, data)[0] == "refused"
    many = "[" * 150 + ",".join(["{}"] * 60) + "]" * 150  # 210 brackets, 151 deep
    assert jsonsafe.loads(many) == reference(many)
    assert jsonsafe.loads("[" * 200 + "]" * 200) == reference("[" * 200 + "]" * 200)
