// The table page: a seat (/t/ID?token=T) or a spectator (/t/ID/watch), speaking docs/WEB_PROTOCOL.md.
// The server decides everything: this page draws its view and sends the id of an action it offered.
import { tileEl, sortTiles, tileLabel } from "/static/tiles.js";
import { el, signed, displayName } from "/static/common.js";
import { renderBoard, WINDS, meldEl, lapOf } from "/static/board.js";

const $ = (id) => document.getElementById(id);
const path = location.pathname.split("/").filter(Boolean);  // ["t", ID] or ["t", ID, "watch"]
const tableId = decodeURIComponent(path[1] || "");
const token = new URLSearchParams(location.search).get("token");
const watching = path[2] === "watch" || !token;

const S = { hello: null, view: null, prompt: null, toggles: null, mode: "", choice: null,
  focus: -1, log: [], ws: null, retry: 0, closed: false, seats: [], lastResult: null };

const KEYS = { hora: "W", reach: "R", open_reach: "O", pon: "P", daiminkan: "K", ankan: "K", kakan: "K",
  kita: "N", ryukyoku: "9", none: "X" };
const TOGGLE_NAMES = { auto_win: "Auto win", auto_kita: "Auto kita", no_calls: "No calls",
  auto_tsumogiri: "Auto tsumogiri", auto_sort: "Sort hand" };

function names() {  // the lobby's names first, then the engine's
  const v = S.view;
  return [0, 1, 2].map((i) => displayName((S.seats[i] && S.seats[i].name) || (v && v.names && v.names[i]), i));
}
function seatName(i) { return names()[i] || `seat ${i}`; }

// ---------------------------------------------------------------------------------------------
// connection
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const url = watching
    ? `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}/watch`
    : `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}/play?token=${encodeURIComponent(token)}`;
  const ws = new WebSocket(url);
  S.ws = ws;
  ws.onopen = () => { S.retry = 0; setStatus("connected"); };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    handle(msg);
  };
  ws.onclose = (ev) => {
    if (ev.code === 4403 || ev.code === 4404) { S.closed = true; setStatus("closed: " + (ev.reason || ev.code)); return; }
    S.prompt = null;
    renderPrompt();
    setStatus("disconnected — reconnecting…");
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 300 * S.retry);
  };
}

function send(obj) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
}

function setStatus(text) { $("status").textContent = text; $("status").dataset.state = text.split(" ")[0]; }

function handle(msg) {
  switch (msg.type) {
    case "hello":
      S.hello = msg; S.seats = msg.seats || []; S.toggles = msg.toggles; S.log = [];
      renderInfo(); renderToggles(); break;
    case "view":
      S.view = msg.view;
      // protocol 2: a seat's view names its open prompt; one it does not name is gone
      if (S.prompt && msg.prompt !== S.prompt.prompt) { S.prompt = null; S.mode = ""; S.choice = null; }
      (msg.events || []).forEach(logEvent);
      render(); break;
    case "prompt":
      S.prompt = msg; S.mode = ""; S.choice = null; S.focus = -1;
      render(); break;
    case "hand_result":
      S.lastResult = msg.result; showHandResult(msg.result); break;
    case "game_result":
      showGameResult(msg); break;
    case "toggles":
      S.toggles = msg.toggles; renderToggles(); break;
    case "presence":
      S.seats = msg.seats; renderInfo(); break;
    case "error":
      // an answer that crossed another seat's move (its ron came first): the prompt is gone, not an error of ours
      if (msg.code === "not_your_turn" || msg.code === "stale") { addLog(`(too late: ${msg.message})`, true); break; }
      addLog(`⚠ ${msg.message}`);
      if (msg.code === "bad_token" || msg.code === "no_such_table") setStatus(msg.message);
      break;
    default: break;
  }
}

// ---------------------------------------------------------------------------------------------
// drawing
function render() {
  const v = S.view;
  if (!v) return;
  const vp = v.seat ?? 0;
  const decorated = decorate(v);
  const lap = lapOf(v, S.hello && S.hello.rules_detail ? S.hello.rules_detail.round_winds : null);
  renderBoard($("board"), decorated, { viewpoint: vp, own: !watching, names: names(), lap });
  wireHand();
  renderPrompt();
  renderMine();
  renderInfo();
}

function decorate(v) {  // mark the last discard and the tile a call would take
  const copy = { ...v, seats: v.seats.map((s) => ({ ...s, discards: s.discards.map((d) => ({ ...d })) })) };
  const last = lastDiscard();
  if (last) {
    const d = copy.seats[last.seat].discards[copy.seats[last.seat].discards.length - 1];
    if (d) {
      d.last = true;
      if (S.prompt && S.prompt.actions.some((a) => ["pon", "daiminkan", "hora"].includes(a.type) && a.target === last.seat
        && a.target !== a.actor)) d.candidate = true;
    }
  }
  return copy;
}

function lastDiscard() {
  for (let i = S.log.length - 1; i >= 0; i--) {
    const e = S.log[i].event;
    if (!e) continue;
    if (e.type === "dahai") return { seat: e.actor, pai: e.pai };
    if (e.type === "start_kyoku") return null;
  }
  return null;
}

function actions() { return S.prompt ? S.prompt.actions : []; }
function dahaiFor(tile, drawn) {
  const opts = actions().filter((a) => a.type === "dahai" && a.pai === tile);
  return opts.find((a) => Boolean(a.tsumogiri) === drawn) || opts[0] || null;
}
function reachFor(tile) { return actions().find((a) => a.type === S.mode && a.pai === tile) || null; }

function wireHand() {
  const tiles = [...document.querySelectorAll(".hand-zone.bottom .tilebox.mine")];
  const callTiles = new Set();
  for (const a of actions()) if (["pon", "daiminkan"].includes(a.type)) (a.consumed || []).forEach((t) => callTiles.add(t));
  tiles.forEach((e, i) => {
    const t = e.dataset.tile;
    const isDrawn = e.classList.contains("drawn");
    const act = S.mode ? reachFor(t) : dahaiFor(t, isDrawn);
    if (S.mode) e.classList.add(act ? "riichi-ok" : "riichi-no");
    if (!act) e.classList.add("disabled");
    if (!S.mode && callTiles.has(t)) e.classList.add("candidate");
    if (i === S.focus) e.classList.add("focus");
    e.addEventListener("click", () => { if (act) choose(act); });
  });
}

function choose(action) {
  if (!S.prompt) return;
  send({ type: "action", prompt: S.prompt.prompt, id: action.id });
  S.prompt = null; S.mode = ""; S.choice = null;
  render();
}

function buttonFor(a, key) {
  const kind = a.type === "hora" ? "win" : a.type === "none" ? "pass" : ["pon", "daiminkan", "ankan", "kakan", "kita"].includes(a.type) ? "call" : "";
  const tile = a.pai || (a.consumed && a.consumed[0]);
  const words = { hora: a.target === a.actor ? "Tsumo" : "Ron", none: "Pass", ryukyoku: "Nine terminals", kita: "Kita",
    pon: "Pon", daiminkan: "Kan", ankan: "Closed kan", kakan: "Added kan" };
  let label = words[a.type] || a.label || a.type;
  if (["pon", "daiminkan", "ankan", "kakan"].includes(a.type) && tile) {
    label += " " + tileLabel(tile);
    if (a.type === "pon" && a.consumed && a.consumed.some((t) => t.endsWith("r"))) label += " (with red five)";
  }
  return el("button", { class: kind, "data-action": a.type, "data-id": a.id, onclick: () => choose(a) },
    label, key ? el("kbd", {}, key) : null);
}

function grouped() {  // the prompt's non-discard actions by button: riichi kinds once each
  const out = [];
  const seen = new Set();
  for (const a of actions()) {
    if (a.type === "dahai") continue;
    if (a.type === "reach" || a.type === "open_reach") {
      if (!seen.has(a.type)) { seen.add(a.type); out.push({ mode: a.type, key: KEYS[a.type] }); }
      continue;
    }
    out.push({ action: a, key: KEYS[a.type] });
  }
  return out;
}

function renderPrompt() {
  const box = $("prompt");
  box.innerHTML = "";
  const hint = $("prompt-hint");
  hint.textContent = "";
  if (watching) { $("prompt-title").textContent = "Watching"; return; }
  if (!S.prompt) { $("prompt-title").textContent = S.view && S.view.done ? "Game over" : "Waiting"; showClock(); return; }
  const hasDiscard = actions().some((a) => a.type === "dahai");
  $("prompt-title").textContent = S.mode ? "Riichi: choose the discard" : hasDiscard ? "Your turn" : "Call?";
  if (S.mode) {
    box.appendChild(el("button", { class: "pass", onclick: () => { S.mode = ""; render(); } }, "Cancel", el("kbd", {}, "Esc")));
    hint.textContent = "Highlighted tiles keep the hand in tenpai.";
    return;
  }
  const counts = {};
  for (const g of grouped()) {
    const key = g.key;
    counts[key] = (counts[key] || 0) + 1;
    const n = counts[key];
    const shown = n === 1 ? key : `${key}${n}`;
    if (g.mode) {
      box.appendChild(el("button", { class: "call", "data-action": g.mode, onclick: () => { S.mode = g.mode; render(); } },
        g.mode === "reach" ? "Riichi" : "Open riichi", el("kbd", {}, shown)));
    } else box.appendChild(buttonFor(g.action, shown));
  }
  const drawnAct = S.view && S.view.drawn ? dahaiFor(S.view.drawn, true) : null;
  if (drawnAct) box.appendChild(el("button", { "data-action": "tsumogiri", onclick: () => choose(drawnAct) }, "Tsumogiri", el("kbd", {}, "T")));
  if (hasDiscard) hint.textContent = "Click a tile to discard (← → and Enter).";
  if (S.choice) hint.textContent = `Several ${S.choice} options: press ${S.choice} again with its number, or click one.`;
}

function renderMine() {
  const v = S.view;
  const box = $("waits");
  box.innerHTML = "";
  if (watching || !v) { $("mine").classList.add("hidden"); return; }
  $("mine").classList.remove("hidden");
  if (v.waits && v.waits.length) {
    box.appendChild(el("span", {}, "Waits:"));
    v.waits.forEach((t) => box.appendChild(tileEl(t)));
  } else if (!v.drawn) box.appendChild(el("span", { class: "muted" }, "Not tenpai"));
  else box.appendChild(el("span", { class: "muted" }, "Waits show after your discard"));
  if (v.furiten) box.appendChild(el("span", { class: "furiten", id: "furiten", title: "you cannot ron (furiten)" }, "FURITEN"));
  if (v.riichi) box.appendChild(el("span", { class: "badge" }, "riichi"));
}

function renderInfo() {
  const h = S.hello;
  if (!h) return;
  const box = $("info");
  box.innerHTML = "";
  box.appendChild(el("div", { class: "row", style: "justify-content:space-between" },
    el("strong", {}, `Table ${tableId}`), el("span", { class: "badge" }, h.rules)));
  const list = el("div", { style: "margin-top:4px" });
  for (const s of S.seats) {
    const you = !watching && h.seat === s.seat ? " (you)" : "";
    list.appendChild(el("div", { class: "muted", style: "font-size:12px" },
      `${displayName(s.name, s.seat)}${you} — ${s.kind}`, s.kind === "human" || s.kind === "mjai"
        ? el("span", { class: s.connected ? "plus" : "minus" }, s.connected ? " ●" : " ○") : null));
  }
  box.appendChild(list);
  box.appendChild(el("div", { class: "seedline", id: "seed-hash", title: "SHA-256 of the wall seed, published before the first deal" },
    `seed hash ${h.seed_hash}`));
  if (S.seed !== undefined) box.appendChild(el("div", { class: "seedline", id: "seed" }, `seed ${S.seed}`));
  if (h.rules_detail && Object.keys(h.rules_detail).length) {
    box.appendChild(el("details", { id: "rules-detail" }, el("summary", { style: "font-size:12px" }, `Rules: ${h.rules}`),
      el("pre", { class: "rules" }, Object.entries(h.rules_detail).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join("\n"))));
  }
  if (watching) box.appendChild(el("div", { class: "muted", style: "font-size:12px" }, "Spectator: no concealed tile is ever sent here."));
}

function renderToggles() {
  const box = $("toggles");
  box.innerHTML = "";
  if (watching || !S.toggles) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  for (const [name, label] of Object.entries(TOGGLE_NAMES)) {
    const input = el("input", { type: "checkbox", id: "toggle-" + name, checked: Boolean(S.toggles[name]) });
    input.addEventListener("change", () => send({ type: "toggle", name, value: input.checked }));
    box.appendChild(el("label", { title: "kept by the server, also while you are away" }, input, " " + label));
  }
}

// ---------------------------------------------------------------------------------------------
// the log
function describe(e) {
  const who = (i) => seatName(i);
  switch (e.type) {
    case "start_kyoku": return `— ${WINDS[e.bakaze]} ${e.kyoku}, ${e.honba} honba —`;
    case "dahai": return `${who(e.actor)} discards ${e.pai}${e.tsumogiri ? " (tsumogiri)" : ""}`;
    case "pon": return `${who(e.actor)} pon ${e.pai} from ${who(e.target)}`;
    case "daiminkan": return `${who(e.actor)} kan ${e.pai} from ${who(e.target)}`;
    case "ankan": return `${who(e.actor)} closed kan`;
    case "kakan": return `${who(e.actor)} added kan ${e.pai}`;
    case "kita": return `${who(e.actor)} kita`;
    case "flower": return `${who(e.actor)} flower`;
    case "reach": return `${who(e.actor)} riichi!`;
    case "hora": return `${who(e.actor)} ${e.actor === e.target ? "tsumo" : "ron"}!`;
    case "ryukyoku": return "draw";
    case "dora": return `new dora indicator ${e.dora_marker}`;
    default: return null;
  }
}
function logEvent(e) {
  const text = describe(e);
  S.log.push({ event: e, text });
  if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
  if (text) addLog(text, true);
}
function addLog(text, quiet) {
  const box = $("log");
  box.appendChild(el("div", {}, text));
  while (box.children.length > 60) box.removeChild(box.firstChild);
  box.scrollTop = box.scrollHeight;
  if (!quiet) box.lastChild.classList.add("error");
}

// ---------------------------------------------------------------------------------------------
// results
function closeOverlay() { $("overlay").innerHTML = ""; }

function payments(result) {
  const rows = [0, 1, 2].map((s) => el("tr", {},
    el("td", {}, seatName(s)),
    el("td", { class: "num " + (result.deltas[s] > 0 ? "plus" : result.deltas[s] < 0 ? "minus" : "") }, signed(result.deltas[s])),
    result.chips && result.chips.some(Boolean) ? el("td", { class: "num" }, signed(result.chips[s])) : null,
    el("td", { class: "num" }, (result.scores || [])[s] !== undefined ? result.scores[s].toLocaleString("en-US") : "")));
  return el("table", { class: "data", id: "result-payments" },
    el("tr", {}, el("th", {}, "seat"), el("th", { class: "num" }, "points"),
      result.chips && result.chips.some(Boolean) ? el("th", { class: "num" }, "chips") : null, el("th", { class: "num" }, "score")),
    rows);
}

export function winBlock(w) {
  const hand = el("div", { class: "winhand" },
    el("span", { class: "tiles" }, sortTiles(w.hand || []).map((t) => tileEl(t))),
    el("span", { class: "tiles", style: "margin-left:8px" }, tileEl(w.pai, { boxCls: "win-tile" })),
    el("span", { class: "melds", style: "display:inline-flex;gap:6px;--tile-w:28px" }, (w.melds || []).map((m) => meldEl(m, w.seat, names()))));
  const value = w.yakuman ? `${w.yakuman}× yakuman` : `${w.han} han ${w.fu} fu` + (w.limit ? ` — ${w.limit}` : "");
  const extras = [["dora", w.dora], ["ura", w.ura], ["aka", w.aka], ["kita", w.kita], ["flowers", w.flowers]]
    .filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(" · ");
  return el("div", { class: "win" },
    el("h2", {}, `${seatName(w.seat)} — ${w.tsumo ? "tsumo" : "ron from " + seatName(w.from)}`),
    hand,
    el("table", { class: "data result-yaku" }, (w.yaku || []).map((y) => el("tr", {},
      el("td", {}, y.name.replace(/_/g, " ")), el("td", { class: "num" }, y.yakuman ? `yakuman ×${y.yakuman}` : `${y.han} han`)))),
    el("p", { class: "result-total", style: "font-size:18px" }, `${value} → ${Number(w.points).toLocaleString("en-US")} points`),
    w.fu_breakdown && w.fu_breakdown.length && !w.yakuman
      ? el("p", { class: "muted" }, "fu: " + w.fu_breakdown.map(([n, f]) => `${n.replace(/_/g, " ")} ${f}`).join(" + ")) : null,
    extras ? el("p", { class: "muted" }, extras) : null,
    w.uradora_markers && w.uradora_markers.length
      ? el("p", { class: "row" }, "ura indicators", el("span", { class: "tiles small" }, w.uradora_markers.map((t) => tileEl(t)))) : null,
    w.pao !== null && w.pao !== undefined ? el("p", {}, `pao: ${seatName(w.pao)} pays`) : null);
}

function showHandResult(r) {
  const title = r.kind === "hora" ? "Win" : r.kind === "ryukyoku" ? "Draw" : r.kind === "abort" ? "Abortive draw" : "Chombo";
  const card = el("div", { class: "card", id: "hand-result" },
    el("h2", {}, `${title}${r.reason ? " — " + r.reason.replace(/_/g, " ") : ""}`),
    (r.wins || []).map(winBlock),
    r.kind !== "hora" && r.tenpai ? el("p", {}, "Tenpai: " + (r.tenpai.length ? r.tenpai.map(seatName).join(", ") : "nobody")) : null,
    el("p", { class: "muted" }, `honba ${r.honba ?? 0} · riichi sticks ${r.sticks ?? 0}`),
    payments(r),
    el("div", { class: "row", style: "margin-top:10px;justify-content:flex-end" },
      el("button", { class: "primary", id: "result-ok", onclick: closeOverlay }, "OK", el("kbd", {}, "Enter"))));
  $("overlay").innerHTML = "";
  $("overlay").appendChild(el("div", { class: "overlay", onclick: (e) => { if (e.target.classList.contains("overlay")) closeOverlay(); } }, card));
}

function showGameResult(msg) {
  const r = msg.result || {};
  S.seed = msg.seed;
  renderInfo();
  const order = [0, 1, 2].sort((a, b) => (r.ranks ? r.ranks[a] - r.ranks[b] : 0));
  // every figure is the server's settlement (flow.final): uma_seats is each seat's uma as applied
  // (sinking uma's table, tied places' shares), in thousands of points or in chips; oka goes to the top
  const num = (x) => (typeof x === "number" ? x : null);
  const cell = (x, fmt) => el("td", { class: "num" }, x === null || x === undefined ? "" : fmt(x));
  const rows = order.map((s) => el("tr", { "data-seat": s },
    el("td", {}, String(r.ranks ? r.ranks[s] : "")), el("td", {}, seatName(s)),
    cell((r.scores || [])[s], (x) => x.toLocaleString("en-US")),
    cell(r.uma_seats ? num(r.uma_seats[s]) : null, (x) => (x > 0 ? "+" : "") + (Number.isInteger(x) ? x : x.toFixed(1))),
    cell(r.chips ? num(r.chips[s]) : null, signed),
    cell(r.points ? num(r.points[s]) : null, (x) => (x > 0 ? "+" : "") + x.toFixed(1))));
  const oka = Array.isArray(r.oka) ? r.oka.join(" / ") : r.oka ? Number(r.oka).toLocaleString("en-US") : "";
  const card = el("div", { class: "card", id: "game-result" },
    el("h2", {}, "Final result" + (r.reason ? ` — ${String(r.reason).replace(/_/g, " ")}` : "")),
    el("table", { class: "data" }, el("tr", {}, el("th", {}, "#"), el("th", {}, "player"), el("th", { class: "num" }, "score"),
      el("th", { class: "num" }, r.uma_unit === "chips" ? "uma (chips)" : "uma"), el("th", { class: "num" }, "chips"), el("th", { class: "num" }, "points")), rows),
    oka ? el("p", { class: "muted" }, `oka ${oka} (to the top)`) : null,
    el("p", { class: "seedline" }, `seed ${msg.seed} — its SHA-256 is the seed hash shown before the first deal; `,
      el("code", {}, `sanma verify --db PATH ${tableId}`), " re-deals every wall from it."),
    el("div", { class: "row", style: "justify-content:flex-end;gap:8px" },
      el("a", { href: `/replay?table=${encodeURIComponent(tableId)}` }, "Replay"),
      el("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record?format=tenhou6`, download: `${tableId}.json` }, "tenhou.net/6"),
      el("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record?format=mjai`, download: `${tableId}.mjson` }, "mjai"),
      el("button", { class: "primary", id: "final-ok", onclick: closeOverlay }, "Close")));
  $("overlay").innerHTML = "";
  $("overlay").appendChild(el("div", { class: "overlay" }, card));
}

// ---------------------------------------------------------------------------------------------
// keyboard: every button shows its key
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
  if ($("overlay").firstChild) {
    if (e.key === "Enter" || e.key === "Escape") { e.preventDefault(); closeOverlay(); }
    return;
  }
  const k = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  if (k === "Escape") { if (S.mode || S.choice) { S.mode = ""; S.choice = null; render(); } else pressKey("X"); return; }
  if (!S.prompt) return;
  const mine = [...document.querySelectorAll(".hand-zone.bottom .tilebox.mine")];
  if (k === "ArrowLeft" || k === "ArrowRight") {
    e.preventDefault();
    S.focus = S.focus < 0 ? (k === "ArrowLeft" ? mine.length - 1 : 0) : (S.focus + (k === "ArrowLeft" ? -1 : 1) + mine.length) % mine.length;
    render(); return;
  }
  if (k === "Enter" && S.focus >= 0 && mine[S.focus]) { e.preventDefault(); mine[S.focus].click(); return; }
  if (k === "T") { const b = document.querySelector("#prompt [data-action=tsumogiri]"); if (b) b.click(); return; }
  if (S.choice && /^[1-9]$/.test(k)) { pressKey(S.choice + k); return; }
  pressKey(k);
});

function pressKey(key) {
  const buttons = [...document.querySelectorAll("#prompt button")];
  const keyed = buttons.filter((b) => { const kb = b.querySelector("kbd"); return kb && kb.textContent.replace(/[0-9]+$/, "") === key.replace(/[0-9]+$/, ""); });
  if (!keyed.length) return;
  const exact = buttons.find((b) => b.querySelector("kbd") && b.querySelector("kbd").textContent === key);
  if (keyed.length > 1 && key.length === 1) { S.choice = key; renderPrompt(); return; }
  (exact || keyed[0]).click();
}

/** The clock (the server enforces it, the page shows it): the move's own seconds and the time bank
 * apart. The prompt's deadline is now + move + bank; the move's seconds go first, then the bank. */
function clockParts(c, now) {
  const left = Math.max(0, c.deadline - now);
  return { move: Math.max(0, left - c.bank), bank: Math.min(c.bank, left) };
}

function showClock() {
  const c = S.prompt && S.prompt.clock;
  const move = $("clock-move"), bank = $("clock-bank");
  if (!c || !c.deadline) {
    move.textContent = "";
    bank.textContent = S.bank !== undefined && S.bank !== null ? `bank ${Math.round(S.bank)}s` : "";
    move.classList.remove("low"); bank.classList.remove("low", "spending");
    return;
  }
  const p = clockParts(c, Date.now() / 1000);
  S.bank = p.bank;
  move.textContent = `${Math.ceil(p.move)}s`;
  bank.textContent = `bank ${Math.ceil(p.bank)}s`;
  move.classList.toggle("low", p.move > 0 && p.move < 5);
  bank.classList.toggle("spending", p.move <= 0);
  bank.classList.toggle("low", p.move <= 0 && p.bank < 5);
}
setInterval(showClock, 250);

if (!tableId) setStatus("no table in the address");
else connect();
