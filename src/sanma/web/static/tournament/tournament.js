// A tournament's page (docs/KEEPER.md, "Tournaments"): the live standings and the round in play for
// a projector or the players' phones; at /tournament/LINK/referee also the referee's controls — seat
// the next round, start the clock, end play, enter a table's final scores (with sticks, chombos and
// busts), open any table's keeper page to correct it, download the results. The page draws what
// the server computes (the standings, the round, the clock's end); numbers as the rules write them.
import { t, tn, term, fmtNumber, lang } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
// The page is opened by one of the tournament's links (its token), never by its number; what the
// link may do is the server's answer (state.access): the referee's controls show at /referee when
// the link is the organiser's or the referee's.
const tid = (location.pathname.match(/\/tournament\/([A-Za-z0-9_-]+)/) || [])[1];
const refereePath = /\/referee$/.test(location.pathname);
let referee = false;
let state = null;
let ends = null;  // the clock's end (a Date), counted down here


function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }

/** A number as the rules write it (P30: "triangle" writes a minus as △). */
function num(v, { plus = false, digits = null } = {}) {
  const abs = Math.abs(v);
  const body = digits !== null ? abs.toFixed(digits) : fmtNumber(abs);
  if (v < 0) return (state && state.notation === "triangle" ? "△" : "-") + body;
  return (plus && v > 0 ? "+" : "") + body;
}

async function api(path, body) {
  const r = await fetch(path, {method: body === undefined ? "GET" : "POST",
    headers: {"content-type": "application/json"}, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: "HTTP " + r.status}));
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

function render(s) {
  state = s;
  referee = refereePath && !!(s.access && s.access.referee);
  document.body.classList.toggle("referee", referee);
  renderLinks(s.links);
  const current = s.seated.length ? s.seated[s.seated.length - 1] : null;
  $("title").textContent = `${s.name} — ${current ? t("round {round} of {rounds}", { round: current.round, rounds: s.rounds }) : t("{n} rounds", { n: s.rounds })}`;
  $("about").textContent = t("{rules} rules · {n} players · {seating} seating · seed {seed} (published: the draw can be made again)",
    { rules: s.rules, n: s.players.length, seating: s.seating, seed: s.seed });
  $("standings").innerHTML = `<tr><th class="num">#</th><th>${t("player")}</th><th class="num">${t("points")}</th><th class="num">${t("games")}</th><th>${t("places")}</th></tr>` +
    s.standings.map(r => `<tr data-player="${esc(r.player)}" class="${r.rank === 1 ? "leader" : ""}"><td class="num">${r.rank}</td>` +
      `<td>${esc(r.player)}</td><td class="num points">${num(r.points, {digits: 1})}</td><td class="num">${r.games}</td>` +
      `<td>${r.places.join(" ")}${r.byes ? ` <span class="muted">(${esc(t("{n} bye", { n: r.byes }))})</span>` : ""}</td></tr>`).join("");
  $("repeats").textContent = t("pairs who met more than once: {n}", { n: s.repeat_pairs }) +
    (s.unfinished.length ? ` · ${t("still playing: {tables}", { tables: s.unfinished.map(u => t("round {round} table {table}", u)).join(", ") })}` : "");
  $("round-title").textContent = current ? t("Round {round}", { round: current.round }) : t("No round seated yet");
  const typed = keepForms();  // a live update keeps what the referee is typing
  $("tables").innerHTML = current ? current.tables.map(x => tableCard(x, true)).join("") : "";
  restoreForms(typed);
  $("byes").textContent = current && current.byes.length ? t("bye: {who}", { who: current.byes.join(", ") }) : "";
  $("earlier").innerHTML = s.seated.slice(0, -1).reverse().map(r =>
    `<details><summary>${esc(t("Round {round}", { round: r.round }))}</summary><div class="tables">${r.tables.map(x => tableCard(x, false)).join("")}</div>` +
    `${r.byes.length ? `<div>${esc(t("bye: {who}", { who: r.byes.join(", ") }))}</div>` : ""}</details>`).join("");
  const next = s.seated.length + 1;
  $("seat-next").textContent = next <= s.rounds ? t("Seat round {n}", { n: next }) : t("Every round is seated");
  $("seat-next").disabled = next > s.rounds;
  renderClock(s.clock);
}

function tableCard(tb, inPlay) {
  const wind = (w) => lang === "en" ? w : term("wind", w);
  const seats = tb.seats.map((p, i) => `<div class="seat"><span>${wind("ESW"[i])} ${esc(p)}</span>` +
    `<span>${tb.finished ? `${num(tb.scores[p])} · ${num(tb.points[p], {plus: true, digits: 1})} (${tb.ranks[p]})` :
      (tb.scores && tb.scores[p] !== undefined ? num(tb.scores[p]) : "")}</span></div>`).join("");
  const hand = tb.hand && (lang === "en" ? `${tb.hand.round}${tb.hand.number}` : t("{wind} {n}", { wind: term("wind", tb.hand.round), n: tb.hand.number }));
  const status = tb.finished ? t("over") : tb.hand ? `${hand} · ${tn("{n} entry", "{n} entries", tb.entries)}` : t("in play");
  const form = referee && inPlay && !tb.finished && !tb.entries ? resultForm(tb) : "";
  return `<div class="table${tb.finished ? " finished" : ""}" data-table="${tb.table}" data-session="${tb.session}">` +
    `<h3><span>${esc(t("Table {n}", { n: tb.table }))}</span><span class="muted">${esc(status)}</span></h3>${seats}` +
    `<a class="button" href="${esc(tb.link)}">${esc(tableLinkText(tb))}</a>${form}</div>`;
}

/** What a table's keeper page is to this link: the referee's corrections, a scorer's own table, or a view. */
function tableLinkText(tb) {
  const a = state.access || {};
  if (a.referee) return t("keeper page (hands, corrections)");
  if (a.role === "scorer" && a.table === tb.table) return t("keep this table");
  return t("hands (read only)");
}

/** The organiser's page: every link to give out (paths on this server). */
function renderLinks(links) {
  $("links").classList.toggle("hidden", !links);
  if (!links) return;
  const row = (label, path) => `<tr><td>${esc(label)}</td><td><a href="${esc(path)}">${esc(location.origin + path)}</a></td></tr>`;
  $("links-table").innerHTML = row(t("referee (seat, clock, correct any table)"), links.referee) +
    row(t("standings (projector, phones: read only)"), links.read) +
    Object.entries(links.scorers).map(([n, path]) => row(t("scorer of table {n} (keeps that table only)", { n }), path)).join("");
}

/** A referee's final scores for a table not kept hand by hand (the keeper's final entry). */
function resultForm(tb) {
  const rows = tb.seats.map(p => `<span>${esc(p)}</span><input type="number" step="100" class="score" data-player="${esc(p)}" value="0">` +
    `<input type="number" min="0" max="20" class="chombos" value="0">` +
    `<select class="bust"><option value="">—</option><option value="busted">${t("busted")}</option><option value="buster">${t("caused it")}</option></select>`).join("");
  return `<details class="result-form"><summary>${t("Enter the final scores")}</summary><div class="result-grid">` +
    `<span></span><span class="muted">${t("score")}</span><span class="muted">${t("chombos")}</span><span class="muted">${t("bust")}</span>${rows}</div>` +
    `<label>${t("Riichi sticks left")} <input type="number" min="0" max="100" class="sticks" value="0"></label>` +
    `<div><button type="button" class="preview">${t("Preview")}</button><button type="button" class="save">${t("Save")}</button></div>` +
    `<div class="error result-error"></div><div class="result-preview"></div></details>`;
}

/** The open result forms (per table: each field's value, the preview shown), before a re-render. */
function keepForms() {
  const out = {};
  document.querySelectorAll("#tables .table").forEach(card => {
    const form = card.querySelector("details.result-form");
    if (!form || !form.open) return;
    out[card.dataset.table] = {values: [...form.querySelectorAll("input, select")].map(e => e.value),
      preview: form.querySelector(".result-preview").innerHTML, error: form.querySelector(".result-error").textContent};
  });
  return out;
}

function restoreForms(typed) {
  for (const [table, f] of Object.entries(typed)) {
    const form = document.querySelector(`#tables .table[data-table="${table}"] details.result-form`);
    if (!form) continue;  // the table got its result meanwhile
    form.open = true;
    form.querySelectorAll("input, select").forEach((e, i) => { if (i < f.values.length) e.value = f.values[i]; });
    form.querySelector(".result-preview").innerHTML = f.preview;
    form.querySelector(".result-error").textContent = f.error;
  }
}

function resultEntry(card) {
  const e = {kind: "final", scores: {}, chombos: {}, busted: [], busters: []};
  const chombos = [...card.querySelectorAll("input.chombos")];
  const busts = [...card.querySelectorAll("select.bust")];
  card.querySelectorAll("input.score").forEach((input, i) => {
    const p = input.dataset.player;
    e.scores[p] = parseInt(input.value || "0", 10);
    const c = parseInt(chombos[i].value || "0", 10);
    if (c) e.chombos[p] = c;
    if (busts[i].value === "busted") e.busted.push(p);
    if (busts[i].value === "buster") e.busters.push(p);
  });
  const sticks = parseInt(card.querySelector("input.sticks").value || "0", 10);
  if (sticks) e.sticks = sticks;
  return e;
}

function renderClock(c) {
  $("clock-box").classList.toggle("hidden", !c || !c.minutes);
  ends = c && c.ends_at ? new Date(c.ends_at) : null;
  $("clock-note").textContent = !c || !c.minutes ? "" : !c.started_at ? t("round clock: {n} minutes, not started", { n: c.minutes }) :
    c.end === "last_hand" ? t("then the hand in play is each table's last") : t("then the referee decides");
  tick();
}

function tick() {  // the countdown between the server's updates (the end itself is the server's)
  if (!state || !state.clock || !state.clock.minutes) return;
  if (!ends) { $("clock").textContent = ""; return; }
  const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
  $("clock").textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : t("time is up");
  $("clock").classList.toggle("over", !left);
}

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tournaments/${tid}`);
  ws.onmessage = (m) => {
    const s = JSON.parse(m.data);
    if (s.error) { $("error").textContent = s.error; return; }
    render(s);
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

async function act(path, body) {
  $("error").textContent = "";
  try {
    await api(path, body);
    render(await api(`/api/tournaments/${tid}`));
  } catch (e) { $("error").textContent = e.message; }
}

function init() {
  const current = () => state && state.seated.length ? state.seated[state.seated.length - 1].round : 0;
  $("seat-next").addEventListener("click", () => act(`/api/tournaments/${tid}/rounds/${current() + 1}/seat`, {}));
  $("clock-start").addEventListener("click", () => act(`/api/tournaments/${tid}/rounds/${current()}/clock`, {start: true}));
  $("time-up").addEventListener("click", () => act(`/api/tournaments/${tid}/rounds/${current()}/clock`, {time_up: true}));
  $("export-csv").href = `/api/tournaments/${tid}/export?format=csv`;
  $("export-json").href = `/api/tournaments/${tid}/export?format=json`;
  $("tables").addEventListener("click", async (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const card = b.closest(".table");
    const table = card.dataset.table;
    // A live update may redraw the tables while the request is out: answer in the card shown then.
    const shown = (sel) => (document.querySelector(`#tables .table[data-table="${table}"]`) || card).querySelector(sel) ||
      card.querySelector(sel);
    const preview = b.classList.contains("preview");
    const path = `/api/tournaments/${tid}/rounds/${current()}/tables/${table}/result`;
    card.querySelector(".result-error").textContent = "";
    try {
      const out = await api(path, {entry: resultEntry(card), preview});
      if (preview) {
        const g = out.game;
        shown(".result-preview").textContent = g ? t("preview (nothing saved):") + " " +
          Object.keys(g.ranks).sort((a, b) => g.ranks[a] - g.ranks[b]).map(p => `${g.ranks[p]}. ${p} ${num(g.points[p], {plus: true, digits: 1})}`).join(", ") : "";
        return;
      }
      render(await api(`/api/tournaments/${tid}`));
    } catch (e) { shown(".result-error").textContent = e.message; }
  });
  setInterval(tick, 1000);
  api(`/api/tournaments/${tid}`).then(render).catch(e => { $("error").textContent = e.message; });
  connect();
}

init();
