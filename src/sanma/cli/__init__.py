"""The ``sanma`` command line (Typer). Each sub-command lives in its own module."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="sanma",
    help="Three-player Japanese riichi mahjong: score hands, count shanten, inspect rule sets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command()
def version() -> None:
    """Print sanma's version."""
    from .. import __version__

    typer.echo(__version__)


def _register_commands() -> None:
    from . import demo, play, replay, rules, score, simulate

    for module in (score, play, simulate, replay, rules, demo):
        module.register(app)


_register_commands()


def main() -> None:
    """Entry point of the ``sanma`` console script and ``python -m sanma``."""
    app()
