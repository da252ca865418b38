// The score keeper's phone page (docs/KEEPER.md): enter each hand's outcome — one winner or a
// double ron, each by value (han / fu / yakuman) or by its tiles (picked from the sanma tile set)
// — see every payment in a preview before saving, correct old hands, and follow the other
// devices live. Numbers are written as the session's rules say (P30: △ for a minus).
import { tileEl, SANMA_TILES, sortTiles, toMpsz, listToMpsz } from "/static/tiles.js";
import { parseMpsz } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const sid = (location.pathname.match(/\/keeper\/([A-Za-z0-9_-]+)/) || [])[1];  // the session's link token
let state = null;
let fixing = null;          // the entry number being corrected
let pendingId = null;       // the client id of the entry being sent (kept across retries)
// The session version the form was opened on (issue 19 item 1): sent with every save, so a
// result for a hand that got one meanwhile is refused instead of stored a second time. An
// untouched form follows live updates; once a person types, it keeps the version it was opened on.
let formVersion = null;
let dirty = false;
let conflictNo = null;      // the entry a refused save named (offered for correction)
const AUTHOR_KEY = "sanma-keeper-author";

const KEYS = ["hand", "win", "pon", "kan", "ankan", "dora", "ura"];
const LIMIT = { hand: 14, win: 1, pon: 4, kan: 4, ankan: 4, dora: 5, ura: 5 };
const LABEL = { hand: "Hand", win: "Winning tile", pon: "Pon", kan: "Open kan", ankan: "Closed kan",
  dora: "Dora ind.", ura: "Ura ind." };
const FLAGS = ["ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan"];
const tiles = [0, 1].map(() => Object.fromEntries(KEYS.map((k) => [k, []])));
let active = { w: 0, key: "hand" };  // where a picked tile goes

if (params.get("centre")) document.body.classList.add("centre");

function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }
function newId() { return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2); }
const sfx = (i) => (i === 0 ? "" : String(i + 1));   // element ids: #winner, #winner2, ...

/** A number as the rules write it (P30: "triangle" writes a minus as △). */
function num(v, { plus = false, comma = true } = {}) {
  const body = comma ? Math.abs(v).toLocaleString("en-US") : String(Math.abs(v));
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

function players() {
  return Object.entries(state.seats).filter(([p, w]) => w !== null).map(([p]) => p);
}

function boxes(id, cls) {  // a live update keeps the ticks a person made (issue 19 item 1)
  const ticked = new Set(checked(cls));
  $(id).innerHTML = players().map(p => `<label><input type="checkbox" class="${cls}" value="${esc(p)}"${ticked.has(p) ? " checked" : ""}>${esc(p)}</label>`).join("");
}

function options(id) {
  const keep = $(id).value;
  $(id).innerHTML = players().map(p => `<option value="${esc(p)}">${esc(p)}</option>`).join("");
  if (keep && players().includes(keep)) $(id).value = keep;
}

// --- the winners' blocks ----------------------------------------------------------------------

function winnerBlock(i) {
  const s = sfx(i);
  const targets = KEYS.map(k => `<div class="target${["hand", "win"].includes(k) ? "" : " half"}" data-w="${i}" data-key="${k}" id="target${i}-${k}">` +
    `<span class="name">${LABEL[k]}${k === "hand" ? ` <span id="count${i}"></span>` : ""}</span>` +
    `<span class="tiles" id="t${i}-${k}"></span></div>`).join("");
  return `<div class="winner" id="w${i}">
    <h3>${i === 0 ? "Winner" : "Second winner"}</h3>
    <label>Who <select id="winner${s}" class="who-win"></select></label>
    <label>Enter by <select id="how${s}"><option value="value">han / fu</option><option value="tiles">tiles</option></select></label>
    <div class="by-value" id="value${i}">
      <label>Han <input id="han${s}" type="number" min="0" max="60" value="1"></label>
      <label>Fu <input id="fu${s}" type="number" min="20" max="110" step="5" value="30"></label>
      <label>Yakuman <input id="yakuman${s}" type="number" min="0" max="6" value="0"></label>
    </div>
    <div class="by-tiles hidden" id="bytiles${i}">
      <div class="targets">${targets}</div>
      <label>Kita <input id="kita${s}" type="number" min="0" max="4" value="0"></label>
      <label title="引きヅモ: the winning tile went into the hand before the win was shown; scored as the lowest shape where the rules say so (P129)"><input type="checkbox" id="mixed${s}"> winning tile mixed into the hand</label>
      <div class="flags">${FLAGS.map(f => `<label><input type="checkbox" class="flag${i}" value="${f}"> ${f.replace("_", " ")}</label>`).join("")}</div>
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

function renderTiles() {
  for (const w of [0, 1]) {
    for (const k of KEYS) {
      const box = $(`t${w}-${k}`);
      box.innerHTML = "";
      tiles[w][k].forEach((t, i) => {
        const e = tileEl(t);
        e.title = "take back";
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
  const t = tiles[active.w];
  $("mpsz").value = listToMpsz(t.hand) + t.win.map(toMpsz).join("");
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
    const t = tiles[w];
    if (!t.win.length) throw new Error(`${out.winner}: pick the winning tile`);
    out.hand = listToMpsz([...t.hand, ...t.win]);
    out.win = $("mixed" + s).checked ? "mixed" : toMpsz(t.win[0]);  // P129: any tile of the hand stands for it
    const melds = [...t.pon.map(x => meld("pon", x)), ...t.kan.map(x => meld("kan", x)), ...t.ankan.map(x => meld("ankan", x))];
    if (melds.length) out.melds = melds;
    if (t.dora.length) out.dora = t.dora.map(toMpsz);
    if (t.ura.length) out.ura = t.ura.map(toMpsz);
    const kita = parseInt($("kita" + s).value || "0", 10);
    if (kita) out.kita = kita;
    const flags = [...document.querySelectorAll(`input.flag${w}:checked`)].map(e => e.value);
    if (flags.length) out.flags = flags;
    return out;
  }
  const y = parseInt($("yakuman" + s).value || "0", 10);
  if (y > 0) out.yakuman = y;
  else { out.han = parseInt($("han" + s).value || "0", 10); out.fu = parseInt($("fu" + s).value || "0", 10); }
  return out;
}

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
    $("kita" + s).value = d.kita || 0;
    document.querySelectorAll(`input.flag${w}`).forEach(e => { e.checked = (d.flags || []).includes(e.value); });
  } else {
    $("how" + s).value = "value";
    $("han" + s).value = d.han || 0; $("fu" + s).value = d.fu || 30; $("yakuman" + s).value = d.yakuman || 0;
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
  el.innerHTML = `Entered on another device since you opened this form: ` +
    since.map(r => `<b>#${r.no}</b> ${esc(r.label || "")} ${esc(r.summary || r.kind)}${r.by ? ` (${esc(r.by)})` : ""}`).join("; ") +
    `. What you typed is kept; Save checks it against that.`;
  el.classList.remove("hidden");
}

function render(s) {
  const before = state;
  state = s;
  if (formVersion === null || !dirty) rebase(s);
  else if (before && s.version !== before.version) noteChanges(s);
  $("title").textContent = `${s.rules} — game ${s.game}${s.finished ? " (finished)" : ""}`;
  if (s.links && s.links.read) {  // the organiser's page: the link to share (it reads, never writes)
    $("links").innerHTML = `Read-only link for the others: <a href="${esc(s.links.read)}">${esc(location.origin + s.links.read)}</a>`;
  }
  const h = s.hand;
  $("hand").textContent = h ? `${h.round}${h.number}${h.lap ? " lap " + (h.lap + 1) : ""} · ${h.honba} honba · ${h.sticks} sticks` +
    `${s.pot && s.pot.chips ? ` · ${s.pot.chips} chips on the table` : ""} · dealer ${h.dealer}` : "between games";
  $("scores").innerHTML = s.people.map(p => {
    const w = s.seats[p];
    const sc = s.scores[p];
    return `<tr data-person="${esc(p)}"><td>${w || "–"}</td><td>${esc(p)}</td>` +
      `<td class="score">${sc === undefined ? "" : num(sc)}</td><td class="score chips">${num(s.chips[p], {plus: true})}</td></tr>`;
  }).join("");
  const n = s.next;
  $("next").textContent = s.finished ? `next: game ${n.game}, dealer ${n.dealer}` + (n.sitting_out ? `, ${n.sitting_out} sits out` : "") + (n.uma_multiplier > 1 ? `, uma ×${n.uma_multiplier}` : "") : "";
  $("state-version").textContent = s.version;
  renderSheet(s);
  if (s.finished) {  // the next game's seating is the one to enter for
    state = Object.assign({}, s, {seats: n.seats});
  }
  for (const id of ["winner", "winner2", "from", "who"]) options(id);
  boxes("riichi", "riichi"); boxes("tenpai", "tenpai");
  if ($("winner2").value === $("winner").value) {
    const other = players().find(p => p !== $("winner").value && p !== $("from").value);
    if (other) $("winner2").value = other;
  }
  $("hands").innerHTML = s.hands.slice().reverse().map(r => {
    const d = Object.entries(r.deltas).filter(([p, v]) => v).map(([p, v]) => `${esc(p)} ${num(v, {plus: true})}`).join(", ");
    return `<li data-no="${r.no}">#${r.no} g${r.game} ${esc(r.label || "")} ${esc(r.summary || r.kind)}${d ? " — " + d : ""} ` +
      (r.kind === "seating" ? "" : `<button class="fix" data-no="${r.no}">fix</button>`) +
      `<button class="delete" data-no="${r.no}">delete</button></li>`;
  }).join("");
  showFields();
}

function renderSheet(s) {  // the score sheet: each finished game's points, and the totals (P30 notation)
  $("sheet-box").classList.toggle("hidden", !s.games.length);
  if (!s.games.length) return;
  const head = `<tr><th>game</th>${s.people.map(p => `<th class="num">${esc(p)}</th>`).join("")}</tr>`;
  const rows = s.games.map(g => `<tr><td>${g.game}</td>${s.people.map(p => `<td class="num">${p in g.points ? num(g.points[p], {comma: false}) : ""}</td>`).join("")}</tr>`);
  const tot = Object.fromEntries(s.standings.map(r => [r.person, r]));
  const total = `<tr class="total"><td>total</td>${s.people.map(p => `<td class="num">${tot[p] ? num(tot[p].points, {comma: false}) : ""}</td>`).join("")}</tr>`;
  const chips = `<tr><td>chips</td>${s.people.map(p => `<td class="num">${tot[p] ? num(tot[p].chips, {plus: true}) : ""}</td>`).join("")}</tr>`;
  $("sheet").innerHTML = head + rows.join("") + total + chips;
}

function showFields() {
  const k = $("kind").value;
  const win = k === "ron" || k === "tsumo";
  const on = {"f-win": win, "f-ron": k === "ron", "f-riichi": ["ron", "tsumo", "draw", "abort"].includes(k),
    "f-draw": k === "draw", "f-abort": k === "abort", "f-who": k === "chombo" || k === "penalty", "f-penalty": k === "penalty"};
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

function checked(cls) { return [...document.querySelectorAll("input." + cls + ":checked")].map(e => e.value); }

function entry() {
  const k = $("kind").value;
  const riichi = checked("riichi");
  if (k === "ron" || k === "tsumo") {
    const wins = [0, 1].slice(0, winnersShown()).map(winnerJson);
    const e = {kind: "win", wins, riichi};
    if (k === "ron") e.from = $("from").value;
    return e;
  }
  if (k === "draw") return {kind: "draw", tenpai: checked("tenpai"), riichi};
  if (k === "abort") return {kind: "abort", abort: $("abort-kind").value, riichi};
  if (k === "chombo") return {kind: "chombo", who: $("who").value, reason: $("reason").value};
  return {kind: "penalty", who: $("who").value, penalty: $("penalty-kind").value, reason: $("reason").value};
}

/** Every payment of an entry's row: each winner's (points, honba and sticks), the riichi sticks
 *  put down this hand, the total and the chips; nothing is saved. */
function previewTable(r, pot) {
  const people = Object.keys(r.deltas);
  const row = (label, d, cls = "") => `<tr class="${cls}"><th>${esc(label)}</th>${people.map(p => `<td class="num">${d[p] ? num(d[p], {plus: true}) : "·"}</td>`).join("")}</tr>`;
  const rows = [];
  const paid = Object.fromEntries(people.map(p => [p, 0]));
  for (const pay of r.payments || []) {
    rows.push(row(`${pay.winner}'s win` + (pay.pao ? ` (pao: ${pay.pao})` : ""), pay.deltas));
    for (const p of people) paid[p] += pay.deltas[p] || 0;
  }
  if (r.payments && r.payments.length) {
    const rest = Object.fromEntries(people.map(p => [p, r.deltas[p] - paid[p]]));
    if (people.some(p => rest[p])) rows.push(row("riichi sticks", rest));
  }
  rows.push(row("total", r.deltas, "total"));
  if (people.some(p => r.chips[p])) rows.push(row("chips", r.chips));
  const head = `<tr><th></th>${people.map(p => `<th class="num">${esc(p)}</th>`).join("")}</tr>`;
  return `<div id="preview-summary">preview (nothing saved): ${esc(r.summary || r.kind)} · ${r.honba || 0} honba` +
    `${r.game_over ? ` · game over (${esc(r.game_over)})` : ""}</div><table id="preview-table">${head}${rows.join("")}</table>` +
    `<div class="muted">after it: ${pot.sticks} sticks, ${pot.chips} chips on the table</div>`;
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
      $("preview-out").innerHTML = r ? previewTable(r, s.pot) : "";
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
  if (no !== null) $("conflict-fix").textContent = `Correct #${no} with this form`;
}

function clearForm() {  // after a save: the next hand starts from an empty form (the kind and "enter by" stay)
  for (const w of [0, 1]) {
    for (const k of KEYS) tiles[w][k] = [];
    const x = sfx(w);
    $("han" + x).value = 1; $("fu" + x).value = 30; $("yakuman" + x).value = 0; $("kita" + x).value = 0;
    document.querySelectorAll(`input.flag${w}`).forEach(e => { e.checked = false; });
    $("mixed" + x).checked = false;
  }
  $("double").checked = false;
  $("reason").value = "";
  document.querySelectorAll("input.riichi, input.tenpai").forEach(e => { e.checked = false; });
  active = { w: 0, key: "hand" };
}

function endFix() {
  fixing = null;
  showConflict(null);
  $("form-title").textContent = "Enter a hand";
  $("cancel-fix").classList.add("hidden");
}

function startFix(no) {
  const r = state.hands.find(h => h.no === no);
  fixing = no;
  rebase(state);
  dirty = true;
  $("form-title").textContent = `Correct entry #${no}`;
  $("cancel-fix").classList.remove("hidden");
  const e = r.entry;
  if (e.kind === "win") {
    $("kind").value = e.from ? "ron" : "tsumo";
    if (e.from) $("from").value = e.from;
    $("double").checked = e.wins.length > 1;
    e.wins.slice(0, 2).forEach((w, i) => loadWinner(i, w));
  } else if (e.kind === "draw") { $("kind").value = "draw"; }
  else if (e.kind === "abort") { $("kind").value = "abort"; $("abort-kind").value = e.abort; }
  else if (e.kind === "chombo") { $("kind").value = "chombo"; $("who").value = [].concat(e.who)[0]; }
  else if (e.kind === "penalty") { $("kind").value = "penalty"; $("penalty-kind").value = e.penalty; $("who").value = e.who; }
  const tick = (cls, names) => document.querySelectorAll("input." + cls).forEach(b => { b.checked = (names || []).includes(b.value); });
  tick("riichi", e.riichi);
  tick("tenpai", e.tenpai);
  showFields();
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
  $("winners").innerHTML = winnerBlock(0) +
    `<div class="f-ron"><label><input type="checkbox" id="double"> Double ron: a second winner</label></div>` +
    winnerBlock(1);
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
  document.querySelectorAll(".target").forEach(d => d.addEventListener("click", () => {
    active = { w: Number(d.dataset.w), key: d.dataset.key };
    renderTiles();
  }));
  for (const id of ["kind", "double", "how", "how2"]) $(id).addEventListener("change", showFields);
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
    formVersion = state.version;
    pendingId = null;
    $("form-title").textContent = `Correct entry #${no}`;
    $("cancel-fix").classList.remove("hidden");
    $("error").textContent = "";
    $("form-note").classList.add("hidden");
  });
  $("conflict-discard").addEventListener("click", () => {
    showConflict(null); endFix(); clearForm(); pendingId = null; $("error").textContent = ""; rebase(state); render(state);
  });
  $("author").value = localStorage.getItem(AUTHOR_KEY) || "";
  $("author").addEventListener("change", () => localStorage.setItem(AUTHOR_KEY, $("author").value));
  $("undo").addEventListener("click", async () => {
    try { render(await api(`/api/keeper/sessions/${sid}/undo`, {expected_version: state.version})); }
    catch (e) { $("error").textContent = e.message; }
  });
  $("hands").addEventListener("click", async (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const no = parseInt(b.dataset.no, 10);
    if (b.classList.contains("fix")) { startFix(no); return; }
    try { render(await api(`/api/keeper/sessions/${sid}/entries/${no}`, {delete: true, reason: $("reason").value, opened_version: state.version, author: $("author").value})); }
    catch (e) { $("error").textContent = e.message; }
  });
  $("centre-link").addEventListener("click", (ev) => { ev.preventDefault(); document.body.classList.toggle("centre"); });
  $("new-go").addEventListener("click", async () => {
    try {
      const s = await api("/api/keeper/sessions", {rules: $("new-rules").value, people: $("new-people").value.split(",").map(x => x.trim()).filter(Boolean)});
      location.href = s.links.organiser;  // the organiser's link: keep it, it is the only way back in
    } catch (e) { $("create-error").textContent = e.message; }
  });
  if (sid) {
    $("session").classList.remove("hidden");
    api(`/api/keeper/sessions/${sid}`).then(render).catch(e => { $("error").textContent = e.message; });
    connect();
  } else {
    $("create").classList.remove("hidden");
  }
}

init();
