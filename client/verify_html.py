"""``devil verify FILE --html OUT.html`` (issue 20.8): the verify page of one recorded game,
written atomically (engine.web.pages.verify): a page that re-checks the hash chain, the seed
commitment, every seat's entropy and every draw in the browser, beside ``devil verify``'s own
verdict."""

from __future__ import annotations

import os
import tempfile

from engine.errors import UsageError


def write_atomic(path: str, text: str, force: bool) -> None:
    """Write ``text`` (UTF-8) to ``path`` all at once: a temporary file beside it, fsynced,
    then linked into place (refused with UsageError if ``path`` exists, unless ``force``:
    then it replaces it).  Nothing is left at ``path`` or beside it when the write fails."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"cannot write {path}: it is a folder")
    if not force and os.path.lexists(path):
        raise UsageError(f"{path} exists already; give a new file name or --force")
    try:
        fd, temp = tempfile.mkstemp(prefix=".verify-", suffix=".html.tmp", dir=folder)
    except OSError as exc:  # no such folder, not allowed ...
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, 0o644)
            if force:
                os.replace(temp, path)
            else:
                os.link(temp, path)  # fails if someone made the file meanwhile: never clobbered
        except FileExistsError:
            raise UsageError(f"{path} exists already; give a new file name or --force") from None
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)


def write_page(source, result, path: str, force: bool) -> bool:
    """Write the verify page of ``source`` (client.cmd_tools.Source) checked as ``result`` (an
    engine.replay.Verification) to ``path``.  Returns False, writing nothing, when the log has
    no game to show (its header, record 0, is damaged: not a devil log); UsageError for a
    kind whose draws the page cannot derive, or a file that cannot be written."""
    from engine.web.pages.verify import page_kinds, python_verdict, verify_html

    if not result.ok and result.first_bad_seq == 0:
        return False
    if source.data is not None:
        data = source.data
    else:
        with open(source.path, "rb") as handle:
            data = handle.read()
    header = _header(data)
    if header is None:  # pragma: no cover - verify named record 0 for such a file
        return False
    if header.kind not in page_kinds():
        raise UsageError(f"--html writes the page of a game, and {source.label} is a "
                         f"{header.kind} log: the page knows the games "
                         + ", ".join(page_kinds()))
    title = f"{header.game}: the record checked in the browser"
    html = verify_html(data, python_verdict(result), title,
                       f"{source.label} ({len(data):,} bytes, {result.events} records)")
    write_atomic(path, html, force)
    return True


def _header(data: bytes):
    """The log's header (engine.log.Header) when it reads, else None: a log damaged after its
    header still names its game (verify's result does not, when the chain breaks)."""
    from engine.errors import LogDamaged
    from engine.log import Walk, walk

    info = Walk()
    try:
        next(walk(data, info), None)
    except LogDamaged:
        pass
    return info.header
