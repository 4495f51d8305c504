// People, not ids: the lobby's table rows (name, host or house, seats, stake, options) and its
// search box, which filters the tables shown (their name, host and game) at once and finds
// players by name over GET /api/players (their avatar, level, and the tables they sit at).
import { t } from "/i18n.js";
import { esc, gold } from "/util.js";
import { avatarHTML } from "/avatar.js";

// Letters without accents or case (đ as d), as the server's name keys compare names.
export function fold(text) {
  return String(text || "").toLocaleLowerCase().replaceAll("đ", "d").normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "").replace(/[^0-9a-z]+/g, "");
}

// Who the table is against: the house banks it (never a player host), or its host's name.
function hostCell(tb) {
  if (tb.house) return `<span class="tag house" data-house="1">${t("lobby.house")}</span>`;
  if (!tb.host_name) return `<span class="muted">—</span>`;
  return `<span class="host" data-host="${esc(tb.host)}">${avatarHTML({ player: tb.host, name: tb.host_name }, 22)} ${esc(tb.host_name)}</span>`;
}

// One lobby row. o = {gameName(id), options(tb) -> HTML}.
export function tableRowHTML(tb, o) {
  const tags = [
    tb.system ? `<span class="tag">${t("lobby.system")}</span>` : "",
    tb.quick ? `<span class="tag">${t("lobby.quick")}</span>` : "",
    tb.in_hand ? `<span class="tag live">${t("lobby.in_hand")}</span>` : "",
  ].join(" ");
  const search = fold([tb.name, tb.host_name || "", o.gameName(tb.game)].join(" "));
  return `<tr data-table-row="${esc(tb.id)}" data-search="${esc(search)}" data-seat-model="${esc(tb.seat_model || "")}">
      <td><strong class="table-name">${esc(tb.name)}</strong><div class="small muted">${esc(o.gameName(tb.game))} ${tags}</div></td>
      <td class="host-cell">${hostCell(tb)}</td>
      <td class="num">${gold(tb.stake)}</td>
      <td class="num">${tb.seated}/${tb.seats}${tb.bots ? `<div class="small muted">${t("lobby.bots_n", { n: tb.bots })}</div>` : ""}</td>
      <td class="opts">${o.options(tb)}</td>
      <td><a class="button" href="#/table/${encodeURIComponent(tb.id)}" data-table="${esc(tb.id)}">${t("lobby.open")}</a></td>
    </tr>`;
}

export function lobbyTableHTML(tables, o) {
  const rows = tables.map((tb) => tableRowHTML(tb, o)).join("");
  return `<div class="scroll"><table class="list lobby-tables">
      <thead><tr><th>${t("lobby.table")}</th><th>${t("lobby.host")}</th><th>${t("lobby.stake")}</th><th>${t("lobby.seats")}</th><th>${t("lobby.options")}</th><th></th></tr></thead>
      <tbody>${rows || `<tr><td colspan="6">${t("lobby.empty")}</td></tr>`}</tbody>
    </table></div>`;
}

export function searchBoxHTML() {
  return `<div class="lobby-search"><label class="search-label">
      <span class="sr-only">${t("lobby.search")}</span>
      <input type="search" id="lobby-search" placeholder="${t("lobby.search")}" aria-label="${t("lobby.search")}" maxlength="32" autocomplete="off">
    </label><div id="player-results" aria-live="polite"></div></div>`;
}

function playerRowHTML(p, names) {
  const tables = p.tables.map((id) => `<a href="#/table/${encodeURIComponent(id)}" data-player-table="${esc(id)}">${t("lobby.at_table")} ${esc(names[id] || id)}</a>`).join(", ");
  return `<li data-player="${esc(p.id)}" data-bot="${p.bot ? 1 : 0}">${avatarHTML({ player: p.id, name: p.name, bot: p.bot }, 28)}
    <span class="player-name">${esc(p.name)}</span>
    <span class="level" data-level="${p.level}">${t("table.level", { n: p.level })}</span>
    ${p.bot ? `<span class="tag">${t("table.bot")}</span>` : ""} ${tables}</li>`;
}

// The search box: rows whose folded text lacks the query hide at once; from two letters on,
// the players whose names match are listed (one request per pause in typing).
// tables: the lobby's entries (a player's table is named by its name when it is one of them).
export function mountLobbySearch(root, { api, tables = [] }) {
  const names = Object.fromEntries(tables.map((tb) => [tb.id, tb.name]));
  const input = root.querySelector("#lobby-search");
  const out = root.querySelector("#player-results");
  if (!input || !out) return;
  let timer = 0;
  let asked = "";
  const filter = () => {
    const key = fold(input.value);
    root.querySelectorAll("tr[data-table-row]").forEach((row) => {
      row.hidden = Boolean(key) && !row.dataset.search.includes(key);
    });
    clearTimeout(timer);
    if (key.length < 2) { out.innerHTML = ""; asked = ""; return; }
    timer = setTimeout(async () => {
      if (asked === key) return;
      asked = key;
      try {
        const { players } = await api(`/api/players?q=${encodeURIComponent(input.value.trim())}`);
        if (asked !== key) return;
        out.innerHTML = `<h3 class="small">${t("lobby.players")}</h3>` + (players.length
          ? `<ul class="player-list">${players.map((p) => playerRowHTML(p, names)).join("")}</ul>`
          : `<p class="muted" data-no-players>${t("lobby.no_players")}</p>`);
      } catch (e) {
        out.innerHTML = "";
        asked = "";
      }
    }, 250);
  };
  input.addEventListener("input", filter);
}
