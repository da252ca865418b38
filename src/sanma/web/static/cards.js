// The cards over the table: a hand's result (hand_result) and the final settlement (game_result),
// drawn from the server's payloads (web/results.py; docs/WEB_PROTOCOL.md). The table page and the
// replay viewer draw the same cards. No figure is computed here: every number is the server's.
import { tileEl, tileLabel } from "/static/tiles.js";
import { el } from "/static/common.js";
import { meldEl } from "/static/board.js";
import { t, term, fmtNumber, fmtSigned } from "/static/i18n.js";

const signedClass = (n) => (n > 0 ? "plus" : n < 0 ? "minus" : "");

/** A row of tiles with a label: dora, ura, kita, flowers. */
function tileRow(label, tiles, id) {
  if (!tiles || !tiles.length) return null;
  return el("div", { class: "tilerow", id }, el("span", { class: "label" }, label),
    el("span", { class: "tiles" }, tiles.map((x) => tileEl(x))));
}

/** A revealed hand: the concealed tiles, the winning tile apart (``win``), the melds as called, the
 * kita and flowers set aside. */
export function handTiles(h, seat, names, win) {
  return el("div", { class: "winhand", "data-seat": seat },
    el("span", { class: "tiles concealed" }, (h.hand || []).map((x) => tileEl(x))),
    win ? el("span", { class: "tiles win-slot" }, tileEl(win, { boxCls: "win-tile" })) : null,
    (h.melds || []).length ? el("span", { class: "melds" }, h.melds.map((m) => meldEl(m, seat, names))) : null,
    h.kita_tiles ? el("span", { class: "tiles extras", title: t("kita") },
      Array.from({ length: h.kita_tiles }, () => tileEl("N", { boxCls: "kita" }))) : null,
    (h.flower_tiles || []).length ? el("span", { class: "tiles extras" }, h.flower_tiles.map((x) => tileEl(x))) : null);
}

/** A win's value in words: ``3 han 30 fu — Mangan`` / 役満 ×2 (a result card's, the calculator's). */
export function winValue(w) {
  if (w.yakuman) return `${term("limit", "yakuman")}${w.yakuman > 1 ? ` ×${w.yakuman}` : ""}`;
  const base = t("{han} han {fu} fu", { han: w.han, fu: w.fu });
  return w.limit ? `${base} — ${term("limit", w.limit)}` : base;
}

function winBlock(w, r, names) {
  const who = names[w.seat];
  const how = w.tsumo ? t("{who} — tsumo", { who }) : t("{who} — ron from {from}", { who, from: names[w.from] });
  const fu = w.fu_breakdown && w.fu_breakdown.length && !w.yakuman
    ? el("p", { class: "muted small fu-breakdown" }, t("fu") + ": " +
      w.fu_breakdown.map(([line, n]) => `${fuWords(line)} ${n}`).join(" + ")) : null;
  return el("div", { class: "win", "data-seat": w.seat },
    el("h3", {}, how),
    handTiles(w, w.seat, names, w.pai),
    el("table", { class: "data result-yaku" }, (w.yaku || []).map((y) => el("tr", { "data-yaku": y.name },
      el("td", {}, term("yaku", y.name)),
      el("td", { class: "num" }, y.yakuman ? `${term("limit", "yakuman")}${y.yakuman > 1 ? ` ×${y.yakuman}` : ""}`
        : t("{han} han", { han: y.han }))))),
    el("p", { class: "result-total" }, `${winValue(w)} → ${t("{points} points", { points: fmtNumber(w.points) })}`),
    fu,
    w.pao !== null && w.pao !== undefined ? el("p", { class: "pao" }, t("pao: {who} pays", { who: names[w.pao] })) : null);
}

/** A fu line in words: ``triplet_closed 1z`` → "closed triplet of East". */
export function fuWords(line) {
  const [head, rest] = line.split(" ");
  const word = term("fu", head);
  return rest ? `${word} ${tileWord(rest)}` : word;
}
function tileWord(name) {
  const honours = { "1z": "E", "2z": "S", "3z": "W", "4z": "N", "5z": "P", "6z": "F", "7z": "C" };
  const key = honours[name];
  return key ? term("tile", name) : name;
}

function paymentsTable(r, names) {
  const chips = r.chips && r.chips.some(Boolean);
  return el("div", { class: "scroll-x" }, el("table", { class: "data", id: "result-payments" },
    el("tr", {}, el("th", {}, t("player")), el("th", { class: "num" }, t("points")),
      chips ? el("th", { class: "num" }, t("chips")) : null, el("th", { class: "num" }, t("score"))),
    [0, 1, 2].map((s) => el("tr", { "data-seat": s },
      el("td", {}, names[s]),
      el("td", { class: `num ${signedClass(r.deltas[s])}` }, fmtSigned(r.deltas[s])),
      chips ? el("td", { class: `num ${signedClass(r.chips[s])}` }, fmtSigned(r.chips[s])) : null,
      el("td", { class: "num" }, r.scores && r.scores[s] !== undefined ? fmtNumber(r.scores[s]) : "")))));
}

/** The title of a hand's card. */
export function handTitle(r, names) {
  if (r.kind === "hora" && r.reason === "nagashi") return term("yaku", "nagashi");
  if (r.kind === "hora") return r.wins.length > 1 ? t("Double ron") : r.wins[0] && r.wins[0].tsumo ? t("Tsumo") : t("Ron");
  if (r.kind === "chombo") return t("Chombo");
  if (r.kind === "ryukyoku") return term("draw", r.reason || "exhaustive");
  // an abortive draw names its cause (and who declared nine terminals)
  const cause = term("draw", r.reason);
  return r.actor !== null && r.actor !== undefined ? `${cause} — ${names[r.actor]}` : cause;
}

/** A hand's name in a player's words: "East 1" (東1局), with its honba "East 1, 1 honba" (東1局 1本場).
 * The one home of these words: the result card, the replay viewer's hand picker, the review panel. */
export function roundName(wind, number, honba) {
  const name = t("{wind} {number}", { wind: term("wind", wind), number });
  return honba ? t("{round}, {honba} honba", { round: name, honba }) : name;
}

/** A hand's name on its card, as the server's result names it. */
export function roundLabel(r) {
  const round = r.round;
  return round ? roundName(round.wind, round.number, round.honba) : "";
}

/** A record's hand label in words: "E1", "S3-2" (a replay's), "E1-0" (a review's kyoku: round wind,
 * dealer's number, honba); anything else as it is. */
export function kyokuLabel(label) {
  const m = /^([ESWN])(\d+)(?:-(\d+))?$/.exec(label || "");
  return m ? roundName(m[1], Number(m[2]), Number(m[3] || 0)) : label;
}

/** The body of a hand's card (a list of elements). */
export function handBody(r, names, roundLabel) {
  const out = [el("p", { class: "muted small", id: "result-round" }, roundLabel)];
  for (const w of r.wins || []) out.push(winBlock(w, r, names));
  if (r.kind === "ryukyoku" || (r.kind === "hora" && r.reason === "nagashi")) {
    const shown = new Set((r.tenpai_hands || []).map((h) => h.seat));
    for (const h of r.tenpai_hands || []) {
      out.push(el("div", { class: "tenpai-hand", "data-seat": h.seat },
        el("h3", {}, t("{who} — tenpai", { who: names[h.seat] })), handTiles(h, h.seat, names, null)));
    }
    if (r.reason === "exhaustive") {
      const noten = [0, 1, 2].filter((s) => !(r.tenpai || []).includes(s));
      out.push(el("p", { id: "noten" }, !shown.size ? t("Nobody tenpai") : !noten.length ? t("Everyone tenpai")
        : t("Noten: {who}", { who: noten.map((s) => names[s]).join(", ") })));
    }
    if ((r.nagashi || []).length) out.push(el("p", {}, t("Nagashi mangan: {who}", { who: r.nagashi.map((s) => names[s]).join(", ") })));
  }
  for (const c of r.chombo || []) out.push(el("p", { class: "chombo" }, `${names[c.seat]}: ${term("chombo_reason", c.reason)}`));
  out.push(tileRow(t("Dora"), r.dora_indicators, "result-dora"));
  out.push(tileRow(t("Ura"), r.uradora_markers, "result-ura"));
  const sticks = r.sticks_won ? t("riichi sticks won: {n} ({points})", { n: r.sticks_won, points: fmtNumber(r.sticks_won * (r.riichi_deposit || 1000)) })
    : (r.kind !== "hora" && r.sticks ? t("riichi sticks on the table: {n}", { n: r.sticks }) : "");
  out.push(el("p", { class: "muted", id: "result-counters" }, [t("{n} honba", { n: r.honba ?? 0 }), sticks].filter(Boolean).join(" · ")));
  out.push(paymentsTable(r, names));
  return out;
}

/** The final settlement's card body: placement, player, score, uma, chips, points, oka, the seed. */
export function finalBody(r, names, seedLine) {
  const order = [0, 1, 2].sort((a, b) => (r.ranks ? r.ranks[a] - r.ranks[b] : 0));
  // every figure is the server's settlement (flow.final): uma_seats is each seat's uma as applied
  // (sinking uma's table, tied places' shares), in thousands of points or in chips; oka goes to the top
  const num = (x) => (typeof x === "number" ? x : null);
  const cell = (x, fmt) => el("td", { class: "num" }, x === null || x === undefined ? "" : fmt(x));
  const plus = (x, digits) => (x > 0 ? "+" : "") + (Number.isInteger(x) ? fmtNumber(x) : x.toFixed(digits));
  const rows = order.map((s) => el("tr", { "data-seat": s },
    el("td", {}, String(r.ranks ? r.ranks[s] : "")), el("td", {}, names[s]),
    cell((r.scores || [])[s], fmtNumber),
    cell(r.uma_seats ? num(r.uma_seats[s]) : null, (x) => plus(x, 1)),
    cell(r.chips ? num(r.chips[s]) : null, fmtSigned),
    cell(r.points ? num(r.points[s]) : null, (x) => (x > 0 ? "+" : "") + x.toFixed(1))));
  const oka = Array.isArray(r.oka) ? r.oka.join(" / ") : r.oka ? fmtNumber(r.oka) : "";
  return [
    el("div", { class: "scroll-x" }, el("table", { class: "data", id: "final-table" },
      el("tr", {}, el("th", {}, "#"), el("th", {}, t("player")), el("th", { class: "num" }, t("score")),
        el("th", { class: "num" }, r.uma_unit === "chips" ? t("uma (chips)") : t("uma")),
        el("th", { class: "num" }, t("chips")), el("th", { class: "num" }, t("points"))), rows)),
    oka ? el("p", { class: "muted" }, t("oka {oka} (to the top)", { oka })) : null,
    seedLine || null];
}

/** One engine event in a sentence (the table's log, the replay viewer's step line); null: not told. */
export function describeEvent(e, names) {
  const who = (i) => names[i] ?? `seat ${i}`;
  switch (e.type) {
    case "start_kyoku": return t("{round}, {honba} honba", { round: `${term("wind", e.bakaze)} ${e.kyoku}`, honba: e.honba });
    case "tsumo": return e.pai && e.pai !== "?" ? t("{who} draws {tile}", { who: who(e.actor), tile: tileLabel(e.pai) }) : t("{who} draws", { who: who(e.actor) });
    case "dahai": return e.tsumogiri ? t("{who} discards {tile} (tsumogiri)", { who: who(e.actor), tile: tileLabel(e.pai) })
      : t("{who} discards {tile}", { who: who(e.actor), tile: tileLabel(e.pai) });
    case "pon": return t("{who} pon {tile} from {from}", { who: who(e.actor), tile: e.pai, from: who(e.target) });
    case "daiminkan": return t("{who} kan {tile} from {from}", { who: who(e.actor), tile: e.pai, from: who(e.target) });
    case "ankan": return t("{who} closed kan", { who: who(e.actor) });
    case "kakan": return t("{who} added kan {tile}", { who: who(e.actor), tile: e.pai });
    case "kita": return t("{who} kita", { who: who(e.actor) });
    case "flower": return t("{who} flower", { who: who(e.actor) });
    case "reach": return t("{who} riichi!", { who: who(e.actor) });
    case "reach_accepted": return t("{who}'s riichi stick is down", { who: who(e.actor) });
    case "hora": return e.actor === e.target ? t("{who} tsumo!", { who: who(e.actor) }) : t("{who} ron!", { who: who(e.actor) });
    case "ryukyoku": return term("draw", e.reason);
    case "dora": return t("new dora indicator {tile}", { tile: e.dora_marker });
    default: return null;
  }
}
