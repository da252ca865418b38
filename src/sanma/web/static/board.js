// The table drawn from a VIEW (docs/WEB_PROTOCOL.md): the seat at the bottom, the next seat
// (shimocha) on the right, the one before (kamicha) on the left; rivers around the centre box.
// The table page draws the server's view; the replay viewer draws the server's replay steps
// (every hand open: ``seats[i].tiles`` / ``seats[i].drawn``).
//
// Layout (style.css, "the board"): the board is drawn in one of two arrangements — "table" (a
// 640x410 design scaled by --k to fit its cell) or "column" (a phone held upright) — and the bottom
// seat's hand is drawn apart, in the hand row, one row of tiles sized to the window's width.
import { tileEl, sortTiles, windSVG } from "/static/tiles.js";
import { el, displayName } from "/static/common.js";
import { t, term, fmtNumber } from "/static/i18n.js";

export const WINDS = { E: term("wind", "E"), S: term("wind", "S"), W: term("wind", "W"), N: term("wind", "N") };
/** A hand's name: "East 1" / 東1局. */
export const handName = (wind, n) => t("{wind} {n}", { wind: WINDS[wind] || wind, n });

/** The media query of the column arrangement (a phone held upright). */
export const COLUMN = "(orientation: portrait) and (max-width: 700px)";
const DESIGN = { w: 640, h: 410 };
const MAX_SCALE = 1.6;
const MIN_HAND_TILE = 26;  // px: below this the melds and kita get a row of their own

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
      ? [el("span", { class: "stack", title: t("added kan (kakan)") }, tileEl(added, { sideways: true, boxCls: "added" }), called)]
      : [called];
    const parts = rel === 2 ? [...side, ...tiles.map((t) => tileEl(t))] : rel === 1
      ? [...tiles.map((t) => tileEl(t)), ...side] : [tiles.length ? tileEl(tiles.shift()) : null, ...side,
        ...tiles.map((t) => tileEl(t))];
    parts.filter(Boolean).forEach((p) => box.appendChild(p));
  }
  const label = { pon: t("pon"), daiminkan: t("open kan"), kakan: t("added kan"), ankan: t("closed kan") }[kind] || kind;
  if (meld.target !== null && meld.target !== undefined) {
    box.title = t("{call} — from {who}", { call: label, who: names ? names[meld.target] : t("seat {n}", { n: meld.target }) });
    box.dataset.from = String(meld.target);
  } else box.title = label;
  return box;
}

function riverEl(seat) {
  const river = el("div", { class: "river", "data-seat": seat.seat });
  seat.discards.forEach((d, i) => {
    const cls = [d.tsumogiri ? "tsumogiri" : "", d.called ? "called-away" : "", d.riichi ? "riichi-tile" : "",
      d.last ? "last" : "", d.candidate ? "candidate" : "", d.fresh ? "fresh" : ""].join(" ");
    const box = tileEl(d.pai, { sideways: d.riichi, boxCls: cls });
    box.dataset.index = String(i);
    box.title = [...(d.riichi ? [term("yaku", "riichi")] : []),
      d.tsumogiri ? t("tsumogiri (the tile just drawn)") : t("from the hand"), ...(d.called ? [t("called")] : [])].join(" — ");
    river.appendChild(box);
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
  box.appendChild(el("span", { class: "break" }));
  return box;
}

function centreEl(view, opts) {
  // round_index counts the rule set's round winds; a lap shows only where a wind comes again ("EE")
  const lap = opts.lap && opts.lap > 1 ? ` ${t("(lap {n})", { n: opts.lap })}` : "";
  const c = el("div", { class: "centre" },
    el("div", { class: "mid" },
      el("div", { class: "round", id: "round-label" }, opts.roundLabel || `${handName(view.round_wind, view.kyoku)}${lap}`),
      el("div", { class: "counters" },
        el("span", { title: t("honba (repeat counters)"), id: "honba" }, t("{n} honba", { n: view.honba })),
        el("span", { title: t("riichi sticks on the table"), id: "sticks" }, t("{n} sticks", { n: view.kyotaku }))),
      el("div", { class: "wall", id: "wall", title: t("tiles left in the live wall") }, t("wall {n}", { n: view.wall_remaining })),
      el("div", { class: "dora tiles small", id: "dora", title: t("dora indicators") },
        view.dora_indicators.map((t) => tileEl(t)),
        (opts.ura || []).length ? el("span", { class: "ura", title: t("ura dora indicators") },
          opts.ura.map((t) => tileEl(t))) : null)));
  const vp = opts.viewpoint;
  view.seats.forEach((s) => {
    const side = sideOf(s.seat, vp);
    const turn = view.turn === s.seat && !view.done;
    const name = (opts.names && opts.names[s.seat]) || (view.names && view.names[s.seat]) || t("seat {n}", { n: s.seat });
    c.appendChild(el("div", { class: `plate ${side}` + (turn ? " turn" : "") + (s.seat === view.dealer ? " dealer" : ""),
      "data-seat": s.seat },
      windEl(s.wind),
      el("span", { class: "score" }, fmtNumber(view.scores[s.seat])),
      s.riichi ? el("span", { class: "stick", title: term("yaku", "riichi") }) : null,
      el("span", { class: "pname" }, displayName(name, s.seat))));
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

/** True while the window is a phone held upright (the column arrangement). */
export function isColumn() { return window.matchMedia(COLUMN).matches; }

/**
 * Draw ``view`` into ``root`` (the board's cell, cleared) and the bottom seat's hand into
 * ``opts.handRoot`` (the hand row). opts: viewpoint, names, ura, own (true on a seat's page), lap,
 * roundLabel (instead of the round from the view).
 */
export function renderBoard(root, view, opts = {}) {
  const vp = opts.viewpoint ?? 0;
  const column = isColumn();
  root.innerHTML = "";
  root.classList.add("board-cell");
  root.classList.toggle("column", column);
  const board = el("div", { class: "board" + (column ? " column" : "") });
  board.appendChild(centreEl(view, { ...opts, viewpoint: vp }));
  let bottom = null;
  for (const s of view.seats) {
    const side = sideOf(s.seat, vp);
    board.appendChild(el("div", { class: `zone river-zone ${side}` }, riverEl(s)));
    if (side === "bottom") bottom = s;
    else board.appendChild(el("div", { class: `zone hand-zone ${side}` }, handEl(view, s, false, opts)));
  }
  root.appendChild(el("div", { class: "board-fit" }, board));
  if (opts.handRoot && bottom) {
    opts.handRoot.innerHTML = "";
    opts.handRoot.classList.add("handrow");
    opts.handRoot.appendChild(el("div", { class: "zone hand-zone bottom" },
      handEl(view, bottom, Boolean(opts.own) && bottom.seat === view.seat, opts)));
  }
  fitBoard(root);
  if (opts.handRoot) fitHand(opts.handRoot);
  return board;
}

/** Scale the table arrangement to its cell (the column arrangement sizes itself from the width). */
export function fitBoard(root) {
  const fit = root.querySelector(".board-fit");
  const board = root.querySelector(".board");
  if (!fit || !board) return;
  if (board.classList.contains("column")) {
    fit.style.width = "100%"; fit.style.height = "";
    board.style.removeProperty("--k");
    return;
  }
  const w = root.clientWidth, h = root.clientHeight;
  if (!w || !h) return;
  const k = Math.max(0.3, Math.min(w / DESIGN.w, h / DESIGN.h, MAX_SCALE));
  board.style.setProperty("--k", k.toFixed(4));
  fit.style.width = `${Math.floor(DESIGN.w * k)}px`;
  fit.style.height = `${Math.floor(DESIGN.h * k)}px`;
}

/** Size the hand row's tiles so that the whole hand fits one row (melds and kita on a second row
 * above when the concealed tiles would otherwise be narrower than 26 px). The tiles' share of the
 * row is measured: what is not a tile (gaps, margins) stays the same at any tile width. */
export function fitHand(row) {
  const hand = row.querySelector(".hand");
  if (!hand) return;
  const style = getComputedStyle(row);
  const avail = row.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1;
  if (avail <= 0) return;
  const natural = (w, twoRows) => {  // the width the hand takes with tiles of width w
    hand.classList.toggle("two-rows", twoRows);
    hand.style.setProperty("--fit-w", `${w}px`);
    hand.style.width = "max-content";
    const parts = twoRows ? [...hand.querySelectorAll(":scope > .concealed, :scope > .drawn-slot")] : [...hand.children];
    const width = parts.reduce((sum, e) => {
      const cs = getComputedStyle(e);
      if (cs.display === "none") return sum;
      return sum + e.getBoundingClientRect().width + parseFloat(cs.marginLeft) + parseFloat(cs.marginRight);
    }, 0);
    hand.style.width = "";
    return width;
  };
  const solve = (twoRows) => {  // width = a * w + b: two measures give a and b
    const w1 = 20, w2 = 40;
    const n1 = natural(w1, twoRows), n2 = natural(w2, twoRows);
    const a = (n2 - n1) / (w2 - w1), b = n1 - a * w1;
    return a > 0 ? (avail - b) / a : 40;
  };
  let w = solve(false);
  const extra = hand.querySelector(".melds .meld, .extras .tilebox");
  const twoRows = w < MIN_HAND_TILE && Boolean(extra);
  if (twoRows) w = solve(true);
  hand.classList.toggle("two-rows", twoRows);
  hand.style.setProperty("--fit-w", `${Math.max(10, Math.floor(w * 10) / 10)}px`);
}

/** Call ``redraw`` whenever the window's arrangement changes (rotating a phone), and fit the board
 * (``root``) and the hand row again whenever their cells change size. */
export function watchLayout(redraw, root, handRoot) {
  const pending = {};
  const later = (key, fn) => { cancelAnimationFrame(pending[key]); pending[key] = requestAnimationFrame(fn); };
  window.matchMedia(COLUMN).addEventListener("change", () => later("redraw", redraw));
  if (typeof ResizeObserver === "undefined") { window.addEventListener("resize", () => later("redraw", redraw)); return; }
  new ResizeObserver(() => later("board", () => fitBoard(root))).observe(root);
  if (handRoot) new ResizeObserver(() => later("hand", () => fitHand(handRoot))).observe(handRoot);
}
