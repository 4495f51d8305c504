// The table's recent results (the `recent` message, then each result's `record`): the Tài Xỉu
// road (soi cầu) as a bead plate of the last 100 rounds with the counts per side, and the last
// results of Teen Patti 20-20 and Three Card Poker. Nothing here is hidden: a record is what
// every seat saw at the end of its round.
import { t, tg } from "/i18n.js";
import { esc } from "/util.js";
import { dieSVG, cardsHTML } from "/cards.js";

const ROWS = 6;

function bead(cls, label, title, hand) {
  return `<span class="bead ${cls}" data-hand="${hand}" title="${esc(title)}">${esc(label)}</span>`;
}

// A bead plate: six beads a column, filled column by column, oldest first.
function plate(beads, label = t("road.last_results")) {
  const columns = [];
  for (let i = 0; i < beads.length; i += ROWS) columns.push(beads.slice(i, i + ROWS));
  return `<div class="bead-plate" role="img" aria-label="${esc(label)}">${columns.map((c) => `<div class="bead-col">${c.join("")}</div>`).join("")}</div>`;
}

function taiXiu(records) {
  const counts = { tai: 0, xiu: 0, triple: 0 };
  const beads = records.map((r) => {
    counts[r.result] = (counts[r.result] || 0) + 1;
    const title = `#${r.hand}: ${r.dice.join("-")} = ${r.total} · ${tg("value", "tai-xiu", r.result)}`;
    return bead(r.result, r.result === "triple" ? t("road.triple_short") : String(r.total), title, r.hand);
  });
  const last = records[records.length - 1];
  return `<h3>${t("road.title")} <span class="muted small">${t("road.last_n", { n: records.length })}</span></h3>
    <p class="road-counts"><span class="bead tai">${t("road.tai_short")}</span> ${esc(tg("value", "tai-xiu", "tai"))} <strong data-count="tai">${counts.tai}</strong>
      · <span class="bead xiu">${t("road.xiu_short")}</span> ${esc(tg("value", "tai-xiu", "xiu"))} <strong data-count="xiu">${counts.xiu}</strong>
      · ${esc(tg("value", "tai-xiu", "triple"))} <strong data-count="triple">${counts.triple}</strong></p>
    ${plate(beads)}
    ${last ? `<p class="road-last">${t("road.dice")} #${last.hand}: ${last.dice.map((d) => dieSVG(d, 22)).join("")} = <strong>${last.total}</strong></p>` : ""}`;
}

function teenPatti(records) {
  const beads = records.map((r) => bead(`tp-${r.outcome.toLowerCase()}`, r.outcome === "tie" ? "=" : r.outcome,
    `#${r.hand}: A ${r.hand_a.join(" ")} · B ${r.hand_b.join(" ")} · ${tg("value", "teen-patti-2020", r.outcome)}`, r.hand));
  return `<h3>${t("road.last_results")} <span class="muted small">${t("road.last_n", { n: records.length })}</span></h3>${plate(beads)}`;
}

function threeCard(records) {
  const rows = records.slice(-8).reverse().map((r) => `<li data-hand="${r.hand}">#${r.hand} ${t("road.dealer")}:
    ${cardsHTML(r.dealer, { size: "xs" })}
    ${esc(tg("value", "three-card-poker", r.category))} · ${r.qualifies ? t("road.qualifies") : t("road.not_qualified")}</li>`).join("");
  return `<h3>${t("road.last_results")}</h3><ul class="road-list">${rows}</ul>`;
}

const BY_GAME = { "tai-xiu": taiXiu, "teen-patti-2020": teenPatti, "three-card-poker": threeCard };

// The section for a table's records ("" for a game without them or none yet).
export function recentHTML(game, records) {
  const draw = BY_GAME[game];
  if (!draw || !records || !records.length) return "";
  return `<section class="recent" id="recent" data-game="${esc(game)}" aria-label="${t("road.last_results")}">${draw(records)}</section>`;
}
