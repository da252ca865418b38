// The table drawn from a VIEW (docs/WEB_PROTOCOL.md): the seat at the bottom, the next seat
// (shimocha) on the right, the one before (kamicha) on the left; rivers around the centre box.
// The table page draws the server's view; the replay viewer builds the same shape with every
// hand open (``seats[i].tiles`` / ``seats[i].drawn``).
import { tileEl, sortTiles, windSVG } from "/static/tiles.js";
import { el, displayName, realName } from "/static/common.js";

export const WINDS = { E: "East", S: "South", W: "West", N: "North" };

/** A wind label: its kanji drawn as strokes (the name as tooltip). */
export function windEl(wind) {
  const e = el("span", { class: "wind", title: WINDS[wind] || wind, "data-wind": wind });
  e.innerHTML = windSVG(wind);
  return e;
}
const SIDES = ["bottom", "right", "left"];  // relative seat 0, +1, +2

/** The relative side of ``seat`` seen from ``viewpoint``. */
export function sideOf(seat, viewpoint) { return SIDES[(seat - viewpoint + 3) % 3]; }

/** A meld with the called tile turned toward the seat it came from (kamicha left, shimocha right).
 * ``meld.kind`` (pon, daiminkan, kakan, ankan) says which call made it; a kakan's ``added`` tile lies
 * sideways on top of the called one, as on Tenhou and Mahjong Soul. */
export function meldEl(meld, actor, names) {
  const kind = meld.kind || (meld.type === "kan" && meld.added ? "kakan" : meld.type === "kan" ? "daiminkan" : meld.type);
  const box = el("span", { class: "meld", "data-type": meld.type, "data-kind": kind });
  const tiles = [...meld.tiles];
  const take = (name) => {  // remove one copy of ``name`` (the last one: the engine appends called and added tiles)
    const i = typeof name === "string" ? tiles.lastIndexOf(name) : -1;
    return i >= 0 ? tiles.splice(i, 1)[0] : null;
  };
  const added = kind === "kakan" ? (take(meld.added) || tiles.pop()) : null;
  const calledTile = take(meld.called);
  const rel = meld.target === null || meld.target === undefined ? 0 : (meld.target - actor + 3) % 3;
  if (kind === "ankan") {
    tiles.forEach((t, i) => box.appendChild(tileEl(t, { back: i === 0 || i === 3 })));
  } else {
    const called = tileEl(calledTile || tiles.pop(), { sideways: true, boxCls: "called" });
    const side = added
      ? [el("span", { class: "stack", title: "added kan (kakan)" }, tileEl(added, { sideways: true, boxCls: "added" }), called)]
      : [called];
    const parts = rel === 2 ? [...side, ...tiles.map((t) => tileEl(t))] : rel === 1
      ? [...tiles.map((t) => tileEl(t)), ...side] : [tiles.length ? tileEl(tiles.shift()) : null, ...side,
        ...tiles.map((t) => tileEl(t))];
    parts.filter(Boolean).forEach((p) => box.appendChild(p));
  }
  const label = { pon: "pon", daiminkan: "open kan", kakan: "added kan", ankan: "closed kan" }[kind] || kind;
  if (meld.target !== null && meld.target !== undefined) {
    box.title = `${label} — from ${names ? names[meld.target] : "seat " + meld.target}`;
    box.dataset.from = String(meld.target);
  } else box.title = label;
  return box;
}

function riverEl(seat) {
  const river = el("div", { class: "river", "data-seat": seat.seat });
  seat.discards.forEach((d, i) => {
    const cls = [d.tsumogiri ? "tsumogiri" : "", d.called ? "called-away" : "", d.riichi ? "riichi-tile" : "",
      d.last ? "last" : "", d.candidate ? "candidate" : ""].join(" ");
    const t = tileEl(d.pai, { sideways: d.riichi, boxCls: cls });
    t.dataset.index = String(i);
    t.title = (d.riichi ? "riichi — " : "") + (d.tsumogiri ? "tsumogiri (the tile just drawn)" : "from the hand") +
      (d.called ? " — called" : "");
    river.appendChild(t);
  });
  return river;
}

function extrasEl(seat) {  // kita and flowers set aside
  const box = el("span", { class: "extras" });
  for (let i = 0; i < (seat.kita || 0); i++) box.appendChild(tileEl("N", { boxCls: "kita" }));
  if (Array.isArray(seat.flower_tiles)) seat.flower_tiles.forEach((f) => box.appendChild(tileEl(f, { boxCls: "flower" })));
  else for (let i = 0; i < (seat.flowers || 0); i++) box.appendChild(tileEl(`${(i % 4) + 1}f`, { boxCls: "flower" }));
  if (seat.kita) box.title = `${seat.kita} North pulled (kita)`;
  return box;
}

function handEl(view, seat, isOwn, opts) {
  const box = el("div", { class: "hand", "data-seat": seat.seat });
  const tiles = el("span", { class: "tiles concealed" });
  let drawn = null;
  if (isOwn && view.closed_hand) {
    view.closed_hand.forEach((t, i) => {
      const e = tileEl(t, { boxCls: "mine" });
      e.dataset.index = String(i);
      tiles.appendChild(e);
    });
    if (view.drawn) drawn = tileEl(view.drawn, { boxCls: "mine drawn" });
  } else if (seat.tiles) {  // replay: every hand open
    sortTiles(seat.tiles).forEach((t) => tiles.appendChild(tileEl(t)));
    if (seat.drawn) drawn = tileEl(seat.drawn, { boxCls: "drawn" });
  } else if (seat.open_hand) {
    sortTiles(seat.open_hand).forEach((t) => tiles.appendChild(tileEl(t)));
  } else {
    const n = seat.hand_size || 0;
    const hasDrawn = n % 3 === 2;
    for (let i = 0; i < (hasDrawn ? n - 1 : n); i++) tiles.appendChild(tileEl("?", { back: true }));
    if (hasDrawn) drawn = tileEl("?", { back: true, boxCls: "drawn" });
  }
  box.appendChild(tiles);
  if (drawn) box.appendChild(el("span", { class: "tiles drawn-slot" }, drawn));
  const melds = el("span", { class: "melds" });
  seat.melds.forEach((m) => melds.appendChild(meldEl(m, seat.seat, opts.names)));
  box.appendChild(melds);
  box.appendChild(extrasEl(seat));
  return box;
}

function centreEl(view, opts) {
  // round_index counts the rule set's round winds; a lap shows only where a wind comes again ("EE")
  const lap = opts.lap && opts.lap > 1 ? ` (lap ${opts.lap})` : "";
  const c = el("div", { class: "centre" },
    el("div", { class: "round", id: "round-label" },
      `${WINDS[view.round_wind] || view.round_wind} ${view.kyoku}${lap}`),
    el("div", { class: "counters" },
      el("span", { title: "honba (repeat counters)", id: "honba" }, `${view.honba} honba`),
      el("span", { title: "riichi sticks on the table", id: "sticks" }, `${view.kyotaku} sticks`)),
    el("div", { class: "wall", id: "wall", title: "tiles left in the live wall" }, `wall ${view.wall_remaining}`),
    el("div", { class: "dora tiles small", id: "dora", title: "dora indicators" },
      view.dora_indicators.map((t) => tileEl(t)),
      (opts.ura || []).length ? el("span", { class: "ura", title: "ura dora indicators" },
        opts.ura.map((t) => tileEl(t))) : null));
  const vp = opts.viewpoint;
  view.seats.forEach((s) => {
    const side = sideOf(s.seat, vp);
    const turn = view.turn === s.seat && !view.done;
    const name = (view.names && view.names[s.seat]) || `seat ${s.seat}`;
    c.appendChild(el("div", { class: `plate ${side}` + (turn ? " turn" : "") + (s.seat === view.dealer ? " dealer" : ""),
      "data-seat": s.seat },
      windEl(s.wind),
      el("span", { class: "score" }, view.scores[s.seat].toLocaleString("en-US")),
      s.riichi ? el("span", { class: "stick", title: "riichi" }) : null,
      el("span", { class: "pname", title: realName(name) || null }, displayName(name, s.seat))));
  });
  return c;
}

/** Which time the current round wind comes round, from the rules' ``round_winds`` ("EE": 1, then 2). */
export function lapOf(view, roundWinds) {
  if (!roundWinds) return 1;
  const winds = [...roundWinds].join("");
  const i = view.round_index || 0;
  return [...winds.slice(0, i)].filter((w) => w === view.round_wind).length + 1;
}

/** Draw ``view`` into ``root`` (cleared). opts: viewpoint, names, ura, own (true on a seat's page), lap. */
export function renderBoard(root, view, opts = {}) {
  const vp = opts.viewpoint ?? 0;
  root.innerHTML = "";
  const board = el("div", { class: "board" });
  board.appendChild(centreEl(view, { ...opts, viewpoint: vp }));
  for (const s of view.seats) {
    const side = sideOf(s.seat, vp);
    board.appendChild(el("div", { class: `zone river-zone ${side}` }, riverEl(s)));
    board.appendChild(el("div", { class: `zone hand-zone ${side}` },
      handEl(view, s, opts.own && s.seat === view.seat, opts)));
  }
  root.appendChild(board);
  return board;
}
