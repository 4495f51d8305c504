// Small helpers shared by the page and the game renderers.
import { t, tg, has, getLang } from "/i18n.js";
import { isCardCode, cardLabel, cardsHTML } from "/cards.js";

// Money is integer minor units; 1 gold = 100 units, shown with two decimals in the language's
// number format: 1,234.00 in English, 1.234,00 in Vietnamese.
const SEPARATORS = { vi: [".", ","], en: [",", "."] };

export function gold(units) {
  if (typeof units !== "number" || Number.isNaN(units)) return "—";
  const [group, decimal] = SEPARATORS[getLang()] || SEPARATORS.en;
  const sign = units < 0 ? "-" : "";
  const abs = Math.abs(units);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}${whole}${decimal}${String(abs % 100).padStart(2, "0")}`;
}

export function signed(units) {
  return units > 0 ? `+${gold(units)}` : gold(units);
}

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// An enumerated value of a view (phase, outcome, bet area...): value.game.X, then value.X.
export function tv(game, value) {
  if (value === null || value === undefined || value === "") return "—";
  return tg("value", game, value);
}

const MONEY_FIELDS = new Set(["amount", "stack"]);
const SKIPPED_FIELDS = new Set(["type", "seat", "sizes", "chair", "clan"]);

// The fields of an action, each made by `text` (a plain string: kept or escaped) or `cards` (a
// list of card codes and the sizes of its groups); names(seat) is inserted as it is.
function actionParts(game, action, { names, text, cards }) {
  const parts = [];
  for (const [key, value] of Object.entries(action)) {
    if (SKIPPED_FIELDS.has(key) || value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.every(isCardCode)) parts.push(cards(value, Array.isArray(action.sizes) ? action.sizes : null));
      else parts.push(text(value.join(",")));
    } else if (typeof value === "number" && MONEY_FIELDS.has(key)) {
      parts.push(text(gold(value)));
    } else if (key === "target" && typeof value === "number") {
      parts.push(`${text("→")} ${names ? names(value) : text(String(value + 1))}`);
    } else if (key === "meld" && typeof value === "number") {
      parts.push(text(`${t("table.meld")} ${value + 1}`));
    } else if (key === "index" && typeof value === "number") {
      parts.push(text(`#${value + 1}`));
    } else if (isCardCode(value)) {
      parts.push(cards([value], null));
    } else if (typeof value === "boolean") {
      parts.push(text(`${has(`field.${key}`) ? t(`field.${key}`) : t(`option.xito.${key}`)}: ${value ? t("yes") : t("no")}`));
    } else if (typeof value === "string") {
      parts.push(text(tv(game, value)));
    } else {
      parts.push(text(String(value)));
    }
  }
  return parts;
}

// The label of an action: its translated name and its fields (cards, amounts, areas), as text.
export function actionLabel(game, action, { names } = {}) {
  const name = tg("action", game, action.type);
  const parts = actionParts(game, action, {
    names,
    text: (s) => s,
    cards: (list) => list.map(cardLabel).join(" "),
  });
  return parts.length ? `${name} ${parts.join(" ")}` : name;
}

// The same as HTML: the name, then the fields, cards drawn as small SVG cards (a lay-down's
// melds one group each); names(seat) gives a seat's name, already escaped.
export function actionHTML(game, action, { names } = {}) {
  const cards = (list, sizes) => {
    if (!sizes || sizes.reduce((a, b) => a + b, 0) !== list.length) return cardsHTML(list, { size: "xs" });
    let start = 0;
    return sizes.map((n) => { start += n; return cardsHTML(list.slice(start - n, start), { size: "xs" }); }).join(" ");
  };
  const parts = actionParts(game, action, { names, text: esc, cards });
  const name = `<span class="action-name">${esc(tg("action", game, action.type))}</span>`;
  return parts.length ? `${name} ${parts.join(" ")}` : name;
}

// Whether two actions are the same template (same type and same fields but ``field``).
export function sameTemplate(a, b, field) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === field) continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return false;
  }
  return true;
}

// Texts the engines write (settlement line details, log entries) are codes, not prose:
// parts joined by "|", each a code name and its arguments joined by ":" ("odds:0.95|commission:4990").
// Each code is translated by its "text.<code>" template, whose placeholders name the kind of
// each argument: {seat0} a seat, {gold0} an amount in minor units, {n0} a number, {cards0} card
// codes run together, {value0} a term (value.*), {item0} a settlement item (item.*), {action0}
// an action type (action.*). Refusals of the server's "error" messages are codes too. See
// sanh/games/_texts.py. A text not made of known codes (a hand recorded before the codes) is
// shown as it is.
const TEXT_CODE = /^[a-z][a-z0-9_]*(:[^:|]*)*(\|[a-z][a-z0-9_]*(:[^:|]*)*)*$/;
const PLACEHOLDER = /\{(seat|gold|n|cards|value|item|action)(\d)\}/g;

export function textParts(text) {
  if (typeof text !== "string" || !TEXT_CODE.test(text)) return null;
  return text.split("|").map((part) => {
    const [code, ...args] = part.split(":");
    return { code, args };
  });
}

function textArg(game, kind, arg, names) {
  if (arg === undefined) return "";
  if (kind === "seat") {
    const seat = Number(arg);
    return names ? names(seat) : t("table.seat_n", { n: seat + 1 });
  }
  if (kind === "gold") return gold(Number(arg));
  if (kind === "cards") return esc((arg.match(/../g) || []).map(cardLabel).join(" "));
  if (kind === "value") return esc(tv(game, arg));
  if (kind === "item") return esc(tg("item", game, arg));
  if (kind === "action") return esc(tg("action", game, arg));
  return esc(arg);
}

// describe(game, text, {names}): the text in the current language, as HTML (names(seat) gives a
// seat's name, already escaped).
export function describe(game, text, { names, sep = ", " } = {}) {
  if (text === null || text === undefined || text === "") return "";
  const parts = textParts(text);
  if (!parts || !parts.every((p) => has(`text.${game}.${p.code}`) || has(`text.${p.code}`))) return esc(text);
  return parts.map(({ code, args }) => tg("text", game, code)
    .split(PLACEHOLDER)
    .reduce((out, piece, i, all) => {
      // split() with two groups gives [literal, kind, index, literal, kind, index, ...]
      if (i % 3 === 0) return out + esc(piece);
      if (i % 3 === 1) return out + textArg(game, piece, args[Number(all[i + 1])], names);
      return out;
    }, "")).join(sep);
}
