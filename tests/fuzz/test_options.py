"""Fuzz: new-game options and deal files for both games (issue 4b).

``GameService.create`` answers a UsageError or a game, never another exception, and a refused
create leaves nothing in the store; a created game's log verifies.  `devil new castle --deal
FILE` with fuzzed bytes exits 0 or 2, never 70."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from client.cli import cli
from engine.errors import UsageError
from engine.games.castle.options import HOUSE_DEFAULTS, VARIANTS
from engine.replay import verify_bytes
from engine.service import GameService
from engine.store import MemoryStore
from tests.castle.helpers import NAMES, make_deal

from .conftest import StoredGameChanged, case, fuzz_settings
from .strategies import INTEGERS, JSON, TEXT

THREE = [("order", "priest", ["bag-key"]), ("brotherhood", "thug", ["bag-goblet"]),
         ("order", "doctor", ["key-1"])]
SIX = THREE + [("brotherhood", "duelist", ["dagger"]), ("order", "diplomat", ["gloves"]),
               ("brotherhood", "hypnotist", ["goblet-1"])]
DEALS = [make_deal(THREE, set_aside="brotherhood"), make_deal(SIX)]

NAME = st.one_of(st.sampled_from(NAMES), TEXT)
PLAYERS = st.one_of(st.lists(st.sampled_from(NAMES), min_size=2, max_size=10, unique=True),
                    st.lists(NAME, max_size=12), JSON)


def mutated(value, draw):
    """``value`` (a JSON value) with one random edit somewhere inside it."""
    if isinstance(value, dict) and value and draw(st.integers(0, 3)):
        key = draw(st.sampled_from(sorted(value)))
        out = dict(value)
        edit = draw(st.sampled_from(["deeper", "drop", "replace"]))
        if edit == "deeper":
            out[key] = mutated(out[key], draw)
        elif edit == "drop":
            del out[key]
        else:
            out[key] = draw(JSON)
        return out
    if isinstance(value, list) and value and draw(st.integers(0, 3)):
        index = draw(st.integers(0, len(value) - 1))
        out = list(value)
        edit = draw(st.sampled_from(["deeper", "drop", "dup", "replace"]))
        if edit == "deeper":
            out[index] = mutated(out[index], draw)
        elif edit == "drop":
            del out[index]
        elif edit == "dup":
            out.insert(index, out[index])
        else:
            out[index] = draw(st.one_of(JSON, st.sampled_from(value)))
        return out
    return draw(st.one_of(JSON, NAME, INTEGERS))


@st.composite
def atkr_options(draw):
    options = {}
    if draw(st.integers(0, 9)):
        options["players"] = draw(PLAYERS)
    for key, values in (("first", st.one_of(st.none(), NAME, JSON)),
                        ("physical", st.one_of(st.booleans(), JSON)),
                        ("ring", st.one_of(st.integers(-2, 50), INTEGERS, JSON)),
                        ("track", st.one_of(
                            st.lists(st.one_of(st.integers(-10, 3000).map(lambda v: v * 10),
                                               st.just("0-50"), TEXT), max_size=8)
                            .map(lambda items: ",".join(map(str, items))),
                            st.lists(st.one_of(INTEGERS, TEXT), max_size=8), JSON)),
                        (draw(TEXT), JSON)):
        if not draw(st.integers(0, 2)):
            options[key] = draw(values)
    return draw(st.one_of(st.just(options), st.just(options), JSON))


@st.composite
def castle_options(draw):
    deal = draw(st.sampled_from(DEALS))
    options = {"players": list(deal["seats"])}
    if draw(st.booleans()):
        options["deal"] = draw(st.one_of(st.just(deal), st.builds(lambda: None).map(
            lambda _: mutated(deal, draw)), JSON))
        options["physical"] = draw(st.one_of(st.just(True), st.booleans(), JSON))
    if not draw(st.integers(0, 3)):
        options["players"] = draw(PLAYERS)
    for key, values in (("first", st.one_of(st.none(), NAME, JSON)),
                        ("beginner", st.one_of(st.booleans(), JSON)),
                        ("variants", st.one_of(st.lists(st.sampled_from(VARIANTS + ("x",))),
                                               JSON)),
                        ("house", st.one_of(st.dictionaries(
                            st.sampled_from(sorted(HOUSE_DEFAULTS) + ["x"]),
                            st.one_of(st.booleans(), JSON)), JSON)),
                        (draw(TEXT), JSON)):
        if not draw(st.integers(0, 2)):
            options[key] = draw(values)
    return draw(st.one_of(st.just(options), st.just(options), st.just(options), JSON))


SEEDS = st.one_of(st.none(), st.integers(0, 2**64 - 1), INTEGERS, JSON)


@given(kind=st.sampled_from(["atkr", "castle"]), data=st.data())
@fuzz_settings()
def test_fuzzed_options_create_a_game_or_a_usage_error(kind, data):
    options = data.draw(atkr_options() if kind == "atkr" else castle_options(), label="options")
    seed = data.draw(SEEDS, label="seed")
    store = MemoryStore()
    with case(f"options ({kind})"):
        try:
            loaded = GameService(store).create(kind, options, seed=seed)
        except UsageError:
            if store.games():
                raise StoredGameChanged(f"a refused create left {store.games()}") from None
            return
        result = verify_bytes(store.log_bytes(loaded.game))
        if not result.ok:
            raise StoredGameChanged(f"{options!r} made a log that does not verify: "
                                    f"{result.reason}")


@given(data=st.data())
@fuzz_settings(scale=0.5)
def test_a_fuzzed_deal_file_exits_0_or_2(tmp_path_factory, data):
    deal = data.draw(st.sampled_from(DEALS), label="deal")
    text = json.dumps(data.draw(st.one_of(st.just(deal), st.just({"deal": deal}),
                                          st.builds(lambda: None).map(
                                              lambda _: mutated(deal, data.draw)))))
    raw = text.encode()
    edit = data.draw(st.sampled_from(["none", "flip", "cut", "insert", "encode"]), label="edit")
    if edit == "flip" and raw:
        at = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + bytes([raw[at] ^ (1 << data.draw(st.integers(0, 7)))]) + raw[at + 1:]
    elif edit == "cut":
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    elif edit == "insert":
        at = data.draw(st.integers(0, len(raw)))
        raw = raw[:at] + data.draw(st.binary(max_size=20)) + raw[at:]
    elif edit == "encode":
        raw = text.encode(data.draw(st.sampled_from(["utf-16", "utf-32", "utf-8-sig"])))
    folder = tmp_path_factory.mktemp("deal")
    path = folder / "deal.json"
    path.write_bytes(raw)
    store = folder / "store"
    with case("deal files (CLI)"):
        result = CliRunner().invoke(cli, ["--store", str(store), "new", "castle", "--deal",
                                          str(path)])
        assert result.exit_code in (0, 2), (result.exit_code, result.output, result.stderr)
        assert "internal error" not in result.stderr
        logs = [p for p in store.iterdir() if p.suffix == ".devlog"] if store.exists() else []
        if result.exit_code == 2 and logs:
            raise StoredGameChanged(f"a refused deal created {logs}")
