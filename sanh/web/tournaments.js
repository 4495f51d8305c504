// Sit & Go tournaments: #/tournaments (GET/POST /api/tournaments) and #/tournaments/<id>
// (GET /api/tournaments/{id}, register, unregister, cancel). Names are escaped text (esc).
import { t } from "/i18n.js";
import { gold, esc } from "/util.js";

const GAMES = ["texas-holdem", "poker-aof", "tien-len"];

function statusText(s) { return t(`sitgo.status.${s.status}`); }

function rowHTML(s, gameName) {
  const link = `#/tournaments/${encodeURIComponent(s.id)}`;
  return `<tr data-tournament="${esc(s.id)}"><td><a href="${esc(link)}">${esc(gameName(s.game))}</a></td>
    <td class="num">${s.entrants.length}/${s.seats}</td><td class="num">${gold(s.buy_in)} + ${gold(s.fee)}</td>
    <td class="num">${gold(s.pool)}</td><td>${statusText(s)}${s.registered ? ` · <strong>${t("sitgo.you_in")}</strong>` : ""}</td></tr>`;
}

async function renderList(app, ctx) {
  const { api, showBanner, errorText, gameName } = ctx;
  let data;
  try { data = await api("/api/tournaments"); } catch (err) { showBanner(errorText(err), "error", 4000); return; }
  const options = GAMES.map((g) => `<option value="${g}">${esc(gameName(g))}</option>`).join("");
  const rows = data.tournaments.map((s) => rowHTML(s, gameName)).join("");
  app.innerHTML = `
  <section class="panel" id="tournaments"><h1>${t("sitgo.title")}</h1>
    <p class="muted">${t("sitgo.about")}</p>
    <form id="sitgo-create" class="row">
      <label>${t("lobby.game")} <select name="game" id="sitgo-game">${options}</select></label>
      <label>${t("sitgo.seats")} <input name="seats" id="sitgo-seats" type="number" min="2" max="9" value="4"></label>
      <label>${t("sitgo.buy_in")} <input name="buy_in" id="sitgo-buyin" type="number" min="1" step="1" value="50"></label>
      <label>${t("sitgo.fee")} <input name="fee" id="sitgo-fee" type="number" min="0" step="1" value="5"></label>
      <label>${t("sitgo.bots")} <input name="bots" id="sitgo-bots" type="number" min="0" max="8" value="3"></label>
      <button type="submit" id="sitgo-submit">${t("sitgo.create")}</button>
    </form>
    ${rows ? `<div class="scroll" tabindex="0"><table class="list" id="sitgo-list"><thead><tr><th>${t("lobby.game")}</th><th class="num">${t("sitgo.entrants")}</th><th class="num">${t("sitgo.buy_in_fee")}</th><th class="num">${t("sitgo.pool")}</th><th>${t("sitgo.state")}</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted" id="sitgo-none">${t("sitgo.none")}</p>`}
  </section>`;
  const form = document.getElementById("sitgo-create");
  form.onsubmit = async (event) => {
    event.preventDefault();
    const f = new FormData(form);
    const body = {
      game: f.get("game"), seats: Number(f.get("seats")), bots: Number(f.get("bots")),
      buy_in: Math.round(Number(f.get("buy_in")) * 100), fee: Math.round(Number(f.get("fee")) * 100),
    };
    try {
      const made = await api("/api/tournaments", { method: "POST", body });
      location.hash = `#/tournaments/${encodeURIComponent(made.id)}`;
    } catch (err) { showBanner(errorText(err), "error", 4000); }
  };
}

async function renderOne(app, ctx, id) {
  const { api, showBanner, errorText, gameName, setBalance } = ctx;
  let s;
  try { s = await api(`/api/tournaments/${encodeURIComponent(id)}`); } catch (err) { showBanner(errorText(err), "error", 4000); return; }
  const ranked = [...s.entrants].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || b.chips - a.chips);
  const standings = ranked.map((e) => `<tr data-entrant="${esc(e.player)}" class="${e.out ? "muted" : ""}">
    <td class="num">${e.place ?? ""}</td><td>${esc(e.name)}${e.bot ? ` <span class="tag">${t("table.bot")}</span>` : ""}</td>
    <td class="num">${e.chips}</td><td class="num">${e.prize != null ? gold(e.prize) : ""}</td></tr>`).join("");
  const payouts = s.payout_shares.map((share, i) => `<li>${t("sitgo.place", { n: i + 1 })}: ${gold(Math.floor(s.pool * share / 10000))} (${share / 100}%)</li>`).join("");
  const blinds = s.small_blind != null ? `<p>${t("sitgo.level", { n: s.level })}: ${s.small_blind}/${s.big_blind} · ${t("sitgo.every_hands", { n: s.hands_per_level })}</p>` : `<p>${t("sitgo.games", { n: s.games })}</p>`;
  const buttons = [];
  if (s.status === "registering") {
    buttons.push(s.registered
      ? `<button type="button" id="sitgo-unregister">${t("sitgo.unregister")}</button>`
      : `<button type="button" id="sitgo-register">${t("sitgo.register")} (${gold(s.buy_in + s.fee)})</button>`);
    buttons.push(`<button type="button" id="sitgo-cancel">${t("sitgo.cancel")}</button>`);
  }
  if (s.status === "running" && s.table && s.registered) buttons.push(`<a class="button" id="sitgo-table" href="#/table/${encodeURIComponent(s.table)}">${t("sitgo.your_table")}</a>`);
  else if (s.status === "running" && s.table) buttons.push(`<a class="button" id="sitgo-table" href="#/table/${encodeURIComponent(s.table)}">${t("sitgo.watch")}</a>`);
  app.innerHTML = `
  <section class="panel" id="tournament" data-status="${esc(s.status)}"><h1>${t("sitgo.title_one", { n: gameName(s.game) })}</h1>
    <p><a href="#/tournaments">← ${t("sitgo.title")}</a></p>
    <p><strong id="sitgo-status">${statusText(s)}</strong> · ${s.entrants.length}/${s.seats} · ${t("sitgo.buy_in_fee")}: ${gold(s.buy_in)} + ${gold(s.fee)} · ${t("sitgo.pool")}: <strong>${gold(s.pool)}</strong> · ${t("sitgo.hands")}: ${s.hands}</p>
    ${blinds}
    <div class="row">${buttons.join("")}</div>
    <h2>${t("sitgo.standings")}</h2>
    <div class="scroll" tabindex="0"><table class="list" id="sitgo-standings"><thead><tr><th class="num">#</th><th>${t("sitgo.player")}</th><th class="num">${t("sitgo.chips")}</th><th class="num">${t("sitgo.prize")}</th></tr></thead><tbody>${standings}</tbody></table></div>
    <h2>${t("sitgo.payouts")}</h2><ul class="plain" id="sitgo-payouts">${payouts}</ul>
  </section>`;
  const act = (button, path) => {
    if (!button) return;
    button.onclick = async () => {
      try {
        await api(`/api/tournaments/${encodeURIComponent(s.id)}/${path}`, { method: "POST" });
        const me = await api("/api/me");
        setBalance(me.balance);
      } catch (err) { showBanner(errorText(err), "error", 4000); }
      renderOne(app, ctx, id);
    };
  };
  act(document.getElementById("sitgo-register"), "register");
  act(document.getElementById("sitgo-unregister"), "unregister");
  act(document.getElementById("sitgo-cancel"), "cancel");
}

export function renderTournaments(app, ctx, id) {
  return id ? renderOne(app, ctx, id) : renderList(app, ctx);
}
