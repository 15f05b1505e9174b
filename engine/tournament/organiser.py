"""The organiser: a tournament's operations on a store (docs/tournaments.md).

:class:`Organiser` wraps a :class:`engine.service.GameService`: the tournament stream is appended
through it (with the store's expected-version check), the tables' games are created in the
same store, and a result is taken only from a game log that verifies strictly, is finished,
has exactly the table's players in the table's seat order and the tournament's options, was
created after its round was paired, and is attached to no other table or tournament
(TOUR-4.1, 4.2).  Anything else is refused with the reason and nothing is recorded.
"""

from __future__ import annotations

import secrets as _secrets
from typing import Any

from ..errors import IllegalCommand, UnknownGame, UsageError
from ..log import iso_time
from . import KIND
from . import events as ev
from .rules import PER_TABLE, TournamentState, decided


def game_options(log) -> dict:
    """The options a game log (engine.replay.LoadedLog) was created with: its kind's
    ``command_for`` of the first command's events, the per-table ones included."""
    import json

    from .. import entropy
    from ..replay import batches

    opened = entropy.opening(log.events)
    if opened is not None:  # a seated game: the options its table_opened records
        return dict(json.loads(opened.options))
    rules = log.rules
    _start, end = next(batches(log.records))
    options, _ = rules.command_for(rules.initial(), log.events[:end])
    return dict(options)


class Organiser:
    """A tournament's operations.  ``service``: the GameService of the store."""

    def __init__(self, service):
        self.service = service
        self.store = service.store

    # -- the stream ------------------------------------------------------------------------
    def create(self, options: dict) -> str:
        """A new tournament (options as :func:`engine.tournament.rules.setup` takes them;
        ``seed`` drawn now when absent); returns its id.  UsageError for bad options."""
        options = dict(options)
        if options.get("seed") is None:
            options["seed"] = _secrets.randbelow(2**63)
        options["physical"] = True  # no hidden chance: every draw comes from the public seed
        return self.service.create(KIND, options).game

    def resolve(self, text: str) -> str:
        """The tournament ``text`` names (its id, or 3+ characters of it), among the store's
        tournaments only: the public standings resolve with it, and an error must not name
        the games of the store (UnknownGame names only tournaments; UsageError for a game's
        whole id)."""
        from ..store.protocol import resolve_id

        if text.startswith(KIND + "-") and self.store.exists(text):
            return text
        if not text.startswith(KIND + "-") and "-" in text and self.store.exists(text):
            raise UsageError(f"{text} is a game, not a tournament")
        return resolve_id(text, self.tournaments(), "the tournaments of this store")

    def state(self, tournament: str) -> TournamentState:
        return self.service.state(tournament)

    def submit(self, tournament: str, command) -> list:
        """Decide and record one tournament command; its events."""
        return list(self.service.submit(tournament, command).events)

    def tournaments(self) -> list[str]:
        return [g for g in self.store.games() if g.startswith(KIND + "-")]

    # -- registration ----------------------------------------------------------------------
    def add(self, tournament: str, player: str) -> list:
        return self.submit(tournament, ev.Add(player=player))

    def drop(self, tournament: str, player: str, reason: str = "") -> list:
        return self.submit(tournament, ev.Drop(player=player, reason=reason))

    def adjust(self, tournament: str, player: str, points: str, reason: str,
               kind: str = "penalty") -> list:
        return self.submit(tournament, ev.Adjust(player=player, points=str(points),
                                                 reason=reason, kind=kind))

    # -- rounds ----------------------------------------------------------------------------
    def pair(self, tournament: str, seating: list | None = None, byes: list | None = None,
             games: bool = True, game_seed=None, private=None,
             seat_entropy: bool = False) -> dict:
        """Pair the next round; with ``games`` create each table's game (digital, or physical
        when the tournament's options say so) and attach it.  ``game_seed(round, table)`` may
        fix the games' seeds (rehearsals); ``private(game, names)`` gives documents to keep with
        each new game (the HTTP service's token hashes, see GameService.create).  In a duplicate
        tournament (TOUR-11) every game gets the round's secret seed, committed in the round's
        record (``game_seed(round, 0)`` fixes it for a rehearsal); with ``seat_entropy`` each
        table's game is created with seat entropy, and the round's shared order mixes every seat
        of every table (TOUR-11.6, engine.service.mixing).  Returns
        ``{"round", "tables": [{"table", "players", "first", "game"}], "byes", "repeats",
        "skipped": [why a table has no game], "final", "seat_entropy"}``."""
        from . import duplicate

        state = self.state(tournament)
        created = state.created
        from .clock import now_ms
        secret = None
        if created.duplicate:  # TOUR-11.2: the round's furnace seed, committed before any game
            if not games:
                raise IllegalCommand("TOUR-11.2", "a duplicate round's games are created by "
                                     "pair, with the round's secret seed: leave out --no-games")
            secret = duplicate.draw_secret()
            if game_seed is not None:  # a rehearsal: the round's seed fixed too
                secret["seed"] = game_seed(state.round + 1, 0)
            self.store.put_private(tournament, duplicate.private_name(state.round + 1), secret,
                                   replace=True)
        events = self.submit(tournament, ev.Pair(
            round=state.round + 1, seating=seating, byes=byes,
            furnace=None if secret is None else duplicate.commit(secret), at=now_ms()))
        paired = events[0]
        from .finals import is_final

        out = {"round": paired.round, "tables": [], "byes": list(paired.byes),
               "repeats": paired.repeats, "skipped": [],
               "final": is_final(created, paired.round),
               # whether the round's games were made with seat entropy (TOUR-11.6: only a
               # duplicate round's; another tournament's games are made as before)
               "seat_entropy": secret is not None and bool(seat_entropy)}
        made: list = []  # [game, seats, table] of the round's games (engine.service.mixing)
        from .roundtime import deadline_of
        ends = deadline_of(created, paired)  # TOUR-8.5: the round's end on each game's clock
        chosen = None if secret is None else game_seed is not None
        for number, table in enumerate(paired.tables, 1):
            row = {"table": number, "players": list(table.players), "first": table.first,
                   "game": None}
            if games:
                options = {k: v for k, v in created.options.items() if k not in PER_TABLE}
                options.update(players=list(table.players), first=table.first,
                               physical=bool(created.options.get("physical")))
                seed = None if game_seed is None or options["physical"] else game_seed(
                    paired.round, number)
                salt = None
                if secret is not None:  # the round's commitment is the game's (TOUR-11.2)
                    seed, salt = secret["seed"], secret["salt"]  # (chosen: a rehearsal's)
                documents = private
                if secret is not None:  # one group for the round (TOUR-11.6, 11.8)
                    documents = _with_mix(private, tournament, paired.round)
                try:
                    loaded = self.service.create(created.game, options, seed=seed,
                                                 private=documents, salt=salt, chosen=chosen,
                                                 seat_entropy=secret is not None
                                                 and seat_entropy, deadline=ends)
                except UsageError as exc:
                    out["skipped"].append(f"table {number}: no game created ({exc.message}); "
                                          "attach the referee's log")
                else:
                    self.submit(tournament, ev.Attach(round=paired.round, table=number,
                                                      game=loaded.game,
                                                      created=loaded.header.created))
                    row["game"] = loaded.game
                    made.append([loaded.game, len(table.players), number])
            out["tables"].append(row)
        if secret is not None:  # the round's games in table order (engine.service.mixing)
            self.store.put_private(tournament, duplicate.private_name(paired.round),
                                   {**secret, "games": made, "chosen": chosen,
                                    "seat_entropy": bool(seat_entropy)}, replace=True)
        return out

    def check_log(self, tournament: str, data: bytes, round_: int | None = None,
                  table: int | None = None, finished: bool = True) -> dict:
        """Check a game log for a table (TOUR-4.1, 4.2): returns ``{"game", "round", "table",
        "created", "record": RecordResult command or None}``; raises IllegalCommand with the reason.
        ``table`` None: the open round's table whose players the log has."""
        from ..replay import load_bytes, verify_bytes

        state = self.state(tournament)
        created = state.created
        check = verify_bytes(data)
        if not check.ok:
            where = f" ({check.game})" if check.game else ""
            raise IllegalCommand("TOUR-4.1", f"the log{where} does not verify: record "
                                 f"{check.first_bad_seq} is bad: {check.reason}")
        game = check.game
        assert game is not None  # a log that verifies has its header
        if check.kind != created.game:
            raise IllegalCommand("TOUR-4.1", f"{game} is a {check.kind} game; this tournament "
                                 f"plays {created.game}")
        if finished and not check.finished:
            raise IllegalCommand("TOUR-4.1", f"{game} is not finished: a result is read only "
                                 "from a finished game")
        for other in self.tournaments():
            if other != tournament and game in self.state(other).attached:
                raise IllegalCommand("TOUR-4.2", f"{game} belongs to tournament {other}")
        log = load_bytes(data)
        names = log.names
        round_ = state.round if round_ is None else round_
        if round_ != state.round or state.closed >= round_:
            raise IllegalCommand("TOUR-4.2", "no round is open: pair the next round first")
        tables = state.tables[round_]
        if table is None:
            matches = [i for i, t in enumerate(tables, 1) if sorted(t.players) == sorted(names)]
            if not matches:
                raise IllegalCommand("TOUR-4.2", f"{game} has players {', '.join(names)}: no "
                                     f"table of round {round_} seats exactly them")
            table = matches[0]
        if not 1 <= table <= len(tables):
            raise IllegalCommand("TOUR-4.2", f"round {round_} has tables 1 to {len(tables)}")
        seated = tables[table - 1]
        if state.attached.get(game) not in (None, (round_, table)):
            r, t = state.attached[game]
            raise IllegalCommand("TOUR-4.2", f"{game} is already attached to table {t} "
                                             f"of round {r}")
        if names != list(seated.players):
            raise IllegalCommand("TOUR-4.2", f"{game} seats {', '.join(names)}; table {table} of "
                                 f"round {round_} seats {', '.join(seated.players)} in that order")
        options = game_options(log)
        for key, value in created.options.items():
            if key in PER_TABLE:
                continue
            if options.get(key) != value:
                raise IllegalCommand("TOUR-4.2", f"{game} was played with {key} = "
                                     f"{options.get(key)!r}; the tournament's is {value!r}")
        extra = sorted(k for k in options if k not in created.options and k not in PER_TABLE)
        if extra:
            raise IllegalCommand("TOUR-4.2", f"{game} has option(s) the tournament does not "
                                 f"set: {', '.join(extra)}")
        if options.get("first") not in (None, seated.first):
            raise IllegalCommand("TOUR-4.2", f"{game} starts with {options['first']}; table "
                                 f"{table}'s start player is {seated.first}")
        paired_at = self._paired_at(tournament, round_)
        if paired_at is not None and log.header.created < paired_at:
            raise IllegalCommand("TOUR-4.2", f"{game} was created at "
                                 f"{iso_time(log.header.created, 0)}, before round {round_} was "
                                 f"paired ({iso_time(paired_at, 0)}): not this round's game")
        record = None
        if check.finished:
            # the game as it stands, voids applied and desk records (a dispute after the end)
            # left out: they are not the kind's events
            rules = log.rules
            state_end = rules.fold(log.effective().events)
            if state.furnaces.get(round_):  # TOUR-11.2: played with the round's seed
                from .duplicate import check_game

                check_game(data, state.furnaces[round_],
                           self._furnace(tournament, state, round_), game, round_)
            # (an adjudicated game: its kind's adjudicated hook, TOUR-8.3)
            from .adjudicate import placed_of, result_fields
            from .botseats import seat_fields  # TOUR-13: the seats a bot played
            record = ev.RecordResult(round=round_, table=table, game=game,
                                     **result_fields(log, placed_of(log, state_end)),
                                     **seat_fields(log))
        return {"game": game, "round": round_, "table": table, "created": log.header.created,
                "record": record}

    def _furnace(self, tournament: str, state, round_: int) -> dict | None:
        """A duplicate round's secret furnace seed and salt (TOUR-11) and, when its games
        were created with seat entropy, ``seats``: every seat's value of every table in order
        (TOUR-11.6); None for a round without."""
        from ..service.mixing import group_values
        from . import duplicate

        if not state.furnaces.get(round_):
            return None
        secret = self.store.private(tournament, duplicate.private_name(round_))
        if secret is None:
            return None
        seats = group_values(self.store, secret.get("games") or [])
        return {**secret, "seats": seats} if seats is not None else secret

    def _paired_at(self, tournament: str, round_: int) -> int | None:
        """When round ``round_`` was paired (ms since 1970), from its record's time."""
        for record, event in self.service.stream(tournament):
            if type(event) is ev.RoundPaired and event.round == round_:
                return self.service.load(tournament).header.created + record.ts
        return None

    def attach(self, tournament: str, source: str, table: int | None = None,
               data: bytes | None = None) -> dict:
        """Attach a finished game to a table of the open round and record its result.
        ``source``: a game id in the store, or (with ``data``) a .devlog's bytes, which are
        imported into the store once every check passed."""
        if data is None:
            game = self.service.resolve(source)
            data = self.store.log_bytes(game)
            stored = True
        else:
            stored = False
        found = self.check_log(tournament, data, table=table)
        game = found["game"]
        state = self.state(tournament)
        if game in state.attached and state.attached[game] in state.results:
            r, t = state.attached[game]
            raise IllegalCommand("TOUR-4.2", f"{game} is already attached to table {t} of "
                                 f"round {r}: a log counts once")
        taken = decided(state, found["round"], found["table"])
        if taken is not None:  # before a log from a file is imported
            raise IllegalCommand("TOUR-4.3", taken)
        if not stored:
            if self.store.exists(game):
                if self.store.log_bytes(game) != data:
                    raise IllegalCommand("TOUR-4.2", f"the store holds another log called {game}")
            else:
                self.store.import_log(data)
        state = self.state(tournament)
        if (found["round"], found["table"]) not in state.games or \
                state.games[(found["round"], found["table"])] != game:
            self.submit(tournament, ev.Attach(round=found["round"], table=found["table"],
                                              game=game, created=found["created"]))
        self.submit(tournament, found["record"])
        return {"game": game, "round": found["round"], "table": found["table"],
                "result": self._result_row(tournament, found["round"], found["table"])}

    def _result_row(self, tournament: str, round_: int, table: int) -> dict:
        state = self.state(tournament)
        result = state.results[(round_, table)]
        names = state.tables[round_][table - 1].players
        return {"players": list(names), "places": list(result.places),
                result.measure: list(result.values), "points": list(result.points),
                "winners": list(result.winners)}

    def close_round(self, tournament: str) -> dict:
        """Collect the open round's finished games and close it (TOUR-5.2): refused, with
        nothing recorded, while a table has no finished game."""
        state = self.state(tournament)
        round_ = state.round
        if round_ == 0 or state.closed == round_:
            raise IllegalCommand("TOUR-5.2", "no round is open")
        pending = []
        waiting = []
        for number, table in enumerate(state.tables[round_], 1):
            if (round_, number) in state.results:
                continue
            game = state.games.get((round_, number))
            if game is None:
                waiting.append(f"table {number} has no game attached")
                continue
            from .roundtime import apply_deadline
            apply_deadline(self, game)  # TOUR-8.5: a round time run out is recorded first
            found = self.check_log(tournament, self.store.log_bytes(game), round_, number,
                                   finished=False)
            if found["record"] is None:
                waiting.append(f"table {number}'s game {game} is not finished")
            else:
                pending.append(found["record"])
        if waiting:
            raise IllegalCommand("TOUR-5.2", f"round {round_} cannot close: "
                                 + "; ".join(waiting))
        from .roundtime import record_timed_out
        for record in pending:
            record_timed_out(self, tournament, state, record)  # TOUR-8.5
            self.submit(tournament, record)
        secret = self._furnace(tournament, state, round_)
        events = self.submit(tournament, ev.Close(
            round=round_, furnace_seed=None if secret is None else secret["seed"],
            furnace_salt=None if secret is None else secret["salt"]))
        return {"round": round_, "collected": len(pending),
                "finished": any(type(e) is ev.TournamentFinished for e in events)}

    # -- reading ---------------------------------------------------------------------------
    def standings(self, tournament: str) -> dict:
        """The standings map (engine.tournament.printing.standings, without the history: a
        bundle's published standings are the rows alone)."""
        from .printing import standings

        return standings(self.state(tournament), tournament)

    @staticmethod
    def measure(state) -> str:
        """The name of the value summed for the tiebreak (engine.tournament.rules.measure_of)."""
        from .rules import measure_of

        return measure_of(state)

    def show(self, tournament: str) -> dict:
        """The tournament's view plus, for the open round, each table's game state line and
        ``round_ends``: when its round time runs out (ms since 1970; None: no limit)."""
        from ..game import summary_row

        view = self.service.view(tournament)
        view["tournament"] = tournament
        state = self.state(tournament)
        from .clock import round_ends  # the open round's time (TOUR-8.1), ms; None: no limit
        view["round_ends"] = None if state.closed == state.round else round_ends(state,
                                                                                  state.round)
        for round_view in view.get("paired", []):
            if round_view["round"] != state.round:
                continue
            for table in round_view["tables"]:
                game = table.get("game")
                if game is None:
                    table["state"] = "no game attached"
                    continue
                try:
                    loaded = self.service.load(game)
                    table["state"] = summary_row(game, loaded.header.kind, loaded.header.created,
                                                 loaded.rules, loaded.state, loaded.version)["text"]
                    if loaded.desk is not None and loaded.desk.ended is not None:  # DESK-8
                        table["state"] += f"; adjudicated at time ({loaded.desk.ended[2]})"
                except (UnknownGame, UsageError) as exc:
                    table["state"] = f"not in this store ({exc.message})"
                except Exception as exc:  # a damaged log: say so, show the rest
                    table["state"] = f"cannot be read: {getattr(exc, 'message', exc)}"
        return view


def attached_games(state) -> list[tuple[int, int, str]]:
    """``(round, table, game)`` of every attached game, in order."""
    return sorted((r, t, g) for (r, t), g in state.games.items())


__all__: list[Any] = ["Organiser", "attached_games", "game_options"]


def _with_mix(private, tournament: str, round_: int):
    """``private`` (the documents each new game keeps) plus the ``mix`` document that joins a
    duplicate round's game to its round's seat entropy (engine.service.mixing)."""
    from ..service import mixing
    from . import duplicate

    def documents(game: str, names: list) -> dict:
        found = dict(private(game, names)) if private is not None else {}
        found[mixing.DOCUMENT] = mixing.document(tournament, duplicate.private_name(round_))
        return found

    return documents
