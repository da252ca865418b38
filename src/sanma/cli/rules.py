"""``sanma rules list | show NAME_OR_FILE [--json] | check FILE | docs``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..i18n import tr, tr_n
from ..rules.departures import readings_of
from ..rules.docs import readings_anchor, render, value_text
from ..rules.loader import PRESETS, diff, load, load_file, load_preset, read_toml_file, to_dict
from ..rules.schema import Rules
from .common import cli_errors

rules_app = typer.Typer(
    name="rules",
    help="Inspect and check rule sets: the six presets and TOML rule files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def register(app: typer.Typer) -> None:
    """Add ``sanma rules ...`` to the main app."""
    app.add_typer(rules_app, name="rules")


@rules_app.command("list")
def list_presets() -> None:
    """List the built-in presets with their descriptions."""
    from ..i18n import current_lang
    from ..i18n.rulesheet import said

    with cli_errors():
        width = max(len(p) for p in PRESETS)
        for name in PRESETS:
            typer.echo(f"{name:<{width}}  {said(load_preset(name).description, current_lang())}")


@rules_app.command("show")
def show(
    name_or_file: Annotated[str, typer.Argument(help="A preset name or a TOML rule file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print every field as one JSON object.")] = False,
) -> None:
    """Print every field of a rule set (a table, or JSON with --json)."""
    with cli_errors():
        rules = load(name_or_file)
        if as_json:
            typer.echo(json.dumps(to_dict(rules), ensure_ascii=False, indent=2))
            return
        _print_table(rules)


def _print_table(rules: Rules) -> None:
    """The rule sheet (sanma.i18n.rulesheet) in the command's language: each field's name, value and
    meaning, the yaku, and the places a preset reads its seed, quoting the seed in its own words."""
    from rich.text import Text

    from ..i18n import current_lang
    from ..i18n.messages import in_words
    from ..i18n.rulesheet import reading_kind, rule_sheet

    lang = current_lang()
    words = in_words(lang)
    sheet = rule_sheet(rules, lang)
    console = Console(highlight=False, markup=False)  # names and texts are never markup (issue 14 item 11)
    console.print(Text.assemble((rules.name, "bold"), f" — {sheet.description}"))
    for group in sheet.groups:
        table = Table(title=group.title, title_justify="left", show_header=True, header_style="bold")
        table.add_column(tr("field"), no_wrap=not words, overflow="fold")
        table.add_column(tr("value"), max_width=24, overflow="fold")
        table.add_column(tr("meaning"), ratio=4, overflow="fold")  # Japanese has no spaces to wrap at
        table.add_column(tr("rows"), ratio=1, overflow="fold")
        for row in group.rows:
            if not words:  # a rule file's own words: the key and its TOML value
                table.add_row(row.name, row.toml, row.meaning, row.rows)
            else:
                table.add_row(f"{row.label}\n{row.name}", row.value, row.meaning, row.rows)
        console.print(table)
    yaku = Table(title=tr("Yaku (han closed / open)"), title_justify="left", header_style="bold")
    yaku.add_column(tr("yaku"), no_wrap=True)
    yaku.add_column(tr("closed"), justify="right")
    yaku.add_column(tr("open"), justify="right")
    for key, label, c, o in sheet.yaku:
        yaku.add_row(label if words else key, str(c), str(o) if o else "–")
    console.print(yaku)
    yakuman = Table(title=tr("Yakuman (multiplier)"), title_justify="left", header_style="bold")
    yakuman.add_column(tr("yakuman"), no_wrap=True)
    yakuman.add_column("x", justify="right")
    for key, label, m in sheet.yakuman:
        yakuman.add_row(label if words else key, str(m))
    console.print(yakuman)
    if sheet.off:
        off = sorted({y for y, (c, o) in rules.yaku.items() if not (c or o)}
                     | {y for y, m in rules.yakuman.items() if not m}) if not words else list(sheet.off)
        console.print(tr("Not a yaku under these rules: {names}", names=", ".join(off)))
    if sheet.readings:
        readings = Table(title=tr("Seed readings"), title_justify="left", header_style="bold")
        readings.add_column(tr("seed"), no_wrap=True)
        readings.add_column(tr("the seed's words"), ratio=2, overflow="fold")
        readings.add_column(tr("the reading chosen"), ratio=3, overflow="fold")
        readings.add_column(tr("other reading, one field away"), ratio=2, overflow="fold")
        for r in sheet.readings:
            readings.add_row(f"{r.seed} L{r.line}\n{reading_kind(r.kind, lang)}", f"「{r.quote}」", r.reading, r.switch)
        console.print(readings)
    console.print(readings_note(rules.name))


def readings_note(name: str) -> str:
    """Where docs/RULES.md lists the places a preset reads its seed other than literally (issue 13)."""
    if name not in PRESETS:
        return tr("Seed readings: each preset's departures from its seed and the fields that switch them "
                  "are listed in docs/RULES.md#seed-readings.")
    listed = readings_of(name)
    return tr_n("Seed readings: {n} place where {name} reads its source other than literally or the source "
                "leaves it open, each with the field that switches it, and the fields where the source is "
                "silent: docs/RULES.md#{anchor}",
                "Seed readings: {n} places where {name} reads its source other than literally or the source "
                "leaves it open, each with the field that switches it, and the fields where the source is "
                "silent: docs/RULES.md#{anchor}", len(listed), name=name, anchor=readings_anchor(name))


@rules_app.command("check")
def check(file: Annotated[Path, typer.Argument(help="A TOML rule file.")]) -> None:
    """Validate a rule file and list what it changes relative to the preset it extends."""
    with cli_errors():
        rules = load_file(file)
        data = read_toml_file(file)
        extends = data.get("extends")
        base = load_preset(extends) if isinstance(extends, str) else Rules()
        base_name = tr("preset {name}", name=extends) if isinstance(extends, str) else tr("the schema defaults")
        changes = diff(rules, base)
        typer.echo(tr_n("{file}: ok — rule set {name!r}, based on {base}, {n} change",
                        "{file}: ok — rule set {name!r}, based on {base}, {n} changes", len(changes),
                        file=str(file), name=rules.name, base=base_name))
        for name, old, new in changes:
            typer.echo(f"  {name}: {_plain(old)} -> {_plain(new)}")


def _plain(value: Any) -> str:
    return tr("(none)") if value is None else value_text(value)


@rules_app.command("docs")
def docs() -> None:
    """Print docs/RULES.md (generated from the schema and the presets)."""
    from ..i18n import current_lang

    with cli_errors():
        typer.echo(render(current_lang()), nl=False)
