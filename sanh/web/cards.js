// SVG playing cards (face up and face down) and dice, drawn by the project at run time (no
// image files). Card codes are the engine's: rank 2-9, T, J, Q, K, A and suit c, d, h, s ("Td"
// is the ten of diamonds); the 52-, 36- (A-9) and 28-card (8-A) decks are subsets of these, so
// every deck draws the same way. A hidden card is null.
//
// Shapes shared by every card (suit pips, the court figures, the back's pattern) are defined
// once in a hidden sprite (<defs>) and placed with <use>. Each face holds two layouts: "full"
// (corner indices, pips laid out as on real cards, mirrored court figures) and "mini" (a large
// index and suit); cards.css shows the mini one when a card is drawn under 50 px wide (a
// container query on the card), so small cards stay readable on a phone. Suit colours come from
// cards.css through `color` (currentColor), and the four-colour option (♠ black, ♥ red, ♦ blue,
// ♣ green) is a class on <html> remembered in localStorage.
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANKS = { T: "10" };
const SIZES = { xs: [30, 42], sm: [42, 59], md: [56, 78], lg: [72, 101] };
const FOUR_KEY = "sanh.cards.four";
const FONT = `font-family="'DejaVu Sans', 'Liberation Sans', Arial, sans-serif" font-weight="700"`;

export function isCardCode(value) {
  return typeof value === "string" && /^[2-9TJQKA][cdhs]$/.test(value);
}

export function cardLabel(code) {
  if (!isCardCode(code)) return "🂠";
  return (RANKS[code[0]] || code[0]) + SUITS[code[1]];
}

// ----- the four-colour option -----------------------------------------------------------------
export function fourColour() {
  return localStorage.getItem(FOUR_KEY) === "1";
}

export function setFourColour(on) {
  localStorage.setItem(FOUR_KEY, on ? "1" : "0");
  document.documentElement.classList.toggle("four-colour", Boolean(on));
}

// ----- the sprite ------------------------------------------------------------------------------
// Suit pips in a -10..10 box.
const PIP = {
  h: `<path d="M0 9.5C-3 6.5-10 1.6-10-3.4C-10-7.5-7.3-10-4.6-10C-2.6-10-.9-8.8 0-7C.9-8.8 2.6-10 4.6-10C7.3-10 10-7.5 10-3.4C10 1.6 3 6.5 0 9.5Z"/>`,
  d: `<path d="M0-10C2.2-6.6 4.7-3.3 7.5 0C4.7 3.3 2.2 6.6 0 10C-2.2 6.6-4.7 3.3-7.5 0C-4.7-3.3-2.2-6.6 0-10Z"/>`,
  s: `<path d="M0-10C3-6 10-2 10 2.8C10 6.2 7.5 8.2 5 8.2C3.2 8.2 1.8 7.3 1 6C1.2 7.8 2.2 9.2 3.8 10H-3.8C-2.2 9.2-1.2 7.8-1 6C-1.8 7.3-3.2 8.2-5 8.2C-7.5 8.2-10 6.2-10 2.8C-10-2-3-6 0-10Z"/>`,
  c: `<circle cx="0" cy="-4.9" r="4.5"/><circle cx="-5" cy="2.1" r="4.5"/><circle cx="5" cy="2.1" r="4.5"/><circle cx="0" cy=".6" r="2.4"/><path d="M-1 1.5C-1 6-2.2 8.6-4 10H4C2.2 8.6 1 6 1 1.5Z"/>`,
};
const GOLD = `fill="#f2c94c" stroke="#7a5a00" stroke-width=".45"`;
const SKIN = `fill="#f7d7b5" stroke="#8a5a32" stroke-width=".45"`;
const EYES = `<circle cx="27.9" cy="20.6" r=".65" fill="#1f2937"/><circle cx="32.1" cy="20.6" r=".65" fill="#1f2937"/>`;
const NOSE = `<path d="M30 21L29.4 23.2L30.4 23.3" fill="none" stroke="#a0714f" stroke-width=".45"/>`;
// Each court figure is its top half (the frame is x 11..49, y 8..76; the half ends at y 42);
// the card draws it again turned 180° for the bottom half. currentColor is the suit colour.
const COURT = {
  K: `<path d="M13 42V37.5C13 32.5 20 30 30 30S47 32.5 47 37.5V42Z" fill="currentColor"/>
    <path d="M13 42V39.4C18 38.2 22 38.4 25 39.6L27 42ZM47 42V39.4C42 38.2 38 38.4 35 39.6L33 42Z" fill="#fff" stroke="#1f2937" stroke-width=".3"/>
    <path d="M16 40.6v1M19 40v1M22 40.4v1M38 40.4v1M41 40v1M44 40.6v1" stroke="#111827" stroke-width=".9"/>
    <path d="M23 30.6L30 41.5L37 30.6L34.6 30L30 37L25.4 30Z" ${GOLD}/><path d="M25.4 30L30 37L34.6 30Z" fill="#fff"/>
    <rect x="27.6" y="25.5" width="4.8" height="5" fill="#f7d7b5"/>
    <ellipse cx="30" cy="21.3" rx="5.6" ry="6.2" ${SKIN}/>
    <path d="M24.5 21.8C24.8 28 27.5 30.6 30 30.6S35.2 28 35.5 21.8C34.5 24.6 32.6 25.6 30 25.6S25.5 24.6 24.5 21.8Z" fill="#8b5a2b"/>
    <path d="M26.8 24.8C28 23.7 29.3 23.8 30 24.4C30.7 23.8 32 23.7 33.2 24.8C32 25.3 30.8 25.2 30 24.8C29.2 25.2 28 25.3 26.8 24.8Z" fill="#5b3a1e"/>
    ${EYES}${NOSE}<path d="M26.5 19.2L29 18.8M31 18.8L33.5 19.2" stroke="#5b3a1e" stroke-width=".6"/>
    <path d="M23.8 17L23 10.6L26.2 13.6L28 10L30 13L32 10L33.8 13.6L37 10.6L36.2 17Z" ${GOLD}/>
    <rect x="23.8" y="15.2" width="12.4" height="1.8" fill="#d69e00"/><circle cx="30" cy="16.1" r=".9" fill="currentColor"/>
    <circle cx="23" cy="10.6" r=".7" ${GOLD}/><circle cx="28" cy="10" r=".7" ${GOLD}/><circle cx="32" cy="10" r=".7" ${GOLD}/><circle cx="37" cy="10.6" r=".7" ${GOLD}/>
    <path d="M42.3 10.5L43.3 12.6V33H41.3V12.6Z" fill="#e5e7eb" stroke="#64748b" stroke-width=".4"/>
    <rect x="39.8" y="33" width="5" height="1.3" ${GOLD}/><rect x="41.7" y="34.3" width="1.2" height="3.8" fill="#7c4a21"/><circle cx="42.3" cy="38.6" r=".9" ${GOLD}/>`,
  Q: `<path d="M23.6 20C23.2 27 21.5 31.5 19 34.5H41C38.5 31.5 36.8 27 36.4 20C36 13.8 24 13.8 23.6 20Z" fill="#a16207"/>
    <path d="M14 42V37.8C14 33.2 20.5 30.8 30 30.8S46 33.2 46 37.8V42Z" fill="currentColor"/>
    <path d="M23.8 31.2C25.5 36 34.5 36 36.2 31.2Z" fill="#f7d7b5"/>
    <path d="M25 31.8C27 35 33 35 35 31.8" fill="none" stroke="#f2c94c" stroke-width="1"/><circle cx="30" cy="34.4" r="1" ${GOLD}/>
    <path d="M18 42V39M22 42V36.5M38 42V36.5M42 42V39" stroke="#f2c94c" stroke-width=".8"/>
    <rect x="27.8" y="25.6" width="4.4" height="6" fill="#f7d7b5"/>
    <ellipse cx="30" cy="21.4" rx="5.2" ry="6" ${SKIN}/>
    <path d="M24.8 20.4C25 16.6 27 15.4 30 15.4S35 16.6 35.2 20.4C33.5 18 31.5 17.6 30 18.4C28.5 17.6 26.5 18 24.8 20.4Z" fill="#a16207"/>
    ${EYES}${NOSE}<circle cx="26.9" cy="23.4" r="1" fill="#f472b6" opacity=".45"/><circle cx="33.1" cy="23.4" r="1" fill="#f472b6" opacity=".45"/>
    <path d="M28.6 25C29.4 25.5 30.6 25.5 31.4 25C30.6 26 29.4 26 28.6 25Z" fill="#dc2626"/>
    <path d="M24.8 16.4L25.6 12.2L27.8 14.4L30 11L32.2 14.4L34.4 12.2L35.2 16.4Z" ${GOLD}/>
    <circle cx="25.6" cy="12.2" r=".8" ${GOLD}/><circle cx="30" cy="11" r=".8" ${GOLD}/><circle cx="34.4" cy="12.2" r=".8" ${GOLD}/><circle cx="30" cy="14.9" r=".7" fill="currentColor"/>
    <path d="M42.2 17C41.7 23 42.7 28.5 41.7 34.5" fill="none" stroke="#15803d" stroke-width=".8"/>
    <path d="M42.2 26C44 24.4 45.6 24.8 46.2 26C44.6 27 43.2 27 42.2 26Z" fill="#16a34a"/>
    <g fill="#e11d48"><circle cx="42.2" cy="13.2" r="1.6"/><circle cx="44" cy="14.5" r="1.6"/><circle cx="43.3" cy="16.6" r="1.6"/><circle cx="41.1" cy="16.6" r="1.6"/><circle cx="40.4" cy="14.5" r="1.6"/></g>
    <circle cx="42.2" cy="15.1" r="1" fill="#f2c94c"/>`,
  J: `<path d="M15 42V38C15 33.4 21 31 30 31S45 33.4 45 38V42Z" fill="currentColor"/>
    <path d="M25 30.8L30 34L35 30.8L33.8 30.2L30 32.4L26.2 30.2Z" fill="#fff" stroke="#1f2937" stroke-width=".3"/>
    <circle cx="30" cy="36" r=".75" ${GOLD}/><circle cx="30" cy="39.4" r=".75" ${GOLD}/>
    <path d="M15 39.5H26M34 39.5H45" stroke="#f2c94c" stroke-width="1"/>
    <rect x="27.8" y="25.6" width="4.4" height="5.4" fill="#f7d7b5"/>
    <ellipse cx="30" cy="21.6" rx="5.2" ry="5.9" ${SKIN}/>
    <path d="M24.8 22.5C23.8 20 24.4 17.6 25.6 17.4L26 24.5ZM35.2 22.5C36.2 20 35.6 17.6 34.4 17.4L34 24.5Z" fill="#7c4a21"/>
    ${EYES}${NOSE}<path d="M28.6 24.6C29.4 25.3 30.6 25.3 31.4 24.6" fill="none" stroke="#9a3412" stroke-width=".55"/>
    <path d="M22.6 17.6C22.6 13 26 11.2 30 11.2S37.4 13 37.4 17.6Z" fill="currentColor" stroke="#1f2937" stroke-width=".35"/>
    <rect x="22.6" y="16.2" width="14.8" height="1.7" fill="#f2c94c"/>
    <path d="M35.4 13.6C37.8 10 41.4 8.8 44.2 9.2C42.2 10.8 39.6 13 36.6 15Z" ${GOLD}/>
    <path d="M42.6 12.5V40.5" stroke="#7c4a21" stroke-width="1.1"/>
    <path d="M42.6 8.6L44 12.2L42.6 14.6L41.2 12.2Z" fill="#e5e7eb" stroke="#64748b" stroke-width=".4"/>
    <path d="M43 13.6C46.2 13.3 47 16 46.8 18.4C45.6 17.3 44.3 16.9 43 17Z" fill="#e5e7eb" stroke="#64748b" stroke-width=".4"/>`,
};

function sprite() {
  const pips = Object.entries(PIP).map(([s, d]) => `<g id="sanh-pip-${s}">${d}</g>`).join("");
  const courts = Object.entries(COURT).map(([r, d]) => `<g id="sanh-court-${r}">${d}</g>`).join("");
  return `<svg id="sanh-card-sprite" aria-hidden="true" focusable="false" width="0" height="0" style="position:absolute;width:0;height:0;overflow:hidden"><defs>${pips}${courts}
    <pattern id="sanh-back-pattern" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="6" height="6" fill="#9f1239"/><path d="M0 .5H6M.5 0V6" stroke="#fda4af" stroke-width=".9"/><circle cx="3.5" cy="3.5" r=".9" fill="#ffe4e6"/></pattern>
    <g id="sanh-back"><rect x=".5" y=".5" width="59" height="83" rx="5" fill="#fffdf7" stroke="#374151"/>
      <rect x="4" y="4" width="52" height="76" rx="3" fill="url(#sanh-back-pattern)" stroke="#881337" stroke-width=".8"/>
      <rect x="6.5" y="6.5" width="47" height="71" rx="2" fill="none" stroke="#ffe4e6" stroke-width=".7"/>
      <ellipse cx="30" cy="42" rx="11" ry="14" fill="#881337" stroke="#ffe4e6" stroke-width="1.2"/>
      <use href="#sanh-pip-s" transform="translate(30 41) scale(.62)" fill="#ffe4e6"/></g>
  </defs></svg>`;
}

if (typeof document !== "undefined" && !document.getElementById("sanh-card-sprite")) {
  document.body.insertAdjacentHTML("afterbegin", sprite());
  document.documentElement.classList.toggle("four-colour", fourColour());
}

// ----- faces -----------------------------------------------------------------------------------
const COL = [19, 30, 41];
// Pip positions [column, y] of A-10 as on real cards (the lower half's pips are turned 180°).
const LAYOUT = {
  2: [[1, 15], [1, 69]],
  3: [[1, 15], [1, 42], [1, 69]],
  4: [[0, 15], [2, 15], [0, 69], [2, 69]],
  5: [[0, 15], [2, 15], [1, 42], [0, 69], [2, 69]],
  6: [[0, 15], [2, 15], [0, 42], [2, 42], [0, 69], [2, 69]],
  7: [[0, 15], [2, 15], [1, 28.5], [0, 42], [2, 42], [0, 69], [2, 69]],
  8: [[0, 15], [2, 15], [1, 28.5], [0, 42], [2, 42], [1, 55.5], [0, 69], [2, 69]],
  9: [[0, 15], [2, 15], [0, 33], [2, 33], [1, 42], [0, 51], [2, 51], [0, 69], [2, 69]],
  T: [[0, 15], [2, 15], [1, 24], [0, 33], [2, 33], [0, 51], [2, 51], [1, 60], [0, 69], [2, 69]],
};

function pip(suit, x, y, scale, flip = false) {
  return `<use href="#sanh-pip-${suit}" transform="translate(${x} ${y})${flip ? " rotate(180)" : ""} scale(${scale})"/>`;
}

function index(rank, suit) {
  const fit = rank.length > 1 ? ` textLength="12.5" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text x="6.5" y="14" font-size="13" text-anchor="middle" ${FONT}${fit}>${rank}</text>${pip(suit, 6.5, 20.5, 0.36)}`;
}

function middle(r, suit) {
  if (r === "A") return pip(suit, 30, 42, suit === "s" ? 1.55 : 1.25);
  if (COURT[r]) {
    return `<rect x="11" y="8" width="38" height="68" rx="1.5" fill="#fdf6e3" stroke="currentColor" stroke-width=".7"/>
      <use href="#sanh-court-${r}"/><use href="#sanh-court-${r}" transform="rotate(180 30 42)"/>
      <path d="M11 42H49" stroke="currentColor" stroke-width=".6"/>
      ${pip(suit, 16, 13.5, 0.3)}${pip(suit, 44, 70.5, 0.3, true)}`;
  }
  return LAYOUT[r].map(([c, y]) => pip(suit, COL[c], y, 0.5, y > 42)).join("");
}

function mini(rank, suit) {
  const fit = rank.length > 1 ? ` textLength="44" lengthAdjust="spacingAndGlyphs"` : "";
  return `<g class="mini"><text x="4" y="35" font-size="36" ${FONT}${fit}>${rank}</text>${pip(suit, 13, 52, 0.9)}${pip(suit, 41, 64, 1.3)}</g>`;
}

function back(w, h, extra) {
  return `<svg class="card back" width="${w}" height="${h}" viewBox="0 0 60 84" role="img" aria-label="🂠" ${extra}><use href="#sanh-back"/></svg>`;
}

// cardSVG(code, {size, extra}): one card; null/undefined/"??" draws the back.
export function cardSVG(code, { size = "md", extra = "" } = {}) {
  const [w, h] = SIZES[size] || SIZES.md;
  if (!isCardCode(code)) return back(w, h, extra);
  const r = code[0];
  const suit = code[1];
  const rank = RANKS[r] || r;
  const corners = index(rank, suit);
  return `<svg class="card face s-${suit}" width="${w}" height="${h}" viewBox="0 0 60 84" role="img" aria-label="${rank}${SUITS[suit]}" data-card="${code}" ${extra}>
    <rect x=".5" y=".5" width="59" height="83" rx="5" fill="#fffdf7" stroke="#374151"/>
    <g class="full" fill="currentColor">${corners}<g transform="rotate(180 30 42)">${corners}</g>${middle(r, suit)}</g>
    <g fill="currentColor">${mini(rank, suit)}</g></svg>`;
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

// The top bar's four-colour button: aria-pressed is "four colours on"; the cards recolour at
// once through cards.css (no redraw).
export function mountFourColourToggle(button) {
  const show = () => button.setAttribute("aria-pressed", String(fourColour()));
  button.onclick = () => { setFourColour(!fourColour()); show(); };
  show();
}
