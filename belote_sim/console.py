"""The ``belote-sim`` command's entry point (and ``python -m belote_sim``'s).

It imports nothing of the engine before it can answer a Ctrl-C, so that an interruption
at any moment, the imports included, ends in one line. What the commands do not turn
into a line of their own ends here in one line too, with the exit status of its kind:
2 for what the user gave (a path that cannot be written or read, bad bytes), 130 for an
interruption, 1 for a failure of the machine (a full disk, memory).
"""

from __future__ import annotations

import errno
import sys

#: The errors of a path the user gave: exit 2. Every other ``OSError`` is the machine's
#: (a full disk, an input/output error): exit 1.
USER_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENAMETOOLONG, errno.ENOENT,
               errno.EISDIR, errno.ENOTDIR, errno.EEXIST}
#: What each exit status means.
EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_INTERRUPTED = 2, 1, 130


def _exit(status: int, message: str) -> None:
    print(message, file=sys.stderr)
    sys.exit(status)


def describe_os_error(e: OSError) -> tuple[int, str]:
    """The exit status and the line of an ``OSError`` that reached the top.

    >>> describe_os_error(OSError(errno.ENOSPC, "No space left on device", "/r/x"))
    (1, 'error: no space left on device: /r/x')
    """
    where = f": {e.filename}" if e.filename else ""
    what = (e.strerror or str(e)).lower()
    status = EXIT_BAD_INPUT if e.errno in USER_ERRNOS else EXIT_FAILURE
    return status, f"error: {what}{where}"


def main() -> None:
    """Run ``belote-sim`` with the command line's arguments; every way it can fail ends
    in one line on stderr (module docstring)."""
    try:
        import typer

        from belote_sim.cli import run_app

        status = run_app()
    except (KeyboardInterrupt, typer.Abort):
        _exit(EXIT_INTERRUPTED, "interrupted")
    except typer.TyperException as e:  # a usage error: click's own lines, Typer's click
        e.show()
        sys.exit(e.exit_code)
    except MemoryError:
        _exit(EXIT_FAILURE, "error: out of memory (a smaller --chunk-size, or fewer "
                            "--threads, needs less)")
    except UnicodeDecodeError as e:
        _exit(EXIT_BAD_INPUT, f"error: not UTF-8 text ({e.reason} at byte {e.start})")
    except OSError as e:
        _exit(*describe_os_error(e))
    sys.exit(status)
