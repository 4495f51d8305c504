// Rules at hand: each game's "how to play" and main rules (GET /api/rules, in the page's
// language), and each house bet's payout and exact house edge (sanh.analysis). A page
// (#/rules, #/rules/<game>) from the lobby, a panel over the table (the table keeps playing).
import { t, getLang } from "/i18n.js";
import { esc } from "/util.js";

let cache = null;

async function rules() {
  if (!cache) {
    const response = await fetch("/api/rules");
    if (!response.ok) throw new Error(response.statusText);
    cache = (await response.json()).games;
  }
  return cache;
}

function gameTitle(game) {
  return esc(getLang() === "vi" ? game.name_vi : game.name);
}

function percent(value) {
  const locale = getLang() === "vi" ? "vi-VN" : "en-US";
  return new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(value);
}

function betName(bet) {
  const total = /^total_(\d+)$/.exec(bet);
  return total ? t("rules.bet.total", { n: total[1] }) : t(`rules.bet.${bet}`);
}

function betsHTML(game) {
  if (!game.bets.length) return "";
  const tables = [...new Set(game.bets.map((b) => b.table))];
  const block = (table) => {
    const rows = game.bets.filter((b) => b.table === table).map((b) => `
      <tr data-bet="${esc(b.bet)}"${table ? ` data-kind="${esc(table)}"` : ""}>
        <th scope="row">${esc(betName(b.bet))}</th>
        <td class="num payout">${esc(b.payout)}</td>
        <td class="num edge" data-edge="${esc(b.exact_house_edge)}">${percent(b.house_edge)}</td>
        <td class="num exact"><code>${esc(b.exact_house_edge)}</code></td>
        <td class="num rtp">${percent(b.rtp)}</td>
      </tr>`).join("");
    return `${table ? `<h4>${t(`rules.table.${table}`)}</h4>` : ""}
      <div class="scroll" tabindex="0"><table class="list rules-bets">
        <thead><tr><th scope="col">${t("rules.bet")}</th><th scope="col">${t("rules.payout")}</th><th scope="col">${t("rules.house_edge")}</th><th scope="col">${t("rules.exact")}</th><th scope="col">${t("rules.rtp")}</th></tr></thead>
        <tbody>${rows}</tbody></table></div>`;
  };
  return `<h3>${t("rules.bets")}</h3>${tables.map(block).join("")}<p class="muted small">${t("rules.edge_note")}</p>`;
}

function gameHTML(game) {
  const text = getLang() === "vi" ? game.vi : game.en;
  return `<article class="rules-game" data-game="${esc(game.id)}" lang="${getLang()}">
    <h2>${gameTitle(game)}</h2>
    <h3>${t("rules.how_to_play")}</h3>
    <p class="how-to-play">${esc(text.how_to_play)}</p>
    <h3>${t("rules.rules")}</h3>
    <ul class="rules-list">${text.rules.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>
    ${betsHTML(game)}
    <p class="muted small">${t("rules.full", { section: esc(game.section) })}</p>
  </article>`;
}

// The rules page: a game chooser and the chosen game's rules (the first game by default).
export async function renderRulesPage(app, gameId) {
  const games = await rules();
  const game = games.find((g) => g.id === gameId) || games[0];
  app.innerHTML = `<section class="panel rules-page" id="rules-page">
    <h1>${t("rules.title")}</h1>
    <nav class="tabs" aria-label="${t("rules.choose")}">${games.map((g) => `<a href="#/rules/${encodeURIComponent(g.id)}" data-rules-game="${esc(g.id)}" class="${g.id === game.id ? "active" : ""}" ${g.id === game.id ? 'aria-current="page"' : ""}>${gameTitle(g)}</a>`).join("")}</nav>
    ${gameHTML(game)}
  </section>`;
}

// The rules of one game in a dialog over the page (the table stays connected underneath).
export async function openRulesPanel(gameId) {
  const games = await rules();
  const game = games.find((g) => g.id === gameId);
  if (!game) return;
  let dialog = document.getElementById("rules-panel");
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.id = "rules-panel";
    dialog.className = "rules-panel panel";
    document.body.append(dialog);
  }
  dialog.setAttribute("aria-label", t("rules.title"));
  dialog.innerHTML = `<form method="dialog" class="row spread"><strong>${t("rules.title")}</strong><button type="submit" id="rules-close">${t("rules.close")}</button></form>${gameHTML(game)}`;
  if (!dialog.open) dialog.showModal();
}
