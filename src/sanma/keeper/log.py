"""The entry log of a kept session: an append-only list of changes, folded into the hands.

A change is never edited or removed. ``add`` appends an entry (a hand's outcome, a penalty, a
seating); ``fix`` replaces the entry it names; ``delete`` removes it; ``undo`` reverts any earlier
change (an undone undo is a redo). Entries are named by ``uid``, the ``seq`` of the change that
added them, so a change keeps meaning the same entry whatever is inserted or deleted later;
people name them by their position (``HAND_NO``, 1-based), resolved when the change is made.

>>> log = [Change(1, "add", None, {"n": 1}), Change(2, "add", None, {"n": 2}),
...        Change(3, "fix", 1, {"n": 10}), Change(4, "delete", 2, None), Change(5, "undo", 4, None)]
>>> [(uid, e["n"]) for uid, e in effective(log)]
[(1, 10), (2, 2)]
>>> last_undoable(log)
3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

ChangeKind = Literal["add", "fix", "delete", "undo"]
CHANGE_KINDS: tuple[ChangeKind, ...] = ("add", "fix", "delete", "undo")


@dataclass(frozen=True, slots=True)
class Change:
    """One change of the log: ``target`` is the entry's uid (fix, delete) or the change's seq
    (undo); ``entry`` the new entry (add, fix)."""

    seq: int
    kind: ChangeKind
    target: int | None
    entry: Mapping[str, Any] | None
    author: str = ""
    reason: str = ""
    at: str = ""
    client_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "target": self.target, "entry": self.entry,
                "author": self.author, "reason": self.reason, "at": self.at, "client_id": self.client_id}


def active(changes: Sequence[Change]) -> set[int]:
    """The seqs of the changes in force: those not reverted by an undo that is itself in force.
    An undo always names an earlier change, so one pass from the end decides each."""
    undone: set[int] = set()
    live: set[int] = set()
    for c in reversed(changes):
        if c.seq in undone:
            continue
        live.add(c.seq)
        if c.kind == "undo" and c.target is not None:
            undone.add(c.target)
    return live


def effective(changes: Sequence[Change]) -> list[tuple[int, Mapping[str, Any]]]:
    """The entries in force, in order, as ``(uid, entry)``."""
    live = active(changes)
    entries: dict[int, Mapping[str, Any]] = {}
    for c in changes:
        if c.seq not in live:
            continue
        if c.kind == "add" and c.entry is not None:
            entries[c.seq] = c.entry
        elif c.kind == "fix" and c.target in entries and c.entry is not None:
            entries[c.target] = c.entry
        elif c.kind == "delete" and c.target is not None:
            entries.pop(c.target, None)
    return list(entries.items())


def last_undoable(changes: Sequence[Change]) -> int | None:
    """The most recent change in force that is an edit (add, fix, delete): what ``undo`` reverts."""
    live = active(changes)
    for c in reversed(changes):
        if c.seq in live and c.kind != "undo":
            return c.seq
    return None
