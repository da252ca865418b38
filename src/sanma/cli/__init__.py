"""The ``sanma`` command line (Typer). Each sub-command lives in its own module.

Start-up time matters (``sanma simulate`` is timed with its start-up, and people type these
commands): ``main()`` imports only the module of the command being run; ``sanma --help`` and
``sanma.cli.app`` (used by tests and ``python -m sanma``'s help) load every command.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Annotated, Any

import click
import typer

from ..i18n.lang import LANGS
from .common import LANG_HELP, LangGroup, use_lang

_app = typer.Typer(
    name="sanma",
    cls=LangGroup,
    help="Three-player Japanese riichi mahjong: score hands, count shanten, play, simulate, replay records, "
         "inspect rule sets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: sub-command -> module of ``sanma.cli`` that registers it
COMMANDS = {
    "score": "score", "shanten": "score", "play": "play", "simulate": "simulate", "replay": "replay",
    "stats": "stats", "rules": "rules", "demo": "demo", "table": "table", "serve": "serve", "verify": "verify",
    "tournament": "tournament", "review": "review", "db": "db",
}
_registered: set[str] = set()


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"sanma {__version__}")
        raise typer.Exit()


@_app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                          help="Print sanma's version and exit.")] = False,
    lang: Annotated[str | None, typer.Option("--lang", is_eager=True, callback=use_lang, help=LANG_HELP,
                                             click_type=click.Choice(LANGS))] = None,
) -> None:
    """Three-player Japanese riichi mahjong: score hands, count shanten, play, simulate, replay records,
    inspect rule sets. Every command has --help with examples."""


@_app.command()
def version() -> None:
    """Print sanma's version."""
    from .. import __version__

    typer.echo(__version__)


def _register(modules: list[str]) -> None:
    for name in dict.fromkeys(modules):
        if name in _registered:
            continue
        try:
            module = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            continue  # a command module that is not part of this build
        module.register(_app)
        _registered.add(name)


def __getattr__(name: str) -> Any:
    if name == "app":  # the whole command line, every command registered
        _register(list(COMMANDS.values()))
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the ``sanma`` console script and ``python -m sanma``.

    Ctrl-C at any moment ends the command with exit code 130 and one line, never a traceback
    (a command that has something to say about what it kept, like ``simulate``, says it first).
    """
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)  # sanma/__init__ ended quietly while loading
    try:
        first = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
        if sys.argv[1:2] == ["--version"]:
            pass  # the version only: no command module needed
        elif first in COMMANDS:
            _register([COMMANDS[first]])
        elif first != "version":  # help, or a mistyped command: show every command
            _register(list(COMMANDS.values()))
        _app()
    except KeyboardInterrupt:  # before the command ran (a command that ran says what it kept)
        print("interrupted before the command started: nothing was done", file=sys.stderr)
        _exit_interrupted()
    except SystemExit as e:
        if e.code == INTERRUPTED:
            _exit_interrupted()
        raise


INTERRUPTED = 130  # the exit code after Ctrl-C (128 + SIGINT), as shells report it


def _exit_interrupted() -> None:
    # Python 3.11 marks a Ctrl-C that landed inside an exec() (dataclasses and namedtuples are made
    # that way while modules load) as unhandled even when it was caught, and then ends the process
    # by SIGINT instead of the exit code: flush and leave with the code directly.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(INTERRUPTED)
