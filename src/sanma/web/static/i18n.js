// The pages' words (issue 24): every sentence a page shows goes through t() or tn(), every game
// term through term(); the server serves each language's catalogue from these very files
// (GET /api/i18n/LANG, built by sanma/i18n/extract.py: no build step). A template is one string
// literal with named parameters, as in the server's catalogue:
//   t("Create table"), t("{n} tiles left", {n: 12}), tn("{n} stick", "{n} sticks", k, {n: k})
//   term("yaku", "riichi") → 立直 / Riichi;  fmtNumber(12000), fmtPoints(8000), fmtSigned(-1500), fmtDate(iso)
// HTML marks its sentences with data-t: <h2 data-t>New table</h2> (text only inside), and
// <input data-t="placeholder" placeholder="random"> for attributes; translatePage() puts them into
// words (it runs when this module loads, and again on nodes a page adds).
// The language: the switch the browser remembers (the sanma_lang cookie, which the server reads
// too, so its errors speak the same), else the browser's language, else English.

const COOKIE = "sanma_lang";
export const LANGS = { en: "English", ja: "日本語" };

function chosenLang() {
  const m = typeof document !== "undefined" && document.cookie.match(/(?:^|;\s*)sanma_lang=(\w+)/);
  if (m && LANGS[m[1]]) return m[1];
  const prefs = (typeof navigator !== "undefined" && (navigator.languages || [navigator.language])) || [];
  for (const p of prefs) {
    const head = String(p || "").toLowerCase().split(/[-_]/)[0];
    if (LANGS[head]) return head;
  }
  return "en";
}

export const lang = chosenLang();
const EMPTY = { lang, messages: {}, plurals: {}, terms: {} };
let data = EMPTY;
try {
  const r = await fetch(`/api/i18n/${lang}`);
  if (r.ok) data = await r.json();
} catch (e) { data = EMPTY; }  // no catalogue: the pages speak English
if (typeof document !== "undefined") document.documentElement.lang = lang;

const LOCALE = { en: "en-US", ja: "ja-JP" }[lang];

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)(?:!r)?(?::(,))?\}/g, (whole, name, comma) => {
    if (!(name in params)) return whole;
    const v = params[name];
    return comma && typeof v === "number" ? fmtNumber(v) : String(v);
  });
}

/** A sentence in the page's language: ``id`` is its English template, ``params`` its named values. */
export function t(id, params) {
  const s = data.messages[id];
  return fill(typeof s === "string" && s ? s : id, params);
}

/** A sentence in a context (gettext's msgctxt: one of a short word's meanings): tc("rate", "riichi")
 * is a statistics column (リーチ率), t("riichi") the word (リーチ). */
export function tc(context, id, params) {
  const s = data.messages[`${context}\u0004${id}`];
  return fill(typeof s === "string" && s ? s : id, params);
}

/** A sentence with a singular and a plural: ``n`` chooses (Japanese has one form). */
export function tn(one, many, n, params) {
  const forms = data.plurals[one];
  let text;
  if (forms && forms.length === 1) text = forms[0];
  else if (forms && forms.length >= 2) text = n === 1 ? forms[0] : forms[1];
  else text = n === 1 ? one : many;
  return fill(text, { n, ...(params || {}) });
}

/** A game term by kind and key (the vocabulary, sanma/i18n/terms.py): term("yaku", "menzen_tsumo"). */
export function term(kind, key) {
  const s = data.terms[`${kind}.${key}`];
  return s || String(key).replace(/_/g, " ");
}

export function fmtNumber(n) {
  return Number(n).toLocaleString(LOCALE);
}

export function fmtSigned(n) {
  return (n > 0 ? "+" : "") + fmtNumber(n);
}

/** Points: "8,000 points" / "8,000点". */
export function fmtPoints(n) {
  return t("{points} points", { points: fmtNumber(n) });
}

/** A date and time (ISO text or Date) as the language writes it. */
export function fmtDate(value) {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleString(LOCALE, { dateStyle: "medium", timeStyle: "short" });
}

/** Put the marked sentences of ``root`` (and below) into the page's language. */
export function translatePage(root = typeof document !== "undefined" ? document : null) {
  if (!root) return;
  const nodes = root.querySelectorAll ? [...root.querySelectorAll("[data-t]")] : [];
  if (root.hasAttribute && root.hasAttribute("data-t")) nodes.unshift(root);
  for (const e of nodes) {
    const names = (e.getAttribute("data-t") || "").split(/\s+/).filter(Boolean);
    for (const a of names) {
      if (a !== "text" && e.hasAttribute(a)) {
        const src = `data-t-src-${a}`;  // the English, kept for a second pass
        if (!e.hasAttribute(src)) e.setAttribute(src, e.getAttribute(a).replace(/\s+/g, " ").trim());
        e.setAttribute(a, t(e.getAttribute(src)));
      }
    }
    if (!names.length || names.includes("text")) {
      if (!("tText" in e.dataset)) e.dataset.tText = e.textContent.replace(/\s+/g, " ").trim();
      if (e.dataset.tText) e.textContent = t(e.dataset.tText);
    }
  }
}

/** Remember ``l`` as this browser's language and show the page in it. */
export function setLang(l) {
  if (!LANGS[l]) return;
  document.cookie = `${COOKIE}=${l}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

/** A language switch (a small <select>) for a page's header. */
export function langSwitch() {
  const s = document.createElement("select");
  s.className = "lang-switch";
  s.setAttribute("aria-label", "Language / 言語");
  for (const [code, label] of Object.entries(LANGS)) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = label;
    if (code === lang) o.selected = true;
    s.appendChild(o);
  }
  s.addEventListener("change", () => setLang(s.value));
  return s;
}

translatePage();
// the page is in its words: tests (and anything else) may wait for <html data-i18n="ready">
if (typeof document !== "undefined") document.documentElement.dataset.i18n = "ready";

// every page with sanma's header carries the switch (the keeper's page places its own); the table
// and the replay viewer, whose header a phone needs for the board, carry it in their side drawer
if (typeof document !== "undefined" && !document.querySelector(".lang-switch")) {
  const drawer = document.body && document.body.classList.contains("board-page") && document.getElementById("side");
  const header = document.querySelector("header.top");
  if (drawer) drawer.insertBefore(langSwitch(), drawer.querySelector(".panel"));
  else if (header) header.appendChild(langSwitch());
}
