"""Progress bars for the long commands (``cardrules simulate``).

:func:`progress_bar` picks what suits the stream:

* a terminal with `rich <https://rich.readthedocs.io>`_ installed (the
  ``play`` extra): rich's live bar, with the rate and the time left, redrawn
  ten times a second and finished with a newline;
* a terminal without rich: one line redrawn in place with ``\\r``, padded so a
  shorter line leaves no stray characters, and a newline at the end;
* anything else (a pipe, a log, CI): no escape codes and no ``\\r`` at all,
  just a plain line at each tenth of the way and at the end.

Example:
    >>> import io
    >>> out = io.StringIO()
    >>> with progress_bar("demo", stream=out) as bar:
    ...     for done in range(0, 11):
    ...         bar(done, 10)
    >>> print(out.getvalue().splitlines()[-1])
    demo 10/10 games 100%
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO

__all__ = ["PlainProgress", "ProgressBar", "RichProgress", "progress_bar"]


def _is_tty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class _Base:
    """A callable ``bar(done, total)`` that is also a context manager."""

    def __enter__(self) -> _Base:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __call__(self, done: int, total: int) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        """Finish the bar (a newline when it was drawn in place)."""


class ProgressBar(_Base):
    """A one-line progress bar redrawn in place on a terminal (stderr by default).

    Each line is padded to the length of the one before it, so nothing is left
    over when a line gets shorter; the last call (``done == total``) ends it
    with a newline.

    Args:
        stream: where to draw it.
        width: the bar's width in characters.
        label: text before the bar.
    """

    def __init__(self, stream: TextIO | None = None, width: int = 30, label: str = "") -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._width = width
        self._label = label
        self._start = time.monotonic()
        self._last = -1.0
        self._drawn = 0
        self._open = False

    def __call__(self, done: int, total: int) -> None:
        """Draw the bar for ``done`` of ``total`` (a final newline at the end)."""
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        frac = done / total if total else 1.0
        fill = round(frac * self._width)
        elapsed = now - self._start
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        line = (
            f"{self._label}[{'#' * fill}{'.' * (self._width - fill)}] "
            f"{done}/{total} games {frac:4.0%}  {rate:,.0f}/s"
            + (f"  {eta:.0f}s left" if done < total and rate > 0 else "")
        )
        pad = " " * max(0, self._drawn - len(line))
        self._stream.write(f"\r{line}{pad}")
        self._drawn = len(line)
        self._open = done < total
        if done >= total:
            self._stream.write("\n")
        self._stream.flush()

    def close(self) -> None:
        if self._open:  # stopped before the end (an error): end the line
            self._stream.write("\n")
            self._stream.flush()
            self._open = False


class PlainProgress(_Base):
    """Progress for a stream that is not a terminal: a plain line at each
    tenth of the way (``kachuful 300/1000 games 30%``), never a ``\\r`` or an
    escape code.

    Args:
        stream: where to write (stderr by default).
        label: the first word of each line.
    """

    def __init__(self, stream: TextIO | None = None, label: str = "") -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._label = label.strip()
        self._step = -1

    def __call__(self, done: int, total: int) -> None:
        step = 10 if not total or done >= total else (10 * done) // total
        if step <= self._step:
            return
        self._step = step
        frac = done / total if total else 1.0
        head = f"{self._label} " if self._label else ""
        self._stream.write(f"{head}{done}/{total} games {frac:.0%}\n")
        self._stream.flush()


class RichProgress(_Base):
    """rich's progress bar (the ``play`` extra): bar, count, rate and time left.

    Args:
        stream: a terminal.
        label: the description before the bar.
    """

    def __init__(self, stream: TextIO | None = None, label: str = "") -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(file=stream if stream is not None else sys.stderr)
        self._progress: Any = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            refresh_per_second=10,
        )
        self._task: Any = None
        self._label = label.strip()
        self._progress.start()

    def __call__(self, done: int, total: int) -> None:
        if self._task is None:
            self._task = self._progress.add_task(self._label, total=total)
        self._progress.update(self._task, completed=done, total=total)
        if done >= total:
            self.close()

    def close(self) -> None:
        self._progress.stop()  # idempotent: draws the last state and ends the line


def progress_bar(label: str = "", stream: TextIO | None = None, *, rich: bool = True) -> _Base:
    """The progress bar that suits ``stream`` (stderr by default): rich's on a
    terminal when rich is installed, a plain in-place bar on a terminal
    without it, and plain lines without escape codes anywhere else.

    Args:
        label: what is being done (the variant's name).
        stream: where to draw.
        rich: use rich when it is installed (``False``: never).

    Use it as ``with progress_bar(...) as bar: work(progress=bar)`` so the bar
    ends cleanly even when the work fails.
    """
    out = stream if stream is not None else sys.stderr
    if not _is_tty(out):
        return PlainProgress(out, label)
    if rich:
        try:
            return RichProgress(out, label)
        except ImportError:
            pass
    return ProgressBar(out, label=f"{label.strip()} " if label.strip() else "")
