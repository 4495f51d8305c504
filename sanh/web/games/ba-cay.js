// 3 Cây Gà and Ba Cây Chương: three cards each, squeezed (nặn) one by one or flipped (lật);
// the score (0-10, Ba Tây counts 10), the gà pot or the banker (chương) and the bets.
import { t } from "/i18n.js";
import { cardSVG } from "/cards.js";
import { gold, esc, signed, describe } from "/util.js";

export default {
  seat(view, e, ctx) {
    const status = [];
    const decision = view.decisions ? view.decisions[e] : "";
    if (decision && view.phase !== "squeeze" && view.phase !== "over") status.push(esc(ctx.tv(decision)));
    if (view.scores[e] !== null && view.scores[e] !== undefined) status.push(`${t("table.score")}: <strong>${view.scores[e]}</strong>`);
    if (view.left && view.left[e]) status.push(t("value.leave"));
    if (view.results && view.terminal && view.players.includes(e)) {
      status.push(`<span class="${view.results[e] >= 0 ? "win" : "loss"}">${signed(view.results[e])}</span>`);
    }
    const tags = [];
    if (view.banker === e) tags.push(`<span class="tag banker">${t("table.banker")}</span>`);
    if (view.ga_winner === e) tags.push(`<span class="tag win">${t("table.ga")}</span>`);
    const cards = view.cards[e] || [];
    const mineNow = e === ctx.me;
    return {
      cards: cards.length && !mineNow ? `<span class="cards">${cards.map((c) => cardSVG(c, { size: "sm" })).join("")}</span>` : "",
      bet: view.bets ? view.bets[e] : 0,
      status,
      tags,
      dealer: view.banker === e,
      out: view.players && view.players.length > 0 && !view.players.includes(e),
      winner: view.winner === e,
    };
  },
  center(view, ctx) {
    const parts = [`<div class="street">${esc(ctx.tv(view.phase))} · ${t("field.stake")} ${gold(view.stake)}</div>`];
    if (view.ga !== undefined) {
      parts.push(`<div class="pot gapot"><span class="chip-ico" aria-hidden="true"></span>${t("table.ga")}: <strong>${gold(view.pot)}</strong> <span class="muted small">(${t("field.ga")} ${gold(view.ga)})</span></div>`);
    }
    if (view.banker !== undefined) {
      parts.push(`<div class="pot"><span class="tag banker">${t("table.banker")}</span> ${view.banker !== null ? ctx.name(view.banker) : "—"}</div>`);
      if (view.phase === "bet") parts.push(`<div class="small">${t("table.cover_left")}: <strong>${gold(view.cover_left)}</strong></div>`);
      if (view.next_banker !== null && view.next_banker !== undefined) parts.push(`<div class="small">${t("table.next_banker")}: ${ctx.name(view.next_banker)}</div>`);
    }
    if (view.winner !== undefined && view.winner !== null) parts.push(`<div class="winner-line">${t("table.winner")}: <strong>${ctx.name(view.winner)}</strong></div>`);
    if (view.reason) parts.push(`<div class="small">${describe(ctx.game, view.reason, { names: ctx.name })}</div>`);
    return `<div class="center-bacay">${parts.join("")}</div>`;
  },
  // My three cards, large: a face-down card is a button that squeezes it. While I may squeeze,
  // they sit in the action bar (fixed at the bottom of the viewport), digit keys 1-3.
  mine(view, ctx) {
    if (ctx.me === null) return "";
    const cards = view.cards[ctx.me] || [];
    if (!cards.length) return "";
    const squeezing = (view.legal_actions || []).some((a) => a.type === "Squeeze");
    const score = view.scores[ctx.me];
    return `<div class="my-hand"><div class="label">${t("table.my_hand")}${score !== null && score !== undefined ? ` · ${t("table.score")}: <strong>${score}</strong>` : ""}${squeezing ? " ↓" : ""}</div>
      ${squeezing ? "" : `<div class="cards big">${this.cards(view, ctx)}</div>`}</div>`;
  },
  cards(view, ctx) {
    const cards = view.cards[ctx.me] || [];
    const squeezable = new Set((view.legal_actions || []).filter((a) => a.type === "Squeeze").map((a) => a.index));
    return cards.map((c, i) => {
      if (squeezable.has(i)) {
        const action = view.legal_actions.find((a) => a.type === "Squeeze" && a.index === i);
        return ctx.button(action, { label: cardSVG(null, { size: "lg" }), cls: "card-btn squeeze", attrs: `aria-label="${t("action.Squeeze")} #${i + 1}"` });
      }
      return `<span class="revealed">${cardSVG(c, { size: "lg" })}</span>`;
    }).join("");
  },
  actions(view, ctx, generic) {
    const squeezing = ctx.me !== null && (view.legal_actions || []).some((a) => a.type === "Squeeze");
    const strip = squeezing ? `<div class="hand-strip squeeze-strip" role="group" aria-label="${t("table.my_hand")}">${this.cards(view, ctx)}</div><p class="muted small">${t("table.squeeze_hint")}</p>` : "";
    return strip + generic(view, ctx, { skip: (a) => a.type === "Squeeze" });
  },
};
