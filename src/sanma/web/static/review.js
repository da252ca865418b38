// The replay viewer's review panel (issue 21 item 3): `sanma review` of one seat, computed by the
// SERVER (web/reviews.py: the review's own code), drawn beside each step of the replay. This page
// holds no rule and no number of its own: it shows the server's options (win, deal-in, value,
// expected points, expected placement points, regret), the played one marked, the review's sentence
// of why in the page's language (the server's `words`), each hand's placement odds, the game's
// summary, and opens each reviewed position in the calculator (/calc with the server's `position`).
//
// A decision's `step` counts the hand's engine events before it; the replay's steps carry those
// events, so the decision is shown at the step after which that many events had happened.
import { el, displayName } from "/static/common.js";
import { tileEl } from "/static/tiles.js";
import { R, onStep, go, setViewpoint } from "/static/replay.js";
import { kyokuLabel } from "/static/cards.js";
import { t, tc, fmtNumber, fmtSigned } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const V = { data: null, review: null, at: new Map(), order: [], loading: false, seat: 0 };

const pct = (p) => `${(100 * p).toFixed(p > 0 && p < 0.01 ? 1 : 0)}%`;
const place = (x) => (x > 0 ? "+" : "") + x.toFixed(2);
function names() { return [0, 1, 2].map((i) => displayName((R.data && R.data.players[i]) || "", i)); }

/** The replay step of hand ``h`` at which ``count`` of its engine events had happened. */
function stepOf(h, count) {
  const steps = (R.data.hands[h] || { steps: [] }).steps;
  let n = 0, at = 0;
  for (let s = 0; s < steps.length; s++) {
    n += steps[s].events.length;
    if (n > count) break;
    at = s;
    if (n === count) break;
  }
  return at;
}

function panel() { return $("review"); }

/** A new record in the viewer: the panel offers a review of one of its seats. */
function reset() {
  V.data = R.data; V.review = null; V.at = new Map(); V.order = [];
  const box = panel();
  box.innerHTML = "";
  box.classList.toggle("hidden", !R.data || !R.data.hands.length);
  document.body.classList.remove("reviewing");
  if (!R.data || !R.data.hands.length) return;
  const seat = el("select", { id: "review-seat", title: t("the seat to review") },
    names().map((n, i) => el("option", { value: String(i) }, n)));
  seat.value = String(R.viewpoint);
  box.appendChild(el("div", { class: "review-head" },
    el("strong", {}, t("Review")), seat,
    el("button", { class: "primary", id: "review-go", onclick: () => ask(Number(seat.value)) }, t("Review this seat")),
    el("span", { class: "muted small", id: "review-status" })));
}

async function ask(seat) {
  if (V.loading) return;
  V.loading = true;
  $("review-status").textContent = t("reviewing…");
  try {
    let r;
    if (R.table) r = await fetch(`/api/reviews/table/${encodeURIComponent(R.table)}?seat=${seat}`);
    else if (R.upload) {
      r = await fetch(`/api/reviews?seat=${seat}&name=${encodeURIComponent(R.upload.name)}`,
        { method: "POST", body: R.upload.text, headers: { "Content-Type": "text/plain" } });
    } else return;
    const data = await r.json().catch(() => ({ error: t("error {status}", { status: r.status }) }));
    if (!r.ok) { $("review-status").textContent = data.error; return; }
    show(data);
  } catch (e) {
    $("review-status").textContent = e.message;
  } finally {
    V.loading = false;
  }
}

function show(data) {
  V.review = data; V.seat = data.seat; V.at = new Map(); V.order = [];
  data.decisions.forEach((d, i) => {
    const key = `${d.hand}:${stepOf(d.hand, d.step)}`;
    if (!V.at.has(key)) { V.at.set(key, i); V.order.push([d.hand, stepOf(d.hand, d.step), i]); }
  });
  document.body.classList.add("reviewing");
  const box = panel();
  box.innerHTML = "";
  const s = data.summary;
  const worst = el("div", { class: "review-worst", id: "review-worst" }, s.worst.map(([h, k]) => {
    const i = data.decisions.findIndex((d) => d.hand === h && d.step === k);
    const d = data.decisions[i];
    return el("a", { href: "#", class: "button", "data-hand": String(h), "data-step": String(stepOf(h, k)),
      onclick: (e) => { e.preventDefault(); go(h, stepOf(h, k)); } },
    t("{kyoku}, step {step}: {points} points lost", { kyoku: kyokuLabel(d.kyoku), step: stepOf(h, k), points: fmtNumber(regretPoints(d)) }));
  }));
  box.appendChild(el("div", { class: "review-head" },
    el("strong", {}, t("Review of {name}", { name: names()[data.seat] })),
    el("button", { id: "review-prev", title: t("previous decision"), onclick: () => jump(-1) }, "◀", el("kbd", {}, "P")),
    el("button", { id: "review-next", title: t("next decision"), onclick: () => jump(1) }, "▶", el("kbd", {}, "N")),
    el("button", { class: "ghost", id: "review-close", title: t("close the review"), onclick: reset }, "✕")));
  box.appendChild(el("div", { id: "review-decision" }));
  box.appendChild(el("div", { id: "review-hand" }));
  box.appendChild(el("div", { class: "review-summary", id: "review-summary" },
    el("div", {}, t("This game: {n} decisions, agreement {agreement}, regret {regret} placement points ({points} points)", {
      n: s.decisions, agreement: pct(s.agreement), regret: s.regret_placement.toFixed(2),
      points: fmtNumber(s.regret_points) })),
    s.worst.length ? el("div", { class: "muted small" }, t("The costliest decisions:")) : null, worst));
  box.appendChild(el("details", { class: "small muted" }, el("summary", {}, t("What the numbers are")),
    el("p", { id: "review-model" }, data.words.model)));
  if (R.viewpoint !== data.seat) setViewpoint(data.seat);
  else follow();
}

function actionKey(a) { return JSON.stringify(a); }
function regretPoints(d) { return d.options.find((o) => actionKey(o.action) === actionKey(d.played)).regret_points; }

/** The next (``dir`` 1) or previous (-1) decision of the reviewed seat from the viewer's step. */
function jump(dir) {
  if (!V.review || !V.order.length) return;
  const here = [R.hand, R.step];
  const later = (a, b) => a[0] - b[0] || a[1] - b[1];
  const list = dir > 0 ? V.order : [...V.order].reverse();
  const next = list.find(([h, s]) => dir * later([h, s], here) > 0);
  if (next) go(next[0], next[1]);
}

/** Each step: the hand's placement odds and, at a decision of the seat, its options. */
function follow() {
  if (R.data !== V.data) { reset(); return; }
  if (!V.review) return;
  const hand = V.review.hands[R.hand];
  const odds = $("review-hand");
  odds.innerHTML = "";
  if (hand) {
    odds.appendChild(el("div", { class: "muted small" }, t("Placement odds at the deal of this hand")));
    odds.appendChild(el("table", { class: "data review-odds", id: "review-odds" },
      el("tr", {}, el("th", {}, ""), [t("1st"), t("2nd"), t("3rd")].map((x) => el("th", { class: "num" }, x))),
      hand.placement_odds.map((row, s) => el("tr", { class: s === V.seat ? "me" : "" }, el("td", {}, names()[s]),
        row.map((p) => el("td", { class: "num" }, pct(p)))))));
  }
  const box = $("review-decision");
  box.innerHTML = "";
  const i = V.at.get(`${R.hand}:${R.step}`);
  if (i === undefined) {
    box.appendChild(el("p", { class: "muted", id: "review-none" },
      t("No decision of {name} at this step.", { name: names()[V.seat] })));
    return;
  }
  const d = V.review.decisions[i];
  const words = V.review.words.decisions[i];
  const rows = d.options.map((o, j) => {
    const played = actionKey(o.action) === actionKey(d.played);
    const tile = o.action.pai ? tileEl(o.action.pai) : null;
    return el("tr", { class: (played ? "played" : "") + (o.regret === 0 ? " best" : ""), "data-played": played ? "1" : "0" },
      el("td", { class: "opt" }, played ? el("span", { class: "mark", title: t("played") }, "▶") : null, tile,
        el("span", {}, words.options[j])),
      el("td", { class: "num" }, pct(o.win)), el("td", { class: "num" }, pct(o.deal_in)),
      el("td", { class: "num" }, fmtNumber(o.value)), el("td", { class: "num" }, fmtSigned(o.ev_points)),
      el("td", { class: "num" }, place(o.ev_placement)),
      el("td", { class: "num", title: t("{points} points", { points: fmtNumber(o.regret_points) }) },
        o.regret === 0 ? "—" : o.regret.toFixed(2)));
  });
  box.appendChild(el("div", { class: "small", id: "review-kyoku" }, `${kyokuLabel(d.kyoku)} · ${words.category}`));
  box.appendChild(el("div", { class: "review-scroll" }, el("table", { class: "data review-options", id: "review-options" },
    el("tr", {}, [t("option"), tc("rate", "win"), tc("rate", "deal-in"), t("value if it wins"), t("EV points"), t("EV placement"),
      t("regret")]
      .map((h, k) => el("th", { class: k ? "num" : "" }, h))), rows)));
  box.appendChild(el("p", { id: "review-why" }, words.why));
  box.appendChild(el("a", { class: "button", id: "review-calc", href: calcLink(d.position), target: "_blank",
    rel: "noopener" }, t("Open this position in the calculator")));
}

/** /calc with the position's fields (those of POST /api/score) in its address. */
function calcLink(p) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) {
    if (v === null || v === "" || v === false || (Array.isArray(v) && !v.length)) continue;
    q.set(k, Array.isArray(v) ? v.join(",") : v === true ? "1" : String(v));
  }
  return `/calc?${q}`;
}

onStep(follow);
document.addEventListener("keydown", (e) => {
  if (!V.review || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey) return;
  if (e.key === "n" || e.key === "N") { e.preventDefault(); jump(1); }
  if (e.key === "p" || e.key === "P") { e.preventDefault(); jump(-1); }
});
