// The lobby: create a table (rules, seats, seed, clock), hand out the invite links, list the games.
import { el, getJSON, postJSON, displayName } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const KINDS = [["human", "a person"], ["efficient", "bot: efficient"], ["defensive", "bot: defensive"],
  ["random", "bot: random"], ["tsumogiri", "bot: tsumogiri"], ["mjai", "external mjai bot"]];
const DEFAULT = ["human", "defensive", "efficient"];
let ruleToml = null;

function abs(url) { return new URL(url, location.href).href; }

let rulesShown = 0;  // each call's number: a reply to an older call (a preset since replaced) is dropped

async function showRules() {
  const text = $("rules-text");
  const call = ++rulesShown;
  if (ruleToml !== null) {
    $("rules-desc").textContent = "An uploaded rule file: checked by the server when the table is created.";
    text.textContent = ruleToml;
    return;
  }
  try {
    const r = await getJSON(`/api/rules/${encodeURIComponent($("rules").value)}`);
    if (call !== rulesShown) return;
    $("rules-desc").textContent = r.description || "";
    text.textContent = Object.entries(r.fields).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join("\n");
  } catch (e) { if (call === rulesShown) $("rules-desc").textContent = e.message; }
}

async function create() {
  $("create-error").innerHTML = "";
  const seats = [0, 1, 2].map((i) => $(`seat-${i}`).value);
  const names = [0, 1, 2].map((i) => $(`name-${i}`).value.trim() || null);
  const body = { seats, clock: { move: Number($("clock-move").value) || 0, bank: Number($("clock-bank").value) || 0 } };
  if (names.some(Boolean)) body.names = names.map((n, i) => n || ["East", "South", "West"][i]);
  if (ruleToml !== null) body.rules_toml = ruleToml; else body.rules = $("rules").value;
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const { status, data } = await postJSON("/api/tables", body);
  if (status >= 400) {
    $("create-error").appendChild(el("span", { class: "error", id: "lobby-error" }, data.error || `error ${status}`));
    return;
  }
  $("created").classList.remove("hidden");
  $("created-id").textContent = data.id;
  $("created-hash").textContent = `seed hash (SHA-256, the seed is shown after the game): ${data.seed_hash}`;
  const links = $("links");
  links.innerHTML = "";
  for (const s of data.seats) {
    const row = el("div", { style: "margin:6px 0" }, el("div", {}, `Seat ${s.seat} (${["East", "South", "West"][s.seat]} at the start) — ${s.kind}`));
    if (s.kind === "human") {
      row.appendChild(el("input", { type: "text", readonly: true, value: abs(s.url), class: "invite", "data-seat": s.seat }));
      row.appendChild(el("a", { href: s.url, target: "_blank", class: "open-seat", "data-seat": s.seat }, "open this seat"));
    } else if (s.kind === "mjai") {
      const ws = abs(`/ws/tables/${data.id}/mjai?token=${s.token}`).replace(/^http/, "ws");
      row.appendChild(el("input", { type: "text", readonly: true, value: ws, class: "invite", "data-seat": s.seat }));
    }
    links.appendChild(row);
  }
  links.appendChild(el("div", { style: "margin-top:8px" }, "Watch link:",
    el("input", { type: "text", readonly: true, value: abs(data.watch), id: "watch-link" })));
  links.appendChild(el("p", { class: "muted", style: "font-size:12px" }, "Each invite holds an unguessable token: give each person only their own."));
  refresh();
}

async function refresh() {
  const t = $("tables");
  let data;
  try { data = await getJSON("/api/tables"); } catch (e) { t.innerHTML = ""; t.appendChild(el("tr", {}, el("td", { class: "muted" }, e.message))); return; }
  t.innerHTML = "";
  t.appendChild(el("tr", {}, ["table", "rules", "seats", "round", "scores", "", ""].map((h) => el("th", {}, h))));
  if (!data.tables.length) t.appendChild(el("tr", {}, el("td", { class: "muted", colspan: 7 }, "no games yet")));
  for (const g of data.tables) {
    const round = g.round ? `${g.round.wind}${g.round.number}` + (g.round.honba ? `-${g.round.honba}` : "") : "";
    t.appendChild(el("tr", { "data-table": g.id },
      el("td", {}, el("span", { class: `badge ${g.finished ? "finished" : "running"}` }, g.finished ? "finished" : "running"), " ", g.id),
      el("td", {}, g.rules), el("td", {}, (g.seats || []).map((s) => displayName(s.name || s.kind, s.seat)).join(", ")),
      el("td", {}, g.finished ? "" : round), el("td", { class: "mono" }, (g.scores || []).join(" / ")),
      el("td", {}, el("a", { href: `/t/${encodeURIComponent(g.id)}/watch` }, "watch")),
      el("td", {}, g.finished ? el("a", { href: `/replay?table=${encodeURIComponent(g.id)}` }, "replay") : "")));
  }
}

async function init() {
  const opts = await getJSON("/api/score/options");
  for (const p of opts.presets) $("rules").appendChild(el("option", { value: p }, p));
  $("rules").value = "tenhou";
  $("rules").addEventListener("change", () => { ruleToml = null; $("rulefile").value = ""; showRules(); });
  $("rulefile").addEventListener("change", async () => {
    const f = $("rulefile").files[0];
    ruleToml = f ? await f.text() : null;
    showRules();
  });
  const seats = $("seats");
  for (let i = 0; i < 3; i++) {
    const sel = el("select", { id: `seat-${i}` }, KINDS.map(([v, label]) => el("option", { value: v }, label)));
    sel.value = DEFAULT[i];
    seats.appendChild(el("span", {}, `Seat ${i}`));
    seats.appendChild(sel);
    seats.appendChild(el("input", { type: "text", id: `name-${i}`, placeholder: "name (optional)" }));
  }
  $("create").addEventListener("click", create);
  showRules();
  refresh();
  setInterval(refresh, 5000);
}
init();
