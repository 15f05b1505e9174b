"""A bundle's files are read bounded (TOUR-6; engine.tournament.bundle.Reader): only regular
files (a FIFO in a bundle folder made verify hang), and every member in chunks that stop
as soon as the limit is passed (a 400 KiB zip that inflates to 400 MiB was refused only
after about 550 MB had been allocated)."""

import io
import os
import shutil
import threading
import tracemalloc
import zipfile

import pytest

from engine.errors import UsageError
from engine.store import FileStore
from engine.tournament.bundle import verify, write

from .helpers import fixed, organiser, quick_atkr

MiB = 1024 * 1024


@pytest.fixture
def bundle(tmp_path):
    d = organiser(FileStore(str(tmp_path / "store")))
    t = d.create(fixed(list("ABCD"), rounds=1, game="atkr", options={"physical": True}))
    d.pair(t, seating=[list("ABCD")], games=False)
    game = quick_atkr(d.service, list("ABCD"), {"A": 600, "B": 0, "C": 0, "D": 0})
    d.attach(t, game)
    out = str(tmp_path / "cup")
    write(d.store, t, out)
    return out, t, game


def _in_thread(action, seconds=10):
    """Run ``action`` in a thread; (finished, its exception or None)."""
    got = {}

    def body():
        try:
            action()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            got["error"] = exc
    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive(), got.get("error")


def test_a_fifo_in_a_bundle_folder_is_refused_not_read(bundle, tmp_path):
    out, t, game = bundle
    folder = str(tmp_path / "fifo")
    shutil.copytree(out, folder)
    path = os.path.join(folder, "games", f"{game}.devlog")
    os.remove(path)
    os.mkfifo(path)
    try:
        done, error = _in_thread(lambda: verify(folder))
    finally:
        try:  # a reader blocked on the FIFO (before the fix) gets its end of file
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    assert done, "verify hung reading a FIFO"
    assert isinstance(error, UsageError), error
    assert str(error) == (f"{folder}: games/{game}.devlog is not a regular file (a FIFO): a "
                          "bundle holds only regular files")


def _bomb(source: str, target: str, member: str, size: int) -> None:
    """Copy the bundle .zip ``source`` to ``target`` with ``member`` replaced by ``size``
    zero bytes, written in chunks (the test itself never holds them)."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            if name != member:
                dst.writestr(name, src.read(name))
                continue
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with dst.open(info, "w", force_zip64=True) as handle:
                chunk = bytes(MiB)
                for _ in range(size // MiB):
                    handle.write(chunk)


def test_a_zip_bomb_is_refused_with_little_memory(bundle, tmp_path):
    out, t, game = bundle
    bomb = str(tmp_path / "bomb.zip")
    _bomb(out + ".zip", bomb, f"games/{game}.devlog", 400 * MiB)
    assert os.path.getsize(bomb) < 1 * MiB  # about 400 KiB on the wire
    tracemalloc.start()
    try:
        with pytest.raises(UsageError, match=f"games/{game}.devlog is larger than "
                                             f"{256 * MiB} bytes"):
            verify(bomb)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * MiB, f"verify allocated {peak / MiB:.0f} MiB refusing a zip bomb"


class Endless(io.RawIOBase):
    """A file that never ends (what a lying size, or /dev/zero behind a name, gives)."""

    def readable(self):
        return True

    def readinto(self, buffer):
        buffer[:] = bytes(len(buffer))
        return len(buffer)


def test_a_member_is_read_in_chunks_that_stop_past_the_limit():
    """Whatever a member's header says, reading stops one chunk past the limit."""
    from engine.tournament.bundle import read_bounded

    tracemalloc.start()
    try:
        with pytest.raises(ValueError):
            read_bounded(Endless(), 4 * MiB)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 6 * MiB
    assert read_bounded(io.BytesIO(b"x" * 1000), 1000) == b"x" * 1000
    with pytest.raises(ValueError):
        read_bounded(io.BytesIO(b"x" * 1001), 1000)


def test_verify_names_a_missing_or_wrong_file_not_a_game(tmp_path):
    """`devil tournament verify PATH`: a path that is no bundle is named as a file, exit 2
    (not looked up as a tournament id)."""
    from click.testing import CliRunner

    from client.cli import cli

    not_a_bundle = tmp_path / "notes.json"
    not_a_bundle.write_text("{}")
    store = ["--store", str(tmp_path / "store")]
    missing = CliRunner().invoke(cli, [*store, "tournament", "verify", "nosuch.zip"])
    assert missing.exit_code == 2
    assert missing.output == "error: nosuch.zip: no such file or folder\n"
    wrong = CliRunner().invoke(cli, [*store, "tournament", "verify", str(not_a_bundle)])
    assert wrong.exit_code == 2 and wrong.output == (
        f"error: {not_a_bundle}: not a bundle (a folder with manifest.json, or the .zip "
        "`devil tournament bundle` writes)\n")
