// The lobby: create a table (rules, seats, seed, clock), hand out the invite links, list the games.
import { el, getJSON, postJSON, displayName, myPlayer, myName, setMyName } from "/static/common.js";
import { t, tn, term, fmtNumber, lang } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const KINDS = [["human", t("a person")], ["efficient", t("bot: {name}", { name: "efficient" })],
  ["defensive", t("bot: {name}", { name: "defensive" })], ["random", t("bot: {name}", { name: "random" })],
  ["tsumogiri", t("bot: {name}", { name: "tsumogiri" })], ["mjai", t("external mjai bot")]];
const kindWords = (k) => (KINDS.find(([v]) => v === k) || [k, k])[1];
const DEFAULT = ["human", "defensive", "efficient"];
let ruleToml = null;
let ruleFile = "";  // the uploaded file's name: the table's rule set is named after it unless the file names it
let ruleCheck = null;

function abs(url) { return new URL(url, location.href).href; }

/** The rule sheet the server gives (every field in words, in the page's language: what `sanma rules
 * show NAME` prints), grouped; each field names its key for rule-file writers. ``changed``: the fields
 * an uploaded file changes from its base (field → the base's value), listed first and marked. */
function sheetEl(sheet, changed = new Map(), base = "") {
  const rows = (fields) => fields.map((f) => el("tr", { "data-field": f.name, class: changed.has(f.name) ? "changed" : "", title: f.meaning || "" },
    el("th", {}, f.label, el("span", { class: "key" }, f.name)),
    el("td", {}, f.value, changed.has(f.name) ? el("span", { class: "was" }, ` (${base}: ${JSON.stringify(changed.get(f.name))})`) : null)));
  const all = sheet.groups.flatMap((g) => g.fields);
  const out = [];
  if (changed.size) {
    out.push(el("h4", {}, t("Changed from {base}", { base })));
    out.push(el("table", { class: "sheet", id: "rules-changed" }, rows(all.filter((f) => changed.has(f.name)))));
  }
  for (const g of sheet.groups) out.push(el("h4", {}, g.title), el("table", { class: "sheet" }, rows(g.fields)));
  const yaku = sheet.yaku.map((y) => `${y.label} ${y.closed}/${y.open || "–"}`);
  if (yaku.length) out.push(el("h4", {}, t("Yaku (han closed/open)")), el("p", { class: "small", id: "rules-yaku" }, yaku.join(", ")));
  const yakuman = sheet.yakuman.map((y) => y.multiplier > 1 ? `${y.label} ×${y.multiplier}` : y.label);
  if (yakuman.length) out.push(el("h4", {}, t("Yakuman")), el("p", { class: "small" }, yakuman.join(", ")));
  if (sheet.off.length) out.push(el("p", { class: "small muted" }, t("Not played: {names}", { names: sheet.off.join(", ") })));
  return out;
}

let rulesShown = 0;  // each call's number: a reply to an older call (a preset since replaced) is dropped

async function showRules() {
  const text = $("rules-text");
  const call = ++rulesShown;
  $("create").disabled = false;
  if (ruleToml !== null) {  // an uploaded file: the server reads it as it will for the table
    const { status, data } = await postJSON("/api/rules/check", { rules_toml: ruleToml });
    if (call !== rulesShown) return;
    ruleCheck = status === 200 ? data : { valid: false, error: data.error || t("error {status}", { status }) };
    if (!ruleCheck.valid) {
      $("rules-desc").innerHTML = "";
      $("rules-desc").appendChild(el("span", { class: "error", id: "rules-error" }, ruleCheck.error));
      text.innerHTML = "";
      $("create").disabled = true;
      return;
    }
    const name = ruleCheck.named ? ruleCheck.name : ruleFile.replace(/\.[^.]*$/, "");
    const n = ruleCheck.changed.length;
    $("rules-desc").textContent = `${name}: ${ruleCheck.description || ""}` +
      (n ? " — " + tn("{n} change from {base}", "{n} changes from {base}", n, { n, base: ruleCheck.extends }) : "");
    text.innerHTML = "";
    text.append(...sheetEl(ruleCheck.sheet, new Map(ruleCheck.changed.map((c) => [c.field, c.base])), ruleCheck.extends));
    return;
  }
  try {
    const r = await getJSON(`/api/rules/${encodeURIComponent($("rules").value)}`);
    if (call !== rulesShown) return;
    $("rules-desc").textContent = (r.sheet && r.sheet.description) || r.description || "";
    text.innerHTML = "";
    text.append(...sheetEl(r.sheet));
  } catch (e) { if (call === rulesShown) $("rules-desc").textContent = e.message; }
}

async function create() {
  $("create-error").innerHTML = "";
  const seats = [0, 1, 2].map((i) => $(`seat-${i}`).value);
  // a seat without a name: this browser's name for the first person's seat, else "Player N" (a wind
  // word as a name reads badly: "South discards S")
  const mine = seats.indexOf("human");
  const names = [0, 1, 2].map((i) => $(`name-${i}`).value.trim() || (i === mine && myName()) || null);
  const body = { seats, clock: { move: Number($("clock-move").value) || 0, bank: Number($("clock-bank").value) || 0 } };
  if (names.some(Boolean)) body.names = names.map((n, i) => n || (seats[i] === "human" || seats[i] === "mjai" ? t("Player {n}", { n: i + 1 }) : seats[i]));
  if (ruleToml !== null) {
    // a file without a name of its own is named after the file (not after its base preset)
    const named = ruleCheck && ruleCheck.valid && !ruleCheck.named;
    body.rules_toml = named ? `name = ${JSON.stringify(ruleFile.replace(/\.[^.]*$/, "") || "uploaded")}\n${ruleToml}` : ruleToml;
  } else body.rules = $("rules").value;
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const { status, data } = await postJSON("/api/tables", body);
  if (status >= 400) {
    $("create-error").appendChild(el("span", { class: "error", id: "lobby-error" }, data.error || t("error {status}", { status })));
    return;
  }
  $("created").classList.remove("hidden");
  $("created-id").textContent = data.id;
  $("created-hash").textContent = t("seed hash (SHA-256, the seed is shown after the game): {hash}", { hash: data.seed_hash });
  const links = $("links");
  links.innerHTML = "";
  for (const s of data.seats) {
    const row = el("div", { style: "margin:8px 0" }, el("div", {}, t("Seat {n} ({wind} at the start) — {kind}", { n: s.seat, wind: term("wind", "ESW"[s.seat]), kind: kindWords(s.kind) })));
    if (s.kind === "human") {
      row.appendChild(el("input", { type: "text", readonly: true, value: abs(s.url), class: "invite", "data-seat": s.seat }));
      row.appendChild(el("a", { href: s.url, target: "_blank", class: "open-seat button", "data-seat": s.seat, style: "margin-top:4px" }, t("Open this seat")));
    } else if (s.kind === "mjai") {
      const ws = abs(`/ws/tables/${data.id}/mjai?token=${s.token}`).replace(/^http/, "ws");
      row.appendChild(el("input", { type: "text", readonly: true, value: ws, class: "invite", "data-seat": s.seat }));
    }
    links.appendChild(row);
  }
  links.appendChild(el("div", { style: "margin-top:8px" }, t("Watch link:"),
    el("input", { type: "text", readonly: true, value: abs(data.watch), id: "watch-link" })));
  links.appendChild(el("p", { class: "muted", style: "font-size:12px" }, t("Each invite holds an unguessable token: give each person only their own.")));
  refresh();
}

async function refresh() {
  const list = $("tables");
  let data;
  try { data = await getJSON("/api/tables"); } catch (e) { list.innerHTML = ""; list.appendChild(el("li", { class: "muted" }, e.message)); return; }
  list.innerHTML = "";
  if (!data.tables.length) list.appendChild(el("li", { class: "muted" }, t("no games yet")));
  for (const g of data.tables) {
    const round = !g.round ? "" : lang === "en" ? `${g.round.wind}${g.round.number}` + (g.round.honba ? `-${g.round.honba}` : "")
      : t("{wind} {n}", { wind: term("wind", g.round.wind), n: g.round.number }) + (g.round.honba ? ` ${t("{n} honba", { n: g.round.honba })}` : "");
    list.appendChild(el("li", { "data-table": g.id },
      el("span", { class: `badge ${g.finished ? "finished" : "running"}` }, g.finished ? t("finished") : t("running")),
      el("span", { class: "mono" }, g.id), el("span", { class: "muted" }, g.rules),
      g.finished ? null : el("span", {}, round),
      el("span", { class: "who" }, (g.seats || []).map((s) => displayName(s.name || s.kind, s.seat)).join(", ")),
      el("span", { class: "scores" }, (g.scores || []).map((x) => fmtNumber(x)).join(" / ")),
      el("span", { class: "go" },
        el("a", { class: "button", href: `/t/${encodeURIComponent(g.id)}/watch` }, t("Watch")),
        g.finished ? el("a", { class: "button", href: `/replay?table=${encodeURIComponent(g.id)}` }, t("Replay")) : null)));
  }
}

async function init() {
  $("my-name").placeholder = t("Player {n}", { n: 1 });
  const opts = await getJSON("/api/score/options");
  for (const p of opts.presets) $("rules").appendChild(el("option", { value: p }, p));
  $("rules").value = "tenhou";
  $("rules").addEventListener("change", () => { ruleToml = null; ruleFile = ""; ruleCheck = null; $("rulefile").value = ""; showRules(); });
  $("rulefile").addEventListener("change", async () => {
    const f = $("rulefile").files[0];
    ruleToml = f ? await f.text() : null;
    ruleFile = f ? f.name : "";
    showRules();
  });
  const seats = $("seats");
  for (let i = 0; i < 3; i++) {
    const sel = el("select", { id: `seat-${i}` }, KINDS.map(([v, label]) => el("option", { value: v }, label)));
    sel.value = DEFAULT[i];
    seats.appendChild(el("label", { for: `seat-${i}` }, t("Seat {n}", { n: i })));
    seats.appendChild(sel);
    seats.appendChild(el("input", { type: "text", id: `name-${i}`, placeholder: t("name (optional)") }));
  }
  $("create").addEventListener("click", create);
  $("my-name").value = myName();
  $("my-name").addEventListener("change", () => setMyName($("my-name").value));
  myPlayer().then((me) => {
    if (me) { $("my-page").href = me.page; $("my-page").classList.remove("hidden"); }
  });
  showRules();
  refresh();
  setInterval(refresh, 5000);
}
init();
