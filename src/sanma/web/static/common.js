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

/** A player's name as the pages show it: the name itself (Japanese names are drawn with the
 * system's Japanese fonts, style.css's font stack: fonts-noto-cjk on Debian), or "Player N" for a
 * seat without one. */
export function displayName(name, seat) {
  return name || t("Player {n}", { n: seat + 1 });
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
