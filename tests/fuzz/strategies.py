"""hypothesis strategies shared by the fuzz suites: JSON values (what a client can send)."""

from __future__ import annotations

from hypothesis import strategies as st

#: integers a client may send: small ones, the edges of machine words and msgpack, and big ones
INTEGERS = st.one_of(
    st.integers(-20, 2000),
    st.sampled_from([2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**100,
                     -2**31 - 1, -2**63, -2**63 - 1, -2**64, 10**300, -10**300]),
    st.integers(),
)
#: text: short words, control characters, every plane (no lone surrogates: JSON text read by
#: engine.jsonsafe never holds one)
TEXT = st.one_of(st.sampled_from(["", " ", "A", "Anna", "devil", "referee", "\n", "0", "-1",
                                  "null", "x" * 300]),
                 st.text(max_size=12))
SCALARS = st.one_of(st.none(), st.booleans(), INTEGERS, TEXT,
                    st.floats(allow_nan=False, allow_infinity=False))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                     st.dictionaries(TEXT, inner, max_size=5)),
                    max_leaves=12)
