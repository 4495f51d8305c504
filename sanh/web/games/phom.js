// Phỏm (Tá lả): each player's discard row, eaten cards and laid melds; the stock; the last
// discard that may be eaten; lay-downs shown as their melds; lay-offs (gửi) onto other melds.
import { t } from "/i18n.js";
import { cardSVG, cardsHTML, backsHTML, cardLabel } from "/cards.js";
import { gold, esc, signed } from "/util.js";

function groups(cards, sizes) {
  const out = [];
  let at = 0;
  for (const size of sizes) {
    out.push(cards.slice(at, at + size));
    at += size;
  }
  return out;
}

export default {
  seat(view, e, ctx) {
    const status = [];
    if (view.removed[e]) status.push(t("value.leave"));
    if (view.points[e] !== null && view.points[e] !== undefined) status.push(`${view.points[e]} ${t("table.points")}`);
    if (view.terminal && view.paid[e]) status.push(`<span class="${view.paid[e] >= 0 ? "win" : "loss"}">${signed(view.paid[e])}</span>`);
    const hand = view.hands[e] || [];
    const melds = (view.melds[e] || []).map((m, i) => `<span class="meld" data-meld="${i}" title="${t("table.meld")} ${i + 1}">${cardsHTML(m, { size: "xs" })}</span>`).join("");
    const row = (view.rows[e] || []).length ? `<div class="row-cards"><span class="small muted">${t("table.discards")}</span>${cardsHTML(view.rows[e], { size: "xs" })}</div>` : "";
    const eaten = (view.eaten[e] || []).length ? `<div class="row-cards"><span class="small muted">${t("table.eaten")}</span>${cardsHTML(view.eaten[e], { size: "xs" })}</div>` : "";
    const inHand = e === ctx.me ? "" : hand.some((c) => c !== null) ? cardsHTML(hand, { size: "xs" }) : backsHTML(hand.length);
    return {
      cards: `${inHand}${melds ? `<div class="melds">${melds}</div>` : ""}${row}${eaten}`,
      status,
      tags: view.winner === e ? [`<span class="tag win">${t("table.winner")}</span>`] : [],
      dealer: view.order && view.order[0] === e,
      out: view.removed[e],
      winner: view.winner === e,
    };
  },
  center(view, ctx) {
    const pending = view.pending
      ? `<div class="pending"><div class="label">${t("field.pending")} · ${ctx.name(view.pending_seat)}</div>${cardSVG(view.pending, { size: "md" })}</div>` : "";
    const u = (view.u_melds || []).length ? `<div class="small">${t("field.u_melds")}: ${view.u_melds.map((m) => cardsHTML(m, { size: "xs" })).join(" ")}</div>` : "";
    return `<div class="center-phom">
      <div class="street">${esc(ctx.tv(view.phase))}${view.outcome ? ` · ${esc(ctx.tv(view.outcome))}` : ""}</div>
      <div class="stock"><div class="label">${t("table.stock")}</div>${backsHTML(view.stock_count, { max: 3 })}</div>
      ${pending}${u}
    </div>`;
  },
  // My hand; while I must discard, the hand moves into the action bar (fixed at the bottom of
  // the viewport) as discard buttons, one shortcut digit each (keys.js).
  mine(view, ctx) {
    if (ctx.me === null) return "";
    const hand = view.hands[ctx.me] || [];
    const eaten = new Set(view.eaten[ctx.me] || []);
    const discarding = (view.legal_actions || []).some((a) => a.type === "Discard");
    const items = hand.map((c) => `<span class="${eaten.has(c) ? "eaten" : ""}">${cardSVG(c, { size: "md" })}</span>`).join("");
    return `<div class="my-hand"><div class="label">${t("table.my_hand")} · ${view.my_points} ${t("table.points")}${discarding ? ` · ${t("table.discard_hint")} ↓` : ""}</div>${discarding ? "" : `<div class="cards hand">${items}</div>`}</div>`;
  },
  discards(view, ctx) {
    const hand = view.hands[ctx.me] || [];
    const eaten = new Set(view.eaten[ctx.me] || []);
    const discards = new Map((view.legal_actions || []).filter((a) => a.type === "Discard").map((a) => [a.card, a]));
    if (!discards.size) return "";
    const items = hand.map((c) => {
      const action = discards.get(c);
      const svg = cardSVG(c, { size: "md" });
      const cls = eaten.has(c) ? "eaten" : "";
      return action
        ? ctx.button(action, { label: svg, cls: `card-btn discard ${cls}`, attrs: `aria-label="${t("action.Discard")} ${cardLabel(c)}"` })
        : `<span class="${cls}">${svg}</span>`;
    }).join("");
    return `<div class="hand-strip" role="group" aria-label="${t("table.discard_hint")}">${items}</div>`;
  },
  actions(view, ctx, generic) {
    const parts = [];
    for (const a of view.legal_actions || []) {
      if (a.type === "LayDown") {
        const melds = groups(a.cards, a.sizes).map((g) => cardsHTML(g, { size: "xs" })).join(" ");
        parts.push(ctx.button(a, { label: `${t("action.LayDown")} ${melds || "—"}`, cls: "laydown", attrs: `aria-label="${t("action.LayDown")} ${esc(a.cards.map(cardLabel).join(" "))}"` }));
      } else if (a.type === "Send") {
        const label = `${t("action.Send")} ${cardLabel(a.card)} ${t("table.send_to")} ${ctx.name(a.target)} (${t("table.meld")} ${a.meld + 1})`;
        parts.push(ctx.button(a, { label: esc(label) }));
      }
    }
    return this.discards(view, ctx) + generic(view, ctx, { skip: (a) => a.type === "Discard" || a.type === "LayDown" || a.type === "Send" }) + parts.join("");
  },
};
