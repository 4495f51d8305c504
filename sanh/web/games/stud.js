// Liêng and Xì tố: cards per seat (Xì tố: face-up cards and the owner's hole cards), stacks,
// bets this round, pots and side pots, hand names at the showdown.
import { t } from "/i18n.js";
import { cardSVG } from "/cards.js";
import { gold, esc, signed } from "/util.js";
import { potsHTML } from "/games/common.js";

function seatCards(view, e, ctx) {
  const cards = view.cards[e] || [];
  const up = view.up ? view.up[e] || [] : null;
  const size = e === ctx.me ? "md" : "sm";
  return `<span class="cards">${cards.map((c, i) => {
    const hole = up && !up[i];
    return `<span class="${hole ? "hole-card" : ""}" ${hole ? `title="${t("table.hole")}"` : ""}>${cardSVG(c, { size })}</span>`;
  }).join("")}</span>`;
}

export default {
  seat(view, e, ctx) {
    const status = [];
    const allIn = !view.folded[e] && view.stacks[e] === 0 && view.in_hand[e] && view.committed[e] > 0;
    if (view.hands && view.hands[e]) status.push(esc(ctx.tv(view.hands[e])));
    if (view.result && view.result.length && view.terminal) status.push(`<span class="${view.result[e] >= 0 ? "win" : "loss"}">${signed(view.result[e])}</span>`);
    const tags = [];
    const first = view.leader !== undefined ? view.leader : view.start;
    if (first === e && !view.terminal) tags.push(`<span class="tag">${t("table.leader")}</span>`);
    return {
      cards: view.in_hand[e] || (view.cards[e] || []).length ? seatCards(view, e, ctx) : "",
      stack: view.stacks[e],
      bet: view.round_bets[e],
      status,
      tags,
      state: view.folded[e] ? "folded" : allIn ? "all_in" : "",
      dealer: view.start === e && view.leader === undefined,
      out: view.folded[e] || !view.in_hand[e],
      winner: (view.winners || []).includes(e),
    };
  },
  center(view, ctx) {
    const rules = (view.rules || []).filter(([, on]) => on).map(([name]) => t(`option.xito.${name}`));
    const committed = (view.committed || []).reduce((a, b) => a + b, 0);
    return `<div class="center-stud">
      <div class="street">${esc(ctx.tv(view.phase))}${view.round ? ` · ${t("table.round")} ${view.round}` : ""} · ${t("field.stake")} ${gold(view.stake)}</div>
      ${potsHTML(view.pots, ctx, { total: committed })}
      ${view.to_call && ctx.me !== null && view.to_act.includes(ctx.me) ? `<div class="to-call">${t("table.to_call")}: <strong>${gold(view.to_call)}</strong></div>` : ""}
      ${rules.length ? `<div class="small">${t("table.rules")}: ${rules.map(esc).join(", ")}</div>` : ""}
    </div>`;
  },
};
