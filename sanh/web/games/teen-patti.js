// Teen Patti 20-20: two hands, Player A and Player B, dealt alternately; the betting layout
// (A, B, Tie, Pair Plus A/B, Six Card Bonus) with the player's bets and the table's totals.
import { t, tg } from "/i18n.js";
import { cardsHTML } from "/cards.js";
import { gold, esc, signed } from "/util.js";

const LAYOUT = [["player_a", "tie", "player_b"], ["pair_plus_a", "six_card_bonus", "pair_plus_b"]];

export default {
  seat(view, e, ctx) {
    if (e !== ctx.me) return {};
    const total = (view.my_bets || []).reduce((s, [, a]) => s + a, 0);
    const status = [];
    if (view.terminal && view.my_delta) status.push(`<span class="${view.my_delta >= 0 ? "win" : "loss"}">${signed(view.my_delta)}</span>`);
    return { stack: view.balance, bet: total, status };
  },
  center(view, ctx) {
    const mine = Object.fromEntries(view.my_bets || []);
    const totals = Object.fromEntries(view.table_totals || []);
    const open = new Set((view.amount_ranges || []).map((r) => r.action.bet));
    const selected = ctx.ui.spot;
    const spot = (name) => {
      const win = view.terminal && ((name === "player_a" && view.outcome === "A") || (name === "player_b" && view.outcome === "B") || (name === "tie" && view.outcome === "tie"));
      return `<button type="button" class="spot ${selected === name ? "selected" : ""} ${win ? "won" : ""}" data-spot="${name}" aria-pressed="${selected === name}" ${open.has(name) && !ctx.lost ? "" : "disabled"}>
        <span class="area-name">${esc(tg("value", ctx.game, name))}</span>
        ${mine[name] ? `<span class="my-chips">${gold(mine[name])}</span>` : ""}
        <span class="all small">Σ ${gold(totals[name] || 0)}</span></button>`;
    };
    const hand = (label, cards, category, side) => `<div class="tp-hand ${view.outcome === side ? "won" : ""}">
      <div class="label">${label}</div>${cardsHTML(cards.length ? cards : [null, null, null], { size: "md" })}
      ${category ? `<div class="small">${esc(ctx.tv(category))}</div>` : ""}</div>`;
    return `<div class="center-tp">
      <div class="street">${esc(ctx.tv(view.phase))} · ${t("table.min_bet")} ${gold(view.min_bet)} · ${t("table.max_bet")} ${gold(view.max_bet)}</div>
      <div class="tp-hands">${hand(t("item.player_a"), view.hand_a || [], view.category_a, "A")}<span class="vs">${t("table.vs")}</span>${hand(t("item.player_b"), view.hand_b || [], view.category_b, "B")}</div>
      ${view.six_card ? `<div class="small">${t("table.sixcard")}: ${esc(ctx.tv(view.six_card))}</div>` : ""}
      ${view.outcome ? `<div class="winner-line">${t("field.outcome")}: <strong>${esc(ctx.tv(view.outcome))}</strong></div>` : ""}
      <div class="layout">${LAYOUT.map((row) => `<div class="board-row">${row.map(spot).join("")}</div>`).join("")}</div>
    </div>`;
  },
  actions(view, ctx, generic) {
    const ranges = view.amount_ranges || [];
    const chosen = ranges.find((r) => r.action.bet === ctx.ui.spot) || null;
    const form = chosen ? ctx.rangeForm(chosen, { quick: [{ label: t("table.quick_min"), amount: chosen.min }, { label: "×10", amount: chosen.min * 10 }, { label: t("table.quick_max"), amount: chosen.max }] }) : (ranges.length ? `<span class="muted">${t("table.selected_area")}: —</span>` : "");
    return form + generic(view, ctx, { skip: (a) => a.type === "Bet" });
  },
  bind(page, view, ctx) {
    page.querySelectorAll("[data-spot]").forEach((b) => {
      b.onclick = () => { ctx.ui.spot = b.dataset.spot; ctx.rerender(); };
    });
  },
};
