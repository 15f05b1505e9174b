"""The OpenAPI 3.1 document of the devil table service (served at /openapi.json by
engine.web.games).

Written by hand so that it describes exactly the routes, roles and errors of engine.web (the
app's routes: games, tournaments, pages); a test checks that it covers every route.
"""

from __future__ import annotations

from typing import Any

from ..games import KINDS

# -- the OpenAPI document ----------------------------------------------------------------------
def _op(summary: str, who: str, responses: dict, params: list | None = None,
        body: dict | None = None, secured: bool = True) -> dict:
    op: dict[str, Any] = {"summary": summary, "description": f"Who may call: {who}",
                          "responses": responses}
    if params:
        op["parameters"] = params
    if body:
        op["requestBody"] = body
    if not secured:
        op["security"] = []
    return op


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _tlog_paths() -> dict:
    """The transparency log's paths (engine/web/tlog.py): anyone."""
    def q(name: str, what: str, required: bool = True) -> dict:
        return {"name": name, "in": "query", "required": required,
                "schema": {"type": "string"}, "description": what}
    proof = _json({"type": "object"}, "The proof (hex hashes, RFC 6962).")
    bad = {"400": {"$ref": "#/components/responses/BadRequest"}}
    return {
        "/checkpoint": {"get": _op(
            "The store's latest signed checkpoint: a C2SP tlog-checkpoint note (text/plain), "
            "or with ?format=json {checkpoint, origin, size, root, key}", "anyone",
            {"200": {"description": "The checkpoint.", "content": {
                "text/plain": {"schema": {"type": "string"}}}}},
            [q("format", "json for the JSON form", False)], secured=False)},
        "/checkpoint/consistency": {"get": _op(
            "A consistency proof from the tree of old leaves to new (default: now)", "anyone",
            {"200": proof, **bad}, [q("old", "the earlier tree size"),
                                    q("new", "the later tree size", False)], secured=False)},
        "/checkpoint/inclusion": {"get": _op(
            "The latest checkpoint and the inclusion proof of a record's leaf", "anyone",
            {"200": proof, **bad, "404": {"$ref": "#/components/responses/NotFound"}},
            [q("game", "the game id"), q("seq", "the record's sequence number"),
             q("link", "the record's link (16 hex digits)")], secured=False)},
    }


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERR = {"400": {"$ref": "#/components/responses/BadRequest"},  # a bad query (?as, ?after)
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"},
        "404": {"$ref": "#/components/responses/NotFound"}}
_GAME = {"name": "game", "in": "path", "required": True, "schema": {"type": "string"},
         "description": "A game id (or a unique prefix or suffix of it)."}
_AS = {"name": "as", "in": "query", "required": False, "schema": {"type": "string"},
       "description": "Read or act as this player.  A seat's token may name only its own seat; "
                      "the referee may name any seat; spectators may not use it."}
_LEGAL = {"name": "legal", "in": "query", "required": False, "schema": {"type": "boolean"},
          "description": "Also answer the seat's legal commands (key `legal` of the view)."}
_AFTER = {"name": "after", "in": "query", "required": False,
          "schema": {"type": "integer", "minimum": 0, "default": 0},
          "description": "Only events with a sequence number above this."}

#: one server-sent event of GET /games/{id}/stream: `event` (a record; data: an Events entry
#: as JSON) or `over` (data: {"version"}); comments and `retry` carry no event
_SSE_EVENT = {"type": "object", "properties": {
    "event": {"type": "string", "enum": ["event", "over"]}, "id": {"type": "string"},
    "data": {"type": "string", "description": "JSON"}, "retry": {"type": "integer"}}}


def build(max_wait: float, max_stream: float) -> dict[str, Any]:
    """The document, with the service's limits on long-polls (``max_wait`` s) and event
    streams (``max_stream`` s)."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "devil table service", "version": "1",
                 "description": "Games of " + " and ".join(
                     f"{title} ({kind})" for kind, title in KINDS.items()) +
                                " as event-sourced logs.  Every request but creating a "
                                "game carries a bearer token (a seat's, the referee's or the "
                                "spectator's) handed out when the game was created.  Errors are "
                                "JSON: {error, rule, code} where code is the devil CLI's exit code "
                                "(1 refused by the rules, 2 usage, 3 damaged log, 4 not allowed).  "
                                "See docs/service.md."},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Error": {"type": "object", "required": ["error", "code"], "properties": {
                    "error": {"type": "string"}, "rule": {"type": ["string", "null"]},
                    "code": {"type": "integer", "enum": [1, 2, 3, 4]}}},
                "NewGame": {"type": "object", "required": ["kind"], "additionalProperties": False,
                            "properties": {
                                "kind": {"type": "string", "enum": list(KINDS)},
                                "options": {"type": "object", "description": "The kind's options "
                                            "(players, first, physical, ...)"},
                                "seed": {"type": "integer", "minimum": 0},
                                "seat_entropy": {"type": "boolean", "description": "Start only "
                                                 "once every seat gave a random value "
                                                 "(POST a seat_entropy command); every draw "
                                                 "mixes them with the server's seed"},
                                "clock": {"type": "object", "additionalProperties": False,
                                          "description": "A time control per seat (CLOCK-1): "
                                          "a Fischer clock BASE+INC, a move time, what a "
                                          "timeout does",
                                          "properties": {
                                              "clock": {"type": "string",
                                                        "examples": ["20m+10s"]},
                                              "move_time": {"type": "string",
                                                            "examples": ["2m"]},
                                              "on_timeout": {"type": "string",
                                                             "enum": ["act", "flag"]}}}}},
                "Created": {"type": "object", "properties": {
                    "game": {"type": "string"}, "kind": {"type": "string"},
                    "players": {"type": "array", "items": {"type": "string"}},
                    "tokens": {"type": "object", "additionalProperties": {"type": "string"},
                               "description": "referee, spectator and one per player name; shown "
                                              "once, stored only as hashes"}}},
                "Command": {"type": "object", "required": ["type"],
                            "properties": {"type": {"type": "string"},
                                           "player": {"type": "string"},
                                           "reporter": {"type": "string", "description":
                                                        "a physical game's reported draw: "
                                                        "who reported it (with a named "
                                                        "referee token: that name, or left "
                                                        "out)"}},
                            "additionalProperties": True,
                            "description": "The same JSON command objects as `devil submit` "
                                           "(a seat's token fills in its own player)."},
                # the referee's desk (engine.desk; docs/commands.md): commands of every kind
                "Correct": {"type": "object", "required": ["type", "to", "reason"],
                            "description": "The referee returns the game to its state after "
                                           "record `to`; the records after it are voided "
                                           "(DESK-1 to 3).  Refused for a seat's token (403).",
                            "properties": {"type": {"const": "correct"},
                                           "to": {"type": "integer", "minimum": 0},
                                           "reason": {"type": "string", "minLength": 1,
                                                      "maxLength": 500},
                                           "dispute": {"type": ["integer", "null"],
                                                       "minimum": 1, "description":
                                                       "the dispute it answers (DESK-10.2)"}}},
                "Amend": {"type": "object", "required": ["type", "seq", "fields", "reason"],
                          "description": "The referee amends record `seq`: its command is given "
                                         "again with `fields` changed (e.g. {\"coal\": 50}, "
                                         "{\"amount\": 40}; which may change is the kind's), "
                                         "every later command still legal is re-applied, the "
                                         "rest voided and listed (DESK-9).  Refused for a "
                                         "seat's token (403).",
                          "properties": {"type": {"const": "amend"},
                                         "seq": {"type": "integer", "minimum": 1},
                                         "fields": {"type": "object", "minProperties": 1},
                                         "reason": {"type": "string", "minLength": 1,
                                                    "maxLength": 500},
                                         "dispute": {"type": ["integer", "null"], "minimum": 1,
                                                     "description": "the dispute it answers "
                                                                    "(DESK-10.2)"}}},
                "Dispute": {"type": "object", "required": ["type", "seq", "text"],
                            "description": "A seat disputes record `seq` (DESK-4): the seat's "
                                           "token (its own seat), or the referee's with ?as.",
                            "properties": {"type": {"const": "dispute"},
                                           "seq": {"type": "integer", "minimum": 1},
                                           "text": {"type": "string", "minLength": 1,
                                                    "maxLength": 500},
                                           "player": {"type": "string"}}},
                "Ruling": {"type": "object", "required": ["type", "dispute", "upheld", "reason"],
                           "description": "The referee upholds or rejects dispute `dispute`; "
                                          "upheld, it names its remedy: `to` also corrects "
                                          "the game (DESK-5, DESK-10.1).",
                           "properties": {"type": {"const": "ruling"},
                                          "dispute": {"type": "integer", "minimum": 1},
                                          "upheld": {"type": "boolean"},
                                          "reason": {"type": "string", "minLength": 1,
                                                     "maxLength": 500},
                                          "to": {"type": ["integer", "null"], "minimum": 0},
                                          "remedy": {"enum": ["correct", "amend", "none", None],
                                                     "description": "upheld: the remedy "
                                                     "(DESK-10.1): correct (with `to`), amend "
                                                     "(an amendment citing the dispute "
                                                     "follows) or none (no change)"}}},
                # a seat handed back (DESK-11) and takebacks (DESK-12; engine.desk.takeback)
                "ReturnSeat": {"type": "object", "required": ["type", "seat", "reason"],
                               "description": "The referee gives `seat`, played by a bot since "
                                              "`replace_seat`, back to its player: the bot "
                                              "stops (DESK-11).  Refused for a seat's token "
                                              "(403).",
                               "properties": {"type": {"const": "return_seat"},
                                              "seat": {"type": "string"},
                                              "reason": {"type": "string", "minLength": 1,
                                                         "maxLength": 500}}},
                "Takeback": {"type": "object", "required": ["type"],
                             "description": "A seat asks to take back its last command "
                                            "(DESK-12.1); refused across another seat's "
                                            "command (12.2) or a draw, a reveal or a deal "
                                            "(12.3).  The seat's token, or the referee's with "
                                            "?as.",
                             "properties": {"type": {"const": "takeback"},
                                            "player": {"type": "string"}}},
                "TakebackAnswer": {"type": "object", "required": ["type", "consent"],
                                   "description": "Another seat consents to or refuses the "
                                                  "open takeback (DESK-12.4); the last consent "
                                                  "grants it (`takeback_granted` voids the "
                                                  "command's records).",
                                   "properties": {"type": {"const": "takeback_answer"},
                                                  "consent": {"type": "boolean"},
                                                  "player": {"type": "string"}}},
                "TakebackDecision": {"type": "object",
                                     "required": ["type", "allowed", "reason"],
                                     "description": "The referee allows or denies the open "
                                                    "takeback (DESK-12.5).  Refused for a "
                                                    "seat's token (403).",
                                     "properties": {"type": {"const": "takeback_decision"},
                                                    "allowed": {"type": "boolean"},
                                                    "reason": {"type": "string",
                                                               "minLength": 1,
                                                               "maxLength": 500}}},
                "Voided": {"type": "object", "description": "On an event a correction voided "
                           "(it stays in the log, no longer in force).", "properties": {
                               "by": {"type": "integer"}, "reason": {"type": "string"}}},
                "Event": {"type": "object", "properties": {
                    "voided": _ref("Voided"),
                    "seq": {"type": "integer"}, "actor": {"type": "integer"},
                    "cmd": {"type": ["string", "null"]}, "time": {"type": "string"},
                    "event": {"type": "object"}}},
                "Events": {"type": "object", "properties": {
                    "game": {"type": "string"}, "events": {"type": "array", "items": _ref("Event")},
                    "version": {"type": "integer", "description": "resume with after=version"},
                    "over": {"type": "boolean"}}},
                "Submitted": {"type": "object", "properties": {
                    "game": {"type": "string"}, "repeated": {"type": "boolean"},
                    "events": {"type": "array", "items": {"type": "object"}},
                    "view": {"type": "object"}, "receipt": _ref("Signed")}},
                "Signed": {"type": "object", "description": "A receipt or a seal signed with the "
                           "service's Ed25519 key (docs/service.md: receipts and seals)",
                           "properties": {
                               "receipt": {"type": "integer"}, "seal": {"type": "integer"},
                               "game": {"type": "string"}, "seq": {"type": "integer"},
                               "link": {"type": "string"}, "time": {"type": "string"},
                               "key": {"type": "string"}, "sig": {"type": "string"}}},
            },
            "responses": {
                "Unauthorized": _json(_ref("Error"), "Missing or invalid token."),
                "Forbidden": _json(_ref("Error"), "The token may not do this."),
                "NotFound": _json(_ref("Error"), "No such game."),
                "BadRequest": _json(_ref("Error"), "Malformed request, JSON or command."),
            },
        },
        "security": [{"bearer": []}],
        "paths": {
            "/games": {
                "post": _op("Create a game", "anyone; only the organiser key when the server has "
                            "one (devil serve --organiser-key)",
                            {"201": _json(_ref("Created"), "The game and its tokens "
                                                            "(never its deal: "
                                                            "the referee reads the events)."),
                             "400": {"$ref": "#/components/responses/BadRequest"},
                             "401": {"$ref": "#/components/responses/Unauthorized"},
                             "403": {"$ref": "#/components/responses/Forbidden"},
                             "413": _json(_ref("Error"), "Body too large.")},
                            body={"required": True, "content": {"application/json": {
                                "schema": _ref("NewGame")}}}),
                "get": _op("List games", "the organiser key (every game) or any game token "
                           "(its own game, as that token sees it)",
                           {"200": _json({"type": "array", "items": {"type": "object"}}, "Rows."),
                            "401": {"$ref": "#/components/responses/Unauthorized"}}),
            },
            "/games/{game}": {"get": _op(
                "Game summary: id, kind, players, version, over, and who the token is",
                "any token of the game", {"200": _json({"type": "object"}, "Summary."), **_ERR},
                [_GAME])},
            "/games/{game}/view": {"get": _op(
                "The table as the caller (or ?as=NAME for the referee) sees it",
                "any token of the game (seat: its own view; spectator: the public view)",
                {"200": _json({"type": "object"}, "The view map."), **_ERR}, [_GAME, _AS, _LEGAL])},
            "/games/{game}/legal": {"get": _op(
                "Every command a seat may submit now", "the seat's token, or the referee with ?as",
                {"200": _json({"type": "array", "items": _ref("Command")}, "Commands."), **_ERR},
                [_GAME, _AS])},
            "/games/{game}/events": {"get": _op(
                "Events after a sequence number, redacted for the caller; long-poll with ?wait",
                "any token of the game (each reads its own redacted stream)",
                {"200": _json(_ref("Events"), "Events (empty if none arrived within wait)."),
                 **_ERR},
                [_GAME, _AS, _AFTER, {"name": "wait", "in": "query", "required": False,
                                      "schema": {"type": "number", "minimum": 0,
                                                 "maximum": max_wait},
                                      "description": "Seconds to wait for a new event."}])},
            "/games/{game}/stream": {"get": _op(
                "Server-sent events: one `event` per record (id = seq), `over` at the end; resume "
                "with Last-Event-ID or ?after", "any token of the game",
                {"200": {"description": "text/event-stream (itemSchema: one event, as in OpenAPI "
                                        "3.2)",
                         "content": {"text/event-stream": {"itemSchema": _SSE_EVENT}}},
                 **_ERR},
                [_GAME, _AS, _AFTER, {"name": "timeout", "in": "query", "required": False,
                                      "schema": {"type": "number", "maximum": max_stream},
                                      "description": "Close the stream after this many "
                                                     "seconds."}])},
            "/games/{game}/commands": {"post": _op(
                "Submit a command (a game's, or the referee's desk's: correct, dispute, ruling, "
                "return_seat, takeback, takeback_answer, takeback_decision, amend)",
                "a seat (as itself; a dispute, a takeback and its answers), or the referee (for "
                "anyone, chance reports in a physical game, corrections, amendments, rulings, "
                "seats handed back, takeback decisions); not spectators",
                {"201": _json(_ref("Submitted"), "Recorded."),
                 "200": _json(_ref("Submitted"), "A retry: the command id was already applied; "
                              "nothing new was recorded."),
                 "400": {"$ref": "#/components/responses/BadRequest"},
                 "409": _json(_ref("Error"), "Refused by the rules (rule holds the rule id), "
                              "or the command id was used by another caller."),
                 "413": _json(_ref("Error"), "Body too large."), **_ERR},
                [_GAME, _AS, _LEGAL, {"name": "Idempotency-Key", "in": "header", "required": True,
                              "schema": {"type": "string", "maxLength": 200},
                              "description": "The command id; a retry with the same id returns the "
                                             "first answer and appends nothing."}],
                body={"required": True, "content": {"application/json": {
                    "schema": {"anyOf": [_ref("Command"), _ref("Correct"), _ref("Dispute"),
                                         _ref("Ruling"), _ref("ReturnSeat"), _ref("Takeback"),
                                         _ref("TakebackAnswer"), _ref("TakebackDecision"),
                                         _ref("Amend")]}}}})},
            "/games/{game}/referees": {"post": _op(
                "Issue a named referee token: a referee who reports a physical game's draws "
                "under their own name (each draw it submits records it as `reporter`; a body "
                "`reporter` naming anyone else is refused, 403)",
                "the game's referee token or the organiser key (not a named referee's token)",
                {"201": _json({"type": "object", "required": ["game", "name", "role", "token"],
                               "properties": {"game": {"type": "string"},
                                              "name": {"type": "string"},
                                              "role": {"type": "string", "enum": ["referee"]},
                                              "token": {"type": "string", "description":
                                                        "shown once, stored only as a hash"}}},
                              "Issued."),
                 "413": _json(_ref("Error"), "Body too large."), **_ERR},
                [_GAME],
                body={"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["name"], "additionalProperties": False,
                    "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 32,
                                            "description": "1 to 32 printable characters"}}}}}})},
            "/games/{game}/log": {"get": _op(
                "The game's .devlog file (docs/log-format.md)", "the referee only",
                {"200": {"description": "The log's bytes.",
                         "content": {"application/vnd.devil.log": {"schema": {
                             "type": "string", "format": "binary"}}}}, **_ERR}, [_GAME])},
            "/games/{game}/seal": {"get": _op(
                "A finished game's seal: its final record, signed", "any token of the game",
                {"200": _json(_ref("Signed"), "The seal."), **_ERR}, [_GAME])},
            "/key": {"get": _op("The service's public signing key (checks receipts and seals)",
                                "anyone", {"200": _json({"type": "object", "properties": {
                                    "algorithm": {"type": "string"},
                                    "public": {"type": "string"}}}, "The key.")},
                                secured=False)},
            "/key/history": {"get": _op(
                "The signing key now and its rotations, oldest first (engine.keys, issue 20.5)",
                "anyone", {"200": _json({"type": "object", "properties": {
                    "public": {"type": "string"},
                    "history": {"type": "array", "items": {"type": "object"}}}},
                    "The key and its rotation records.")}, secured=False)},
            **_tlog_paths(),  # engine/web/tlog.py (issue 20)
            **_tournament_paths(),
            **_print_paths(),  # engine/web/tournament_print.py (issue 22.9)
            **_table_paths(),  # engine/web/moves.py, engine/web/pages/table.py (issue 25)
            **_referee_paths(),  # engine/web/refmoves.py, engine/web/pages/referee.py (25.2)
            # the pages (engine/web/pages; docs/service.md#the-replay-and-audit-pages)
            "/games/{game}/replay": {"get": _op(
                "The replay page (HTML; no game data: it reads the token from #token=...)",
                "anyone", {"200": {"description": "The page.", "content": {"text/html": {
                    "schema": {"type": "string"}}}}}, [_GAME], secured=False)},
            "/games/{game}/replay/data": {"get": _op(
                "The replay page's data: every event as the caller saw it, its rule ids and the "
                "view after it (engine.web.pages.replay_data)",
                "any token of the game (a seat: its own redacted stream; ?as: the referee)",
                {"200": _json({"type": "object"}, "The steps."), **_ERR}, [_GAME, _AS])},
            "/games/{game}/audit": {"get": _op(
                "The audit page (HTML; no game data)", "anyone",
                {"200": {"description": "The page.", "content": {"text/html": {
                    "schema": {"type": "string"}}}}}, [_GAME], secured=False)},
            "/games/{game}/audit/data": {"get": _op(
                "The kind's audit: verdict, problems, the money chart's spec and SVG",
                "the referee (an audit reads every sealed bet)",
                {"200": _json({"type": "object"}, "The audit."), **_ERR}, [_GAME])},
            "/openapi.json": {"get": _op("This document", "anyone",
                                         {"200": _json({"type": "object"}, "OpenAPI 3.1")},
                                         secured=False)},
            "/health": {"get": _op("Liveness", "anyone", {"200": _json({"type": "object"}, "ok")},
                                   secured=False)},
        },
    }


_T = {"name": "tournament", "in": "path", "required": True, "schema": {"type": "string"},
      "description": "A tournament id (or a unique prefix or suffix of it)."}


def _table_paths() -> dict:
    from .moves import openapi_paths as moves
    from .pages.table import openapi_paths as table

    from .autopass import openapi_paths as autopass

    return {**moves(_op, _json, _GAME, _AS, _ERR), **table(_op), **autopass(_op, _json)}


def _referee_paths() -> dict:
    from .pages.referee import openapi_paths as page
    from .refmoves import openapi_paths as moves

    return {**moves(_op, _json, _GAME, _ERR), **page(_op)}


def _print_paths() -> dict:
    from .tournament_print import openapi_paths

    return openapi_paths(_op, _json, _T)


def _tournament_paths() -> dict:
    """The organiser's tournament operations (engine/web/tournament.py; docs/tournaments.md)."""
    errors = {"400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "403": {"$ref": "#/components/responses/Forbidden"},
              "404": {"$ref": "#/components/responses/NotFound"}}
    body = {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}
    organiser = "the organiser key only (a server without one refuses: 403)"
    return {
        "/tournaments": {"post": _op(
            "Create a tournament: {name, game, options, format, points, bye_points, rounds, "
            "table_size: [min, max], tiebreaks, players, attributes? (name -> {column: "
            "text}), seed?, final_table? (N: the top N play a final table after the Swiss "
            "rounds, TOUR-10), final_tables? (K: a top cut to K final tables), duplicate? "
            "(every table of a round draws the same committed furnace order, TOUR-11), "
            "pairing? (score-groups (default) | classic), allow_repeats? (bool), "
            "avoid_same_club? (bool), check_in? (bool, TOUR-7.1)}",
            organiser,
            {"201": _json({"type": "object", "properties": {"tournament": {"type": "string"}}},
                          "The tournament's id."),
             "413": _json(_ref("Error"), "Body too large."), **errors}, body=body)},
        "/tournaments/{tournament}": {"get": _op(
            "The tournament: settings, rounds, tables, games (with where each stands), "
            "standings", organiser, {"200": _json({"type": "object"}, "The view."), **errors},
            [_T])},
        "/tournaments/{tournament}/commands": {"post": _op(
            "A tournament command: {type: add|drop|penalty|pair|attach|close-round, ...}; pair "
            "creates each table's game and answers every player's seat token (pair's "
            "seat_entropy? (bool, default the server's): a duplicate round's games get seat "
            "entropy, the shared order mixing every seat of every table, TOUR-11.6). No-shows and "
            "overrides (TOUR-7): {type: checkin, player}, {type: forfeit, player, reason, "
            "bot?}, {type: swap, first, second, reason}, {type: unpair, reason}; a table made "
            "again answers its new game's seat tokens (tokens: game -> name -> token); adjudicate "
            "{table, reason, force?} ends a table at time (TOUR-8), amend {table, round?, reason} "
            "takes a result corrected at the desk (TOUR-9)",
            organiser,
            {"200": _json({"type": "object"}, "Recorded."),
             "409": _json(_ref("Error"), "Refused (rule holds the TOUR rule id); nothing "
                          "recorded."),
             "413": _json(_ref("Error"), "Body too large."), **errors}, [_T], body=body)},
        "/tournaments/{tournament}/bundle.zip": {"get": _op(
            "The bundle as a .zip: the stream, every game's log, the manifest (Merkle root)",
            organiser, {"200": {"description": "The .zip's bytes.", "content": {
                "application/zip": {"schema": {"type": "string", "format": "binary"}}}},
                **errors}, [_T])},
        "/tournaments/{tournament}/standings": {"get": _op(
            "The standings (as `devil tournament standings --json`)", "anyone",
            {"200": _json({"type": "object"}, "Standings."), **errors}, [_T], secured=False)},
        "/tournaments/{tournament}/standings.html": {"get": _op(
            "The standings page, each player's points by round as a chart", "anyone",
            {"200": {"description": "HTML", "content": {"text/html": {"schema": {
                "type": "string"}}}}, **errors}, [_T], secured=False)},
    }
