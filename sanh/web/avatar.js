// Avatars made by the project: a small SVG face drawn from the player's id (the name when
// there is no id), the same at every table and on every page. No image is downloaded: the
// id's hash seeds a tiny generator that picks the background, skin, hair style and colour,
// eyes, brows and mouth, so two players rarely look alike and one always looks the same.
import { esc } from "/util.js";

export function hash(text) {
  let h = 2166136261; // FNV-1a over the code points
  for (const ch of String(text)) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
  return h;
}

// mulberry32: a 32-bit generator, deterministic for its seed.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const SKIN = ["#f6d7b8", "#eec39a", "#e0ac7e", "#c68a5e", "#a86e45"];
const HAIR = ["#1d1a18", "#2e221b", "#4a3222", "#6b4a2b", "#3b3b46", "#8c5a2b"];
const SHIRT = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e", "#17202a", "#a93226"];

// The hair: drawn behind the face (long hair) and over it (the top), by style.
const HAIR_STYLES = [
  { back: "", top: "M9 17c0-8 5-12 11-12s11 4 11 12c-2-4-6-6-11-6s-9 2-11 6z" }, // short
  { back: "M7 18c0-9 5-14 13-14s13 5 13 14v14h-5V20H12v12H7z", top: "M9 18c1-8 5-12 11-12s10 4 11 12c-3-5-7-7-11-7s-8 2-11 7z" }, // long
  { back: "", top: "M9 17c0-8 5-12 11-12s11 4 11 12c-3-3-5-4-8-4l-3-3-3 3c-3 0-6 1-8 4z M20 1a4 4 0 1 1 0 8a4 4 0 1 1 0-8z" }, // bun
  { back: "", top: "M9 18c0-9 6-13 12-13 5 0 10 4 10 11-5-1-10-4-12-7-2 4-6 7-10 9z" }, // side part
  { back: "M8 19c0-8 5-13 12-13s12 5 12 13v6h-3v-8H11v8H8z", top: "M9 16c1-7 5-10 11-10s10 3 11 10c-4-3-7-4-11-4s-7 1-11 4z" }, // bob
];

// The SVG of one avatar (a 40 × 40 view box, scaled by its box).
export function avatarSVG(key) {
  const rnd = generator(hash(key));
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const hue = Math.floor(rnd() * 360);
  const skin = pick(SKIN);
  const hair = pick(HAIR);
  const shirt = pick(SHIRT);
  const style = pick(HAIR_STYLES);
  const eyeY = 19 + Math.floor(rnd() * 2);
  const gap = 4 + Math.floor(rnd() * 2);
  const eyes = rnd() < 0.75
    ? `<circle cx="${20 - gap}" cy="${eyeY}" r="1.4"/><circle cx="${20 + gap}" cy="${eyeY}" r="1.4"/>`
    : `<path d="M${18.5 - gap} ${eyeY}q1.5-1.6 3 0M${18.5 + gap} ${eyeY}q1.5-1.6 3 0" fill="none" stroke="#222" stroke-width="1.1" stroke-linecap="round"/>`;
  const smile = 1 + rnd() * 2.2;
  const mouth = `<path d="M16.5 25.5q3.5 ${smile.toFixed(1)} 7 0" fill="none" stroke="#7a3b2e" stroke-width="1.2" stroke-linecap="round"/>`;
  const cheeks = rnd() < 0.4 ? `<circle cx="13.5" cy="23.5" r="1.6" fill="#e88" opacity=".45"/><circle cx="26.5" cy="23.5" r="1.6" fill="#e88" opacity=".45"/>` : "";
  const glasses = rnd() < 0.18
    ? `<g fill="none" stroke="#222" stroke-width=".9"><circle cx="${20 - gap}" cy="${eyeY}" r="2.6"/><circle cx="${20 + gap}" cy="${eyeY}" r="2.6"/><path d="M${22.6 - gap} ${eyeY}h${2 * gap - 5.2}"/></g>` : "";
  return `<svg viewBox="0 0 40 40" xmlns="http://www.w3.org/2000/svg" focusable="false">
    <circle cx="20" cy="20" r="20" fill="hsl(${hue} 45% 38%)"/>
    ${style.back ? `<path d="${style.back}" fill="${hair}"/>` : ""}
    <path d="M6 40c1-7 7-10 14-10s13 3 14 10z" fill="${shirt}"/>
    <rect x="17" y="26" width="6" height="5" fill="${skin}"/>
    <ellipse cx="20" cy="20" rx="10" ry="11" fill="${skin}"/>
    <path d="${style.top}" fill="${hair}"/>
    <g fill="#222">${eyes}</g>${glasses}${cheeks}${mouth}
  </svg>`;
}

// A seat's or a row's avatar: {player, name, bot}. `size` in px (the CSS gives seats theirs).
export function avatarHTML(who, size = 0) {
  const key = who.player || who.id || who.name || "?";
  const dim = size ? ` style="width:${size}px;height:${size}px"` : "";
  return `<span class="avatar${who.bot ? " bot" : ""}" data-avatar="${esc(String(key))}" aria-hidden="true"${dim}>${avatarSVG(key)}</span>`;
}
