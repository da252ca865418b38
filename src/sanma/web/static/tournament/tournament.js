// A tournament's page (docs/KEEPER.md, "Tournaments"): the live standings and the round in play for
// a projector or the players' phones; at /tournament/ID/referee also the referee's controls — seat
// the next round, start the clock, end play, enter a table's final scores (with sticks, chombos and
// busts), open any table's keeper page to correct it, download the results. The page draws what
// the server computes (the standings, the round, the clock's end); numbers as the rules write them.
const $ = (id) => document.getElementById(id);
const tid = (location.pathname.match(/\/tournament\/(\d+)/) || [])[1];
const referee = /\/referee$/.test(location.pathname);
let state = null;
let ends = null;  // the clock's end (a Date), counted down here

if (referee) document.body.classList.add("referee");

function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c])); }

/** A number as the rules write it (P30: "triangle" writes a minus as △). */
function num(v, { plus = false, digits = null } = {}) {
  const abs = Math.abs(v);
  const body = digits !== null ? abs.toFixed(digits) : abs.toLocaleString("en-US");
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
  const current = s.seated.length ? s.seated[s.seated.length - 1] : null;
  $("title").textContent = `${s.name} — ${current ? `round ${current.round} of ${s.rounds}` : `${s.rounds} rounds`}`;
  $("about").textContent = `${s.rules} rules · ${s.players.length} players · ${s.seating} seating · seed ${s.seed} (published: the draw can be made again)`;
  $("standings").innerHTML = `<tr><th class="num">#</th><th>player</th><th class="num">points</th><th class="num">games</th><th>places</th></tr>` +
    s.standings.map(r => `<tr data-player="${esc(r.player)}" class="${r.rank === 1 ? "leader" : ""}"><td class="num">${r.rank}</td>` +
      `<td>${esc(r.player)}</td><td class="num points">${num(r.points, {digits: 1})}</td><td class="num">${r.games}</td>` +
      `<td>${r.places.join(" ")}${r.byes ? ` <span class="muted">(${r.byes} bye)</span>` : ""}</td></tr>`).join("");
  $("repeats").textContent = `pairs who met more than once: ${s.repeat_pairs}` +
    (s.unfinished.length ? ` · still playing: ${s.unfinished.map(u => `round ${u.round} table ${u.table}`).join(", ")}` : "");
  $("round-title").textContent = current ? `Round ${current.round}` : "No round seated yet";
  const typed = keepForms();  // a live update keeps what the referee is typing
  $("tables").innerHTML = current ? current.tables.map(t => tableCard(t, true)).join("") : "";
  restoreForms(typed);
  $("byes").textContent = current && current.byes.length ? `bye: ${current.byes.join(", ")}` : "";
  $("earlier").innerHTML = s.seated.slice(0, -1).reverse().map(r =>
    `<details><summary>Round ${r.round}</summary><div class="tables">${r.tables.map(t => tableCard(t, false)).join("")}</div>` +
    `${r.byes.length ? `<div>bye: ${r.byes.map(esc).join(", ")}</div>` : ""}</details>`).join("");
  const next = s.seated.length + 1;
  $("seat-next").textContent = next <= s.rounds ? `Seat round ${next}` : "Every round is seated";
  $("seat-next").disabled = next > s.rounds;
  renderClock(s.clock);
}

function tableCard(t, inPlay) {
  const seats = t.seats.map((p, i) => `<div class="seat"><span>${"ESW"[i]} ${esc(p)}</span>` +
    `<span>${t.finished ? `${num(t.scores[p])} · ${num(t.points[p], {plus: true, digits: 1})} (${t.ranks[p]})` :
      (t.scores && t.scores[p] !== undefined ? num(t.scores[p]) : "")}</span></div>`).join("");
  const status = t.finished ? "over" : t.hand ? `${t.hand.round}${t.hand.number} · ${t.entries} entries` : "in play";
  const form = referee && inPlay && !t.finished && !t.entries ? resultForm(t) : "";
  return `<div class="table${t.finished ? " finished" : ""}" data-table="${t.table}" data-session="${t.session}">` +
    `<h3><span>Table ${t.table}</span><span class="muted">${status}</span></h3>${seats}` +
    `<a class="button referee-only" href="/keeper/${t.session}">keeper page (hands, corrections)</a>${form}</div>`;
}

/** A referee's final scores for a table not kept hand by hand (the keeper's final entry). */
function resultForm(t) {
  const rows = t.seats.map(p => `<span>${esc(p)}</span><input type="number" step="100" class="score" data-player="${esc(p)}" value="0">` +
    `<input type="number" min="0" max="20" class="chombos" value="0">` +
    `<select class="bust"><option value="">—</option><option value="busted">busted</option><option value="buster">caused it</option></select>`).join("");
  return `<details class="result-form"><summary>Enter the final scores</summary><div class="result-grid">` +
    `<span></span><span class="muted">score</span><span class="muted">chombos</span><span class="muted">bust</span>${rows}</div>` +
    `<label>Riichi sticks left <input type="number" min="0" max="100" class="sticks" value="0"></label>` +
    `<div><button type="button" class="preview">Preview</button><button type="button" class="save">Save</button></div>` +
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
  $("clock-note").textContent = !c || !c.minutes ? "" : !c.started_at ? `round clock: ${c.minutes} minutes, not started` :
    c.end === "last_hand" ? "then the hand in play is each table's last" : "then the referee decides";
  tick();
}

function tick() {  // the countdown between the server's updates (the end itself is the server's)
  if (!state || !state.clock || !state.clock.minutes) return;
  if (!ends) { $("clock").textContent = ""; return; }
  const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
  $("clock").textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "time is up";
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
        shown(".result-preview").textContent = g ? "preview (nothing saved): " +
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
