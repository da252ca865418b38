"""What a page shows a reader, for the language tests (issue 24): its visible text and the words it
puts in attributes a reader meets (placeholders, tooltips, button values, labels for screen readers)."""

from __future__ import annotations

import re
from typing import Any

SHOWN = """() => {
  const parts = [document.title, document.body.innerText];
  const marked = "[placeholder], [title], [aria-label], input[type=button], input[type=submit]";
  for (const e of document.querySelectorAll(marked)) {
    for (const a of ["placeholder", "title", "aria-label", "value"]) {
      const v = e.getAttribute(a);
      if (v && (a !== "value" || e.type === "button" || e.type === "submit")) parts.push(v);
    }
  }
  for (const o of document.querySelectorAll("option")) parts.push(o.textContent);
  return parts.join("\\n");
}"""

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def shown_text(page: Any) -> str:
    """Everything the page says: its visible text, its title and its attribute words."""
    text: str = page.evaluate(SHOWN)
    return text


def japanese_share(text: str) -> float:
    """The share of the text's letters that are Japanese (kana or kanji), 0..1."""
    letters = [c for c in text if c.isalpha()]
    return sum(1 for c in letters if JAPANESE.match(c)) / max(1, len(letters))
