// The hand calculator page: builds `sanma score`'s options and posts them to /api/score.
import { tileEl, SANMA_TILES, toMpsz, listToMpsz, sortTiles } from "/static/tiles.js";
import { parseMpsz, postJSON, getJSON, el } from "/static/common.js";
import { winValue, fuWords } from "/static/cards.js";
import { t, term, fmtNumber, fmtSigned } from "/static/i18n.js";

const state = { hand: [], win: [], pon: [], kan: [], ankan: [], dora: [], ura: [], target: "hand", rulesToml: null };
const LIMIT = { hand: 14, win: 1, pon: 4, kan: 4, ankan: 4, dora: 5, ura: 5 };
const $ = (id) => document.getElementById(id);

function kindOf(t) { return t.endsWith("r") ? t.slice(0, -1) : t; }
function used(kind) {  // tiles of this kind already placed (a meld uses 3 or 4)
  let n = 0;
  for (const key of ["hand", "win"]) n += state[key].filter((t) => kindOf(t) === kind).length;
  n += state.pon.filter((t) => kindOf(t) === kind).length * 3;
  n += [...state.kan, ...state.ankan].filter((t) => kindOf(t) === kind).length * 4;
  return n;
}
function meldTiles() { return state.pon.length * 3 + (state.kan.length + state.ankan.length) * 3; }

function render() {
  for (const key of ["hand", "win", "pon", "kan", "ankan", "dora", "ura"]) {
    const box = $("t-" + key);
    box.innerHTML = "";
    state[key].forEach((tile, i) => {
      const e = tileEl(tile);
      e.title = t("take back");
      e.addEventListener("click", (ev) => { ev.stopPropagation(); state[key].splice(i, 1); sync(); });
      box.appendChild(e);
    });
  }
  const need = 13 - meldTiles();
  $("hand-count").textContent = `${state.hand.length}/${need}`;
  for (const e of $("picker").querySelectorAll(".tilebox")) {
    const tile = e.dataset.tile;
    const isIndicator = state.target === "dora" || state.target === "ura";
    e.classList.toggle("used-up", !isIndicator && used(kindOf(tile)) >= 4);
  }
  document.querySelectorAll(".target").forEach((d) => d.classList.toggle("active", d.dataset.target === state.target));
}

function sync() {  // state → mpsz field, then redraw
  $("mpsz").value = listToMpsz(state.hand) + state.win.map(toMpsz).join("");
  render();
}

function pick(t) {
  const key = state.target;
  const isIndicator = key === "dora" || key === "ura";
  if (!isIndicator && used(kindOf(t)) >= 4) return;
  if (state[key].length >= LIMIT[key]) {
    if (key === "win") state.win = [];
    else return;
  }
  state[key].push(t);
  if (key === "hand") state.hand = sortTiles(state.hand);
  if (key === "hand" && state.hand.length >= 13 - meldTiles() && state.win.length === 0) state.target = "win";
  sync();
}

function request() {
  const flags = {};
  for (const box of document.querySelectorAll("#flags input")) flags[box.name] = box.checked;
  const body = {
    hand: [...state.hand, ...state.win].map(toMpsz).join(""),
    win: state.win.length ? toMpsz(state.win[0]) : "",
    seat: $("seat").value, round: $("round").value, from: $("from").value || null,
    dora: state.dora.map(toMpsz), ura: state.ura.map(toMpsz),
    pon: state.pon.map(toMpsz), kan: state.kan.map(toMpsz), ankan: state.ankan.map(toMpsz),
    kita: Number($("kita").value) || 0, flowers: Number($("flowers").value) || 0,
    honba: Number($("honba").value) || 0, kyotaku: Number($("kyotaku").value) || 0, ...flags,
  };
  if (state.rulesToml !== null) body.rules_toml = state.rulesToml; else body.rules = $("rules").value;
  if (flags.tsumo) body.from = null;
  return body;
}

let asked = 0;  // the newest Score's number
async function score() {
  const out = $("out");
  out.classList.remove("hidden");
  out.innerHTML = "";  // the last answer goes at once: it is not this request's
  const n = ++asked;
  const body = request();
  // the verdict endpoint: a hand that is no win (yet) is an answer, not a refused request, so the
  // browser logs no console error for the calculator's normal use (issue 18)
  const { status, data } = await postJSON("/api/score/check", body);
  // a newer Score was asked meanwhile (Enter in the hand's field scores too): its answer is shown, not
  // this older one, whichever comes last (an older hand's total was read as the newer one's)
  if (n !== asked) return;
  if (status !== 200 || !data.win) {
    out.appendChild(el("div", { class: "error", id: "score-error" }, data.error || t("error {status}", { status })));
    return;
  }
  out.appendChild(scoreTable(data.score));
  const raw = el("details", {}, el("summary", {}, t("JSON (as sanma score --json prints it)")),
    el("pre", { class: "mono", id: "score-json" }, JSON.stringify(data.score)));
  out.appendChild(raw);
}

async function init() {
  const picker = $("picker");
  for (const suit of [/[mp]r?$/, /sr?$/, /^[ESWNPFC]$/]) {  // one row per suit (manzu with pinzu)
    const row = el("div", { class: "suit" });
    for (const t of SANMA_TILES.filter((x) => suit.test(x))) {
      const e = tileEl(t);
      e.addEventListener("click", () => pick(t));
      row.appendChild(e);
    }
    picker.appendChild(row);
  }
  document.querySelectorAll(".target").forEach((d) => d.addEventListener("click", () => { state.target = d.dataset.target; render(); }));
  const opts = await getJSON("/api/score/options");
  for (const p of opts.presets) $("rules").appendChild(el("option", { value: p }, p));
  $("rules").value = "tenhou";
  $("rules").addEventListener("change", () => { state.rulesToml = null; $("rulefile").value = ""; $("rulefile-name").textContent = ""; });
  for (const w of opts.winds) {
    $("seat").appendChild(el("option", { value: w }, term("wind", w)));
    $("round").appendChild(el("option", { value: w }, term("wind", w)));
    $("from").appendChild(el("option", { value: w }, term("wind", w)));
  }
  for (const f of opts.flags) {  // a flag that is a yaku by its name; its help in the page's language (the server's)
    const box = el("input", { type: "checkbox", name: f.name, id: "flag-" + f.name });
    const name = FLAG_WORDS[f.name] || term("yaku", f.name);
    $("flags").appendChild(el("label", { class: "check", title: f.help }, box, name));
  }
  $("rulefile").addEventListener("change", async () => {
    const file = $("rulefile").files[0];
    if (!file) return;
    state.rulesToml = await file.text();
    $("rulefile-name").textContent = t("using {file}", { file: file.name });
  });
  $("mpsz").addEventListener("change", applyMpsz);
  $("clear").addEventListener("click", () => {
    for (const k of ["hand", "win", "pon", "kan", "ankan", "dora", "ura"]) state[k] = [];
    state.target = "hand"; sync();
  });
  $("score").addEventListener("click", score);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (e.target.id === "mpsz" && !applyMpsz()) return;
    score();
  });
  sync();
}

/** The flags of sanma score that are not yaku, in words (the others are yaku, by their names). */
const FLAG_WORDS = { tsumo: term("result", "tsumo") };

/** A score (the object `sanma score --json` prints) as a readable block, in the vocabulary's words. */
function scoreTable(s) {
  const signedClass = (n) => (n > 0 ? "plus" : n < 0 ? "minus" : "");
  const yaku = el("table", { class: "data", id: "score-yaku" },
    el("tr", {}, el("th", {}, t("yaku")), el("th", { class: "num" }, term("table", "han"))),
    s.yaku.map((y) => el("tr", { "data-yaku": y.name }, el("td", {}, term("yaku", y.name)),
      el("td", { class: "num" }, y.yakuman ? `${term("limit", "yakuman")}${y.yakuman > 1 ? ` ×${y.yakuman}` : ""}`
        : t("{han} han", { han: y.han })))));
  const fu = s.fu_breakdown && s.fu_breakdown.length && !s.yakuman
    ? el("p", { class: "muted", id: "score-fu" }, t("fu") + ": " + s.fu_breakdown.map(([n, f]) => `${fuWords(n)} ${f}`).join(" + "))
    : null;
  const pay = el("table", { class: "data", id: "score-deltas" },
    el("tr", {}, el("th", {}, t("seat")), el("th", { class: "num" }, t("change"))),
    Object.entries(s.deltas).map(([w, d]) => el("tr", { "data-wind": w }, el("td", {}, term("wind", w)),
      el("td", { class: `num ${signedClass(d)}` }, fmtSigned(d)))));
  const points = t("{points} points", { points: fmtNumber(s.total) });
  return el("div", {},
    el("div", { class: "result-total", id: "score-total" },
      `${winValue(s)} → ${s.dealer ? t("{points} (dealer)", { points }) : points}`),
    el("p", { class: "muted" }, [term("result", s.tsumo ? "tsumo" : "ron"), t("{rules} rules", { rules: s.rules }),
      ...(s.wait ? [t("wait: {wait}", { wait: term("fu", s.wait) })] : [])].join(" — ")),
    el("div", { class: "row", style: "align-items:flex-start;gap:30px" },
      el("div", { style: "min-width:260px" }, yaku), el("div", { style: "min-width:200px" }, pay)), fu);
}

function applyMpsz() {  // the typed mpsz → the rows (the last tile is the winning tile)
  {
    try {
      const tiles = parseMpsz($("mpsz").value);
      // The winning tile stays when the typed hand holds it; otherwise the last tile typed wins.
      let at = state.win.length ? tiles.lastIndexOf(state.win[0]) : -1;
      if (at < 0) at = tiles.length - 1;
      state.win = at >= 0 ? [tiles[at]] : [];
      state.hand = tiles.filter((_, i) => i !== at);
      render();
      return true;
    } catch (e) {
      $("out").classList.remove("hidden");
      $("out").innerHTML = "";
      $("out").appendChild(el("div", { class: "error", id: "score-error" }, e.message));
      return false;
    }
  }
}
/** A position named in the address (the replay viewer's review links here): the fields of POST /api/score —
 * hand (mpsz, the winning tile included), win, pon/kan/ankan/dora (comma-separated tiles), seat, round, from,
 * kita, flowers, honba, kyotaku, rules, and a flag's name = 1. The page is filled in, not scored. */
function prefill() {
  const q = new URLSearchParams(location.search);
  if (!q.get("hand")) return;
  try {
    const tiles = parseMpsz(q.get("hand"));
    const win = q.get("win") ? parseMpsz(q.get("win"))[0] : null;
    const at = win ? tiles.lastIndexOf(win) : -1;
    state.win = at >= 0 ? [tiles[at]] : [];
    state.hand = sortTiles(tiles.filter((_, i) => i !== at));
    for (const key of ["pon", "kan", "ankan", "dora"]) {
      state[key] = (q.get(key) || "").split(",").filter(Boolean).map((x) => parseMpsz(x)[0]).slice(0, LIMIT[key]);
    }
  } catch (e) {
    $("out").classList.remove("hidden");
    $("out").appendChild(el("div", { class: "error", id: "score-error" }, e.message));
    return;
  }
  for (const id of ["seat", "round", "from", "rules"]) {
    const v = q.get(id);
    if (v && [...$(id).options].some((o) => o.value === v)) $(id).value = v;
  }
  for (const id of ["kita", "flowers", "honba", "kyotaku"]) if (q.get(id)) $(id).value = String(Number(q.get(id)) || 0);
  for (const box of document.querySelectorAll("#flags input")) box.checked = q.get(box.name) === "1";
  state.target = "hand";
  sync();
}
init().then(prefill);
