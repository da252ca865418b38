// How the table feels (issue 18 item 3): calls, riichi, kita and wins announced beside the seat that
// made them, a fresh discard dropped into its river, and optional sounds made in the page with
// WebAudio (no audio file is fetched from anywhere). Nothing here decides anything: it only shows
// the events the server sent.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";

const SOUND_KEY = "sanma_sound";
let audio = null;

/** True when this browser asked for sounds (off until asked: a page may not play sound unbidden). */
export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
}

/** Switch sounds on or off (called from a click, which lets the page start its audio). */
export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* not kept */ }
  if (on) ensureAudio();
}

function ensureAudio() {
  if (audio || typeof window.AudioContext === "undefined") return audio;
  audio = new window.AudioContext();
  return audio;
}

// Each sound is a few short tones: [frequency Hz, start s, length s, volume], a sine or a triangle.
const SOUNDS = {
  discard: { wave: "triangle", notes: [[660, 0, 0.05, 0.18]] },
  turn: { wave: "sine", notes: [[880, 0, 0.12, 0.12]] },
  call: { wave: "triangle", notes: [[520, 0, 0.09, 0.25], [780, 0.09, 0.12, 0.25]] },
  riichi: { wave: "sine", notes: [[660, 0, 0.12, 0.25], [990, 0.12, 0.25, 0.25]] },
  win: { wave: "sine", notes: [[523, 0, 0.12, 0.3], [659, 0.1, 0.12, 0.3], [784, 0.2, 0.12, 0.3], [1047, 0.3, 0.35, 0.3]] },
  draw: { wave: "sine", notes: [[392, 0, 0.2, 0.2], [330, 0.2, 0.3, 0.2]] },
};

/** Play a sound of ``kind`` when sounds are on; the last ones played are in document.body.dataset.sounds. */
export function sound(kind) {
  if (!soundOn() || !SOUNDS[kind]) return;
  const ctx = ensureAudio();
  document.body.dataset.sounds = [...(document.body.dataset.sounds || "").split(" ").filter(Boolean), kind].slice(-20).join(" ");
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const { wave, notes } = SOUNDS[kind];
  const now = ctx.currentTime;
  for (const [freq, start, length, volume] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0, now + start);
    gain.gain.linearRampToValueAtTime(volume, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

/** What an event is announced as (null: not announced), and its sound. */
export function announcement(e) {
  switch (e.type) {
    case "pon": return { text: t("Pon"), sound: "call", seat: e.actor };
    case "daiminkan": case "ankan": case "kakan": return { text: t("Kan"), sound: "call", seat: e.actor };
    case "kita": return { text: t("Kita"), sound: "call", seat: e.actor };
    case "reach": return { text: t("Riichi"), sound: "riichi", seat: e.actor };
    case "hora": return { text: e.actor === e.target ? t("Tsumo") : t("Ron"), sound: "win", seat: e.actor };
    case "ryukyoku": return { text: t("Draw"), sound: "draw", seat: null };
    case "dahai": return { text: null, sound: "discard", seat: e.actor };
    default: return null;
  }
}

/** Show ``text`` beside the seat's side of the board (``side``: bottom, right, left; null: the centre)
 * for a moment. The bubble is one element per side, replaced by the next one. */
export function announce(root, side, text, kind) {
  if (!root || !text) return;
  const id = `announce-${side || "centre"}`;
  const old = document.getElementById(id);
  if (old) old.remove();
  const bubble = el("div", { class: `announce ${side || "centre"} ${kind || ""}`, id, role: "status" }, text);
  root.appendChild(bubble);
  setTimeout(() => bubble.remove(), 1600);
}
