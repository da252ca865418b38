"""The command line's own refusals in the command's language (issue 24: every error message).

A mistyped command line is refused by click (the option parser under Typer) before any sanma code
runs: ``Missing option '--win'.``, ``No such option: --foo``, ``'fr' is not one of 'en', 'ja'.``,
shown in Typer's "Error" panel with a "Try ... --help" hint. click and Typer look their sentences
up with ``gettext`` when they say them, so sanma hands them its own catalogue: the sentences below
are click's and Typer's English, marked here so Babel extracts them and the Japanese catalogue has
them; :func:`install` routes click's and Typer's lookups through it, in the command's language.
"""

from __future__ import annotations

import sys
from typing import Final

import click

from ..i18n.lang import LANGS, current_lang
from ..i18n.messages import Message, catalogue, mark, pseudo, sentence, sentence_n

#: click's and Typer's sentences a user meets (click 8.x, typer 0.2x), word for word
SENTENCES: Final[tuple[Message, ...]] = (
    sentence("Error: {message}"),
    sentence("Try '{command} {option}' for help."),
    sentence("Invalid value: {message}"),
    sentence("Invalid value for {param_hint}: {message}"),
    sentence("Missing argument"),
    sentence("Missing option"),
    sentence("Missing parameter"),
    sentence("Missing {param_type}"),
    sentence("Missing parameter: {param_name}"),
    sentence("No such option {name!r}."),
    sentence("No such option: {name}"),
    sentence("No such command {name!r}."),
    sentence("Option {name!r} does not take a value."),
    sentence("Argument {name!r} takes {nargs} values."),
    sentence("{value!r} is not a valid {number_type}."),
    sentence("{value} is not in the range {range}."),
    sentence("Could not open file {filename!r}: {message}"),
    sentence("Usage:"),
    sentence("Aborted!"),
    sentence("integer"),
    sentence("integer range"),
    sentence("float"),
    sentence("float range"),
    sentence("boolean"),
    sentence("Error"),
    sentence("Try [blue]'{command_path} {help_option}'[/] for help."),
    sentence("Arguments"),
    sentence("Options"),
    sentence("Commands"),
    sentence("[default: {}]"),
    sentence("[required]"),
    sentence("Show this message and exit."),
    sentence_n("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 2),
    sentence_n("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", 2),
    sentence_n("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 2),
    sentence_n("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 2),
)
_KNOWN: Final = frozenset(m.template for m in SENTENCES)


class _Said(str):
    """One of click's sentences in the command's language, whose parameters may be click's own words
    too: ``{number_type}`` is a type's name (``integer range``), passed as it is, not looked up."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        return str.format(self, *args, **{k: _gettext(v) if isinstance(v, str) else v for k, v in kwargs.items()})


def _gettext(message: str) -> str:
    lang = current_lang()
    if message not in _KNOWN:
        return message
    return _Said(catalogue(lang).gettext(message) if lang != "en" else mark(message, lang))


def _ngettext(singular: str, plural: str, n: int) -> str:
    lang = current_lang()
    english = singular if n == 1 else plural
    if singular not in _KNOWN:
        return english
    return _Said(catalogue(lang).ngettext(singular, plural, n) if lang != "en" else mark(english, lang))


_TYPER_PANELS: Final = {"ERRORS_PANEL_TITLE": "Error",
                        "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
                        "ARGUMENTS_PANEL_TITLE": "Arguments", "OPTIONS_PANEL_TITLE": "Options",
                        "COMMANDS_PANEL_TITLE": "Commands", "DEFAULT_STRING": "[default: {}]",
                        "REQUIRED_LONG_STRING": "[required]"}


def install() -> None:
    """Route click's and Typer's sentences through sanma's catalogue in the command's language
    (called when the language is chosen; English leaves them as they are)."""
    for name in ("click.exceptions", "click.core", "click.parser", "click.types", "click.formatting",
                 "click.decorators", "click.termui"):
        module = sys.modules.get(name)
        if module is not None:
            if hasattr(module, "_"):
                module._ = _gettext  # type: ignore[attr-defined]
            if hasattr(module, "ngettext"):
                module.ngettext = _ngettext  # type: ignore[attr-defined]
    if current_lang() != "en" or pseudo():
        import typer.rich_utils  # noqa: F401 - loaded now, so that its panel titles are set below
    rich_utils = sys.modules.get("typer.rich_utils")
    if rich_utils is not None:  # Typer computes these when it loads: set them for this language
        for attr, english in _TYPER_PANELS.items():
            setattr(rich_utils, attr, _gettext(english))


def _said(english: str) -> str:
    """A help text in the command's language. The pseudo-locale marks the English of a text the
    other languages have (one the catalogue lacks stays unmarked, so the pseudo-run finds it)."""
    lang = current_lang()
    if lang != "en":
        return catalogue(lang).gettext(english)
    if not pseudo() or all(catalogue(o).gettext(english) == english for o in LANGS if o != "en"):
        return english
    # each paragraph apart: a command list shows the first paragraph of its command's help only
    return "\n\n".join(mark(p, lang) for p in english.split("\n\n"))


def localize(command: click.Command) -> click.Command:
    """``command``'s help, and that of every command under it and of their options and arguments, in
    the command's language (the English is kept beside it, so a later language starts from it). The
    help texts are extracted from the command modules by ``extract_cli_help`` (sanma/i18n/extract.py)."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            localize(sub)
    for owner in (command, *command.params):
        for attr in ("help", "short_help"):
            english = getattr(owner, f"_sanma_{attr}", None)
            if english is None:
                english = getattr(owner, attr, None)
                if not isinstance(english, str) or not english:
                    continue
                setattr(owner, f"_sanma_{attr}", english)
            setattr(owner, attr, _said(english))
    return command
