// The score keeper's phone page (docs/KEEPER.md): everything `sanma table` does, in taps — each
// hand's outcome (one winner or a double ron, by value with the fields chips need, or by its
// tiles), draws with tenpai and nagashi, aborts, chombo, penalties (a free one too), the seat draw
// and the dice dealer, final scores only (sticks, chombos, busts), renaming a person; a preview of
// every payment and, for a game-ending entry, the game's settlement line by line; corrections of
// any entry (a finished game's with that game's players); delete and undo after a confirmation that
// shows what they change; the other devices followed live, and a hand never stored twice (the form
// keeps what was typed; a refused save names the entry in its way). The page only draws what the
// server computes: the kinds, aborts, penalties and chip yaku come from the state's `options`.
// Numbers are written as the session's rules say (P30: △ for a minus).
import { tileEl, SANMA_TILES, sortTiles, toMpsz, listToMpsz } from "/static/tiles.js";
import { parseMpsz } from "/static/common.js";
import { t, term, fmtNumber, lang } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let sid = (location.pathname.match(/\/keeper\/([A-Za-z0-9_.-]+)/) || [])[1];  // the session's link token
let state = null;
let fixing = null;          // the entry number being corrected
let fixRow = null;          // ... and its row (its game's players fill the form)
let tournamentLink = null;  // a tournament table's link to the standings (the live updates do not carry it)
let pendingId = null;       // the client id of the entry being sent (kept across retries)
// The session version the form was opened on (issue 19 item 1): sent with every save, so a
// result for a hand that got one meanwhile is refused instead of stored a second time. An
// untouched form follows live updates; once a person types, it keeps the version it was opened on.
let formVersion = null;
let dirty = false;
let conflictNo = null;      // the entry a refused save named (offered for correction)
let confirmAction = null;   // what "yes" does in the confirmation panel
const AUTHOR_KEY = "sanma-keeper-author";

const KIND_LABELS = { ron: t("Ron"), tsumo: t("Tsumo"), draw: t("Draw"), abort: t("Abortive draw"), chombo: t("Chombo"),
  penalty: t("Penalty"), seating: t("Seat draw / first dealer"), final: t("Final scores"), rename: t("Rename a person") };
const HAND_KINDS = ["ron", "tsumo", "draw", "abort", "chombo", "penalty", "seating", "final", "rename"];
const FINAL_KINDS = ["final", "seating", "rename"];
const KEYS = ["hand", "win", "pon", "kan", "ankan", "dora", "ura"];
const LIMIT = { hand: 14, win: 1, pon: 4, kan: 4, ankan: 4, dora: 5, ura: 5 };
const LABEL = { hand: t("Hand"), win: t("Winning tile"), pon: t("Pon"), kan: t("Open kan"), ankan: t("Closed kan"),
  dora: t("Dora ind."), ura: t("Ura ind.") };
// each line of a game's settlement (settle.Item.what) in words
const ITEM_WORDS = { chiicha_chips: t("first dealer not top"), bust_chips: t("bust chips"), dobon_fee: t("dobon fee"),
  sticks_to_top: t("sticks left to the top"), sticks_forfeited: t("sticks left on the table (nobody's)"),
  score: t("score against the return"), oka: t("oka"), uma: t("uma"), bust: t("bust"), tie_split: t("tied places share"),
  chombo: t("chombo"), rounding: t("rounding"), table_chips: t("table chips to the top"), streak_chips: t("streak chips") };
// why a game ended (flow's reasons)
const END_WORDS = { bust: t("bust"), last_hand: t("last hand"), agari_yame: t("the last dealer stopped after a win"),
  tenpai_yame: t("the last dealer stopped in tenpai"), target_reached: t("target score reached"),
  hand_limit: t("hand limit reached"), overtime_non_dealer_win: t("overtime: a non-dealer won"),
  overtime_over: t("overtime over"), final_scores: t("final scores") };
const endWords = (r) => END_WORDS[r] || String(r || "").replace(/_/g, " ");
/** A row's label ("E1", "S2 lap 2", "final") in words: 東1局 / East 1. */
function labelWords(label) {
  if (lang === "en") return label || "";  // the keeper's own labels (E1, S2 lap 2, final)
  const m = /^([ESWN])(\d+)(?: lap (\d+))?$/.exec(label || "");
  if (!m) return label === "final" ? t("final") : (label || "");
  const round = t("{wind} {n}", { wind: term("wind", m[1]), n: m[2] });
  return m[3] ? t("{round}, lap {lap}", { round, lap: m[3] }) : round;
}
/** An abort kind (P92-P95; P79's riichi bust) in words. */
/** A seat's wind: its letter in English (the keeper's labels), its kanji in Japanese. */
const windWord = (w) => lang === "en" ? w : term("wind", w);
const abortWords = (k) => k === "riichi_bust" ? term("result", "riichi_bust") : term("draw", k);
const FLAGS = ["ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan"];
const WINDS = "ESWN";
const tiles = [0, 1].map(() => Object.fromEntries(KEYS.map((k) => [k, []])));
let active = { w: 0, key: "hand" };  // where a picked tile goes

if (params.get("centre")) document.body.classList.add("centre");

function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }
function newId() { return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2); }
const sfx = (i) => (i === 0 ? "" : String(i + 1));   // element ids: #winner, #winner2, ...
const opts = () => (state && state.options) || { aborts: [], penalties: [], chip_yaku: [], pao_yaku: [] };

/** A number as the rules write it (P30: "triangle" writes a minus as △). */
function num(v, { plus = false, comma = true, digits = null } = {}) {
  const abs = Math.abs(v);
  const body = digits !== null ? abs.toFixed(digits) : comma ? fmtNumber(abs) : String(abs);
  if (v < 0) return ((state && state.notation === "triangle") ? "△" : "-") + body;
  return (plus && v > 0 ? "+" : "") + body;
}

async function api(path, body) {
  const r = await fetch(path, {method: body === undefined ? "GET" : "POST",
    headers: {"content-type": "application/json"}, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: "HTTP " + r.status}));
  if (!r.ok) throw Object.assign(new Error(data.error || ("HTTP " + r.status)), {conflict: data.conflict});
  return data;
}

/** The players the form is about: the corrected entry's game's, else the game in play's (between
 *  games: the coming game's). A finished game's correction keeps that game's three (issue 19). */
function players() {
  if (fixRow && fixRow.scores && Object.keys(fixRow.scores).length) return Object.keys(fixRow.scores);
  const seats = state.finished && state.next ? state.next.seats : state.seats;
  return Object.entries(seats).filter(([p, w]) => w !== null).map(([p]) => p);
}

function checked(cls) { return [...document.querySelectorAll("input." + cls + ":checked")].map(e => e.value); }

function boxes(id, cls, names = players()) {  // a live update keeps the ticks a person made
  const ticked = new Set(checked(cls));
  $(id).innerHTML = names.map(p => `<label><input type="checkbox" class="${cls}" value="${esc(p)}"${ticked.has(p) ? " checked" : ""}>${esc(p)}</label>`).join("");
}

function options(id, names = players(), blank = null) {
  const keep = $(id).value;
  $(id).innerHTML = (blank !== null ? `<option value="">${esc(blank)}</option>` : "") +
    names.map(p => `<option value="${esc(p)}">${esc(p)}</option>`).join("");
  if (keep && names.includes(keep)) $(id).value = keep;
}

function choices(id, values, label = (v) => v) {  // a select of fixed values, keeping the one chosen
  const keep = $(id).value;
  const html = values.map(v => `<option value="${esc(v)}">${esc(label(v))}</option>`).join("");
  if ($(id).dataset.html !== html) { $(id).innerHTML = html; $(id).dataset.html = html; }
  if (keep && values.includes(keep)) $(id).value = keep;
}

// --- the winners' blocks ----------------------------------------------------------------------

function winnerBlock(i) {
  const s = sfx(i);
  const o = opts();
  const targets = KEYS.map(k => `<div class="target${["hand", "win"].includes(k) ? "" : " half"}" data-w="${i}" data-key="${k}" id="target${i}-${k}">` +
    `<span class="name">${LABEL[k]}${k === "hand" ? ` <span id="count${i}"></span>` : ""}</span>` +
    `<span class="tiles" id="t${i}-${k}"></span></div>`).join("");
  const yaku = [...new Set([...o.chip_yaku, ...o.pao_yaku])];
  return `<div class="winner" id="w${i}">
    <h3>${i === 0 ? t("Winner") : t("Second winner")}</h3>
    <label>${t("Who")} <select id="winner${s}" class="who-win"></select></label>
    <label>${t("Enter by")} <select id="how${s}"><option value="value">${t("han / fu")}</option><option value="tiles">${t("tiles")}</option></select></label>
    <div class="by-value" id="value${i}">
      <label>${t("Han")} <input id="han${s}" type="number" min="0" max="60" value="1"></label>
      <label class="${o.fixed_fu ? "hidden" : ""}">${t("Fu")} <input id="fu${s}" type="number" min="20" max="110" step="5" value="30"></label>
      ${o.fixed_fu ? `<span class="muted" id="fixed-fu${s}">${t("every hand {fu} fu (P52)", { fu: o.fixed_fu })}</span>` : ""}
      <label>${term("limit", "yakuman")} <input id="yakuman${s}" type="number" min="0" max="6" value="0"></label>
      <div><label><input type="checkbox" id="ippatsu${s}"> ${term("yaku", "ippatsu")}</label>
        ${o.chips ? `<label><input type="checkbox" id="closed${s}"> ${t("closed hand")}</label>
        <label>${t("Ura han")} <input id="ura-han${s}" type="number" min="0" max="30" value="0"></label>` : ""}</div>
      ${yaku.length ? `<div>${t("Yaku (for chips, pao):")} ${yaku.map(y => `<label><input type="checkbox" class="yaku${i}" value="${esc(y)}"> ${esc(term("yaku", y))}</label>`).join("")}</div>` : ""}
      ${o.chip_flowers ? `<label>${t("Chip flowers")} <input id="chip-flowers${s}" type="number" min="0" max="4" value="0"></label>` : ""}
    </div>
    <div class="by-tiles hidden" id="bytiles${i}">
      <div class="targets">${targets}</div>
      ${o.kita ? `<label>${t("Kita")} <input id="kita${s}" type="number" min="0" max="4" value="0"></label>` : ""}
      ${o.flowers ? `<label>${t("Flowers")} <input id="flowers${s}" type="number" min="0" max="8" value="0"></label>` : ""}
      ${o.chip_flowers ? `<label>${t("Chip flowers")} <input id="tchip-flowers${s}" type="number" min="0" max="4" value="0"></label>` : ""}
      <label title="${esc(t("引きヅモ: the winning tile went into the hand before the win was shown; scored as the lowest shape where the rules say so (P129)"))}"><input type="checkbox" id="mixed${s}"> ${t("winning tile mixed into the hand")}</label>
      <div class="flags">${FLAGS.map(f => `<label><input type="checkbox" class="flag${i}" value="${f}"> ${term("yaku", f)}</label>`).join("")}</div>
    </div>
  </div>`;
}

function kindOf(t) { return t.endsWith("r") ? t.slice(0, -1) : t; }
function used(w, kind) {  // tiles of this kind already placed in winner w's hand (a meld uses 3 or 4)
  const t = tiles[w];
  let n = [...t.hand, ...t.win].filter(x => kindOf(x) === kind).length;
  n += t.pon.filter(x => kindOf(x) === kind).length * 3;
  n += [...t.kan, ...t.ankan].filter(x => kindOf(x) === kind).length * 4;
  return n;
}
function meldTiles(w) { const t = tiles[w]; return (t.pon.length + t.kan.length + t.ankan.length) * 3; }
function byTiles(w) { return $("how" + sfx(w)).value === "tiles"; }
function winnersShown() { return $("kind").value === "ron" && $("double").checked ? 2 : 1; }
function intOf(id) { return $(id) ? parseInt($(id).value || "0", 10) : 0; }

function renderTiles() {
  for (const w of [0, 1]) {
    for (const k of KEYS) {
      const box = $(`t${w}-${k}`);
      box.innerHTML = "";
      tiles[w][k].forEach((tile, i) => {
        const e = tileEl(tile);
        e.title = t("take back");
        e.addEventListener("click", (ev) => { ev.stopPropagation(); dirty = true; tiles[w][k].splice(i, 1); renderTiles(); });
        box.appendChild(e);
      });
      $(`target${w}-${k}`).classList.toggle("active", active.w === w && active.key === k);
    }
    $(`count${w}`).textContent = `${tiles[w].hand.length}/${13 - meldTiles(w)}`;
  }
  const indicator = active.key === "dora" || active.key === "ura";
  for (const e of $("picker").querySelectorAll(".tilebox")) {
    e.classList.toggle("used-up", !indicator && used(active.w, kindOf(e.dataset.tile)) >= 4);
  }
  const tw = tiles[active.w];
  $("mpsz").value = listToMpsz(tw.hand) + tw.win.map(toMpsz).join("");
  const anyTiles = [0, 1].slice(0, winnersShown()).some(byTiles) && ["ron", "tsumo"].includes($("kind").value);
  $("picker-box").classList.toggle("hidden", !anyTiles);
}

function pick(t) {
  dirty = true;
  const { w, key } = active;
  const indicator = key === "dora" || key === "ura";
  if (!indicator && used(w, kindOf(t)) >= 4) return;
  if (tiles[w][key].length >= LIMIT[key]) {
    if (key === "win") tiles[w].win = [];
    else return;
  }
  tiles[w][key].push(t);
  if (key === "hand") tiles[w].hand = sortTiles(tiles[w].hand);
  if (key === "hand" && tiles[w].hand.length >= 13 - meldTiles(w) && tiles[w].win.length === 0) active = { w, key: "win" };
  renderTiles();
}

function typedMpsz() {  // the typed mpsz → the active winner's hand (its last tile is the winning tile)
  try {
    const ts = parseMpsz($("mpsz").value);
    const w = active.w;
    tiles[w].win = ts.length ? [ts[ts.length - 1]] : [];
    tiles[w].hand = sortTiles(ts.slice(0, -1));
    $("error").textContent = "";
    renderTiles();
  } catch (e) { $("error").textContent = e.message; }
}

function meld(kind, t) { const m = toMpsz(kindOf(t)); return `${kind}:${m[0].repeat(kind === "pon" ? 3 : 4)}${m[1]}`; }

function winnerJson(w) {
  const s = sfx(w);
  const out = { winner: $("winner" + s).value };
  if (byTiles(w)) {
    const tw = tiles[w];
    if (!tw.win.length) throw new Error(t("{who}: pick the winning tile", { who: out.winner }));
    out.hand = listToMpsz([...tw.hand, ...tw.win]);
    out.win = $("mixed" + s).checked ? "mixed" : toMpsz(tw.win[0]);  // P129: any tile of the hand stands for it
    const melds = [...tw.pon.map(x => meld("pon", x)), ...tw.kan.map(x => meld("kan", x)), ...tw.ankan.map(x => meld("ankan", x))];
    if (melds.length) out.melds = melds;
    if (tw.dora.length) out.dora = tw.dora.map(toMpsz);
    if (tw.ura.length) out.ura = tw.ura.map(toMpsz);
    for (const [id, key] of [["kita", "kita"], ["flowers", "flowers"], ["tchip-flowers", "chip_flowers"]]) {
      if (intOf(id + s)) out[key] = intOf(id + s);
    }
    const flags = [...document.querySelectorAll(`input.flag${w}:checked`)].map(e => e.value);
    if (flags.length) out.flags = flags;
    return out;
  }
  const y = intOf("yakuman" + s);
  if (y > 0) out.yakuman = y;
  else {
    out.han = intOf("han" + s);
    if (!opts().fixed_fu) out.fu = intOf("fu" + s);  // P52: the rules' fixed fu, none to give
  }
  const yaku = checked("yaku" + w);
  if (yaku.length) out.yaku = yaku;
  if ($("ippatsu" + s).checked) out.ippatsu = true;
  if ($("closed" + s) && $("closed" + s).checked) out.closed = true;
  if (intOf("ura-han" + s)) out.ura_han = intOf("ura-han" + s);
  if (intOf("chip-flowers" + s)) out.chip_flowers = intOf("chip-flowers" + s);
  return out;
}

function setValue(id, v) { if ($(id)) $(id).value = v; }
function setChecked(id, v) { if ($(id)) $(id).checked = v; }

function loadWinner(w, d) {  // a stored winner → the form (for a correction)
  const s = sfx(w);
  $("winner" + s).value = d.winner;
  $("mixed" + s).checked = false;
  for (const k of KEYS) tiles[w][k] = [];
  if (d.hand) {
    $("how" + s).value = "tiles";
    const all = parseMpsz(d.hand);
    $("mixed" + s).checked = d.win === "mixed";
    const win = d.win === "mixed" ? all[all.length - 1] : parseMpsz(d.win)[0];
    const at = all.lastIndexOf(win);
    tiles[w].win = [win];
    tiles[w].hand = sortTiles(all.filter((_, i) => i !== at));
    for (const m of d.melds || []) {
      const [kind, ts] = m.includes(":") ? m.split(":") : [m.length === 4 ? "pon" : "kan", m];
      const first = parseMpsz(ts)[0];
      (tiles[w][kind] || tiles[w].pon).push(first);
    }
    tiles[w].dora = (d.dora || []).flatMap(parseMpsz);
    tiles[w].ura = (d.ura || []).flatMap(parseMpsz);
    setValue("kita" + s, d.kita || 0); setValue("flowers" + s, d.flowers || 0); setValue("tchip-flowers" + s, d.chip_flowers || 0);
    document.querySelectorAll(`input.flag${w}`).forEach(e => { e.checked = (d.flags || []).includes(e.value); });
  } else {
    $("how" + s).value = "value";
    $("han" + s).value = d.han || 0; $("fu" + s).value = d.fu || 30; $("yakuman" + s).value = d.yakuman || 0;
    document.querySelectorAll(`input.yaku${w}`).forEach(e => { e.checked = (d.yaku || []).includes(e.value); });
    setChecked("ippatsu" + s, !!d.ippatsu); setChecked("closed" + s, !!d.closed);
    setValue("ura-han" + s, d.ura_han || 0); setValue("chip-flowers" + s, d.chip_flowers || 0);
  }
}

// --- the session ------------------------------------------------------------------------------

/** The hand a form is for: the game and the hand's index in it (results only: a chombo or a
 *  penalty does not close a hand). */
function handKey(s) { return s.hand ? `${s.game}:${s.hand.index}` : `${s.next.game}:1`; }

function rebase(s) { formVersion = s.version; dirty = false; $("form-note").classList.add("hidden"); }

/** Under a form someone is filling in: what other devices entered since it was opened. */
function noteChanges(s) {
  const since = s.hands.filter(r => r.uid > formVersion);
  const el = $("form-note");
  if (!since.length) { el.classList.add("hidden"); return; }
  el.innerHTML = esc(t("Entered on another device since you opened this form:")) + " " +
    since.map(r => `<b>#${r.no}</b> ${esc(labelWords(r.label))} ${esc(r.summary || r.kind)}${r.by ? ` (${esc(r.by)})` : ""}`).join("; ") +
    ". " + esc(t("What you typed is kept; Save checks it against that."));
  el.classList.remove("hidden");
}

let built = null;  // the options the form was built for (rebuilt when they change)

function buildForm(s) {
  const key = JSON.stringify([s.mode, s.options, s.people]);
  if (built === key) return;
  built = key;
  const kinds = s.mode === "final" ? FINAL_KINDS : HAND_KINDS;
  choices("kind", kinds, k => KIND_LABELS[k]);
  $("winners").innerHTML = winnerBlock(0) +
    `<div class="f-double" id="double-box"><label><input type="checkbox" id="double"> ${t("Double ron: a second winner")}</label></div>` +
    winnerBlock(1);
  for (const id of ["double", "how", "how2"]) $(id).addEventListener("change", showFields);
  document.querySelectorAll(".target").forEach(d => d.addEventListener("click", () => {
    active = { w: Number(d.dataset.w), key: d.dataset.key };
    renderTiles();
  }));
  choices("abort-kind", s.options.aborts, abortWords);
  const effect = Object.fromEntries(s.options.penalties.map(p => [p.kind, p.effect]));
  choices("penalty-kind", s.options.penalties.map(p => p.kind), k => k === "free" ? t("free (decided at the table)") : `${term("penalty", k)} — ${term("penalty_effect", effect[k])}`);
}

function render(s) {
  const before = state;
  state = s;
  if (formVersion === null || !dirty) rebase(s);
  else if (before && s.version !== before.version) noteChanges(s);
  buildForm(s);
  $("title").textContent = (s.finished ? t("{rules} — game {game} (finished)", { rules: s.rules, game: s.game })
    : t("{rules} — game {game}", { rules: s.rules, game: s.game })) + (s.series ? ` — ${s.series}` : "");
  const at = s.tournament;
  if (at && !sid.includes(".")) pin(`${sid}.${at.round}.${at.table}`);
  $("tournament-link").classList.toggle("hidden", !at);
  if (at) {  // a tournament's table: its standings, through the link this page was opened by (an HTTP answer's)
    if (at.link) tournamentLink = at.link;
    $("tournament-link").href = tournamentLink || "#";
    $("tournament-link").textContent = t("tournament {tournament} · round {round} · table {table}", at);
  }
  if (s.links && s.links.read) {  // the organiser's page: the link to share (it reads, never writes)
    $("links").innerHTML = `${esc(t("Read-only link for the others:"))} <a href="${esc(s.links.read)}">${esc(location.origin + s.links.read)}</a>`;
  }
  const h = s.hand;
  $("hand").textContent = h ? [labelWords(`${h.round}${h.number}${h.lap ? ` lap ${h.lap + 1}` : ""}`),
    t("{n} honba", { n: h.honba }), t("{n} sticks", { n: h.sticks }),
    ...(s.pot && s.pot.chips ? [t("{n} chips on the table", { n: s.pot.chips })] : []),
    t("dealer {who}", { who: h.dealer })].join(" · ") : t("between games");
  $("scores").innerHTML = s.people.map(p => {
    const w = s.seats[p];
    const sc = s.scores[p];
    return `<tr data-person="${esc(p)}"><td>${w ? windWord(w) : "–"}</td><td>${esc(p)}</td>` +
      `<td class="score">${sc === undefined ? "" : num(sc)}</td><td class="score chips">${num(s.chips[p], {plus: true})}</td></tr>`;
  }).join("");
  const n = s.next;
  $("next").textContent = s.finished && n ? [t("next: game {game}, dealer {dealer}", n),
    ...(n.sitting_out ? [t("{who} sits out", { who: n.sitting_out })] : []),
    ...(n.uma_multiplier > 1 ? [t("uma ×{n}", { n: n.uma_multiplier })] : []),
    ...(n.reseat_due ? [t("a seat draw is due")] : [])].join(t(", ")) : "";
  $("state-version").textContent = s.version;
  renderSheet(s);
  renderPenalties(s);
  fillChoices();
  $("hands").innerHTML = s.hands.slice().reverse().map(r => {
    const d = Object.entries(r.deltas).filter(([p, v]) => v).map(([p, v]) => `${esc(p)} ${num(v, {plus: true})}`).join(", ");
    return `<li data-no="${r.no}">#${r.no} ${esc(t("g{game}", { game: r.game }))} ${esc(labelWords(r.label))} ${esc(r.summary || r.kind)}${d ? " — " + d : ""} ` +
      (["seating", "rename"].includes(r.kind) ? "" : `<button type="button" class="fix" data-no="${r.no}">${t("fix")}</button>`) +
      `<button type="button" class="delete danger" data-no="${r.no}">${t("delete")}</button></li>`;
  }).join("");
  $("undo").disabled = !s.undo;
  formVisibility();
  showFields();
}

/** A session that keeps a fixed number of games (a tournament's table: one) takes no new entry
 *  once they are over: the form is for corrections then. */
function formVisibility() {
  const over = state.games_limit !== null && state.games_limit !== undefined && state.games.length >= state.games_limit;
  $("form").classList.toggle("hidden", over && fixing === null);
  $("over-note").classList.toggle("hidden", !over);
}

/** The selects and check boxes that list people, for the players the form is about. */
function fillChoices() {
  const ps = players();
  for (const id of ["winner", "winner2", "from", "who"]) options(id, ps);
  options("pao", ps, t("no pao"));
  options("rename-from", state.people);
  boxes("riichi", "riichi", ps); boxes("tenpai", "tenpai", ps); boxes("nagashi", "nagashi", ps);
  boxes("chombo-who", "chombo-who", ps);
  if ($("winner2").value === $("winner").value) {
    const other = ps.find(p => p !== $("winner").value && p !== $("from").value);
    if (other) $("winner2").value = other;
  }
  // the seat draw: one select per wind, every person; the first dealer among the coming game's players
  const people = state.people;
  if ($("draw-order").dataset.people !== people.join(",")) {
    $("draw-order").dataset.people = people.join(",");
    $("draw-order").innerHTML = `<label><input type="checkbox" id="draw-new"> ${t("a new seat draw")}</label>` +
      people.map((p, i) => `<label>${windWord(WINDS[i])} <select class="draw-seat" id="draw-${i}">${people.map(q => `<option${q === p ? " selected" : ""}>${esc(q)}</option>`).join("")}</select></label>`).join("");
  }
  options("dealer", ps, t("(as the rules say)"));
  // final scores: a row per player (score, chips, chombos, bust), kept while the players stay
  if ($("final-grid").dataset.players !== ps.join(",")) {
    $("final-grid").dataset.players = ps.join(",");
    $("final-grid").style.gridTemplateColumns = "auto 1fr 1fr 1fr 1fr";
    $("final-grid").innerHTML = `<span></span><span class="muted">${t("score")}</span><span class="muted">${t("chips")}</span><span class="muted">${t("chombos")}</span><span class="muted">${t("bust")}</span>` +
      ps.map((p, i) => `<span>${esc(p)}</span>` +
        `<input type="number" step="100" class="final-score" id="final-score-${i}" data-person="${esc(p)}" value="${state.options && state.scores[p] !== undefined ? state.scores[p] : 0}">` +
        `<input type="number" class="final-chips" id="final-chips-${i}" value="0">` +
        `<input type="number" min="0" max="20" class="final-chombos" id="final-chombos-${i}" value="0">` +
        `<select class="final-bust" id="final-bust-${i}"><option value="">—</option><option value="busted">${t("busted")}</option><option value="buster">${t("caused it")}</option></select>`).join("");
  }
}

function renderSheet(s) {  // the score sheet: each finished game's points and its settlement, the totals (P30)
  $("sheet-box").classList.toggle("hidden", !s.games.length);
  if (!s.games.length) return;
  const head = `<tr><th>${t("game")}</th>${s.people.map(p => `<th class="num">${esc(p)}</th>`).join("")}</tr>`;
  const rows = s.games.map(g => `<tr><td>${g.game}</td>${s.people.map(p => `<td class="num">${p in g.points ? num(g.points[p], {comma: false}) : ""}</td>`).join("")}</tr>`);
  const tot = Object.fromEntries(s.standings.map(r => [r.person, r]));
  const total = `<tr class="total"><td>${t("total")}</td>${s.people.map(p => `<td class="num">${tot[p] ? num(tot[p].points, {comma: false}) : ""}</td>`).join("")}</tr>`;
  const chips = `<tr><td>${t("chips")}</td>${s.people.map(p => `<td class="num">${tot[p] ? num(tot[p].chips, {plus: true}) : ""}</td>`).join("")}</tr>`;
  $("sheet").innerHTML = head + rows.join("") + total + chips;
  const open = new Set([...document.querySelectorAll("#settlements details[open]")].map(d => d.dataset.game));
  $("settlements").innerHTML = s.games.map(g => `<details data-game="${g.game}"${open.has(String(g.game)) ? " open" : ""}>` +
    `<summary>${esc(t("Game {game}: how the points and chips were made ({why})", { game: g.game, why: endWords(g.end_reason) }))}</summary>${settlementTable(g)}</details>`).join("");
}

/** A finished game's settlement line by line (each line with its rule row): what each person's
 *  final points and chips are made of, then the result. */
function settlementTable(g) {
  const people = Object.keys(g.ranks);
  const cell = (i, p) => {
    const parts = [];
    if (p in i.scores) parts.push(num(i.scores[p], {plus: true}));
    if (p in i.points) parts.push(num(i.points[p], {plus: true, digits: 1}));
    if (p in i.chips) parts.push(t("{n} chips", { n: num(i.chips[p], {plus: true}) }));
    return parts.join(", ") || "·";
  };
  const head = `<tr><th></th>${people.map(p => `<th class="num">${esc(p)}</th>`).join("")}</tr>`;
  const lines = (g.items || []).map(i => `<tr class="item" data-what="${esc(i.what)}"><th>${esc(ITEM_WORDS[i.what] || i.label)}${i.count ? ` (${i.count})` : ""} <span class="muted">${esc(i.rule)}</span></th>` +
    people.map(p => `<td class="num">${cell(i, p)}</td>`).join("") + "</tr>");
  const result = `<tr class="total"><th>${t("rank · points · chips")}</th>${people.map(p => `<td class="num">${g.ranks[p]} · ${num(g.points[p], {plus: true, digits: 1})} · ${num(g.chips[p] || 0, {plus: true})}</td>`).join("")}</tr>`;
  return `<table class="data settlement" data-game="${g.game}">${head}${lines.join("")}${result}</table>`;
}

function renderPenalties(s) {
  const list = s.penalties || [];
  $("penalties-box").classList.toggle("hidden", !list.length);
  $("penalties").innerHTML = list.map(x => {
    const paid = Object.entries(x.deltas).map(([p, v]) => `${esc(p)} ${num(v, {plus: true})}`);
    const chips = Object.entries(x.chips).map(([p, v]) => esc(t("{who} {n} chips", { who: p, n: num(v, {plus: true}) })));
    const end = Object.entries(x.end_points).map(([p, v]) => esc(t("{who} {n} at the end", { who: p, n: num(v, {plus: true, digits: 1}) })));
    const kind = x.kind === "chombo" ? term("result", "chombo") : term("penalty", x.kind);
    return `<li>#${x.no} ${esc(t("g{game}", { game: x.game }))} ${esc(labelWords(x.label))} ${esc(t("{kind} by {who}", { kind, who: x.who.join(" & ") }))}` +
      `${x.reason ? ` (${esc(x.reason)})` : ""}: ${[...paid, ...chips, ...end].join(", ") || esc(t("nothing to pay"))}</li>`;
  }).join("");
}

function showFields() {
  const k = $("kind").value;
  const o = opts();
  const win = k === "ron" || k === "tsumo";
  const on = {"f-win": win, "f-ron": k === "ron", "f-double": k === "ron" && o.double_ron, "f-pao": win && o.pao_yaku.length > 0,
    "f-riichi": ["ron", "tsumo", "draw", "abort"].includes(k), "f-draw": k === "draw", "f-nagashi": k === "draw" && o.nagashi,
    "f-abort": k === "abort", "f-chombo": k === "chombo", "f-who": k === "penalty",
    "f-penalty": k === "penalty", "f-free": k === "penalty" && $("penalty-kind").value === "free",
    "f-seating": k === "seating", "f-final": k === "final", "f-rename": k === "rename"};
  for (const [cls, vis] of Object.entries(on)) document.querySelectorAll("." + cls).forEach(e => e.classList.toggle("hidden", !vis));
  $("w1").classList.toggle("hidden", winnersShown() < 2);
  for (const w of [0, 1]) {
    $("value" + w).classList.toggle("hidden", byTiles(w));
    $("bytiles" + w).classList.toggle("hidden", !byTiles(w));
  }
  if (active.w >= winnersShown() || !byTiles(active.w)) {
    const w = [0, 1].slice(0, winnersShown()).find(byTiles);
    if (w !== undefined) active = { w, key: "hand" };
  }
  renderTiles();
}

function entry() {
  const k = $("kind").value;
  const riichi = checked("riichi");
  if (k === "ron" || k === "tsumo") {
    const wins = [0, 1].slice(0, winnersShown()).map(winnerJson);
    const e = {kind: "win", wins, riichi};
    if (k === "ron") e.from = $("from").value;
    if ($("pao").value) e.pao = $("pao").value;
    return e;
  }
  if (k === "draw") return {kind: "draw", tenpai: checked("tenpai"), riichi, nagashi: checked("nagashi")};
  if (k === "abort") return {kind: "abort", abort: $("abort-kind").value, riichi};
  if (k === "chombo") return {kind: "chombo", who: checked("chombo-who"), reason: $("reason").value};
  if (k === "penalty") {
    const e = {kind: "penalty", who: $("who").value, penalty: $("penalty-kind").value, reason: $("reason").value};
    if (e.penalty === "free") { e.points = intOf("free-points"); e.chips = intOf("free-chips"); }
    return e;
  }
  if (k === "seating") {
    const e = {kind: "seating"};
    if ($("draw-new").checked) e.draw = [...document.querySelectorAll("select.draw-seat")].map(x => x.value);
    if ($("dealer").value) e.dealer = $("dealer").value;
    return e;
  }
  if (k === "rename") return {kind: "rename", from: $("rename-from").value, to: $("rename-to").value.trim()};
  // final scores only: the scores on the table, chips won, sticks left, chombos, busts
  const rows = [...document.querySelectorAll("input.final-score")].map((x, i) => [x.dataset.person, i]);
  const e = {kind: "final", scores: {}, chips: {}, chombos: {}, busted: [], busters: [], sticks: intOf("final-sticks")};
  for (const [p, i] of rows) {
    e.scores[p] = intOf(`final-score-${i}`);
    if (intOf(`final-chips-${i}`)) e.chips[p] = intOf(`final-chips-${i}`);
    if (intOf(`final-chombos-${i}`)) e.chombos[p] = intOf(`final-chombos-${i}`);
    const bust = $(`final-bust-${i}`).value;
    if (bust === "busted") e.busted.push(p);
    if (bust === "buster") e.busters.push(p);
  }
  return e;
}

/** Every payment of an entry's row: each winner's (points, honba and sticks), the riichi sticks
 *  put down this hand, the total and the chips; nothing is saved. */
function previewTable(r, pot) {
  const people = Object.keys(r.deltas);
  const row = (label, d, cls = "") => `<tr class="${cls}"><th>${esc(label)}</th>${people.map(p => `<td class="num">${d[p] ? num(d[p], {plus: true}) : "·"}</td>`).join("")}</tr>`;
  const rows = [];
  const paid = Object.fromEntries(people.map(p => [p, 0]));
  for (const pay of r.payments || []) {
    rows.push(row(pay.pao ? t("{who}'s win (pao: {pao})", { who: pay.winner, pao: pay.pao }) : t("{who}'s win", { who: pay.winner }), pay.deltas));
    for (const p of people) paid[p] += pay.deltas[p] || 0;
  }
  if (r.payments && r.payments.length) {
    const rest = Object.fromEntries(people.map(p => [p, r.deltas[p] - paid[p]]));
    if (people.some(p => rest[p])) rows.push(row(t("riichi sticks"), rest));
  }
  rows.push(row(t("total"), r.deltas, "total"));
  if (people.some(p => r.chips[p])) rows.push(row(t("chips"), r.chips));
  const head = `<tr><th></th>${people.map(p => `<th class="num">${esc(p)}</th>`).join("")}</tr>`;
  return `<div id="preview-summary">${esc(t("preview (nothing saved):"))} ${esc(r.summary || r.kind)} · ${esc(t("{n} honba", { n: r.honba || 0 }))}` +
    `${r.game_over ? ` · ${esc(t("game over ({why})", { why: endWords(r.game_over) }))}` : ""}</div><table class="data" id="preview-table">${head}${rows.join("")}</table>` +
    `<div class="muted">${esc(t("after it: {sticks} sticks, {chips} chips on the table", pot))}</div>`;
}

async function send(preview) {
  $("error").textContent = "";
  showConflict(null);
  let body;
  try {
    body = {entry: entry(), preview, reason: $("reason").value, opened_version: formVersion, author: $("author").value};
  } catch (e) { $("error").textContent = e.message; return; }
  if (!preview && pendingId === null) pendingId = newId();
  if (!preview) body.client_id = pendingId;
  const path = fixing === null ? `/api/keeper/sessions/${sid}/entries` : `/api/keeper/sessions/${sid}/entries/${fixing}`;
  try {
    const s = await api(path, body);
    if (preview) {
      const r = s.hands.find(h => h.no === s.preview_of);  // the entry previewed (new or corrected)
      const ended = r && r.game_over ? s.games.find(g => g.game === r.game) : null;
      $("preview-out").innerHTML = (r ? previewTable(r, s.pot) : "") +
        (ended ? `<div id="preview-settlement"><b>${esc(t("Game {game} ends:", { game: ended.game }))}</b> ${settlementTable(ended)}</div>` : "");
      return;
    }
    pendingId = null;
    $("preview-out").innerHTML = "";
    endFix();
    clearForm();
    dirty = false;
    render(s);
  } catch (e) {
    $("error").textContent = e.message;
    if (e.conflict && e.conflict.entry) showConflict(e.conflict.entry);
  }
}

/** After a refused save that named the entry in the way: correct that entry with this form, or
 *  discard the form. Saving again as it is stores nothing (the same refusal). */
function showConflict(no) {
  conflictNo = no;
  $("conflict").classList.toggle("hidden", no === null);
  if (no !== null) $("conflict-fix").textContent = t("Correct #{no} with this form", { no });
}

function clearForm() {  // after a save: the next hand starts from an empty form (the kind and "enter by" stay)
  for (const w of [0, 1]) {
    for (const k of KEYS) tiles[w][k] = [];
    const x = sfx(w);
    $("han" + x).value = 1; $("fu" + x).value = 30; $("yakuman" + x).value = 0;
    for (const id of ["kita", "flowers", "tchip-flowers", "ura-han", "chip-flowers"]) setValue(id + x, 0);
    document.querySelectorAll(`input.flag${w}, input.yaku${w}`).forEach(e => { e.checked = false; });
    $("mixed" + x).checked = false; setChecked("ippatsu" + x, false); setChecked("closed" + x, false);
  }
  $("double").checked = false;
  $("reason").value = "";
  $("pao").value = "";
  document.querySelectorAll("input.riichi, input.tenpai, input.nagashi, input.chombo-who").forEach(e => { e.checked = false; });
  $("free-points").value = 0; $("free-chips").value = 0; $("final-sticks").value = 0; $("rename-to").value = "";
  $("final-grid").dataset.players = "";  // rebuilt with the next game's players
  if ($("draw-new")) $("draw-new").checked = false;
  $("dealer").value = "";
  active = { w: 0, key: "hand" };
}

function endFix() {
  fixing = null;
  fixRow = null;
  showConflict(null);
  if (state) formVisibility();
  $("form-title").textContent = t("Enter a hand");
  $("cancel-fix").classList.add("hidden");
}

function startFix(no) {
  const r = state.hands.find(h => h.no === no);
  fixing = no;
  fixRow = r;
  formVisibility();
  rebase(state);
  dirty = true;
  $("form-title").textContent = r.game !== state.game || state.finished ? t("Correct entry #{no} (game {game})", { no, game: r.game })
    : t("Correct entry #{no}", { no });
  $("cancel-fix").classList.remove("hidden");
  $("final-grid").dataset.players = "";
  fillChoices();  // that game's players (a finished game's three, whoever sits out now)
  const e = r.entry;
  const tick = (cls, names) => document.querySelectorAll("input." + cls).forEach(b => { b.checked = (names || []).includes(b.value); });
  if (e.kind === "win") {
    $("kind").value = e.from ? "ron" : "tsumo";
    if (e.from) $("from").value = e.from;
    $("double").checked = e.wins.length > 1;
    $("pao").value = e.pao || "";
    e.wins.slice(0, 2).forEach((w, i) => loadWinner(i, w));
  } else if (e.kind === "draw") { $("kind").value = "draw"; }
  else if (e.kind === "abort") { $("kind").value = "abort"; $("abort-kind").value = e.abort; }
  else if (e.kind === "chombo") { $("kind").value = "chombo"; tick("chombo-who", [].concat(e.who)); }
  else if (e.kind === "penalty") {
    $("kind").value = "penalty"; $("penalty-kind").value = e.penalty; $("who").value = e.who;
    $("free-points").value = e.points || 0; $("free-chips").value = e.chips || 0;
  } else if (e.kind === "final") {
    $("kind").value = "final";
    document.querySelectorAll("input.final-score").forEach((x, i) => {
      const p = x.dataset.person;
      x.value = e.scores[p] ?? 0;
      $(`final-chips-${i}`).value = (e.chips || {})[p] || 0;
      $(`final-chombos-${i}`).value = (e.chombos || {})[p] || 0;
      $(`final-bust-${i}`).value = (e.busted || []).includes(p) ? "busted" : (e.busters || []).includes(p) ? "buster" : "";
    });
    $("final-sticks").value = e.sticks || 0;
  }
  $("reason").value = e.reason || "";
  tick("riichi", e.riichi);
  tick("tenpai", e.tenpai);
  tick("nagashi", e.nagashi);
  showFields();
}

/** The confirmation panel: what the change will do (the server's preview of it) before it is made. */
function confirmPanel(text, after, yes, action) {
  $("confirm-text").innerHTML = text;
  $("confirm-preview").innerHTML = after ? changesTable(state, after) : "";
  $("confirm-yes").textContent = yes;
  confirmAction = action;
  $("confirm").classList.remove("hidden");
  $("confirm-yes").focus();
}

function closeConfirm() { $("confirm").classList.add("hidden"); confirmAction = null; }

/** Before → after for each person: the game's score, the session's chips and points; finished games. */
function changesTable(a, b) {
  const pts = (s) => Object.fromEntries(s.standings.map(r => [r.person, r.points]));
  const [pa, pb] = [pts(a), pts(b)];
  const rows = a.people.map(p => {
    const cells = [[a.scores[p], b.scores[p], (v) => num(v)], [a.chips[p], b.chips[p], (v) => num(v, {plus: true})],
      [pa[p], pb[p], (v) => num(v, {plus: true, digits: 1})]].map(([x, y, f]) =>
      `<td class="num">${x === undefined ? "" : f(x)}${x !== y && y !== undefined ? ` → <b>${f(y)}</b>` : ""}</td>`);
    return `<tr><td>${esc(p)}</td>${cells.join("")}</tr>`;
  });
  const games = a.games.length !== b.games.length ? `<div>${esc(t("finished games:"))} ${a.games.length} → <b>${b.games.length}</b></div>` : "";
  return `<table class="data" id="confirm-table"><tr><th></th><th class="num">${t("score")}</th><th class="num">${t("chips")}</th><th class="num">${t("points")}</th></tr>${rows.join("")}</table>${games}`;
}

async function askDelete(no) {
  const r = state.hands.find(h => h.no === no);
  try {
    const after = await api(`/api/keeper/sessions/${sid}/entries/${no}`, {delete: true, preview: true});
    confirmPanel(esc(t("Delete entry #{no} ({what})? Everything after it is recomputed:", { no, what: `${labelWords(r.label)} ${r.summary || r.kind}`.trim() })),
      after, t("Delete #{no}", { no }), async () => {
        render(await api(`/api/keeper/sessions/${sid}/entries/${no}`, {delete: true, reason: $("reason").value,
          opened_version: state.version, author: $("author").value}));
      });
  } catch (e) { $("error").textContent = e.message; }
}

async function askUndo() {
  if (!state.undo) return;
  const change = state.undo.change;
  try {
    const after = await api(`/api/keeper/sessions/${sid}/undo`, {change, preview: true});
    confirmPanel(esc(t("Undo {what}?", { what: state.undo.text })), after, t("Undo it"), async () => {
      render(await api(`/api/keeper/sessions/${sid}/undo`, {change, author: $("author").value}));
    });
  } catch (e) { $("error").textContent = e.message; }
}

/** A scorer's link alone opens its table in the latest round: once the next round is seated it
 * opens another session. This page stays on the one it shows (LINK.ROUND.TABLE), so a hand typed
 * here is never stored in the next round's game; a reload of the link opens the next round. */
function pin(ref) {
  sid = ref;
  $("export-json").href = `/api/keeper/sessions/${sid}/export?format=json`;
  $("export-csv").href = `/api/keeper/sessions/${sid}/export?format=csv`;
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/keeper/${sid}`);
  ws.onmessage = (m) => {
    const s = JSON.parse(m.data);
    if (s.error) { $("error").textContent = s.error; return; }
    if (!state || s.version !== state.version) render(s);
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

function init() {
  // Enter in a field must not submit the form (a reload losing it); no inline handler: the CSP forbids them
  $("form").addEventListener("submit", (ev) => ev.preventDefault());
  $("form-title").textContent = t("Enter a hand");
  $("winners").innerHTML = winnerBlock(0) + `<input type="checkbox" id="double" class="hidden">` + winnerBlock(1);
  for (const suit of [/[mp]r?$/, /sr?$/, /^[ESWNPFC]$/]) {  // one row per suit (manzu with pinzu), as the calculator
    const row = document.createElement("div");
    row.className = "suit";
    for (const t of SANMA_TILES.filter((x) => suit.test(x))) {
      const e = tileEl(t);
      e.addEventListener("click", () => pick(t));
      row.appendChild(e);
    }
    $("picker").appendChild(row);
  }
  for (const id of ["kind", "penalty-kind"]) $(id).addEventListener("change", showFields);
  $("mpsz").addEventListener("change", typedMpsz);
  $("preview").addEventListener("click", () => send(true));
  $("save").addEventListener("click", () => send(false));
  $("cancel-fix").addEventListener("click", () => { endFix(); clearForm(); rebase(state); render(state); });
  $("form").addEventListener("input", () => { dirty = true; });
  $("form").addEventListener("change", () => { dirty = true; });
  $("conflict-fix").addEventListener("click", () => {  // the typed form becomes a correction of that entry
    const no = conflictNo;
    showConflict(null);
    fixing = no;
    fixRow = state.hands.find(h => h.no === no) || null;
    formVersion = state.version;
    pendingId = null;
    $("form-title").textContent = t("Correct entry #{no}", { no });
    $("cancel-fix").classList.remove("hidden");
    $("error").textContent = "";
    $("form-note").classList.add("hidden");
  });
  $("conflict-discard").addEventListener("click", () => {
    showConflict(null); endFix(); clearForm(); pendingId = null; $("error").textContent = ""; rebase(state); render(state);
  });
  $("author").value = localStorage.getItem(AUTHOR_KEY) || "";
  $("author").addEventListener("change", () => localStorage.setItem(AUTHOR_KEY, $("author").value));
  $("undo").addEventListener("click", askUndo);
  $("confirm-no").addEventListener("click", closeConfirm);
  $("confirm-yes").addEventListener("click", async () => {
    const action = confirmAction;
    closeConfirm();
    try { if (action) await action(); } catch (e) { $("error").textContent = e.message; }
  });
  $("hands").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const no = parseInt(b.dataset.no, 10);
    if (b.classList.contains("fix")) startFix(no);
    else askDelete(no);
  });
  $("centre-link").addEventListener("click", (ev) => { ev.preventDefault(); document.body.classList.toggle("centre"); });
  $("new-go").addEventListener("click", async () => {
    try {
      const body = {rules: $("new-rules").value, people: $("new-people").value.split(",").map(x => x.trim()).filter(Boolean),
        final_only: $("new-final").checked, author: $("author").value};
      if ($("new-series").value.trim()) body.series = $("new-series").value.trim();
      const s = await api("/api/keeper/sessions", body);
      location.href = s.links.organiser;  // the organiser's link: keep it, it is the only way back in
    } catch (e) { $("create-error").textContent = e.message; }
  });
  if (sid) {
    $("export-json").href = `/api/keeper/sessions/${sid}/export?format=json`;
    $("export-csv").href = `/api/keeper/sessions/${sid}/export?format=csv`;
    $("session").classList.remove("hidden");
    api(`/api/keeper/sessions/${sid}`).then(render).catch(e => { $("error").textContent = e.message; });
    connect();
  } else {
    $("create").classList.remove("hidden");
  }
}

init();
