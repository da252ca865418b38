// Helpers shared by sanma's pages: DOM building, JSON requests, mpsz parsing.
import { t } from "/static/i18n.js";

/** el("div", {class: "x"}, child, "text", ...) → an element. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

export async function getJSON(url) {
  const r = await fetch(url);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

/** POST JSON; returns {status, data} whatever the status (the server answers {"error"} on 4xx). */
export async function postJSON(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  return { status: r.status, data };
}

const HONOURS = "ESWNPFC";

/** mpsz text → mjai tile names ("0p" → "5pr", "1z" → "E"); throws Error naming the problem. */
export function parseMpsz(text) {
  const out = [];
  let digits = [];
  for (const ch of text.replace(/\s+/g, "")) {
    if (/[0-9]/.test(ch)) { digits.push(ch); continue; }
    if (!"mpsz".includes(ch)) throw new Error(t("unexpected character '{ch}' in '{text}'", { ch, text }));
    if (!digits.length) throw new Error(t("suit letter '{ch}' has no digits in '{text}'", { ch, text }));
    for (const d of digits) {
      const n = Number(d);
      if (ch === "z") {
        if (n < 1 || n > 7) throw new Error(t("{tile}: honours are 1z-7z", { tile: `${d}z` }));
        out.push(HONOURS[n - 1]);
      } else if (ch === "m" && n >= 2 && n <= 8) {
        throw new Error(t("{tile} is not in the sanma tile set (2m-8m are removed)", { tile: `${d}m` }));
      } else if (n === 0) {
        if (ch === "m") throw new Error(t("0m: there is no 5m in sanma"));
        out.push(`5${ch}r`);
      } else out.push(`${d}${ch}`);
    }
    digits = [];
  }
  if (digits.length) throw new Error(t("digits without a suit letter in '{text}'", { text }));
  return out;
}

// Names from records are often Japanese. The pages use no web font: when no installed font has
// the glyphs (a machine without a CJK font, e.g. Debian without fonts-noto-cjk), the browser draws
// boxes ("tofu"). canDraw finds that out by drawing each character beside an unassigned code
// point (which always draws the missing-glyph box); displayName then shows "Player N" instead.
const drawable = new Map();
let probe = null;

function pixels(ctx, text) {
  ctx.clearRect(0, 0, 40, 40);
  ctx.fillText(text, 4, 30);
  return ctx.getImageData(0, 0, 40, 40).data.join(",");
}

/** True when the page's font (or a fallback) has a glyph for every character of ``text``. */
export function canDraw(text) {
  const wide = [...new Set([...String(text)].filter((ch) => ch.codePointAt(0) > 0x2000))];
  if (!wide.length || typeof document === "undefined") return true;
  if (!probe) {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 40;
    probe = canvas.getContext("2d", { willReadFrequently: true });
    if (!probe) return true;
    probe.font = `28px ${getComputedStyle(document.body).fontFamily}`;
    probe.missing = pixels(probe, "\u{10FFFD}");
  }
  return wide.every((ch) => {
    if (!drawable.has(ch)) drawable.set(ch, pixels(probe, ch) !== probe.missing);
    return drawable.get(ch);
  });
}

/** A player's name as this machine can show it: the name, or "Player N" when its characters
 * would draw as boxes (the real name stays in ``realName`` for tooltips). */
export function displayName(name, seat) {
  if (name && canDraw(name)) return name;
  return `Player ${seat + 1}`;
}

/** The tooltip of a shown name: the real one, with why it is not drawn. */
export function realName(name) {
  return name && !canDraw(name) ? `${name} (this name needs a CJK font, e.g. Debian's fonts-noto-cjk)` : "";
}

// ---------------------------------------------------------------------------------------------
// This browser's player (web/players.py): a secret token from the server, kept here; its public id
// names the player page. The name is the one this browser gives when it makes a table.
const PLAYER_KEY = "sanma_player";
const NAME_KEY = "sanma_name";

/** This browser's player ``{token, id, page}``, asked of the server the first time. */
export async function myPlayer() {
  try {
    const kept = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    if (kept && kept.token && kept.id) return kept;
  } catch (e) { /* a broken entry is replaced */ }
  const { status, data } = await postJSON("/api/players", {});
  if (status !== 201) return null;
  try { localStorage.setItem(PLAYER_KEY, JSON.stringify(data)); } catch (e) { /* private mode: one page only */ }
  return data;
}

/** The name this browser plays under (empty when none was given). */
export function myName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; }
}
export function setMyName(name) {
  try { localStorage.setItem(NAME_KEY, name.trim().slice(0, 40)); } catch (e) { /* not kept */ }
}
