// The table page: a seat (/t/ID?token=T) or a spectator (/t/ID/watch), speaking docs/WEB_PROTOCOL.md.
// The server decides everything: this page draws its view and sends the id of an action it offered.
import { tileEl, tileLabel } from "/static/tiles.js";
import { el, displayName, myPlayer, getJSON, postJSON } from "/static/common.js";
import { renderBoard, handName, lapOf, watchLayout, sideOf } from "/static/board.js";
import { announce, announcement, sound, soundOn, setSound } from "/static/feel.js";
import { handTitle, handBody, finalBody, roundLabel, describeEvent } from "/static/cards.js";
import { t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const path = location.pathname.split("/").filter(Boolean);  // ["t", ID] or ["t", ID, "watch"]
const tableId = decodeURIComponent(path[1] || "");
const token = new URLSearchParams(location.search).get("token");
const watching = path[2] === "watch" || !token;

const S = { hello: null, view: null, prompt: null, toggles: null, mode: "", choice: null,
  focus: -1, selected: -1, log: [], ws: null, retry: 0, closed: false, seats: [], lastResult: null,
  pendingFinal: null };

const KEYS = { hora: "W", reach: "R", open_reach: "O", pon: "P", daiminkan: "K", ankan: "K", kakan: "K",
  kita: "N", ryukyoku: "9", none: "X" };
const TOGGLE_NAMES = { auto_win: t("Auto win"), auto_kita: t("Auto kita"), no_calls: t("No calls"),
  auto_tsumogiri: t("Auto tsumogiri"), auto_sort: t("Sort hand") };

function names() {  // the lobby's names first, then the engine's
  const v = S.view;
  return [0, 1, 2].map((i) => displayName((S.seats[i] && S.seats[i].name) || (v && v.names && v.names[i]), i));
}
function seatName(i) { return names()[i] || `seat ${i}`; }

// ---------------------------------------------------------------------------------------------
// connection
async function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // a seat is claimed for this browser's player (its games then count on its player page)
  const me = watching ? null : (S.player ??= await myPlayer());
  const url = watching
    ? `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}/watch`
    : `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}/play?token=${encodeURIComponent(token)}` +
      (me ? `&player=${encodeURIComponent(me.token)}` : "");
  const ws = new WebSocket(url);
  S.ws = ws;
  ws.onopen = () => { S.retry = 0; setStatus(t("connected"), "connected"); };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    handle(msg);
  };
  ws.onclose = (ev) => {
    if (ev.code === 4403 || ev.code === 4404) { S.closed = true; setStatus(t("closed: {why}", { why: ev.reason || ev.code }), "closed"); return; }
    if (S.closed) return;
    S.prompt = null;
    renderPrompt();
    setStatus(t("disconnected — reconnecting…"), "disconnected");
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 300 * S.retry);
  };
}

function send(obj) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
}

/** The status line: its words, and its state for scripts (connected, disconnected, closed; not translated). */
function setStatus(text, state = "") { $("status").textContent = text; $("status").dataset.state = state; }

function handle(msg) {
  switch (msg.type) {
    case "hello":
      S.announced = -1;  // the events a (re)connection is sent first were seen before: not announced again
      S.hello = msg; S.seats = msg.seats || []; S.toggles = msg.toggles; S.log = [];
      renderInfo(); renderToggles(); break;
    case "view":
      S.view = msg.view;
      // the next deal came while a hand's card was open (the table's result pause passed): the card
      // goes, as it went for the others (issue 18: the clock never runs under an open card)
      if (S.cardNext && document.getElementById("hand-result") && (msg.events || []).some((e) => e.type === "start_kyoku")) closeOverlay(false);
      // protocol 2: a seat's view names its open prompt; one it does not name is gone
      if (S.prompt && msg.prompt !== S.prompt.prompt) { S.prompt = null; S.mode = ""; S.choice = null; S.selected = -1; }
      (msg.events || []).forEach((e, j) => logEvent(e, (msg.event_index ?? 0) + j));
      render();
      feel(msg); break;
    case "prompt":
      S.prompt = msg; S.mode = ""; S.choice = null; S.focus = -1; S.selected = -1;
      if (msg.actions.some((a) => a.type === "dahai")) sound("turn");
      render(); break;
    case "hand_result":
      S.lastResult = msg.result; showHandResult(msg.result, msg.next); break;
    case "game_result":
      // the last hand's card comes first: the settlement waits until it is dismissed (issue 18)
      if (document.getElementById("hand-result")) S.pendingFinal = msg; else showGameResult(msg);
      break;
    case "toggles":
      S.toggles = msg.toggles; renderToggles(); break;
    case "presence":
      S.seats = msg.seats; renderInfo(); break;
    case "error":
      // an answer that crossed another seat's move (its ron came first): the prompt is gone, not an error of ours
      if (msg.code === "not_your_turn" || msg.code === "stale") { addLog(t("(too late: {message})", { message: msg.message }), true); break; }
      addLog(`⚠ ${msg.message}`);
      if (msg.code === "bad_token" || msg.code === "no_such_table") { S.closed = true; setStatus(msg.message, "closed"); showRefused(msg.message); }
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
  // a finished game's view already names the hand that would come next: show the last one played
  const last = S.lastStart;
  const lastHand = v.done && last ? handName(last.bakaze, last.kyoku) : null;
  if (lastHand) decorated.honba = last.honba;  // and its honba, not the next hand's (a dealer's win adds one)
  renderBoard($("board"), decorated, { viewpoint: vp, own: !watching, names: names(), lap, handRoot: $("myhand"),
    roundLabel: lastHand });
  wireHand();
  renderPrompt();
  renderMine();
  renderInfo();
}

/** Announce the view's new events beside their seats, drop a fresh discard in, play their sounds. */
function feel(msg) {
  const first = msg.event_index ?? 0;
  const events = msg.events || [];
  if (S.announced < 0) { S.announced = first + events.length; return; }
  const vp = S.view && S.view.seat !== null && S.view.seat !== undefined ? S.view.seat : 0;
  events.forEach((e, j) => {
    if (first + j < S.announced) return;
    const a = announcement(e);
    if (!a) return;
    if (a.text) announce($("announcements"), a.seat === null ? null : sideOf(a.seat, vp), a.text, e.type);
    sound(a.sound);
  });
  S.announced = Math.max(S.announced, first + events.length);
}

function showRefused(message) {  // a wrong invite or table: say so where the table would be
  $("board").innerHTML = "";
  $("board").appendChild(el("div", { class: "banner error", id: "board-error" }, message,
    el("div", { style: "margin-top:8px" }, el("a", { href: "/" }, t("Back to the lobby")))));
}

function decorate(v) {  // mark the last discard and the tile a call would take
  const copy = { ...v, seats: v.seats.map((s) => ({ ...s, discards: s.discards.map((d) => ({ ...d })) })) };
  const last = lastDiscard();
  if (last) {
    const d = copy.seats[last.seat].discards[copy.seats[last.seat].discards.length - 1];
    if (d) {
      d.last = true;
      // a fresh discard drops into its river (re-drawn within its moment, e.g. for the next prompt, it drops again)
      d.fresh = S.announced >= 0 && S.freshIndex === last.index && performance.now() < S.freshUntil;
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
    if (e.type === "dahai") return { seat: e.actor, pai: e.pai, index: S.log[i].index };
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
function mineTiles() { return [...document.querySelectorAll(".hand-zone.bottom .tilebox.mine")]; }
/** The action a tap or click on the hand's ``i``-th tile takes (a discard, or riichi's discard). */
function tileAction(i) {
  const e = mineTiles()[i];
  if (!e) return null;
  return S.mode ? reachFor(e.dataset.tile) : dahaiFor(e.dataset.tile, e.classList.contains("drawn"));
}

function wireHand() {
  const tiles = mineTiles();
  const callTiles = new Set();
  for (const a of actions()) if (["pon", "daiminkan"].includes(a.type)) (a.consumed || []).forEach((t) => callTiles.add(t));
  tiles.forEach((e, i) => {
    const act = tileAction(i);
    if (S.mode) e.classList.add(act ? "riichi-ok" : "riichi-no");
    if (!act) e.classList.add("disabled");
    if (!S.mode && callTiles.has(e.dataset.tile)) e.classList.add("candidate");
    if (i === S.focus) e.classList.add("focus");
    if (i === S.selected && act) e.classList.add("selected");
    // a mouse click discards at once; a tap selects the tile and a second tap (or Discard) discards it
    e.addEventListener("click", (ev) => {
      if (!act) return;
      const touch = ev.pointerType === "touch" || ev.pointerType === "pen";
      if (!touch || S.selected === i) choose(act);
      else { S.selected = i; render(); }
    });
  });
}

function choose(action) {
  if (!S.prompt) return;
  send({ type: "action", prompt: S.prompt.prompt, id: action.id });
  S.prompt = null; S.mode = ""; S.choice = null; S.selected = -1;
  render();
}

function buttonFor(a, key) {
  const kind = a.type === "hora" ? "win" : a.type === "none" ? "pass" : ["pon", "daiminkan", "ankan", "kakan", "kita"].includes(a.type) ? "call" : "";
  const tile = a.pai || (a.consumed && a.consumed[0]);
  const words = { hora: a.target === a.actor ? t("Tsumo") : t("Ron"), none: t("Pass"), ryukyoku: t("Nine terminals"), kita: t("Kita"),
    pon: t("Pon"), daiminkan: t("Kan"), ankan: t("Closed kan"), kakan: t("Added kan") };
  let label = words[a.type] || a.label || a.type;
  if (["pon", "daiminkan", "ankan", "kakan"].includes(a.type) && tile) {
    label += " " + tileLabel(tile);
    if (a.type === "pon" && a.consumed && a.consumed.some((t) => t.endsWith("r"))) label += " " + t("(with red five)");
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
  if (watching) { $("prompt-title").textContent = t("Watching"); return; }
  if (!S.prompt) { $("prompt-title").textContent = S.view && S.view.done ? t("Game over") : t("Waiting"); showClock(); return; }
  const hasDiscard = actions().some((a) => a.type === "dahai");
  const touch = window.matchMedia("(hover: none)").matches;
  $("prompt-title").textContent = S.mode ? t("Riichi: choose the discard") : hasDiscard ? t("Your turn") : t("Call?");
  const selected = S.selected >= 0 ? tileAction(S.selected) : null;
  if (S.mode) {
    box.appendChild(el("button", { class: "pass", onclick: () => { S.mode = ""; S.selected = -1; render(); } }, t("Cancel"), el("kbd", {}, "Esc")));
    if (selected) {
      box.appendChild(el("button", { class: "discard", id: "discard-selected", "data-action": "discard", onclick: () => choose(selected) },
        t("Riichi, discard"), tileEl(selected.pai)));
    }
    hint.textContent = t("Highlighted tiles keep the hand in tenpai.");
    return;
  }
  const counts = {};
  for (const g of grouped()) {
    const key = g.key;
    counts[key] = (counts[key] || 0) + 1;
    const n = counts[key];
    const shown = n === 1 ? key : `${key}${n}`;
    if (g.mode) {
      box.appendChild(el("button", { class: "call", "data-action": g.mode, onclick: () => { S.mode = g.mode; S.selected = -1; render(); } },
        g.mode === "reach" ? t("Riichi") : t("Open riichi"), el("kbd", {}, shown)));
    } else box.appendChild(buttonFor(g.action, shown));
  }
  const drawnAct = S.view && S.view.drawn ? dahaiFor(S.view.drawn, true) : null;
  if (drawnAct) box.appendChild(el("button", { "data-action": "tsumogiri", onclick: () => choose(drawnAct) }, t("Tsumogiri"), el("kbd", {}, "T")));
  if (selected) {
    box.appendChild(el("button", { class: "discard", id: "discard-selected", "data-action": "discard", onclick: () => choose(selected) },
      t("Discard"), tileEl(selected.pai)));
  }
  if (hasDiscard) hint.textContent = touch ? t("Tap a tile, tap it again to discard.") : t("Click a tile to discard (← → and Enter).");
  else if (actions().some((a) => a.type === "none")) hint.textContent = touch ? "" : t("Right-click passes.");
  if (S.choice) hint.textContent = t("Several {key} options: press {key} again with its number, or click one.", { key: S.choice });
}

function renderMine() {
  const v = S.view;
  const box = $("waits");
  box.innerHTML = "";
  if (watching || !v) return;
  // the waits the server computed; in riichi the hand is fixed, so while the seat holds its drawn
  // tile (14 tiles: no waits to compute) the last ones stay shown
  let waits = v.waits || [];
  let left = v.waits_left || null;
  if (waits.length) S.lastWaits = { waits, left };
  else if (v.riichi && S.lastWaits) ({ waits, left } = S.lastWaits);
  if (!v.riichi && !waits.length) S.lastWaits = null;
  if (waits.length) {
    box.appendChild(el("span", {}, t("Waits")));
    waits.forEach((w, i) => box.appendChild(el("span", { class: "wait", "data-tile": w }, tileEl(w),
      left ? el("span", { class: "tilecount", title: t("copies you cannot see") }, `×${left[i]}`) : null)));
  }
  if (v.furiten) box.appendChild(el("span", { class: "furiten", id: "furiten", title: t("you cannot ron (furiten)") }, t("FURITEN")));
  if (v.riichi) box.appendChild(el("span", { class: "badge" }, t("riichi")));
}

function renderInfo() {
  const h = S.hello;
  if (!h) return;
  const box = $("info");
  box.innerHTML = "";
  box.appendChild(el("div", { class: "row", style: "justify-content:space-between" },
    el("strong", {}, t("Table {id}", { id: tableId })), el("span", { class: "badge" }, h.rules)));
  const list = el("div", { style: "margin-top:4px" });
  for (const s of S.seats) {
    const you = !watching && h.seat === s.seat ? ` ${t("(you)")}` : "";
    list.appendChild(el("div", { class: "muted", style: "font-size:12px" },
      `${displayName(s.name, s.seat)}${you} — ${kindWords(s.kind)}`, s.kind === "human" || s.kind === "mjai"
        ? el("span", { class: s.connected ? "plus" : "minus" }, s.connected ? " ●" : " ○") : null));
  }
  box.appendChild(list);
  box.appendChild(el("div", { class: "seedline", id: "seed-hash", title: t("SHA-256 of the wall seed, published before the first deal") },
    t("seed hash {hash}", { hash: h.seed_hash })));
  if (S.seed !== undefined) box.appendChild(el("div", { class: "seedline", id: "seed" }, t("seed {seed}", { seed: S.seed })));
  if (h.rules_detail && Object.keys(h.rules_detail).length) {
    box.appendChild(el("details", { id: "rules-detail" }, el("summary", { style: "font-size:12px" }, t("Rules: {rules}", { rules: h.rules })),
      el("pre", { class: "rules" }, Object.entries(h.rules_detail).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join("\n"))));
  }
  if (watching) box.appendChild(el("div", { class: "muted", style: "font-size:12px" }, t("Spectator: no concealed tile is ever sent here.")));
  if (S.player) box.appendChild(el("div", { class: "linklist" }, el("a", { href: S.player.page, id: "my-page" }, t("Your player page"))));
}

function renderToggles() {
  const box = $("toggles");
  box.innerHTML = "";
  const sounds = el("input", { type: "checkbox", id: "toggle-sound", checked: soundOn() });
  sounds.addEventListener("change", () => setSound(sounds.checked));
  box.appendChild(el("label", { class: "check", title: t("made in the page: nothing is fetched") }, sounds, t("Sounds")));
  if (watching || !S.toggles) return;  // a spectator has sounds only
  for (const [name, label] of Object.entries(TOGGLE_NAMES)) {
    const input = el("input", { type: "checkbox", id: "toggle-" + name, checked: Boolean(S.toggles[name]) });
    input.addEventListener("change", () => send({ type: "toggle", name, value: input.checked }));
    box.appendChild(el("label", { class: "check", title: t("kept by the server, also while you are away") }, input, label));
  }
}

// ---------------------------------------------------------------------------------------------
// the log
// The log is kept for this browser tab (sessionStorage): a reload shows the earlier hands too (the
// server sends only the current hand again); each line remembers its event's index, so an event
// sent again is not written twice.
const LOG_KEY = `sanma_log:${tableId}:${watching ? "watch" : "seat"}`;
const LOG_KEEP = 300;
S.logged = 0;  // events before this index are in the log already

function logEvent(e, index) {
  if (e.type === "start_kyoku") { S.lastStart = e; S.lastWaits = null; }  // a new hand (a finished game's: its last)
  const text = e.type === "start_kyoku" ? `— ${describeEvent(e, names())} —` : describeEvent(e, names());
  S.log.push({ event: e, text, index });
  if (e.type === "dahai" && index >= S.logged) { S.freshIndex = index; S.freshUntil = performance.now() + 250; }
  if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
  if (index < S.logged) return;
  S.logged = index + 1;
  if (!text) return;
  addLog(text, true);
  keepLog(index, text);
}
function keepLog(index, text) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(LOG_KEY) || "[]");
    kept.push([index, text]);
    sessionStorage.setItem(LOG_KEY, JSON.stringify(kept.slice(-LOG_KEEP)));
  } catch (e) { /* no storage: the log is this page's only */ }
}
function restoreLog() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(LOG_KEY) || "[]");
    for (const [index, text] of kept) { addLog(text, true); S.logged = Math.max(S.logged, index + 1); }
  } catch (e) { /* nothing kept */ }
}
function addLog(text, quiet) {
  const box = $("log");
  box.appendChild(el("div", {}, text));
  while (box.children.length > LOG_KEEP) box.removeChild(box.firstChild);
  box.scrollTop = box.scrollHeight;
  if (!quiet) box.lastChild.classList.add("error");
}

// ---------------------------------------------------------------------------------------------
// results
/** Close the card. A hand's card closed by its person tells the server (``dismiss``): the next hand
 * is dealt when every person at the table has read theirs, or when the table's pause has passed.
 * ``tell`` false: the card goes because the next deal came. */
function closeOverlay(tell = true) {
  if (tell && !watching && document.getElementById("hand-result")) send({ type: "dismiss" });
  clearInterval(S.nextTimer);
  $("overlay").innerHTML = "";
  const final = S.pendingFinal;
  S.pendingFinal = null;
  if (final) showGameResult(final);
}

function showCard(id, title, body, foot, dismissable) {
  const card = el("div", { class: "card", id },
    el("div", { class: "card-body" }, el("h2", {}, title), body),
    el("div", { class: "card-foot" }, foot));
  $("overlay").innerHTML = "";
  $("overlay").appendChild(el("div", { class: "overlay", onclick: (e) => {
    if (dismissable && e.target.classList.contains("overlay")) closeOverlay();
  } }, card));
}

/** A seat's kind in words: a person, an external mjai bot, or the built-in bot's name. */
function kindWords(kind) {
  return kind === "human" ? t("a person") : kind === "mjai" ? t("external mjai bot") : kind;
}

function showHandResult(r, next) {
  const wait = el("span", { class: "muted", id: "next-deal" });
  showCard("hand-result", handTitle(r, names()), handBody(r, names(), roundLabel(r)), [wait,
    el("button", { class: "primary", id: "result-ok", onclick: () => closeOverlay() }, t("OK"), el("kbd", {}, "Enter"))], true);
  // ``next``: when the table goes on at the latest (the server's result pause), as UNIX seconds; a
  // table without a pause (null) deals at once, and its card stays until OK
  clearInterval(S.nextTimer);
  S.cardNext = next || null;
  if (!next) return;
  const tick = () => {
    const left = Math.ceil(next - Date.now() / 1000);
    wait.textContent = left > 0 ? (r.final ? t("the final result in {n} s", { n: left }) : t("next hand in {n} s", { n: left })) : "";
  };
  tick();
  S.nextTimer = setInterval(tick, 250);
}

function showGameResult(msg) {
  const r = msg.result || {};
  S.seed = msg.seed;
  renderInfo();
  const seedLine = el("p", { class: "seedline" }, t("seed {seed} — its SHA-256 is the seed hash shown before the first deal; ", { seed: msg.seed }),
    el("code", {}, `sanma verify --db PATH ${tableId}`), t(" re-deals every wall from it."));
  showCard("game-result", t("Final result") + (r.reason ? ` — ${String(r.reason).replace(/_/g, " ")}` : ""),
    finalBody(r, names(), seedLine), [
      el("a", { class: "button", href: `/replay?table=${encodeURIComponent(tableId)}` }, t("Replay")),
      el("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record?format=tenhou6`, download: `${tableId}.json` }, "tenhou.net/6"),
      el("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record?format=mjai`, download: `${tableId}.mjson` }, "mjai"),
      watching ? null : el("button", { class: "primary", id: "rematch", onclick: askRematch }, t("Rematch")),
      el("button", { id: "final-ok", onclick: () => closeOverlay() }, t("Close"))], false);
  watchRematch();
}

// a rematch: the same seats and rules, a fresh seed; every seat keeps its invite token
async function askRematch() {
  const { status, data } = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { token });
  if (status === 200 || status === 201) location.href = data.url;
  else addLog(`⚠ ${data.error || status}`);
}
function watchRematch() {  // another person asked for it: offer to join (a spectator: to watch)
  clearInterval(S.rematchTimer);
  const look = async () => {
    if (!document.getElementById("game-result")) { clearInterval(S.rematchTimer); return; }
    try {
      const r = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/rematch`);
      if (!r.rematch) return;
      clearInterval(S.rematchTimer);
      const url = watching ? `/t/${encodeURIComponent(r.rematch)}/watch` : `/t/${encodeURIComponent(r.rematch)}?token=${encodeURIComponent(token)}`;
      const join = el("a", { class: "button primary", id: "join-rematch", href: url }, watching ? t("Watch the rematch") : t("Join the rematch"));
      if ($("rematch")) $("rematch").replaceWith(join); else $("final-ok").before(join);
    } catch (e) { /* the next look */ }
  };
  look();
  S.rematchTimer = setInterval(look, 3000);
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
  if (k === "Escape" && $("side").classList.contains("open")) { openMenu(false); return; }
  if (k === "Escape") { if (S.mode || S.choice) { S.mode = ""; S.choice = null; S.selected = -1; render(); } else pressKey("X"); return; }
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
  // a call window's seconds are its own and spend no bank (its clock says "bank": 0): the seat's bank
  // is what it was (the page showed "bank 0s" in every call window and after it, issue 18)
  if (c.window) return { move: left, bank: S.bank ?? null };
  return { move: Math.max(0, left - c.bank), bank: Math.min(c.bank, left) };
}

function showClock() {
  const c = S.prompt && S.prompt.clock;
  const move = $("clock-move"), bank = $("clock-bank");
  if (!c || !c.deadline) {
    move.textContent = "";
    bank.textContent = S.bank !== undefined && S.bank !== null ? t("bank {n}s", { n: Math.round(S.bank) }) : "";
    move.classList.remove("low"); bank.classList.remove("low", "spending");
    return;
  }
  const p = clockParts(c, Date.now() / 1000);
  if (!c.window) S.bank = p.bank;
  move.textContent = t("{n}s", { n: Math.ceil(p.move) });
  bank.textContent = p.bank === null ? "" : t("bank {n}s", { n: Math.ceil(p.bank) });
  move.classList.toggle("low", p.move > 0 && p.move < 5);
  bank.classList.toggle("spending", !c.window && p.move <= 0);
  bank.classList.toggle("low", !c.window && p.move <= 0 && p.bank < 5);
}
setInterval(showClock, 250);

// right-click passes a call (a discard prompt is not passed this way)
document.addEventListener("contextmenu", (e) => {
  const pass = actions().find((a) => a.type === "none");
  if (!pass || $("overlay").firstChild || e.target.closest(".side")) return;
  e.preventDefault();
  choose(pass);
});

// the side panel (table, settings, log) is a drawer on phones
function openMenu(open) { $("side").classList.toggle("open", open); }
$("menu").addEventListener("click", () => openMenu(true));
$("menu-act").addEventListener("click", () => openMenu(true));
$("menu-close").addEventListener("click", () => openMenu(false));
watchLayout(render, $("board"), $("myhand"));

restoreLog();
if (!tableId) { setStatus(t("no table in the address"), "closed"); showRefused(t("No table in the address.")); }
else connect();
