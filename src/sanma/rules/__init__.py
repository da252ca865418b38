"""Rules as data: the ``Rules`` type, its schema, the presets and rule files."""

from .schema import RULE_FIELDS, Rules, field_choices

__all__ = ["RULE_FIELDS", "Rules", "field_choices"]
