// Tài Xỉu (Sic Bo): the betting board (click an area, then chips of three denominations make
// up the amount, then "Đồng ý" confirms), the host's remaining bank at a player table, the dice.
import { t, tg } from "/i18n.js";
import { dieSVG } from "/cards.js";
import { gold, esc, signed } from "/util.js";

const PAYS = { small: 1, big: 1, any_triple: 24 };
for (let n = 1; n <= 6; n += 1) { PAYS[`double_${n}`] = 8; PAYS[`triple_${n}`] = 150; PAYS[`single_${n}`] = "1-3"; }
for (let a = 1; a <= 6; a += 1) for (let b = a + 1; b <= 6; b += 1) PAYS[`combination_${a}_${b}`] = 5;
const SIDES = new Set(["small", "big"]); // Xỉu and Tài: their totals and bettors drawn big

function amounts(list) {
  const out = {};
  for (const [area, amount] of list || []) out[area] = (out[area] || 0) + amount;
  return out;
}

function chips(view) {
  const base = Math.max(view.min_bet || 100, 1);
  return [base, base * 10, base * 100];
}

function won(view, area) {
  if (!view.dice || view.dice.length !== 3) return false;
  const d = view.dice;
  const sum = d[0] + d[1] + d[2];
  const triple = d[0] === d[1] && d[1] === d[2];
  const [kind, a, b] = area.split("_");
  const count = (n) => d.filter((x) => x === Number(n)).length;
  if (area === "small") return !triple && sum <= 10;
  if (area === "big") return !triple && sum >= 11;
  if (area === "any_triple") return triple;
  if (kind === "single") return count(a) > 0;
  if (kind === "double") return count(a) >= 2;
  if (kind === "triple") return count(a) === 3;
  if (kind === "total") return sum === Number(a);
  if (kind === "combination") return count(a) > 0 && count(b) > 0;
  return false;
}

export default {
  seat(view, e, ctx) {
    if (e !== ctx.me) return { tags: view.host === e ? [`<span class="tag banker">${t("table.banker")}</span>`] : [] };
    const pending = (view.my_pending || []).reduce((s, [, a]) => s + a, 0);
    const confirmed = (view.my_confirmed || []).reduce((s, [, a]) => s + a, 0);
    const status = [];
    if (confirmed) status.push(`${t("table.confirmed")}: ${gold(confirmed)}`);
    if (pending) status.push(`${t("table.pending")}: ${gold(pending)}`);
    if (view.terminal && view.my_delta) status.push(`<span class="${view.my_delta >= 0 ? "win" : "loss"}">${signed(view.my_delta)}</span>`);
    return { stack: view.balance, status, tags: view.host === e ? [`<span class="tag banker">${t("table.banker")}</span>`] : [] };
  },
  center(view, ctx) {
    const pending = amounts(view.my_pending);
    const confirmed = amounts(view.my_confirmed);
    const totals = amounts(view.totals);
    const bettors = amounts(view.bettors); // seats with confirmed chips per area (public)
    const odds = Object.fromEntries((view.total_odds || []).map(([n, o]) => [`total_${n}`, o]));
    const placeable = new Set((view.amount_ranges || []).map((r) => r.action.bet));
    const selected = ctx.ui.area;
    const cell = (area, extra = "") => {
      const pays = odds[area] !== undefined ? odds[area] : PAYS[area];
      const mine = (pending[area] || 0) + (confirmed[area] || 0);
      const cls = ["area", extra, selected === area ? "selected" : "", view.terminal && won(view, area) ? "won" : "", placeable.has(area) ? "" : "closed"].join(" ");
      return `<button type="button" class="${cls}" data-area="${area}" aria-pressed="${selected === area}" ${placeable.has(area) && !ctx.lost ? "" : "disabled"}>
        <span class="area-name">${esc(tg("value", ctx.game, area))}</span>
        ${pays !== undefined ? `<span class="odds">${pays}:1</span>` : ""}
        ${mine ? `<span class="my-chips ${pending[area] ? "pending" : ""}">${gold(mine)}</span>` : ""}
        ${SIDES.has(area)
          ? `<strong class="side-total" data-total="${totals[area] || 0}">Σ ${gold(totals[area] || 0)}</strong><span class="bettors side" data-bettors="${bettors[area] || 0}">${t("table.bettors_n", { n: bettors[area] || 0 })}</span>`
          : `${totals[area] ? `<span class="all small" data-total="${totals[area]}">Σ ${gold(totals[area])}</span>` : ""}${bettors[area] ? `<span class="bettors small" data-bettors="${bettors[area]}" title="${t("table.bettors_n", { n: bettors[area] })}">👤${bettors[area]}</span>` : ""}`}
      </button>`;
    };
    const row = (areas, extra) => `<div class="board-row ${extra ? `${extra}-row` : ""}">${areas.map((a) => cell(a, extra)).join("")}</div>`;
    const range = (a, b, f) => Array.from({ length: b - a + 1 }, (_, i) => f(a + i));
    const combos = [];
    for (let a = 1; a <= 6; a += 1) for (let b = a + 1; b <= 6; b += 1) combos.push(`combination_${a}_${b}`);
    const dice = view.dice && view.dice.length
      ? `<div class="dice" aria-label="${t("table.dice")}">${view.dice.map((d) => dieSVG(d)).join("")}<span class="sum">${t("table.total_sum")} ${view.dice.reduce((a, b) => a + b, 0)} · <strong>${esc(ctx.tv(view.result))}</strong></span></div>`
      : "";
    const bank = view.table === "player"
      ? `<div class="bank">${t("table.bank_left")}: <strong data-bank="${view.bank_available ?? ""}">${view.bank_available === null ? t("table.no_limit") : gold(view.bank_available)}</strong></div>`
      : `<div class="bank">${t("field.tai-xiu.table")}: ${esc(ctx.tv(view.table))} · ${t("field.fee_pct")} ${esc(view.fee_pct)}</div>`;
    return `<div class="center-taixiu">
      <div class="street">${esc(ctx.tv(view.phase))} · ${t("table.min_bet")} ${gold(view.min_bet)}${view.max_bet ? ` · ${t("table.max_bet")} ${gold(view.max_bet)}` : ""}</div>
      ${bank}${dice}
      <div class="sicbo" role="group" aria-label="${t("game.tai-xiu")}">
        ${row(["small", "any_triple", "big"], "main")}
        ${row(range(1, 6, (n) => `double_${n}`), "")}
        ${row(range(1, 6, (n) => `triple_${n}`), "")}
        ${row(range(4, 17, (n) => `total_${n}`), "total")}
        ${row(combos, "combo")}
        ${row(range(1, 6, (n) => `single_${n}`), "single")}
      </div>
    </div>`;
  },
  actions(view, ctx, generic) {
    const area = ctx.ui.area;
    const spec = (view.amount_ranges || []).find((r) => r.action.bet === area);
    const chipButtons = chips(view).map((value, i) => {
      const ok = spec && value >= spec.min && value <= spec.max;
      if (!ok) return `<button type="button" class="chip c${i}" disabled aria-label="${gold(value)}">${gold(value)}</button>`;
      return ctx.button({ ...spec.action, [spec.field]: value }, { label: gold(value), cls: `chip c${i}`, attrs: `aria-label="${t("action.Place")} ${esc(tg("value", ctx.game, area))} ${gold(value)}"` });
    }).join("");
    const panel = `<div class="chip-panel"><span>${t("table.selected_area")}: <strong>${area ? esc(tg("value", ctx.game, area)) : "—"}</strong></span>
      <span class="small muted">${t("table.chips")}</span>${chipButtons}</div>`;
    const confirm = (view.legal_actions || []).find((a) => a.type === "Confirm");
    const rest = generic(view, ctx, { skip: (a) => a.type === "Place" || a.type === "Confirm" });
    return panel + (confirm ? ctx.button(confirm, { label: t("action.Confirm"), cls: "primary confirm" }) : "") + rest;
  },
  bind(page, view, ctx) {
    page.querySelectorAll("[data-area]").forEach((b) => {
      b.onclick = () => { ctx.ui.area = b.dataset.area; ctx.rerender(); };
    });
  },
};
