"""The network service commands: ``devil serve``, ``devil watch`` and ``devil referee add``
(a named referee token; docs/service.md).  Loaded by client.cli when named."""

from __future__ import annotations

import errno
import json
import socket
import sys
import time

import click

from .options import json_option
from .output import renderer_for
from .desk import entry_line


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (keep 127.0.0.1 unless a proxy fronts the service).")
@click.option("--port", default=8350, show_default=True, type=click.IntRange(0, 65535))
@click.option("--organiser-key", envvar="DEVIL_ORGANISER_KEY", metavar="KEY",
              help="Only this key may create games (env DEVIL_ORGANISER_KEY); it also acts as "
                   "the referee of every game.")
@click.option("--max-body", type=click.IntRange(256), default=None, metavar="BYTES",
              help="Largest request body accepted (default 65536).")
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@click.option("--seat-entropy/--no-seat-entropy", default=True, show_default=True,
              help="Create every digital game without a chosen seed with seat entropy (unless "
                   "POST /games says \"seat_entropy\": false): its chance nobody, the server "
                   "included, can choose; each seat gives its value (`devil sit`) before the "
                   "first draw.  --no-seat-entropy: games start at once on the server's seed "
                   "alone (trusted servers, load tests).")
@click.option("--http", "http_impl", default="auto", show_default=True,
              type=click.Choice(["auto", "httptools", "h11"]),
              help="The HTTP parser: auto is httptools where it is installed (the default "
                   "install has it), else the pure-Python h11.")
@click.option("--loop", "loop_impl", default="auto", show_default=True,
              type=click.Choice(["auto", "uvloop", "asyncio"]),
              help="The event loop: auto is uvloop where it is installed, else asyncio's.")
@click.option("--window-hold", type=click.FloatRange(0.5, 30), default=3.0, show_default=True,
              metavar="SECONDS",
              help="The seat's page's window hold (PAGE-22): with its auto-pass switch on, a "
                   "seat's page sends every answer in a window that could reveal a hidden card "
                   "no earlier than this after the ask, and its auto-pass exactly then "
                   "(docs/service.md).  Example: --window-hold 2")
@click.option("--witness", "witnesses", multiple=True, metavar="URL",
              help="A C2SP tlog-witness (`devil witness serve`) to send each new checkpoint to, "
                   "in the background; GET /checkpoint then carries its cosignature.  "
                   "Repeatable.")
@json_option
@click.pass_obj
def serve(obj, host, port, organiser_key, max_body, log_level, as_json,
          seat_entropy=True, http_impl="auto", loop_impl="auto", window_hold=3.0, witnesses=()):
    """Serve the games of a store (a folder, or a postgresql:// database shared with other
    nodes) over HTTP (Starlette app run by uvicorn).

    Creating a game (POST /games) answers one token per seat, a referee token and a
    spectator token; players then run `devil --server URL --token T ...`.  The API is
    described at /openapi.json; docs/service.md plays a whole game with curl.  In a browser,
    URL/games/GAME/replay#token=T steps through a game as token T may see it, and
    URL/games/GAME/audit#token=REFEREE draws the money chart.  With --json the first line on
    stdout is {"url", "store", "organiser_only"} (for a script that starts it on --port 0).
    With --witness URL each new checkpoint is sent to that witness in the background and
    GET /checkpoint carries the cosignatures (header Devil-Witnessed-By; docs/trust.md).

    
    Example:
      devil --store games serve --port 8350 --witness http://127.0.0.1:8360
    """
    import uvicorn

    from engine.web.app import MAX_BODY, create_app

    store = obj.store_dir  # --store before or after `serve`; many nodes may share a database
    from .page import texts

    for url in witnesses:
        if not url.startswith(("http://", "https://")):
            from engine.errors import UsageError

            raise UsageError(f"--witness {url}: give the witness's URL (http://HOST:PORT)")
    app = create_app(store, organiser_key, max_body=max_body or MAX_BODY, texts=texts,
                     window_hold=window_hold, witnesses=witnesses)
    app.state.api.seat_entropy = seat_entropy
    # every answer carries a receipt: a store whose signing key cannot be read does not start
    # (SigningKeyDamaged, exit 3), rather than append commands it cannot answer
    app.state.api.service.signer()
    who = "the organiser only" if organiser_key else "anyone"
    # bind before saying anything: a busy port is a usage error (exit 2), not a listening line
    # followed by uvicorn's exit 3; uvicorn then serves on this very socket (no race)
    http, loop = http_stack(http_impl), loop_stack(loop_impl)  # a missing one: exit 2
    sock = listening_socket(host, port)
    port = sock.getsockname()[1]
    if as_json:
        click.echo(json.dumps({"url": f"http://{host}:{port}", "store": store,
                               "organiser_only": bool(organiser_key)}))
        sys.stdout.flush()
    click.echo(f"devil serve: games in {store} on http://{host}:{port} "
               f"(games may be created by {who}; HTTP {http}, loop {loop})", err=True)
    protocol = http
    if http == "httptools":  # one write an answer (engine.web.corked)
        from engine.web.corked import CorkedHttpTools

        protocol = CorkedHttpTools
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                            timeout_graceful_shutdown=5, http=protocol, loop=loop)
    uvicorn.Server(config).run(sockets=[sock])


def http_stack(choice: str) -> str:
    """uvicorn's ``http``: httptools if asked for or (auto) installed, else h11; UsageError when
    httptools is asked for and missing."""
    return _stack(choice, "httptools", "h11", "--http")


def loop_stack(choice: str) -> str:
    """uvicorn's ``loop``: uvloop if asked for or (auto) installed, else asyncio."""
    return _stack(choice, "uvloop", "asyncio", "--loop")


def _stack(choice: str, fast: str, fallback: str, option: str) -> str:
    import importlib.util

    from engine.errors import UsageError

    if choice == fallback:
        return fallback
    if importlib.util.find_spec(fast) is not None:
        return fast
    if choice == fast:
        raise UsageError(f"{option} {fast}: {fast} is not installed here "
                         f"(`pip install 'uvicorn[standard]'`, or {option} {fallback})")
    return fallback


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (SO_REUSEADDR, as uvicorn binds); UsageError
    when the port is busy or the address cannot be listened on."""
    from engine.errors import UsageError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is busy (another devil serve?): choose "
                             "--port") from None
        raise UsageError(f"cannot listen on {host} port {port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


@click.command()
@click.argument("game")
@click.option("--as", "as_name", metavar="NAME",
              help="Follow what this player sees (with a seat's token: that seat).")
@click.option("--after", type=click.IntRange(0), default=0, show_default=True, metavar="SEQ",
              help="Resume after this sequence number.")
@click.option("--timeout", type=click.FloatRange(0), default=None, metavar="SECONDS",
              help="Stop after this long (default: when the game is over).")
@json_option
@click.pass_obj
def watch(obj, game, as_name, after, timeout, as_json):
    """Print a game's events live, as they happen, until the game is over.

    With --json, one JSON object per event (and errors as JSON).

    Against a server (--server) it long-polls GET /games/{id}/events and reconnects by itself,
    resuming from the last sequence number it printed; locally it polls the store.

    \b
    Example:
      devil --server http://127.0.0.1:8350 --token SPECTATOR-TOKEN watch k3f9qz
    """
    client = obj.client
    deadline = None if timeout is None else time.monotonic() + timeout
    game = _retrying(lambda: client.resolve(game), deadline)
    if game is None:
        return
    names = client.players(game)
    render = renderer_for(client.kind(game))
    waiting = getattr(client, "wait_events", None)
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return
        wait = 25.0 if left is None else max(0.0, min(25.0, left))
        if waiting is not None:
            data = _retrying(lambda: waiting(game, as_name, after, wait), deadline)
            if data is None:
                return
        else:
            data = _poll_local(client, game, as_name, after, wait)
        for entry in data["events"]:
            if as_json:
                click.echo(json.dumps(entry))
            else:
                click.echo(entry_line(render, entry, names))
            after = max(after, entry["seq"])
        after = max(after, data.get("version", after))
        if data["events"] and not as_json:  # each seat's remaining time (CLOCK-8)
            _clock_line(client, game, as_name)
        sys.stdout.flush()
        if data.get("over"):
            if not as_json:
                click.echo("(the game is over)", err=True)
            return


def _clock_line(client, game: str, as_name: str | None) -> None:
    """Print the clocks of a game with a time control (nothing for one without)."""
    from .clocks import clock_line

    try:
        line = clock_line(client.view(game, as_name).get("clocks"))
    except Exception:  # the events were printed; a clock line missed is shown with the next
        return
    if line:
        click.echo(line)


def _retrying(call, deadline, attempts: int = 60):
    """``call()``, retried while the server is unreachable (bounded by ``attempts`` and
    ``deadline``); None if the deadline passed."""
    from client.remote import ServerUnreachable

    delay = 0.2
    for attempt in range(attempts):
        try:
            return call()
        except ServerUnreachable as exc:
            if attempt + 1 == attempts:
                raise
            if deadline is not None and time.monotonic() + delay > deadline:
                return None
            click.echo(f"(connection lost: {exc.message}; reconnecting)", err=True)
            time.sleep(delay)
            delay = min(2.0, delay * 2)
    return None  # pragma: no cover


def _poll_local(client, game, as_name, after, wait):
    """The local store's answer to a long-poll: the events after ``after`` as soon as there are
    any (the store's ``wait`` wakes on an append by any process), or none after ``wait``
    seconds.  ``version`` is the last event returned, never a newer head read separately (that
    skipped the events appended between the two reads, issue 9.2)."""
    service = client.service
    loaded = service.load(game)
    over = bool(loaded.rules.is_over(loaded.state))  # before the events: nothing follows an end
    if not over and loaded.version <= after:
        service.store.wait(game, after, wait)
    events = client.events(game, as_name, after)
    version = events[-1]["seq"] if events else after
    return {"events": events, "version": version, "over": over and version >= loaded.version}


@click.group()
def referee():
    """A game's referees on a server: named referee tokens (docs/service.md)."""


@referee.command("add")
@click.argument("game")
@click.argument("name")
@json_option
@click.pass_obj
def referee_add(obj, game, name, as_json):
    """Issue a referee token bound to NAME for a physical GAME on --server.

    Every draw submitted with that token records NAME as its reporter (`devil log`, `replay`
    and `verify` show it); a draw naming another reporter is refused (exit 4).  Needs the
    game's referee token or the organiser key (--token / DEVIL_TOKEN); a named referee's own
    token may not issue others.  The new token is printed once (stdout), only its hash is
    kept.  Locally, without a server, name the reporter with `--reporter` or DEVIL_REFEREE.

    \b
    Example:
      export DEVIL_SERVER=http://127.0.0.1:8350
      RITA=$(devil --token "$REFEREE" referee add k3f9qz Rita)
      devil --token "$RITA" draw k3f9qz --as Anna --coal 25
    """
    from engine.errors import UsageError

    if not obj.server:
        raise UsageError("named referee tokens are the service's: give --server URL with the "
                         "game's referee token (or the organiser key); locally name who "
                         "reports a draw with --reporter NAME or env DEVIL_REFEREE")
    client = obj.client
    issued = client.add_referee(client.resolve(game), name)
    if as_json:
        from .output import emit

        emit(issued)
        return
    click.echo(issued["token"])
    click.echo(f"  token for referee {issued['name']} of {issued['game']} (shown once; every "
               "draw it submits is reported by that name)", err=True)
