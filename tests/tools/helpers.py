"""Helpers for the tools tests: games made through the service, and .devlog surgery that
re-hashes the chain (written from the format description, not from engine.log)."""

from __future__ import annotations

import hashlib
import random

import msgpack
from click.testing import CliRunner

from client.cli import cli
from engine.bots import make_bot, play_out
from engine.service import GameService
from engine.store import FileStore


def service(tmp_path) -> GameService:
    return GameService(FileStore(str(tmp_path / "store")))


def bot_game(svc: GameService, players: int, seed: int, bot: str = "random",
             max_rounds: int = 500) -> str:
    """A digital game played to its end by bots; its id."""
    names = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"][:players]
    game = svc.create("atkr", {"players": names}, seed=seed).game
    bots = {s: make_bot("atkr", bot, random.Random(seed * 100 + s)) for s in range(players)}
    play_out(svc, game, bots, max_rounds=max_rounds)
    return game


def split(data: bytes) -> tuple[bytes, list[bytes], list[list]]:
    """The header's bytes, each record's bytes and each record decoded."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    unpacker.unpack()
    header_end = unpacker.tell()
    chunks, objs, start = [], [], header_end
    while True:
        try:
            obj = unpacker.unpack()
        except msgpack.OutOfData:
            break
        end = unpacker.tell()
        chunks.append(data[start:end])
        objs.append(obj)
        start = end
    return data[:header_end], chunks, objs


def rechain(header: bytes, objs: list[list]) -> bytes:
    """Re-encode records ``[seq, actor, cmd, ts, event, left, link]`` with a fresh, valid hash
    chain: link = blake2b(previous link + bytes of the record without its link, 8 bytes)."""
    previous = header[-8:]
    out = bytearray(header)
    for seq, actor, cmd, ts, event, left, _link in objs:
        covered = b"\x97" + b"".join(msgpack.packb(x, use_bin_type=True)
                                      for x in (seq, actor, cmd, ts, event, left))
        previous = hashlib.blake2b(previous + covered, digest_size=8).digest()
        out += covered + b"\xc4\x08" + previous
    return bytes(out)


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
