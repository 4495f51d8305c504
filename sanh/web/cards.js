// SVG playing cards: face up, face down; works for the 52-, 36- and 28-card decks.
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

export function isCardCode(value) {
  return typeof value === "string" && /^[2-9TJQKA][cdhs]$/.test(value);
}

export function cardLabel(code) {
  if (!isCardCode(code)) return "??";
  return (RANKS[code[0]] || code[0]) + SUITS[code[1]];
}

export function cardSVG(code, { small = false } = {}) {
  const w = small ? 40 : 60;
  const h = small ? 56 : 84;
  if (!isCardCode(code)) {
    return `<svg class="card back" width="${w}" height="${h}" viewBox="0 0 60 84" role="img" aria-label="hidden card">
      <rect x="1" y="1" width="58" height="82" rx="6" fill="#1d3b8f" stroke="#0b1a44"/>
      <pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 8L8 0" stroke="#5b7be0" stroke-width="1.5"/></pattern>
      <rect x="6" y="6" width="48" height="72" rx="4" fill="url(#p)"/></svg>`;
  }
  const rank = RANKS[code[0]] || code[0];
  const suit = SUITS[code[1]];
  const red = code[1] === "d" || code[1] === "h";
  const color = red ? "#c8102e" : "#111";
  return `<svg class="card face" width="${w}" height="${h}" viewBox="0 0 60 84" role="img" aria-label="${rank}${suit}" data-card="${code}">
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#333"/>
    <text x="6" y="20" font-size="16" font-weight="700" fill="${color}" font-family="sans-serif">${rank}</text>
    <text x="6" y="36" font-size="15" fill="${color}" font-family="sans-serif">${suit}</text>
    <text x="30" y="60" font-size="30" text-anchor="middle" fill="${color}" font-family="sans-serif">${suit}</text>
  </svg>`;
}

export function cardsHTML(list, opts) {
  return `<span class="cards">${list.map((c) => cardSVG(c, opts)).join("")}</span>`;
}
