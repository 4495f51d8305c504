// Pieces shared by the game renderers.
import { t } from "/i18n.js";
import { cardsHTML } from "/cards.js";
import { gold, esc } from "/util.js";

// Pots as the engines send them: [[amount, [eligible seats...]], ...]; the first is the main pot.
export function potsHTML(pots, ctx, { total } = {}) {
  const list = (pots || []).filter((p) => Array.isArray(p) && p[0] > 0);
  const parts = list.map((p, i) => {
    const label = i === 0 ? (list.length > 1 ? t("table.main_pot") : t("table.pot")) : `${t("table.side_pot")} ${i}`;
    const who = Array.isArray(p[1]) && list.length > 1 ? p[1].map((s) => ctx.name(s)).join(", ") : ""; // a side pot's players
    return `<div class="pot" data-pot="${i}"><span class="chip-ico" aria-hidden="true"></span><span>${label}: <strong>${gold(p[0])}</strong></span>${who ? `<span class="muted small"> (${who})</span>` : ""}</div>`;
  });
  if (!parts.length && total) {
    parts.push(`<div class="pot" data-pot="0"><span class="chip-ico" aria-hidden="true"></span><span>${t("table.pot")}: <strong>${gold(total)}</strong></span></div>`);
  }
  return `<div class="pots">${parts.join("")}</div>`;
}

// A board of community cards with empty slots up to ``slots``.
export function boardHTML(cards, slots = 5) {
  const shown = cardsHTML(cards || [], { size: "md" });
  const empty = Math.max(0, slots - (cards || []).length);
  return `<div class="board" role="group" aria-label="${t("table.board")}">${shown}${'<span class="slot"></span>'.repeat(empty)}</div>`;
}

export function phaseHTML(ctx, phase) {
  if (!phase) return "";
  return `<div class="phase">${esc(ctx.tv(phase))}</div>`;
}

export function amountBadge(label, units) {
  return `<span class="badge">${label}: <strong>${gold(units)}</strong></span>`;
}
