"""The command groups of ``devil``: commands loaded on first use (``devil --help`` stays fast)
and every error turned into a message on stderr (JSON on stdout with ``--json``) and the exit
code that names it (docs/commands.md)."""

from __future__ import annotations

import importlib
import json
import os
import sys

import click

from engine.errors import DevilError

from .context import Context


def load_attr(spec: str):
    """The object a ``"package.module:attr"`` string names (imported now)."""
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


class DevilGroup(click.Group):
    """A group that loads commands on first use and turns errors into a message on stderr (and
    JSON on stdout with ``--json``) and a meaningful exit code.

    ``lazy``: ``{name: "module:attr"}`` of commands imported only when named (or listed by
    ``--help``).  ``slot``: for a group whose subcommands are one per game kind (``new``,
    ``play``, ``simulate``), the key of the kinds' manifests (``GROUP_COMMANDS[slot]``).
    ``with_kinds``: add every kind's top-level ``COMMANDS`` (the root group).
    """

    def __init__(self, *args, lazy: dict | None = None, slot: str | None = None,
                 with_kinds: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self.slot = slot
        self.with_kinds = with_kinds
        self._loaded: set[str] = set()

    def _specs(self) -> dict[str, str]:
        from .games import group_commands, kind_commands

        specs = dict(self.lazy)
        if self.slot is not None:
            specs.update(group_commands(self.slot))
        if self.with_kinds:
            for name, spec in kind_commands().items():
                if (name in self.commands and name not in self._loaded) or name in specs:
                    raise RuntimeError(f"two commands are called {name!r}")  # pragma: no cover
                specs[name] = spec
        return specs

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self._specs()})

    def get_command(self, ctx: click.Context, name: str):
        command = self.commands.get(name)
        if command is not None:
            return command
        spec = self.lazy.get(name)
        if spec is None:
            spec = self._specs().get(name)
        if spec is None:
            return None
        command = load_attr(spec)
        self.commands[name] = command
        self._loaded.add(name)
        return command

    def invoke(self, ctx: click.Context):
        raw = [*getattr(ctx, "_protected_args", []), *ctx.args]  # before Click consumes them
        try:
            return super().invoke(ctx)
        except DevilError as exc:
            fail(ctx, exc.message, exc.exit_code, getattr(exc, "rule", None))
        except click.UsageError as exc:
            if "--json" in raw and not getattr(exc, "_shown", False):
                exc._shown = True  # type: ignore[attr-defined]  # our mark: printed once
                click.echo(json.dumps({"ok": False, "error": exc.format_message(), "rule": None,
                                       "exit": exc.exit_code}))
            raise
        except (click.exceptions.Abort, KeyboardInterrupt):
            # Ctrl-C, or the input ran out at a prompt: not a refusal (1), so 130 as shells do
            click.echo("Aborted.", err=True)
            ctx.exit(130)
        except (click.exceptions.Exit, click.ClickException):
            raise
        except BrokenPipeError:
            # the reader went away (`devil log GAME | head`): the command itself succeeded
            sys.stdout = open(os.devnull, "w")
            ctx.exit(0)
        except OSError as exc:
            fail(ctx, f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 2, None)
        except Exception as exc:  # a bug: say so plainly, keep the traceback for DEVIL_DEBUG=1
            if os.environ.get("DEVIL_DEBUG"):
                raise
            fail(ctx, f"internal error ({type(exc).__name__}: {exc}); this is a bug in devil; "
                      "run again with DEVIL_DEBUG=1 for the details", 70, None)


def fail(ctx: click.Context, message: str, code: int, rule: str | None):
    """Report an error: ``{"ok": false, "error", "rule", "exit"}`` on stdout when the command
    was given ``--json``, ``error: MESSAGE`` on stderr always; exit with ``code``."""
    obj = ctx.find_object(Context)
    if obj is not None and obj.json:
        click.echo(json.dumps({"ok": False, "error": message, "rule": rule, "exit": code}))
    click.echo(f"error: {message}", err=True)
    ctx.exit(code)
