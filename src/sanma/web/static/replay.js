// The replay viewer: a record replayed by the SERVER's rules engine (web/replays.py), drawn step by
// step. Every step is the engine's own state (the view with every hand open: the wall's count, the
// indicators, the scores); this page holds no rule — it draws the view, applies each step's change
// to the step before, and shows each hand's result card as the table does.
//
// The step model (kept simple for other panels, e.g. a review): R.data.hands[h].steps[s] is step s
// of hand h; step == steps.length is the hand's result card. The address holds the place:
// /replay?table=ID&hand=H&step=S&seat=V (H and S counted from 1, V the seat at the bottom).
import { el, getJSON, displayName } from "/static/common.js";
import { renderBoard, watchLayout } from "/static/board.js";
import { handTitle, handBody, finalBody, describeEvent, roundLabel, kyokuLabel } from "/static/cards.js";
import { t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
export const R = { data: null, hand: 0, step: 0, viewpoint: 0, table: null, views: [], timer: 0, speed: 1000,
  listeners: [] };
const SPEEDS = [["2000", t("slow")], ["1000", t("normal")], ["400", t("fast")]];

/** Call ``fn(R)`` after every move (a panel that follows the viewer). */
export function onStep(fn) { R.listeners.push(fn); }

function names() { return [0, 1, 2].map((i) => displayName((R.data && R.data.players[i]) || "", i)); }
function hands() { return R.data ? R.data.hands : []; }
function stepsOf(h) { return hands()[h] ? hands()[h].steps : []; }
/** Last place of a hand: its result card when it has one, else its last step. */
function lastStep(h) { const hd = hands()[h]; return hd ? hd.steps.length - (hd.result ? 0 : 1) : 0; }

/** The whole view of step ``s`` of hand ``h``: the first step's view with every later change applied. */
function viewAt(h, s) {
  if (!R.views[h]) {
    const out = [];
    let view = null;
    for (const step of stepsOf(h)) {
      if (step.view) view = step.view;
      else {
        const c = step.change;
        view = { ...view, ...c, seats: view.seats.map((seat, i) => (c.seats && c.seats[i] ? c.seats[i] : seat)) };
      }
      out.push(view);
    }
    R.views[h] = out;
  }
  const views = R.views[h];
  return views[Math.min(s, views.length - 1)];
}

function render() {
  if (!R.data || !hands().length) return;
  const hd = hands()[R.hand];
  const view = viewAt(R.hand, R.step);
  const atCard = Boolean(hd.result) && R.step >= hd.steps.length;
  renderBoard($("board"), view, { viewpoint: R.viewpoint, names: names(), handRoot: $("myhand"),
    ura: atCard ? hd.result.uradora_markers : [] });
  $("hand").value = String(R.hand);
  $("viewpoint").value = String(R.viewpoint);
  const step = hd.steps[Math.min(R.step, hd.steps.length - 1)];
  const said = atCard ? handTitle(hd.result, names())
    : (step.events || []).map((e) => describeEvent(e, names())).filter(Boolean).join(" · ") || t("the deal");
  $("step").textContent = t("step {n}/{total}", { n: Math.min(R.step, hd.steps.length - 1), total: hd.steps.length - 1 }) + ` — ${said}`;
  $("play").textContent = R.timer ? "⏸" : "▶︎";
  $("play").title = R.timer ? t("pause") : t("play");
  if (atCard) showCard(hd); else $("overlay").innerHTML = "";
  renderMismatch();
  saveAddress();
  R.listeners.forEach((fn) => fn(R));
}

function showCard(hd) {
  const r = hd.result;
  const last = R.hand === hands().length - 1;
  const body = handBody(r, names(), roundLabel(r) || hd.label);
  if (r.final && R.data.final) body.push(el("h3", {}, t("Final result")), finalBody(R.data.final, names(), null));
  const card = el("div", { class: "card", id: "hand-result" },
    el("div", { class: "card-body" }, el("h2", {}, handTitle(r, names())), body),
    el("div", { class: "card-foot" },
      el("button", { id: "card-back", onclick: () => go(R.hand, hd.steps.length - 1) }, t("Back to the table")),
      last ? null : el("button", { class: "primary", id: "card-next", onclick: () => go(R.hand + 1, 0) }, t("Next hand"))));
  $("overlay").innerHTML = "";
  $("overlay").appendChild(el("div", { class: "overlay" }, card));
}

function renderMismatch() {
  const box = $("problems");
  box.innerHTML = "";
  const m = R.data.mismatch;
  box.classList.toggle("hidden", !m);
  if (!m) return;
  box.appendChild(el("div", { class: "error", id: "mismatch" },
    t("Replayed up to its first mismatch ({label}): {what}", { label: m.where || m.label, what: m.text })));
}

function saveAddress() {
  if (!R.table) return;
  const q = new URLSearchParams({ table: R.table, hand: String(R.hand + 1), step: String(R.step + 1), seat: String(R.viewpoint) });
  history.replaceState(null, "", `/replay?${q}`);
}

export function go(hand, step) {
  if (!R.data) return;
  if (hand < 0 || hand >= hands().length) return;
  R.hand = hand;
  R.step = Math.max(0, Math.min(step, lastStep(hand)));
  render();
}
function next() {
  if (R.step < lastStep(R.hand)) go(R.hand, R.step + 1);
  else if (R.hand < hands().length - 1) go(R.hand + 1, 0);
  else stop();
}
function prev() { if (R.step > 0) go(R.hand, R.step - 1); else if (R.hand > 0) go(R.hand - 1, lastStep(R.hand - 1)); }

// autoplay: a step at a time; a result card stays twice as long
function play() {
  stop();
  const tick = () => {
    next();
    if (!R.timer) return;
    const atCard = R.step >= stepsOf(R.hand).length;
    R.timer = setTimeout(tick, atCard ? R.speed * 3 : R.speed);
  };
  R.timer = setTimeout(tick, R.speed);
  render();
}
function stop() { if (R.timer) { clearTimeout(R.timer); R.timer = 0; render(); } }
/** Put seat ``v`` at the bottom of the board (the review panel shows the reviewed seat's hand). */
export function setViewpoint(v) { R.viewpoint = v; render(); }

function load(data, title, place = {}) {
  stop();
  R.data = data; R.views = [];
  R.viewpoint = Math.max(0, Math.min(2, Number(place.seat) || 0));
  $("controls").classList.remove("hidden");
  $("about").classList.remove("hidden");
  $("title").textContent = title;
  const hs = $("hand");
  hs.innerHTML = "";
  hands().forEach((k, i) => hs.appendChild(el("option", { value: String(i) }, `${i + 1}. ${kyokuLabel(k.label)}`)));
  const vp = $("viewpoint");
  vp.innerHTML = "";
  names().forEach((n, i) => vp.appendChild(el("option", { value: String(i) }, n)));
  const dl = $("downloads");
  dl.innerHTML = "";
  dl.classList.toggle("hidden", !R.table);
  if (R.table) {
    const id = encodeURIComponent(R.table);
    dl.appendChild(el("span", {}, t("Download:")));
    dl.appendChild(el("a", { href: `/api/tables/${id}/record?format=tenhou6`, download: `${R.table}.json`, id: "dl-tenhou6" }, "tenhou.net/6 JSON"));
    dl.appendChild(el("a", { href: `/api/tables/${id}/record?format=mjai`, download: `${R.table}.mjson`, id: "dl-mjai" }, "mjai"));
  }
  const notes = $("notes");
  notes.innerHTML = "";
  (data.notes || []).forEach((n) => notes.appendChild(el("div", { class: "muted small" }, n)));
  openMenu(false);
  if (!hands().length) {  // nothing replays: the first mismatch is all there is to show
    $("board").innerHTML = "";
    $("myhand").innerHTML = "";
    renderMismatch();
    $("board").appendChild(el("div", { class: "banner error", id: "board-error" },
      data.mismatch ? data.mismatch.text : t("no hand to show")));
    return;
  }
  const hand = Math.max(0, Math.min(hands().length - 1, (Number(place.hand) || 1) - 1));
  go(hand, (Number(place.step) || 1) - 1);
}

async function post(text, name) {
  $("status").textContent = t("replaying…");
  const r = await fetch(`/api/replays?name=${encodeURIComponent(name)}`, { method: "POST", body: text, headers: { "Content-Type": "text/plain" } });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) { $("status").textContent = data.error; return; }
  $("status").textContent = t("{format} record, {n} hands", { format: data.format, n: data.kyoku });
  R.table = null;
  R.upload = { text, name };  // the review panel sends it again for a seat's review (web/reviews.py)
  history.replaceState(null, "", "/replay");
  load(data, name);
}

async function openTable(id, place) {
  R.table = id;
  R.upload = null;
  $("status").textContent = t("replaying…");
  try {
    const data = await getJSON(`/api/replays/table/${encodeURIComponent(id)}`);
    $("status").textContent = t("table {id}", { id });
    load(data, t("table {id}", { id }), place);
  } catch (e) { $("status").textContent = e.message; }
}

async function listStored() {
  const box = $("stored");
  try {
    const data = await getJSON("/api/tables");
    const done = (data.tables || []).filter((x) => x.finished);
    box.innerHTML = "";
    if (!done.length) box.appendChild(el("div", { class: "muted" }, t("none yet")));
    for (const x of done) {
      box.appendChild(el("a", { href: `/replay?table=${encodeURIComponent(x.id)}`, "data-table": x.id },
        `${x.id} — ${x.rules} — ${(x.scores || []).join(" / ")}`));
    }
  } catch (e) { box.textContent = t("none (the server lists no tables)"); }
}

function openMenu(open) { $("side").classList.toggle("open", open); }

async function upload() {
  const f = $("upload").files[0];
  if (!f) return;
  await post(await f.text(), f.name);
}
$("upload").addEventListener("change", upload);
// a file chosen while the page was still loading (its words come first) is read now
if ($("upload").files.length) upload();
$("hand").addEventListener("change", () => { stop(); go(Number($("hand").value), 0); });
$("viewpoint").addEventListener("change", () => { R.viewpoint = Number($("viewpoint").value); render(); });
$("prev").addEventListener("click", () => { stop(); prev(); });
$("next").addEventListener("click", () => { stop(); next(); });
$("prev-hand").addEventListener("click", () => { stop(); go(R.step > 0 ? R.hand : R.hand - 1, 0); });
$("next-hand").addEventListener("click", () => { stop(); go(R.hand + 1, 0); });
$("end").addEventListener("click", () => { stop(); go(R.hand, lastStep(R.hand)); });
$("play").addEventListener("click", () => (R.timer ? stop() : play()));
const speed = $("speed");
SPEEDS.forEach(([v, label]) => speed.appendChild(el("option", { value: v }, label)));
speed.value = String(R.speed);
speed.addEventListener("change", () => { R.speed = Number(speed.value); if (R.timer) play(); });
$("copy-link").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.href); $("status").textContent = t("link copied"); }
  catch (e) { $("status").textContent = location.href; }
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const map = { ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-hand", ArrowDown: "next-hand", e: "end", E: "end", " ": "play" };
  if (map[e.key]) { e.preventDefault(); $(map[e.key]).click(); }
});
$("menu").addEventListener("click", () => openMenu(true));
$("menu-act").addEventListener("click", () => openMenu(true));
$("open-records").addEventListener("click", () => openMenu(true));
$("menu-close").addEventListener("click", () => openMenu(false));
watchLayout(render, $("board"), $("myhand"));

listStored();
const params = new URLSearchParams(location.search);
if (params.get("table")) openTable(params.get("table"), { hand: params.get("hand"), step: params.get("step"), seat: params.get("seat") });
