// The replay viewer: a record read by the server (POST /api/replays) stepped through with every
// hand open, from any seat's viewpoint. Stored games come from the server's record endpoint,
// which answers only for finished games.
import { tileEl } from "/static/tiles.js";
import { el, getJSON, signed, displayName } from "/static/common.js";
import { renderBoard } from "/static/board.js";

const $ = (id) => document.getElementById(id);
const R = { rec: null, hand: 0, step: 0, viewpoint: 0, table: null };
const WIND_ORDER = "ESW";

function kindOf(t) { return t.endsWith("r") ? t.slice(0, -1) : t; }
function take(list, tile) {  // remove one tile, or one of its kind (a record may drop the red mark)
  let i = list.indexOf(tile);
  if (i < 0) i = list.findIndex((t) => kindOf(t) === kindOf(tile));
  if (i >= 0) list.splice(i, 1);
}

/** The table after ``step`` events of hand ``k``, as a VIEW with every hand open. */
export function stateAt(rec, k, step) {
  const ky = rec.kyoku[k];
  const n = ky.start_scores.length;
  const seats = Array.from({ length: n }, (_, s) => ({
    seat: s, wind: WIND_ORDER[(s - ky.dealer + n) % n], discards: [], melds: [], kita: 0, flowers: 0,
    flower_tiles: [], riichi: false, tiles: [...(ky.initial_hands[s] || [])], drawn: null, hand_size: 0 }));
  const scores = [...ky.start_scores];
  let kyotaku = ky.kyotaku;
  let dora = ky.initial_indicators || 1;
  let draws = 0;
  let turn = ky.dealer;
  let last = null;
  const merge = (s) => { if (s.drawn) { s.tiles.push(s.drawn); s.drawn = null; } };
  const declared = new Set();  // seats whose riichi is declared: the next discard lies sideways
  for (const e of ky.events.slice(0, step)) {  // sanma's events in mjai form
    const s = seats[e.actor];
    switch (e.type) {
      case "tsumo": merge(s); s.drawn = e.pai; draws += 1; turn = e.actor; break;
      case "reach": declared.add(e.actor); break;
      case "dahai": {
        if (e.tsumogiri && s.drawn) s.drawn = null; else { merge(s); take(s.tiles, e.pai); }
        const d = { pai: e.pai, tsumogiri: e.tsumogiri, riichi: declared.delete(e.actor), called: false, last: true };
        if (last) last.last = false;
        s.discards.push(d); last = d; turn = e.actor; break;
      }
      case "pon": case "daiminkan": {
        merge(s);
        e.consumed.forEach((t) => take(s.tiles, t));
        const from = seats[e.target].discards;
        if (from.length) from[from.length - 1].called = true;
        s.melds.push({ type: e.type === "pon" ? "pon" : "kan", kind: e.type, tiles: [e.pai, ...e.consumed], target: e.target, called: e.pai });
        turn = e.actor; break;
      }
      case "kakan": {
        merge(s); take(s.tiles, e.pai);
        const m = s.melds.find((x) => x.type === "pon" && kindOf(x.tiles[0]) === kindOf(e.pai));
        if (m) { m.type = "kan"; m.kind = "kakan"; m.tiles = [...e.consumed, e.pai]; m.added = e.pai; }
        break;
      }
      case "ankan": merge(s); e.consumed.forEach((t) => take(s.tiles, t)); s.melds.push({ type: "ankan", kind: "ankan", tiles: e.consumed, target: null, called: null }); break;
      case "kita": merge(s); take(s.tiles, e.pai); s.kita += 1; break;
      case "flower": merge(s); take(s.tiles, e.pai); s.flower_tiles.push(e.pai); s.flowers += 1; break;
      case "reach_accepted": s.riichi = true; scores[e.actor] -= 1000; kyotaku += 1; break;
      case "dora": dora += 1; break;
      default: break;
    }
  }
  for (const s of seats) s.hand_size = s.tiles.length + (s.drawn ? 1 : 0);
  const done = step >= ky.events.length;
  return {
    seat: null, round_wind: ky.round_wind, round_index: 0, kyoku: ky.dealer + 1, honba: ky.honba, kyotaku,
    dealer: ky.dealer, turn, scores: done ? ky.end_scores : scores, names: [0, 1, 2].map((i) => displayName(rec.players[i], i)),
    dora_indicators: ky.dora_indicators.slice(0, dora), wall_remaining: Math.max(0, 55 - draws), seats, done,
    ura: done ? ky.ura_indicators : [],
  };
}

function describe(e, names) {
  const who = names[e.actor] ?? `seat ${e.actor}`;
  switch (e.type) {
    case "tsumo": return `${who} draws ${e.pai}${e.rinshan ? " (replacement)" : ""}`;
    case "reach": return `${who} declares riichi`;
    case "dahai": return `${who} discards ${e.pai}${e.tsumogiri ? " (tsumogiri)" : ""}`;
    case "pon": return `${who} pon ${e.pai}`;
    case "daiminkan": return `${who} open kan ${e.pai}`;
    case "kakan": return `${who} added kan ${e.pai}`;
    case "ankan": return `${who} closed kan ${e.consumed[0]}`;
    case "kita": return `${who} kita`;
    case "flower": return `${who} flower ${e.pai}`;
    case "reach_accepted": return `${who}'s riichi stick is down`;
    case "dora": return `new dora indicator ${e.dora_marker}`;
    default: return e.type;
  }
}

function render() {
  const rec = R.rec;
  if (!rec) return;
  const ky = rec.kyoku[R.hand];
  const view = stateAt(rec, R.hand, R.step);
  renderBoard($("board"), view, { viewpoint: R.viewpoint, names: view.names, ura: view.ura });
  $("hand").value = String(R.hand);
  const ev = ky.events[R.step - 1];
  $("step").textContent = `step ${R.step}/${ky.events.length}` + (ev ? ` — ${describe(ev, view.names)}` : " — the deal");
  renderResult(ky, view.names, view.done);
}

function renderResult(ky, names, done) {
  const box = $("result");
  box.innerHTML = "";
  if (!done) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  box.appendChild(el("strong", {}, `${ky.label} result`));
  for (const r of ky.results) {
    if (r.type === "win") {
      const value = r.yakuman ? `${r.yakuman}× yakuman` : `${r.han} han${r.fu ? ` ${r.fu} fu` : ""}${r.limit ? ` (${r.limit})` : ""}`;
      box.appendChild(el("div", { class: "replay-win", style: "margin-top:6px" },
        el("div", {}, `${names[r.seat]} — ${r.tsumo ? "tsumo" : "ron from " + names[r.from_seat]}: ${value} → ${r.points.toLocaleString("en-US")}`),
        el("div", { class: "tiles tiny" }, tileEl(r.win)),
        el("table", { class: "data" }, r.yaku.map(([n, h]) => el("tr", {}, el("td", {}, n.replace(/_/g, " ")), el("td", { class: "num" }, String(h)))))));
    } else {
      box.appendChild(el("div", { style: "margin-top:6px" }, `Draw: ${r.kind.replace(/_/g, " ")}` +
        (r.tenpai && r.tenpai.length ? ` — tenpai: ${r.tenpai.map((s) => names[s]).join(", ")}` : "")));
    }
    box.appendChild(el("div", { class: "row", style: "gap:12px;font-size:12px" },
      r.deltas.map((d, s) => el("span", { class: d > 0 ? "plus" : d < 0 ? "minus" : "" }, `${names[s]} ${signed(d)}`))));
  }
}

function load(rec, title) {
  R.rec = rec; R.hand = 0; R.step = 0; R.viewpoint = 0;
  $("controls").classList.remove("hidden");
  $("title").textContent = title;
  const hs = $("hand");
  hs.innerHTML = "";
  rec.kyoku.forEach((k, i) => hs.appendChild(el("option", { value: String(i) }, `${i + 1}. ${k.label}`)));
  const vp = $("viewpoint");
  vp.innerHTML = "";
  const names = [0, 1, 2].map((i) => displayName(rec.players[i], i));
  names.forEach((n, i) => vp.appendChild(el("option", { value: String(i) }, n)));
  const probs = $("problems");
  probs.innerHTML = "";
  probs.classList.toggle("hidden", !rec.errors.length);
  if (rec.errors.length) probs.appendChild(el("div", { class: "error" }, `${rec.errors.length} problem(s) reading it: ${rec.errors[0]}`));
  const dl = $("downloads");
  dl.innerHTML = "";
  dl.classList.toggle("hidden", !R.table);
  if (R.table) {
    const id = encodeURIComponent(R.table);
    dl.appendChild(el("span", {}, "Download:"));
    dl.appendChild(el("a", { href: `/api/tables/${id}/record?format=tenhou6`, download: `${R.table}.json`, id: "dl-tenhou6" }, "tenhou.net/6 JSON"));
    dl.appendChild(el("a", { href: `/api/tables/${id}/record?format=mjai`, download: `${R.table}.mjson`, id: "dl-mjai" }, "mjai"));
  }
  render();
}

async function post(text, name) {
  $("status").textContent = "reading…";
  const r = await fetch(`/api/replays?name=${encodeURIComponent(name)}`, { method: "POST", body: text, headers: { "Content-Type": "text/plain" } });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) { $("status").textContent = data.error; return; }
  $("status").textContent = `${data.format} record, ${data.kyoku.length} hands`;
  load(data, name);
}

async function openTable(id) {
  R.table = id;
  const r = await fetch(`/api/tables/${encodeURIComponent(id)}/record?format=mjai`);
  if (!r.ok) {
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    $("status").textContent = data.error || `HTTP ${r.status}`;
    return;
  }
  await post(await r.text(), `table ${id}`);
}

async function listStored() {
  const box = $("stored");
  try {
    const data = await getJSON("/api/tables");
    const done = (data.tables || []).filter((t) => t.finished);
    box.innerHTML = "";
    if (!done.length) box.appendChild(el("div", {}, "none yet"));
    for (const t of done) {
      box.appendChild(el("div", {}, el("a", { href: `/replay?table=${encodeURIComponent(t.id)}`, "data-table": t.id },
        `${t.id} — ${t.rules}`), ` ${(t.scores || []).join(" / ")}`));
    }
  } catch (e) { box.textContent = "none (the server lists no tables)"; }
}

function go(hand, step) {
  if (!R.rec) return;
  const n = R.rec.kyoku.length;
  if (hand < 0 || hand >= n) return;
  R.hand = hand;
  R.step = Math.max(0, Math.min(step, R.rec.kyoku[hand].events.length));
  render();
}

$("upload").addEventListener("change", async () => {
  const f = $("upload").files[0];
  if (!f) return;
  R.table = null;
  await post(await f.text(), f.name);
});
$("hand").addEventListener("change", () => go(Number($("hand").value), 0));
$("viewpoint").addEventListener("change", () => { R.viewpoint = Number($("viewpoint").value); render(); });
$("prev").addEventListener("click", () => (R.step > 0 ? go(R.hand, R.step - 1) : go(R.hand - 1, 1e9)));
$("next").addEventListener("click", () => (R.rec && R.step < R.rec.kyoku[R.hand].events.length ? go(R.hand, R.step + 1) : go(R.hand + 1, 0)));
$("prev-hand").addEventListener("click", () => go(R.hand - 1, 0));
$("next-hand").addEventListener("click", () => go(R.hand + 1, 0));
$("end").addEventListener("click", () => go(R.hand, 1e9));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const map = { ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-hand", ArrowDown: "next-hand", e: "end", E: "end" };
  if (map[e.key]) { e.preventDefault(); $(map[e.key]).click(); }
});

listStored();
const wanted = new URLSearchParams(location.search).get("table");
if (wanted) openTable(wanted);
