"""The service's JSON writer (engine.web.jsonout) writes what Starlette's JSONResponse wrote
(the standard library: compact, UTF-8, insertion order), byte for byte, for the values the
service answers, and falls back to the standard library where orjson cannot write a value."""

from __future__ import annotations

import json
import random

import pytest

from engine.web import jsonout


def _stdlib(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


CHARS = "az AZ09\"\\/\n\r\t\b\f\x00\x1f\x7f\u00e4\u00df\u20ac\u2028\u2029\U0001F600{}[]:,"


def _value(rng: random.Random, depth: int = 0):
    pick = rng.random()
    if depth > 3 or pick < 0.4:
        return rng.choice([rng.randint(-2**63, 2**63 - 1), rng.randint(-1000, 1000) * 10,
                           True, False, None, 0.5, 2.25, 100.0,
                           "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 12)))])
    if pick < 0.7:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {"".join(rng.choice(CHARS) for _ in range(rng.randint(0, 6))): _value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def test_the_writer_agrees_with_the_standard_library_byte_for_byte():
    rng = random.Random(21)
    for _ in range(3000):
        value = _value(rng)
        assert jsonout.dumps_bytes(value) == _stdlib(value), value
    answer = {"game": "atkr-k3f9qz", "version": 7, "events": [{"seq": 7, "type": "bet_placed",
              "seat": 0}], "view": {"players": [{"name": "J\u00fcrgen", "money": 200}]}}
    assert jsonout.dumps(answer) == ('{"game":"atkr-k3f9qz","version":7,"events":[{"seq":7,'
                                     '"type":"bet_placed","seat":0}],"view":{"players":'
                                     '[{"name":"J\u00fcrgen","money":200}]}}')


def test_what_orjson_cannot_write_is_written_by_the_standard_library():
    big = {"n": 2**70, 3: "seat", 1: [True]}
    assert jsonout.dumps_bytes(big) == _stdlib(big) == (b'{"n":1180591620717411303424,'
                                                        b'"3":"seat","1":[true]}')
    with pytest.raises(TypeError):
        jsonout.dumps_bytes({"when": object()})


def test_the_response_has_starlettes_headers_and_the_writers_body():
    from starlette.responses import JSONResponse as Starlette

    content = {"game": "x", "seat": "\u00c4nne", "amounts": [0, 10, 20]}
    ours, theirs = jsonout.JSONResponse(content, status_code=201), Starlette(content, 201)
    assert ours.body == theirs.body
    assert ours.raw_headers == theirs.raw_headers and ours.status_code == 201
