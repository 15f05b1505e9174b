"""The strict codec, and the service's authorisation and idempotency."""

import pytest

from engine.errors import CodecError, IllegalCommand, LogDamaged, NotAllowed, UsageError
from engine.game import REFEREE
from engine.games.atkr import RULES
from engine.games.atkr import events as ev
from engine.games.atkr.commands import Bet, Draw
from engine.service import GameService
from engine.store import FileStore


def test_events_round_trip_as_tagged_maps():
    event = ev.PactPaid(drawer=0, payer=-1, to=2, amount=50)
    data = RULES.events.to_map(event)
    assert data == {"type": "pact_paid", "drawer": 0, "payer": -1, "to": 2, "amount": 50,
                    "rule": "ATKR-6.5"}
    assert RULES.events.from_map(data) == event


@pytest.mark.parametrize("data,words", [
    ({"type": "coal_drawn", "seat": 1, "coal": 25, "extra": 1}, "extra fields found (extra)"),
    ({"type": "coal_drawn", "seat": 1}, "required field missing"),
    ({"type": "coal_burnt", "seat": 1}, "unknown atkr event type 'coal_burnt'"),
    ({"seat": 1}, "unknown atkr event type None"),
    ({"type": "coal_drawn", "seat": "one", "coal": 25}, "expected int"),
    ([1, 2], "must be a map"),
])
def test_decoding_is_strict_and_names_the_problem(data, words):
    with pytest.raises(CodecError) as info:
        RULES.events.from_map(data)
    assert words in info.value.message


def test_an_unknown_event_in_a_log_is_damage_at_its_record(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    game = service.create("atkr", {"players": ["A", "B"]}, seed=1).game
    path = service.store.path(game)
    service.store.append(game, service.store.head(game).seq, 0, None,
                         [{"type": "coal_burnt", "seat": 0}])
    with pytest.raises(LogDamaged) as info:
        GameService(FileStore(str(tmp_path))).load(game)
    assert info.value.seq == 3 and "coal_burnt" in info.value.reason
    assert path.endswith(".devlog")


def test_a_seat_may_act_only_for_itself(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    game = service.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna",
                                   "physical": True}).game
    with pytest.raises(NotAllowed):
        service.submit(game, Bet("Ben", 10), actor=0)
    service.submit(game, Bet("Anna", 10), actor=0)
    service.submit(game, Bet("Ben", 0), actor=REFEREE)  # the referee may act for anyone
    with pytest.raises(NotAllowed):  # a seat may not report a physical coal
        service.submit(game, Draw("Anna", 25), actor=0)
    result = service.submit(game, Draw("Anna", 25), actor=REFEREE)
    assert result.records[0].actor == -1
    assert service.load(game).version == 6


def test_a_refused_command_appends_nothing(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    game = service.create("atkr", {"players": ["Anna", "Ben"]}, seed=3).game
    size = (tmp_path / f"{game}.devlog").stat().st_size
    with pytest.raises(IllegalCommand):
        service.submit(game, {"type": "bet", "player": "Anna", "amount": 5})
    with pytest.raises(CodecError):
        service.submit(game, {"type": "bet", "player": "Anna"})
    assert (tmp_path / f"{game}.devlog").stat().st_size == size


def test_bad_options_are_usage_errors(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    for options in ({"players": ["A"]}, {"players": ["A", "B"], "ring": -1},
                    {"players": ["A", "B"], "first": "C"}, {"players": ["A", "B"], "colour": 1},
                    {"players": ["A", "B", "C", "D", "E", "F", "G"]}):
        with pytest.raises(UsageError):
            service.create("atkr", options, seed=1)
    with pytest.raises(UsageError):
        service.create("atkr", {"players": ["A", "B"], "physical": True}, seed=1)
    assert list(tmp_path.iterdir()) == []


def test_the_secret_seed_stays_out_of_the_log_until_the_end(tmp_path):
    service = GameService(FileStore(str(tmp_path)))
    game = service.create("atkr", {"players": ["Anna", "Ben"]}, seed=987654321).game
    data = (tmp_path / f"{game}.devlog").read_bytes()
    assert b"987654321" not in data and (987654321).to_bytes(4, "big") not in data
    secret = tmp_path / f"{game}.secret"
    assert secret.stat().st_mode & 0o077 == 0


def test_another_seats_command_id_reveals_nothing_about_its_command(tmp_path):
    """Reusing a command id that another seat used is refused the same way whatever the body,
    and the message never shows the original command (it may hold a hidden bet or card)."""
    service = GameService(FileStore(str(tmp_path)))
    game = service.create("atkr", {"players": ["Anna", "Ben"], "first": "Anna"}, seed=4).game
    service.submit(game, Bet("Anna", 70), actor=0, command_id="anna-1")
    messages = set()
    for body in (Bet("Ben", 70), Bet("Ben", 10), Bet("Anna", 70)):
        with pytest.raises(NotAllowed) as info:
            service.submit(game, body, actor=1, command_id="anna-1")
        messages.add(info.value.message)
    assert messages == {"command id 'anna-1' belongs to another player's command; give a new id"}
    assert service.load(game).version == 3


@pytest.mark.parametrize("kind,others", [("atkr", ["Anna"]), ("castle", ["Anna", "Ben"])])
@pytest.mark.parametrize("name", ["referee", "Spectator", " REFEREE "])
def test_a_player_named_like_a_role_is_refused_and_nothing_is_created(tmp_path, kind, others,
                                                                       name):
    store = FileStore(str(tmp_path))
    with pytest.raises(UsageError, match="name the game's roles"):
        GameService(store).create(kind, {"players": [*others, name]})
    assert store.games() == [] and list(tmp_path.iterdir()) == []


def test_a_map_recorded_before_a_field_was_added_decodes_fast_with_its_default():
    from engine.games.castle import RULES as CASTLE

    old = {"type": "game_created", "players": ["Ann", "Ben", "Cid"], "first": 0,
           "first_drawn": False, "beginner": False, "variants": [], "house": {"x": True},
           "hand_limit": 8, "physical": True, "deal_given": True, "commitment": None,
           "rules": "castle-2006"}  # no seed_chosen: recorded before it existed
    event = CASTLE.events.from_map(old)
    assert event.seed_chosen is False and event.house == {"x": True}
    assert CASTLE.events._fast["game_created"](old) == event  # the fast path, not cattrs
    assert CASTLE.events.to_map(event) == {**old, "seed_chosen": False, "position": False}
    # a field of the wrong type still takes the strict path and is refused
    with pytest.raises(CodecError):
        CASTLE.events.from_map({**old, "house": {"x": 1}})
    assert "seed_chosen" not in old  # the recorded map itself is not changed
