"""``sanma rules list | show NAME_OR_FILE [--json] | check FILE | docs``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..rules.departures import readings_of
from ..rules.docs import field_groups, readings_anchor, render, value_text
from ..rules.loader import PRESETS, diff, load, load_file, load_preset, read_toml_file, to_dict
from ..rules.schema import RULE_FIELDS, Rules
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
    with cli_errors():
        width = max(len(p) for p in PRESETS)
        for name in PRESETS:
            typer.echo(f"{name:<{width}}  {load_preset(name).description}")


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
    from rich.text import Text

    console = Console(highlight=False, markup=False)  # names and texts are never markup (issue 14 item 11)
    console.print(Text.assemble((rules.name, "bold"), f" — {rules.description}"))
    for title, names in field_groups():
        table = Table(title=title, title_justify="left", show_header=True, header_style="bold")
        table.add_column("field", no_wrap=True)
        table.add_column("value", max_width=24, overflow="fold")
        table.add_column("meaning", ratio=4)
        table.add_column("rows", ratio=1)
        rows = 0
        for n in names:
            value = getattr(rules, n)
            if isinstance(value, Mapping):
                continue
            meta = RULE_FIELDS[n].metadata
            table.add_row(n, value_text(value), meta["doc"], meta["rows"])
            rows += 1
        if rows:
            console.print(table)
    yaku = Table(title="Yaku (han closed / open)", title_justify="left", header_style="bold")
    yaku.add_column("yaku", no_wrap=True)
    yaku.add_column("closed", justify="right")
    yaku.add_column("open", justify="right")
    for y, (c, o) in rules.yaku.items():
        if c or o:
            yaku.add_row(y, str(c), str(o) if o else "–")
    console.print(yaku)
    yakuman = Table(title="Yakuman (multiplier)", title_justify="left", header_style="bold")
    yakuman.add_column("yakuman", no_wrap=True)
    yakuman.add_column("x", justify="right")
    for y, m in rules.yakuman.items():
        if m:
            yakuman.add_row(y, str(m))
    console.print(yakuman)
    off = [y for y, (c, o) in rules.yaku.items() if not (c or o)]
    off += [y for y, m in rules.yakuman.items() if not m]
    if off:
        console.print("Not a yaku under these rules: " + ", ".join(sorted(set(off))))
    console.print(readings_note(rules.name))


def readings_note(name: str) -> str:
    """Where docs/RULES.md lists the places a preset reads its seed other than literally (issue 13)."""
    if name not in PRESETS:
        return ("Seed readings: each preset's departures from its seed and the fields that switch them "
                "are listed in docs/RULES.md#seed-readings.")
    listed = readings_of(name)
    return (f"Seed readings: {len(listed)} place{'' if len(listed) == 1 else 's'} where {name} reads its "
            f"source other than literally or the source leaves it open, each with the field that switches "
            f"it, and the fields where the source is silent: docs/RULES.md#{readings_anchor(name)}")


@rules_app.command("check")
def check(file: Annotated[Path, typer.Argument(help="A TOML rule file.")]) -> None:
    """Validate a rule file and list what it changes relative to the preset it extends."""
    with cli_errors():
        rules = load_file(file)
        data = read_toml_file(file)
        extends = data.get("extends")
        base = load_preset(extends) if isinstance(extends, str) else Rules()
        base_name = f"preset {extends}" if isinstance(extends, str) else "the schema defaults"
        changes = diff(rules, base)
        typer.echo(f"{file}: ok — rule set {rules.name!r}, based on {base_name}, "
                   f"{len(changes)} change{'' if len(changes) == 1 else 's'}")
        for name, old, new in changes:
            typer.echo(f"  {name}: {_plain(old)} -> {_plain(new)}")


def _plain(value: Any) -> str:
    return "(none)" if value is None else value_text(value)


@rules_app.command("docs")
def docs() -> None:
    """Print docs/RULES.md (generated from the schema and the presets)."""
    with cli_errors():
        typer.echo(render(), nl=False)
