// sanma tiles drawn in-house as SVG: no image, no font beyond the page's, no network fetch.
// A tile is named as in mjai (the server's notation): 1m 9m, 1p..9p, 5pr (red five), 1s..9s,
// E S W N (winds), P F C (white, green, red dragon), 1f..4f (flowers), "?" or null = face down.
// The kanji are drawn as strokes, so the tiles look the same on a machine without CJK fonts.
import { t, term } from "/static/i18n.js";

const FACE = "#f7f3e6";
const EDGE = "#c9bf9f";
const BACK = "#e08a1e";
const BLUE = "#1f4e9a";
const GREEN = "#1d7a3a";
const RED = "#c8202a";
const INK = "#1b1b1b";

// Kanji as strokes in a 100x100 box (drawn with round caps).
const KANJI = {
  一: ["M12 52 L88 50"],
  九: ["M44 10 Q46 58 12 90", "M16 36 L64 36 Q62 78 70 86 Q80 90 90 86 L91 70"],
  萬: ["M10 18 L90 18", "M33 6 L33 30", "M67 6 L67 30", "M25 36 L75 36 L75 58 L25 58 Z",
    "M25 47 L75 47", "M50 36 L50 58", "M18 94 L18 66 L82 66 L82 90 Q82 96 72 94",
    "M50 58 L50 88", "M40 72 L33 86 L66 84", "M58 74 L66 86"],
  東: ["M14 24 L86 24", "M50 6 L50 96", "M28 36 L72 36 L72 64 L28 64 Z", "M28 50 L72 50",
    "M47 66 Q36 82 14 90", "M53 66 Q66 82 88 90"],
  南: ["M14 18 L86 18", "M50 6 L50 31", "M20 96 L20 32 L80 32 L80 88 Q80 96 70 94",
    "M37 41 L44 51", "M63 41 L56 51", "M31 57 L69 57", "M34 73 L66 73", "M50 57 L50 92"],
  西: ["M12 14 L88 14", "M20 92 L20 34 L80 34 L80 92", "M20 88 L80 88",
    "M40 14 L40 52 Q40 62 21 66", "M60 14 L60 58 Q60 66 79 66"],
  北: ["M38 10 L38 90", "M14 42 L38 42", "M10 82 L38 66", "M62 8 L62 82 Q62 90 72 90 L90 90 L90 76",
    "M62 50 L88 34"],
  中: ["M16 30 L84 30 L84 66 L16 66 Z", "M50 6 L50 96"],
  發: ["M16 12 L30 22", "M36 8 L40 28 Q30 42 10 48", "M58 8 Q66 34 92 44", "M72 8 L84 16",
    "M60 26 L86 24", "M12 54 L38 54 L38 67 L15 67 L15 80 L40 80 Q41 95 29 93",
    "M60 52 L60 62 Q58 68 50 70", "M60 52 L78 52 L78 63 Q79 67 88 66",
    "M54 75 L82 75 Q72 89 50 95", "M62 82 Q72 91 92 95"],
};

function strokes(chars, x, y, size, color, width) {
  const s = size / 100;
  return `<g transform="translate(${x} ${y}) scale(${s})" fill="none" stroke="${color}" ` +
    `stroke-width="${width / s}" stroke-linecap="round" stroke-linejoin="round">` +
    KANJI[chars].map((d) => `<path d="${d}"/>`).join("") + "</g>";
}

// Pinzu: circles (cx, cy, r, colour) in the 60x80 tile.
const PIN = {
  1: [[30, 39, 19, "R"]],
  2: [[30, 22, 12, "G"], [30, 56, 12, "B"]],
  3: [[16, 17, 9.5, "B"], [30, 39, 9.5, "R"], [44, 61, 9.5, "G"]],
  4: [[18, 23, 10, "B"], [42, 23, 10, "G"], [18, 55, 10, "G"], [42, 55, 10, "B"]],
  5: [[17, 18, 9, "B"], [43, 18, 9, "G"], [30, 39, 9, "R"], [17, 60, 9, "G"], [43, 60, 9, "B"]],
  6: [[19, 15, 8.5, "G"], [41, 15, 8.5, "G"], [19, 41, 8.5, "R"], [41, 41, 8.5, "R"],
    [19, 63, 8.5, "R"], [41, 63, 8.5, "R"]],
  7: [[14, 13, 7, "G"], [30, 19, 7, "G"], [46, 25, 7, "G"], [19, 44, 8, "R"], [41, 44, 8, "R"],
    [19, 64, 8, "R"], [41, 64, 8, "R"]],
  8: [[19, 13, 7.5, "B"], [41, 13, 7.5, "B"], [19, 31, 7.5, "B"], [41, 31, 7.5, "B"],
    [19, 49, 7.5, "B"], [41, 49, 7.5, "B"], [19, 67, 7.5, "B"], [41, 67, 7.5, "B"]],
  9: [[15, 16, 7.5, "B"], [30, 16, 7.5, "B"], [45, 16, 7.5, "B"], [15, 39, 7.5, "R"],
    [30, 39, 7.5, "R"], [45, 39, 7.5, "R"], [15, 62, 7.5, "G"], [30, 62, 7.5, "G"], [45, 62, 7.5, "G"]],
};
const COLOURS = { R: RED, G: GREEN, B: BLUE };

function circle(cx, cy, r, colour) {
  const c = COLOURS[colour];
  let out = `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${c}"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r * 0.74}" fill="${FACE}"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r * 0.56}" fill="${c}"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r * 0.2}" fill="${FACE}"/>`;
  if (r > 15) {  // the one of circles: a ring of petals
    for (let i = 0; i < 8; i++) {
      const a = (i * Math.PI) / 4;
      out += `<circle cx="${(cx + Math.cos(a) * r * 0.87).toFixed(1)}" ` +
        `cy="${(cy + Math.sin(a) * r * 0.87).toFixed(1)}" r="${r * 0.08}" fill="${GREEN}"/>`;
    }
  }
  return out;
}

// Souzu: bamboo sticks (cx, cy, height, colour, angle).
const SOU = {
  2: [[30, 23, 24, "G"], [30, 56, 24, "G"]],
  3: [[30, 23, 24, "G"], [18, 56, 24, "G"], [42, 56, 24, "G"]],
  4: [[18, 23, 24, "G"], [42, 23, 24, "G"], [18, 56, 24, "G"], [42, 56, 24, "G"]],
  5: [[15, 23, 24, "G"], [45, 23, 24, "G"], [30, 39, 24, "R"], [15, 56, 24, "G"], [45, 56, 24, "G"]],
  6: [[15, 23, 24, "G"], [30, 23, 24, "G"], [45, 23, 24, "G"], [15, 56, 24, "G"], [30, 56, 24, "G"],
    [45, 56, 24, "G"]],
  7: [[30, 13, 17, "R"], [15, 40, 17, "G"], [30, 40, 17, "G"], [45, 40, 17, "G"], [15, 64, 17, "G"],
    [30, 64, 17, "G"], [45, 64, 17, "G"]],
  8: [[11, 23, 24, "G"], [24, 23, 24, "G", 28], [36, 23, 24, "G", -28], [49, 23, 24, "G"],
    [11, 56, 24, "G"], [24, 56, 24, "G", -28], [36, 56, 24, "G", 28], [49, 56, 24, "G"]],
  9: [[15, 15, 19, "G"], [30, 15, 19, "R"], [45, 15, 19, "G"], [15, 39, 19, "G"], [30, 39, 19, "R"],
    [45, 39, 19, "G"], [15, 63, 19, "G"], [30, 63, 19, "R"], [45, 63, 19, "G"]],
};

function stick(cx, cy, h, colour, angle = 0) {
  const c = colour === "R" ? RED : GREEN;
  const w = 7.6;
  const x = cx - w / 2;
  const y = cy - h / 2;
  return `<g transform="rotate(${angle} ${cx} ${cy})">` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="3" fill="${c}"/>` +
    `<rect x="${x + 1.9}" y="${y + 2}" width="${w - 3.8}" height="${h - 4}" rx="1.2" fill="${FACE}" opacity=".55"/>` +
    `<rect x="${x - 0.6}" y="${cy - 1.2}" width="${w + 1.2}" height="2.4" rx="1" fill="${c}"/>` +
    `<rect x="${x - 0.6}" y="${y}" width="${w + 1.2}" height="2" rx="1" fill="${c}"/>` +
    `<rect x="${x - 0.6}" y="${y + h - 2}" width="${w + 1.2}" height="2" rx="1" fill="${c}"/></g>`;
}

function bird() {  // the one of bamboo
  return `<path d="M30 50 Q16 62 10 74 M30 50 Q30 64 30 76 M30 50 Q44 62 50 74" stroke="${GREEN}" ` +
    `stroke-width="4" fill="none" stroke-linecap="round"/>` +
    `<path d="M30 52 Q22 66 20 74 M30 52 Q38 66 40 74" stroke="${BLUE}" stroke-width="2.4" fill="none"/>` +
    `<ellipse cx="30" cy="40" rx="11" ry="14" fill="${GREEN}"/>` +
    `<ellipse cx="27" cy="42" rx="5" ry="8" fill="${BLUE}"/>` +
    `<circle cx="31" cy="21" r="7" fill="${GREEN}"/><circle cx="33" cy="19.5" r="1.8" fill="${FACE}"/>` +
    `<path d="M37 21 L44 23 L37 25 Z" fill="${RED}"/>` +
    `<path d="M29 14 L25 6 M31 14 L31 5 M33 14 L37 6" stroke="${RED}" stroke-width="2" stroke-linecap="round"/>`;
}

function flower(n) {
  const colours = [RED, BLUE, GREEN, "#b5459b"];
  const c = colours[(n - 1) % 4];
  let out = "";
  for (let i = 0; i < 5; i++) {
    const a = (i * 2 * Math.PI) / 5 - Math.PI / 2;
    out += `<ellipse cx="${(30 + Math.cos(a) * 11).toFixed(1)}" cy="${(36 + Math.sin(a) * 11).toFixed(1)}" ` +
      `rx="8" ry="6" transform="rotate(${(a * 180) / Math.PI} ${(30 + Math.cos(a) * 11).toFixed(1)} ` +
      `${(36 + Math.sin(a) * 11).toFixed(1)})" fill="${c}" opacity=".85"/>`;
  }
  out += `<circle cx="30" cy="36" r="5" fill="#e8b923"/>`;
  out += `<path d="M30 48 Q28 60 32 72" stroke="${GREEN}" stroke-width="2.5" fill="none"/>`;
  out += `<text x="48" y="72" font-family="DejaVu Sans, sans-serif" font-size="12" font-weight="bold" ` +
    `fill="${c}" text-anchor="middle">${n}</text>`;
  return out;
}

const HONOURS = { E: ["東", INK], S: ["南", INK], W: ["西", INK], N: ["北", INK], F: ["發", GREEN], C: ["中", RED] };

/** The drawing on a tile's face (60x80 box), or "" for an unknown name. */
export function faceArt(name) {
  if (HONOURS[name]) {
    const [ch, colour] = HONOURS[name];
    return strokes(ch, 7, 12, 46, colour, 5.5);
  }
  if (name === "P") {
    return `<rect x="12" y="13" width="36" height="52" rx="3" fill="none" stroke="${BLUE}" stroke-width="3"/>` +
      `<rect x="16" y="17" width="28" height="44" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.2"/>`;
  }
  const m = /^([0-9])([mpsf])(r?)$/.exec(name || "");
  if (!m) return "";
  const n = Number(m[1]) || 5;
  const red = m[3] === "r" || m[1] === "0";
  const suit = m[2];
  if (suit === "m") {
    return strokes(n === 1 ? "一" : "九", 12, 5, 36, INK, 5.5) + strokes("萬", 10, 38, 40, RED, 4.2);
  }
  if (suit === "p") return PIN[n].map(([x, y, r, c]) => circle(x, y, r, red ? "R" : c)).join("");
  if (suit === "s") {
    if (n === 1) return bird();
    return SOU[n].map(([x, y, h, c, a]) => stick(x, y, h, red ? "R" : c, a)).join("");
  }
  if (suit === "f") return flower(n);
  return "";
}

/** A readable label for a tile name: "5p (red)", "East", ... */
export function tileLabel(name) {
  const honours = { E: "1z", S: "2z", W: "3z", N: "4z", P: "5z", F: "6z", C: "7z" };  // the vocabulary's names
  if (!name || name === "?") return t("face-down tile");
  if (honours[name]) return term("tile", honours[name]);
  if (name.endsWith("r")) return t("{tile} (red)", { tile: name.slice(0, -1) });
  return name;
}

/**
 * The SVG of one tile as a string. Options: sideways (a riichi or called tile), back (face down),
 * cls (extra CSS classes on the <svg>), title (tooltip; defaults to the tile's name).
 */
export function tileSVG(name, opts = {}) {
  const back = opts.back || !name || name === "?";
  const w = 60;
  const h = 80;
  const body = back
    ? `<rect x="1" y="1" width="58" height="78" rx="6" fill="${BACK}" stroke="#8a4f0a" stroke-width="1"/>` +
      `<rect x="5" y="5" width="50" height="68" rx="4" fill="none" stroke="#f4b35e" stroke-width="1.5"/>`
    : `<rect x="1" y="1" width="58" height="78" rx="6" fill="${EDGE}"/>` +
      `<rect x="1" y="1" width="58" height="74" rx="6" fill="${FACE}" stroke="#a89e80" stroke-width="1"/>` +
      faceArt(name);
  const cls = ["tile", opts.cls || "", opts.sideways ? "sideways" : "", back ? "back" : ""].join(" ").trim();
  const title = back ? "" : `<title>${tileLabel(name)}</title>`;
  const data = back ? "" : ` data-tile="${name}"`;
  if (opts.sideways) {
    return `<svg class="${cls}"${data} viewBox="0 0 ${h} ${w}" xmlns="http://www.w3.org/2000/svg">${title}` +
      `<g transform="translate(0 ${w}) rotate(-90)">${body}</g></svg>`;
  }
  return `<svg class="${cls}"${data} viewBox="0 0 ${w} ${h}" xmlns="http://www.w3.org/2000/svg">${title}${body}</svg>`;
}

/** A DOM element for one tile (a <span> holding the SVG), for event handlers. */
export function tileEl(name, opts = {}) {
  const span = document.createElement("span");
  const back = opts.back || !name || name === "?";
  span.className = "tilebox" + (opts.sideways ? " sideways" : "") + (back ? " back" : "") + (opts.boxCls ? " " + opts.boxCls : "");
  span.innerHTML = tileSVG(name, opts);
  if (!back) span.dataset.tile = name;
  return span;
}

// The sanma tile set in display order (2m-8m do not exist).
export const SANMA_TILES = ["1m", "9m", "1p", "2p", "3p", "4p", "5p", "5pr", "6p", "7p", "8p", "9p",
  "1s", "2s", "3s", "4s", "5s", "5sr", "6s", "7s", "8s", "9s", "E", "S", "W", "N", "P", "F", "C"];

const ORDER = Object.fromEntries(SANMA_TILES.map((t, i) => [t, i]));
ORDER["1f"] = 40; ORDER["2f"] = 41; ORDER["3f"] = 42; ORDER["4f"] = 43;

/** Sort mjai tile names in the usual order (manzu, pinzu, souzu, honours; red five by its five). */
export function sortTiles(tiles) {
  return [...tiles].sort((a, b) => (ORDER[a] ?? 99) - (ORDER[b] ?? 99));
}

/** mjai name → mpsz ("5pr" → "0p", "E" → "1z"), the notation `sanma score` takes. */
export function toMpsz(name) {
  const honours = "ESWNPFC";
  const i = honours.indexOf(name);
  if (i >= 0) return `${i + 1}z`;
  if (name.endsWith("r")) return `0${name[1]}`;
  return name;
}

/** A list of mjai names as compact mpsz: ["1p","2p","E"] → "12p1z". */
export function listToMpsz(names) {
  const groups = { m: [], p: [], s: [], z: [], f: [] };
  for (const n of names) {
    const t = toMpsz(n);
    groups[t[1]].push(t[0]);
  }
  return ["m", "p", "s", "z", "f"].filter((s) => groups[s].length).map((s) => groups[s].join("") + s).join("");
}

/** A wind's kanji (東 南 西 北) drawn as strokes, for labels: no CJK font needed. */
export function windSVG(wind, colour = "currentColor") {
  const ch = { E: "東", S: "南", W: "西", N: "北" }[wind];
  if (!ch) return "";
  return `<svg class="kanji" viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg">${strokes(ch, 0, 0, 100, colour, 11)}</svg>`;
}
