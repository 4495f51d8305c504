// Texas Hold'em and All-in or Fold: hole cards, board, pot and side pots, blinds, the button.
import { t } from "/i18n.js";
import { cardsHTML } from "/cards.js";
import { gold, esc, describe } from "/util.js";
import { potsHTML, boardHTML } from "/games/common.js";

export default {
  seat(view, e, ctx) {
    const status = [];
    if (view.hands && view.hands[e]) status.push(esc(ctx.tv(view.hands[e])));
    if (view.won && view.won[e]) status.push(`${t("table.winner")} +${gold(view.won[e])}`);
    const tags = [];
    if (view.small_blind_seat === e) tags.push('<span class="tag blind">SB</span>');
    if (view.big_blind_seat === e) tags.push('<span class="tag blind">BB</span>');
    const hole = view.hole[e] || [];
    return {
      cards: view.dealt[e] && !view.folded[e] || e === ctx.me ? cardsHTML(hole, { size: e === ctx.me ? "md" : "sm" }) : "",
      stack: view.stacks[e],
      bet: view.bets[e],
      status,
      tags,
      state: view.folded[e] ? "folded" : view.all_in[e] ? "all_in" : "",
      dealer: view.button === e,
      out: view.folded[e],
      winner: view.won && view.won[e] > 0,
    };
  },
  center(view, ctx) {
    const street = view.street ? ctx.tv(view.street) : "";
    const log = (view.log || []).slice(-4).map((l) => `<li>${describe(ctx.game, l, { names: ctx.name })}</li>`).join("");
    return `<div class="center-poker">
      <div class="street">${esc(street)} · ${t("field.small_blind")}/${t("field.big_blind")} ${gold(view.small_blind)}/${gold(view.big_blind)}${view.ante ? ` · ${t("field.ante")} ${gold(view.ante)}` : ""}</div>
      ${boardHTML(view.board, 5)}
      ${potsHTML(view.pots && view.pots.length ? view.pots : null, ctx, { total: view.pot })}
      ${view.to_call && ctx.me !== null && view.to_act.includes(ctx.me) ? `<div class="to-call">${t("table.to_call")}: <strong>${gold(view.to_call)}</strong></div>` : ""}
      ${log ? `<ol class="log small" aria-label="${t("table.log")}">${log}</ol>` : ""}
    </div>`;
  },
  actions(view, ctx, generic) {
    const pot = view.pot || 0;
    const ranges = (view.amount_ranges || []).map((r) => ctx.rangeForm(r, {
      quick: [
        { label: t("table.quick_half_pot"), amount: Math.round(pot / 2) + (view.bets[ctx.me] || 0) },
        { label: t("table.quick_pot"), amount: pot + (view.bets[ctx.me] || 0) },
        { label: t("table.quick_max"), amount: r.max },
      ],
    })).join("");
    return generic(view, ctx, { skip: (a) => (view.amount_ranges || []).length > 0 && a.type === "RaiseTo" }) + ranges;
  },
};
