"""Helpers of the Chromium tests: the browser's settings, screenshots, the window sizes, layout checks."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
HAVE_CHROMIUM = Path(CHROMIUM).exists()
WHY_NOT = f"{CHROMIUM} is absent (Debian's chromium)"

#: the window sizes every page is checked at (issue 18 item 2): a phone upright, on its side, a laptop
SIZES: dict[str, tuple[int, int]] = {"phone": (390, 844), "landscape": (844, 390), "laptop": (1366, 768)}
TARGET = 44  # px: the smallest button or call target
MIN_HAND_TILE = 26  # px: a hand tile's width at 390 px


def shot(page: Any, name: str, *, full_page: bool = True) -> None:
    """Save a screenshot when SANMA_SCREENSHOTS names a folder."""
    folder = os.environ.get("SANMA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


def watch_errors(page: Any, errors: list[str]) -> Any:
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    return page


def new_page(browser: Any, errors: list[str], size: str = "", **options: Any) -> Any:
    """A page in a fresh context: a named size of SIZES (a touch screen unless it is the laptop), else 1280x800."""
    if size:
        w, h = SIZES[size]
        touch = size != "laptop"
        options = {"viewport": {"width": w, "height": h}, "has_touch": touch, "is_mobile": touch, **options}
    else:
        options = {"viewport": {"width": 1280, "height": 800}, **options}
    return watch_errors(browser.new_context(**options).new_page(), errors)


def create_table(base: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"rules": "tenhou", "seats": seats, "clock": {"move": 0, "call": 0, "think": 0, "result": 0}, **extra}
    r = httpx.post(f"{base}/api/tables", json=body, timeout=20)
    assert r.status_code in (200, 201), r.text
    return dict(r.json())


# What a page shows of its controls: their boxes, and whether the page scrolls sideways. A control in a
# closed drawer (the side panel on a phone) is not shown; the drawer's button is.
LAYOUT = """(needed) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') return false;
    const drawer = e.closest('.side.drawer');
    return !(drawer && !drawer.classList.contains('open') && getComputedStyle(drawer).position === 'fixed');
  };
  const name = (e) => e.id || e.dataset.action || (e.textContent || '').trim().slice(0, 24) || e.tagName;
  const box = (e) => { const r = e.getBoundingClientRect(); return [name(e), Math.round(r.left), Math.round(r.top),
    Math.round(r.right), Math.round(r.bottom), Math.round(r.width), Math.round(r.height)]; };
  const controls = [...document.querySelectorAll(
    'button, a.button, select, input:not([type=checkbox]):not([type=file]), label.check, summary')].filter(shown);
  return {
    vw, vh, scrollWidth: document.documentElement.scrollWidth,
    controls: controls.map(box),
    needed: [...document.querySelectorAll(needed)].filter(shown).map(box),
  };
}"""


def layout_problems(page: Any, needed: str = "#prompt button, #result-ok, #final-ok") -> list[str]:
    """Every way the page breaks the phone-first rules: sideways scrolling, a control smaller than 44 px
    or outside the window's width, a control needed for play (``needed``) outside the window."""
    look = page.evaluate(LAYOUT, needed)
    vw, vh = look["vw"], look["vh"]
    problems = []
    if look["scrollWidth"] > vw:
        problems.append(f"the page is {look['scrollWidth']} px wide in a {vw} px window")
    for name, left, _top, right, _bottom, w, h in look["controls"]:
        if h < TARGET or w < TARGET:
            problems.append(f"{name!r} is {w}x{h} px (< {TARGET})")
        if left < 0 or right > vw:
            problems.append(f"{name!r} lies outside the window's width ({left}..{right} of {vw})")
    for name, left, top, right, bottom, _w, _h in look["needed"]:
        if left < 0 or top < 0 or right > vw or bottom > vh:
            problems.append(f"{name!r}, needed for play, lies outside the {vw}x{vh} window "
                            f"({left},{top})-({right},{bottom})")
    return problems
