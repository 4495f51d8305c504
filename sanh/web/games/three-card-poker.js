// Three Card Poker: the dealer's hand, the player hand(s), the betting spots (Ante, Pair Plus,
// 6 Card Bonus) per seat, the Play/Fold decision, the dealer's qualification.
import { t, tg } from "/i18n.js";
import { cardsHTML } from "/cards.js";
import { gold, esc, signed } from "/util.js";

export default {
  seat(view, e, ctx) {
    const bets = view.bets[e] || [];
    const total = bets.reduce((a, b) => a + b, 0);
    const status = [];
    if (view.decisions[e]) status.push(esc(ctx.tv(view.decisions[e])));
    if (view.terminal && view.deltas && view.deltas.length) status.push(`<span class="${view.deltas[e] >= 0 ? "win" : "loss"}">${signed(view.deltas[e])}</span>`);
    const hand = !view.shared_player_hand && view.hands && view.hands[e] ? cardsHTML(view.hands[e], { size: "sm" }) : "";
    const spots = (view.spots || []).map((s, i) => bets[i] ? `<span class="mini-spot">${esc(tg("value", ctx.game, s))}: ${gold(bets[i])}</span>` : "").join("");
    return { cards: hand + (spots ? `<div class="mini-spots">${spots}</div>` : ""), bet: total, stack: e === ctx.me ? view.balance : null, status };
  },
  center(view, ctx) {
    const me = ctx.me;
    const myBets = me !== null ? view.bets[me] || [] : [];
    const open = new Set((view.amount_ranges || []).map((r) => r.action.bet));
    if (!ctx.ui.spot && open.has("ante")) ctx.ui.spot = "ante"; // the Ante is the bet everyone makes
    const selected = ctx.ui.spot;
    const spots = (view.spots || []).map((s, i) => `<button type="button" class="spot circle ${selected === s ? "selected" : ""}" data-spot="${s}" aria-pressed="${selected === s}" ${open.has(s) && !ctx.lost ? "" : "disabled"}>
        <span class="area-name">${esc(tg("value", ctx.game, s))}</span>${myBets[i] ? `<span class="my-chips">${gold(myBets[i])}</span>` : ""}</button>`).join("");
    const play = me !== null && view.decisions[me] === "play" ? `<span class="spot circle filled"><span class="area-name">${t("item.play")}</span><span class="my-chips">${gold(myBets[0] || 0)}</span></span>` : "";
    const dealer = view.dealer_hand && view.dealer_hand.length ? cardsHTML(view.dealer_hand, { size: "md" }) : cardsHTML([null, null, null], { size: "md" });
    const qualifies = view.dealer_qualifies === null || view.dealer_qualifies === undefined ? ""
      : `<div class="small">${view.dealer_qualifies ? t("table.qualifies") : t("table.not_qualifies")}</div>`;
    const playerHand = view.shared_player_hand ? view.player_hand : me !== null && view.hands ? view.hands[me] || [] : [];
    return `<div class="center-tcp">
      <div class="street">${esc(ctx.tv(view.phase))} · ${esc(ctx.tv(view.variant))} · ${t("table.min_bet")} ${gold(view.bet_min)} · ${t("table.max_bet")} ${gold(view.bet_max)}</div>
      <div class="tcp-dealer"><div class="label">${t("table.dealer_hand")}</div>${dealer}${qualifies}</div>
      <div class="tcp-player"><div class="label">${t("table.player_hand")}</div>${cardsHTML(playerHand && playerHand.length ? playerHand : [null, null, null], { size: "md" })}</div>
      <div class="layout tcp-spots">${spots}${play}</div>
      <p class="small muted">${t("field.dealer_qualifies")}: Q+ · ${t("item.ante_bonus")} · ${t("item.pair_plus")} · ${t("item.six_card_bonus")}</p>
    </div>`;
  },
  actions(view, ctx, generic) {
    const ranges = view.amount_ranges || [];
    if (!ctx.ui.spot && ranges.some((r) => r.action.bet === "ante")) ctx.ui.spot = "ante";
    const chosen = ranges.find((r) => r.action.bet === ctx.ui.spot) || null;
    const form = chosen ? ctx.rangeForm(chosen, { quick: [{ label: t("table.quick_min"), amount: chosen.min }, { label: t("table.quick_max"), amount: chosen.max }] }) : (ranges.length ? `<span class="muted">${t("table.selected_area")}: —</span>` : "");
    return form + generic(view, ctx, { skip: (a) => a.type === "Bet" });
  },
  bind(page, view, ctx) {
    page.querySelectorAll("[data-spot]").forEach((b) => {
      b.onclick = () => { ctx.ui.spot = b.dataset.spot; ctx.rerender(); };
    });
  },
};
