// SVG playing cards (face up and face down) and dice. Card codes are the engine's: rank
// 2-9, T, J, Q, K, A and suit c, d, h, s ("Td" is the ten of diamonds); the 52-, 36- and
// 28-card decks are subsets of these, so every deck draws the same way. A hidden card is null.
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANKS = { T: "10" };
const SIZES = { xs: [30, 42], sm: [42, 59], md: [56, 78], lg: [72, 101] };

export function isCardCode(value) {
  return typeof value === "string" && /^[2-9TJQKA][cdhs]$/.test(value);
}

export function cardLabel(code) {
  if (!isCardCode(code)) return "🂠";
  return (RANKS[code[0]] || code[0]) + SUITS[code[1]];
}

function back(w, h, extra) {
  const lines = [];
  for (let i = -84; i < 84; i += 9) lines.push(`<path d="M${i} 84L${i + 84} 0" />`);
  return `<svg class="card back" width="${w}" height="${h}" viewBox="0 0 60 84" role="img" aria-label="🂠" ${extra}>
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#1e3a8a" stroke="#0b1a44"/>
    <clipPath id="cb"><rect x="5" y="5" width="50" height="74" rx="4"/></clipPath>
    <g clip-path="url(#cb)" stroke="#93c5fd" stroke-width="1.4" opacity=".55">${lines.join("")}</g>
    <rect x="5" y="5" width="50" height="74" rx="4" fill="none" stroke="#bfdbfe" stroke-width="1.2"/></svg>`;
}

// cardSVG(code, {size, extra}): one card; null/undefined/"??" draws the back.
export function cardSVG(code, { size = "md", extra = "" } = {}) {
  const [w, h] = SIZES[size] || SIZES.md;
  if (!isCardCode(code)) return back(w, h, extra);
  const rank = RANKS[code[0]] || code[0];
  const suit = SUITS[code[1]];
  const red = code[1] === "d" || code[1] === "h";
  const color = red ? "#b91c1c" : "#111827";
  const face = "JQK".includes(code[0]);
  const middle = face
    ? `<rect x="14" y="24" width="32" height="42" rx="3" fill="none" stroke="${color}" stroke-width="1.2"/>
       <text x="30" y="53" font-size="22" font-weight="700" text-anchor="middle" fill="${color}" font-family="Georgia, serif">${rank}</text>`
    : `<text x="30" y="62" font-size="30" text-anchor="middle" fill="${color}" font-family="sans-serif">${suit}</text>`;
  return `<svg class="card face" width="${w}" height="${h}" viewBox="0 0 60 84" role="img" aria-label="${rank}${suit}" data-card="${code}" ${extra}>
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf7" stroke="#374151"/>
    <text x="5" y="17" font-size="${rank.length > 1 ? 13 : 15}" font-weight="700" fill="${color}" font-family="sans-serif">${rank}</text>
    <text x="5" y="31" font-size="13" fill="${color}" font-family="sans-serif">${suit}</text>
    ${middle}
    <g transform="rotate(180 30 42)"><text x="5" y="17" font-size="${rank.length > 1 ? 13 : 15}" font-weight="700" fill="${color}" font-family="sans-serif">${rank}</text></g>
  </svg>`;
}

export function cardsHTML(list, opts = {}) {
  const cls = opts.fan ? "cards fan" : "cards";
  return `<span class="${cls}">${(list || []).map((c) => cardSVG(c, opts)).join("")}</span>`;
}

// A face-down stack showing how many cards a player holds.
export function backsHTML(count, opts = {}) {
  const shown = Math.min(count, opts.max || 5);
  const items = Array.from({ length: shown }, () => cardSVG(null, { size: opts.size || "xs" })).join("");
  return `<span class="cards fan backs" data-count="${count}">${items}<span class="count">${count}</span></span>`;
}

const PIPS = {
  1: [[30, 30]],
  2: [[16, 16], [44, 44]],
  3: [[15, 15], [30, 30], [45, 45]],
  4: [[17, 17], [43, 17], [17, 43], [43, 43]],
  5: [[16, 16], [44, 16], [30, 30], [16, 44], [44, 44]],
  6: [[17, 14], [43, 14], [17, 30], [43, 30], [17, 46], [43, 46]],
};

export function dieSVG(value, size = 44) {
  const pips = (PIPS[value] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="5.2" fill="${value === 1 || value === 4 ? "#b91c1c" : "#111827"}"/>`).join("");
  return `<svg class="die" width="${size}" height="${size}" viewBox="0 0 60 60" role="img" aria-label="${value}" data-die="${value}">
    <rect x="2" y="2" width="56" height="56" rx="10" fill="#fffdf7" stroke="#374151" stroke-width="2"/>${pips}</svg>`;
}
