"""The file store's byte-level helpers (engine.store.file): whole writes and reads of a file
descriptor, the store folder made private, atomic replacement of a small file."""

from __future__ import annotations

import os

from ..log import _fsync_dir


def _link_at(fd: int, end: int) -> bytes:
    """The 8 bytes just before offset ``end`` (where a record's link sits)."""
    return os.pread(fd, 8, end - 8) if end >= 8 else b""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # pragma: no cover - disk full and friends raise instead
            raise OSError("short write")
        view = view[written:]


def _make_folder(root: str) -> None:
    """Create the store folder private to its owner (0700) if it does not exist."""
    if not os.path.isdir(root):
        os.makedirs(root, mode=0o700, exist_ok=True)
        os.chmod(root, 0o700)


def _atomic_write(root: str, path: str, data: bytes, durable: bool = True) -> None:
    import tempfile  # only writers need it: a cold read imports less

    _make_folder(root)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=root)
    try:
        os.fchmod(fd, 0o600)
        _write_all(fd, data)
        if durable:
            os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
        if durable:
            _fsync_dir(root)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        _remove(tmp)
        raise


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def open_to_others(root: str) -> list[str]:
    """The file store's warnings (FileStore.warnings): the folder or its files open to others."""
    out: list[str] = []
    try:
        mode = os.stat(root).st_mode & 0o777
    except FileNotFoundError:
        return out
    if mode & 0o077:
        out.append(f"the store folder {root} is open to other users (mode {mode:04o}; "
                   f"`chmod 700 {root}` closes it)")
    open_files = []
    for name in sorted(os.listdir(root)):
        try:
            file_mode = os.stat(os.path.join(root, name)).st_mode & 0o777
        except OSError:
            continue
        if file_mode & 0o077:
            open_files.append(name)
    if open_files:
        shown = ", ".join(open_files[:5]) + (" ..." if len(open_files) > 5 else "")
        out.append(f"{len(open_files)} file(s) in the store are open to other users "
                   f"({shown}); `chmod 600` them: a log holds sealed bets and hidden cards")
    return out


def _identity(stat: os.stat_result) -> tuple:
    """What changes whenever a file is written or replaced (a log only grows while it is in
    use, so an equal size with equal times is the file as it was)."""
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)

