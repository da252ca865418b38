// A player's page (/player/ID): the figures `sanma stats --player web:ID` prints, computed by the
// server with the same code (web/players.py), the points over time, and every game with its replay.
import { el, getJSON, myPlayer } from "/static/common.js";
import { t, fmtNumber, fmtDate } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const pid = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const fixed = (x, d) => (x === null || x === undefined ? "—" : Number(x).toFixed(d));

function figures(s) {
  const rows = [
    [t("games"), String(s.games), "games"],
    [t("placements (1st / 2nd / 3rd)"), s.placements.join(" / "), "placements"],
    [t("average placement"), fixed(s.average_placement, 2), "average_placement"],
    [t("average points"), fixed(s.average_points, 1), "average_points"],
    [t("hands"), String(s.hands), "hands"],
    [t("win rate"), pct(s.win_rate), "win_rate"],
    [t("deal-in rate"), pct(s.deal_in_rate), "deal_in_rate"],
    [t("riichi rate"), pct(s.riichi_rate), "riichi_rate"],
    [t("call rate"), pct(s.call_rate), "call_rate"],
    [t("draw rate"), pct(s.draw_rate), "draw_rate"],
    [t("average win"), s.average_win === null ? "—" : fmtNumber(Math.round(s.average_win)), "average_win"],
    [t("average deal-in"), s.average_deal_in === null ? "—" : fmtNumber(Math.round(s.average_deal_in)), "average_deal_in"],
    [t("kita per game"), fixed(s.kita_per_game, 2), "kita_per_game"],
  ];
  return el("table", { class: "data", id: "stats" }, rows.map(([label, value, key]) =>
    el("tr", { "data-key": key }, el("th", {}, label), el("td", { class: "num" }, value))));
}

/** Points after each game and their running total, as an SVG line (no library, nothing fetched). */
function chart(games) {
  const pts = games.filter((g) => typeof g.points === "number");
  if (!pts.length) return el("p", { class: "muted" }, t("No finished game with points yet."));
  let total = 0;
  const totals = pts.map((g) => (total += g.points));
  const w = 600, h = 220, pad = 34;
  const lo = Math.min(0, ...totals, ...pts.map((g) => g.points)), hi = Math.max(0, ...totals, ...pts.map((g) => g.points));
  const span = hi - lo || 1;
  const x = (i) => pad + (pts.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (pts.length - 1));
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / span;
  const line = totals.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
  const bars = pts.map((g, i) => `<rect x="${(x(i) - 3).toFixed(1)}" width="6" y="${Math.min(y(g.points), y(0)).toFixed(1)}" ` +
    `height="${Math.abs(y(g.points) - y(0)).toFixed(1)}" fill="${g.points >= 0 ? "#7fd18b" : "#ff9c92"}" opacity=".7"/>`).join("");
  const dots = totals.map((v, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5" fill="#e8c15a"><title>` +
    `${i + 1}: ${v.toFixed(1)}</title></circle>`).join("");
  const svg = `<svg viewBox="0 0 ${w} ${h}" role="img" xmlns="http://www.w3.org/2000/svg" style="width:100%;height:auto">` +
    `<line x1="${pad}" x2="${w - pad}" y1="${y(0)}" y2="${y(0)}" stroke="#b9c8bb" stroke-width="1" opacity=".5"/>` +
    bars + `<path d="${line}" fill="none" stroke="#e8c15a" stroke-width="2.5"/>` + dots +
    `<text x="${pad}" y="14" fill="#b9c8bb" font-size="12">${t("running total (line), each game (bars)")}</text>` +
    `<text x="4" y="${y(hi) + 4}" fill="#b9c8bb" font-size="11">${hi.toFixed(0)}</text>` +
    `<text x="4" y="${y(lo) + 4}" fill="#b9c8bb" font-size="11">${lo.toFixed(0)}</text></svg>`;
  const box = el("div", { id: "points-chart", "data-total": totals[totals.length - 1].toFixed(1) });
  box.innerHTML = svg;
  return box;
}

function gamesTable(games) {
  const rows = [...games].reverse().map((g) => el("tr", { "data-game": g.game },
    el("td", {}, g.when ? fmtDate(g.when) : ""),
    el("td", { class: "num" }, String(g.placement)),
    el("td", { class: "num" }, g.score === null ? "" : fmtNumber(g.score)),
    el("td", { class: "num" }, g.points === null ? "" : (g.points > 0 ? "+" : "") + g.points.toFixed(1)),
    el("td", {}, g.replay ? el("a", { class: "button", href: g.replay }, t("Replay")) : "")));
  return [el("tr", {}, el("th", {}, t("when")), el("th", { class: "num" }, "#"), el("th", { class: "num" }, t("score")),
    el("th", { class: "num" }, t("points")), el("th", {}, "")), ...rows];
}

async function init() {
  let data;
  try { data = await getJSON(`/api/players/${encodeURIComponent(pid)}`); } catch (e) {
    $("figures").textContent = e.message;
    return;
  }
  const me = await myPlayer();
  const mine = me && me.id === pid;
  $("title").textContent = data.name || (mine ? t("Your games") : t("Player"));
  $("who").textContent = mine ? t("This browser's player — the same figures as: sanma stats --player {player}", { player: data.player })
    : t("The same figures as: sanma stats --player {player}", { player: data.player });
  $("figures").innerHTML = "";
  if (!data.stats) { $("figures").appendChild(el("p", {}, t("No finished game yet."))); return; }
  $("figures").classList.remove("muted");
  $("figures").appendChild(figures(data.stats));
  $("chart").appendChild(chart(data.games));
  $("games").append(...gamesTable(data.games));
}
init();
