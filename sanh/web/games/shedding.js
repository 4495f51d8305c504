// Tiến lên and Sâm Lốc: the combination being beaten (with its kind and who played it), the
// trick so far, card counts, and the player's hand as selectable cards: select cards and play
// them when they make a legal play, or pick one of the legal plays listed.
import { t } from "/i18n.js";
import { cardSVG, cardsHTML, backsHTML, cardLabel } from "/cards.js";
import { gold, esc, describe } from "/util.js";

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

export default {
  seat(view, e, ctx) {
    const status = [];
    if ((view.passed || []).includes(e)) status.push(t("table.passed"));
    if ((view.finished || []).includes(e)) status.push(t("value.out"));
    if ((view.left || []).includes(e)) status.push(t("value.leave"));
    if ((view.thoi || []).includes(e)) status.push(t("item.thoi"));
    if ((view.bao1 || []).some((b) => Array.isArray(b) ? b[0] === e : b === e)) status.push(t("field.bao1"));
    if (view.paid_la && view.paid_la.length && view.terminal) status.push(`${view.paid_la[e]} ${t("table.cards_left")}`);
    const tags = [];
    if (view.declarer === e) tags.push(`<span class="tag banker">${t("table.declarer")}</span>`);
    if (view.winner === e) tags.push(`<span class="tag win">${t("table.winner")}</span>`);
    const count = view.card_counts[e] || 0;
    return {
      cards: e !== ctx.me && count ? backsHTML(count) : "",
      status,
      tags,
      out: !(view.in_play || []).includes(e),
      winner: view.winner === e,
    };
  },
  center(view, ctx) {
    const table = view.table || [];
    const beaten = table.length
      ? `<div class="beaten"><div class="label">${t("table.beaten")}: <strong>${esc(ctx.tv(view.table_kind))}</strong> ${t("table.by")} ${ctx.name(view.table_seat)}</div>${cardsHTML(table, { size: "md" })}</div>`
      : view.phase === "play" || view.phase === undefined
        ? `<div class="beaten empty"><div class="label">${t("table.lead")}</div></div>`
        : "";
    const trick = (view.trick || []).slice(0, -1).slice(-5).map(([seat, cards]) =>
      `<li><span class="who">${ctx.name(seat)}</span> ${cardsHTML(cards, { size: "xs" })}</li>`).join("");
    // A cut (chặt) is [payer, payee, lá]: shown as the payment it makes.
    const cuts = (view.cuts || []).map((c) => `<li>${Array.isArray(c) ? describe(ctx.game, `pays_la:${c.join(":")}`, { names: ctx.name }) : esc(JSON.stringify(c))}</li>`).join("");
    return `<div class="center-shed">
      <div class="street">${esc(ctx.tv(view.phase || view.scoring))} · ${t("field.stake")} ${gold(view.stake)}${view.sam_active ? ` · <strong>${t("field.sam_active")}</strong>` : ""}</div>
      ${beaten}
      ${trick ? `<ol class="trick small" aria-label="${t("table.trick")}">${trick}</ol>` : ""}
      ${cuts ? `<div class="small">${t("table.cuts")}: <ul>${cuts}</ul></div>` : ""}
      ${view.must_include && view.must_include.length ? `<div class="small">${t("field.must_include")}: ${cardsHTML(view.must_include, { size: "xs" })}</div>` : ""}
    </div>`;
  },
  // My hand as cards to select; at my turn (a play, or declaring Sâm) it sits in the action
  // bar, fixed at the bottom of the viewport, next to the buttons.
  mine(view, ctx) {
    if (ctx.me === null || !view.hand) return "";
    const playing = (view.legal_actions || []).length > 0; // my turn: the hand is in the bar
    const label = `<div class="label">${t("table.my_hand")} (${view.hand.length})${playing ? " ↓" : ""}</div>`;
    return `<div class="my-hand">${label}${playing ? "" : `<div class="cards hand">${this.hand(view, ctx)}</div>`}</div>`;
  },
  hand(view, ctx) {
    ctx.ui.selected = (ctx.ui.selected || []).filter((c) => view.hand.includes(c));
    const selected = new Set(ctx.ui.selected);
    return view.hand.map((c) => `<button type="button" class="card-btn ${selected.has(c) ? "selected" : ""}" data-pick="${c}" aria-pressed="${selected.has(c)}" aria-label="${cardLabel(c)}">${cardSVG(c, { size: "md" })}</button>`).join("");
  },
  actions(view, ctx, generic) {
    const plays = (view.legal_actions || []).filter((a) => a.type === "Play");
    const selected = ctx.ui.selected || [];
    const match = plays.find((a) => sameCards(a.cards, selected));
    const parts = [];
    if ((view.legal_actions || []).length && view.hand) parts.push(`<div class="hand-strip fan" role="group" aria-label="${t("table.my_hand")}">${this.hand(view, ctx)}</div>`);
    if (plays.length) {
      parts.push(match
        ? ctx.button(match, { label: `${t("action.Play")} ${esc(match.cards.map(cardLabel).join(" "))}`, cls: "primary play-selected" })
        : `<button type="button" class="primary" disabled>${t("table.play_selected")}</button>`);
      if (selected.length) parts.push(`<button type="button" class="clear-pick">${t("table.clear_selection")}</button>`);
    }
    parts.push(generic(view, ctx, { skip: (a) => a.type === "Play" }));
    if (plays.length) {
      const list = plays.slice(0, 40).map((a) => ctx.button(a, { label: cardsHTML(a.cards, { size: "xs" }), cls: "play-option", attrs: `aria-label="${esc(t("action.Play"))} ${esc(a.cards.map(cardLabel).join(" "))}"` })).join("");
      parts.push(`<div class="play-options"><span class="small muted">${t("table.select_cards")}</span>${list}</div>`);
    }
    return parts.join("");
  },
  bind(page, view, ctx) {
    page.querySelectorAll("[data-pick]").forEach((b) => {
      b.onclick = () => {
        const set = new Set(ctx.ui.selected || []);
        const card = b.dataset.pick;
        if (set.has(card)) set.delete(card); else set.add(card);
        ctx.ui.selected = [...set];
        ctx.rerender();
      };
    });
    const clear = page.querySelector(".clear-pick");
    if (clear) clear.onclick = () => { ctx.ui.selected = []; ctx.rerender(); };
  },
};
