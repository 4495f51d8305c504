// Friends and leaderboards: #/friends (GET/POST /api/friends) and #/leaders
// (GET /api/leaderboards/{game}). Every name a player chose is escaped text (esc), never markup.
import { t } from "/i18n.js";
import { gold, esc } from "/util.js";

// ----- friends ----------------------------------------------------------------------------
function whereHTML(f, gameName) {
  if (!f.online) return `<span class="muted">${t("friends.offline")}</span>`;
  if (f.private) return `${t("friends.online")} · ${t("friends.private_table")} (${esc(gameName(f.game))})`;
  if (f.table) {
    const link = `#/table/${encodeURIComponent(f.table)}`;
    return `${t("friends.online")} · <a href="${esc(link)}" data-table="${esc(f.table)}">${t("friends.at_table")} ${esc(gameName(f.game))}</a>`;
  }
  return t("friends.online");
}

function friendsHTML(data, gameName) {
  const people = (rows, buttons) => rows.length
    ? `<ul class="friends">${rows.map((r) => `<li data-player="${esc(r.player)}"><strong>${esc(r.name)}</strong> <span class="muted">#${esc(r.player)}</span> ${buttons(r)}</li>`).join("")}</ul>`
    : `<p class="muted">${t("friends.none")}</p>`;
  const btn = (action, id, label) => `<button type="button" data-action="${action}" data-player="${esc(id)}">${t(label)}</button>`;
  return `
  <section class="panel" id="friends-panel"><h1>${t("friends.title")}</h1>
    <form id="friend-add" class="row">
      <label>${t("friends.player_id")} <input name="player" inputmode="numeric" maxlength="18" required autocomplete="off"></label>
      <button type="submit">${t("friends.request")}</button>
    </form>
    <p><label><input type="checkbox" id="friend-hide" ${data.hide_table ? "checked" : ""}> ${t("friends.hide_table")}</label></p>
    <h2>${t("friends.list")}</h2>
    ${people(data.friends, (f) => `<span class="presence">${whereHTML(f, gameName)}</span> ${btn("remove", f.player, "friends.remove")} ${btn("block", f.player, "friends.block")}`)}
    <h2>${t("friends.incoming")}</h2>
    ${people(data.incoming, (r) => `${btn("accept", r.player, "friends.accept")} ${btn("decline", r.player, "friends.decline")} ${btn("block", r.player, "friends.block")}`)}
    <h2>${t("friends.outgoing")}</h2>
    ${people(data.outgoing, (r) => btn("decline", r.player, "friends.withdraw"))}
    <h2>${t("friends.blocked")}</h2>
    ${people(data.blocked, (r) => btn("unblock", r.player, "friends.unblock"))}
  </section>`;
}

export async function renderFriends(app, { api, showBanner, errorText, gameName }) {
  const draw = (data) => {
    app.innerHTML = friendsHTML(data, gameName);
    const change = async (body) => {
      try { draw(await api("/api/friends", { method: "POST", body })); } catch (err) { showBanner(errorText(err), "error", 4000); }
    };
    document.getElementById("friend-add").onsubmit = (event) => {
      event.preventDefault();
      const player = new FormData(event.target).get("player").trim();
      if (player) change({ action: "request", player });
    };
    document.getElementById("friend-hide").onchange = (event) => change({ action: "hide", hide: event.target.checked });
    app.querySelectorAll("button[data-action]").forEach((b) => {
      b.onclick = () => change({ action: b.dataset.action, player: b.dataset.player });
    });
  };
  try { draw(await api("/api/friends")); } catch (err) { showBanner(errorText(err), "error", 4000); }
}

// The invite button at a table: a list of online friends to send an invitation to.
export async function inviteHTML(api) {
  let data;
  try { data = await api("/api/friends"); } catch (err) { return ""; }
  const online = data.friends.filter((f) => f.online);
  if (!online.length) return "";
  return `<form id="friend-invite" class="row"><label>${t("friends.invite")} <select name="player">${online.map((f) => `<option value="${esc(f.player)}">${esc(f.name)}</option>`).join("")}</select></label><button type="submit">${t("friends.invite_send")}</button></form>`;
}

// Fill the table page's invite slot; ``table()`` is the table's id at the time of sending.
export async function mountInvite(root, table, { api, showBanner, errorText }) {
  const slot = root.querySelector("#invite-slot");
  if (!slot) return;
  slot.innerHTML = await inviteHTML(api);
  const form = slot.querySelector("#friend-invite");
  if (!form) return;
  slot.className = "panel";
  form.onsubmit = async (event) => {
    event.preventDefault();
    const player = new FormData(form).get("player");
    try {
      await api("/api/friends", { method: "POST", body: { action: "invite", player, table: table() } });
      showBanner(t("friends.invite_sent"), "info", 3000);
    } catch (err) { showBanner(errorText(err), "error", 4000); }
  };
}

// A server message about friends: an invitation shows in the banner with its link (the
// friend's name as text).
export function socialMessage(message, banner) {
  if (message.type !== "friend_invite") return false;
  const link = document.createElement("a");
  link.id = "invite-link";
  link.href = `#/table/${encodeURIComponent(message.join)}`;
  link.textContent = t("friends.open_table");
  banner.hidden = false;
  banner.className = "banner info";
  banner.dataset.kind = "info";
  banner.textContent = `${message.name} ${t("friends.invited_you")} `;
  banner.append(link);
  return true;
}

// ----- leaderboards -----------------------------------------------------------------------
function boardHTML(rows, by, title) {
  if (!rows.length) return `<h2>${t(title)}</h2><p class="muted">${t("board.empty")}</p>`;
  const value = (r) => (by === "hands" ? String(r.hands) : gold(r[by]));
  return `<h2>${t(title)}</h2><table class="list board" data-board="${by}"><thead><tr><th class="num">#</th><th>${t("board.player")}</th><th class="num">${t(title)}</th></tr></thead>
  <tbody>${rows.map((r) => `<tr><td class="num">${r.rank}</td><td>${esc(r.name)}</td><td class="num">${value(r)}</td></tr>`).join("")}</tbody></table>`;
}

export async function renderLeaders(app, { api, showBanner, errorText, gameName, games }, query) {
  const params = new URLSearchParams(query || "");
  const game = params.get("game") || "all";
  const period = params.get("period") || "day";
  const gameOptions = ["all", ...games.map((g) => g.id)].map((id) =>
    `<option value="${esc(id)}" ${id === game ? "selected" : ""}>${id === "all" ? t("board.all_games") : esc(gameName(id))}</option>`).join("");
  const periodOptions = ["day", "week", "all"].map((p) =>
    `<option value="${p}" ${p === period ? "selected" : ""}>${t(`board.period.${p}`)}</option>`).join("");
  let data;
  try { data = await api(`/api/leaderboards/${encodeURIComponent(game)}?period=${encodeURIComponent(period)}`); } catch (err) {
    showBanner(errorText(err), "error", 4000);
    return;
  }
  const clans = data.clans.length
    ? `<table class="list board" data-board="clans"><thead><tr><th class="num">#</th><th>${t("board.clan")}</th><th class="num">XP</th></tr></thead><tbody>${data.clans.map((c) => `<tr><td class="num">${c.rank}</td><td>${esc(c.name)}</td><td class="num">${c.xp}</td></tr>`).join("")}</tbody></table>`
    : `<p class="muted">${t("board.empty")}</p>`;
  app.innerHTML = `
  <section class="panel" id="leaders"><h1>${t("board.title")}</h1>
    <form id="board-pick" class="row">
      <label>${t("lobby.game")} <select name="game">${gameOptions}</select></label>
      <label>${t("board.period")} <select name="period">${periodOptions}</select></label>
    </form>
    ${boardHTML(data.net, "net", "board.net")}
    ${boardHTML(data.hands, "hands", "board.hands")}
    ${boardHTML(data.best, "best", "board.best")}
    <h2>${t("board.clans")}</h2>${clans}
  </section>`;
  const form = document.getElementById("board-pick");
  form.onchange = () => {
    const picked = new FormData(form);
    location.hash = `#/leaders?game=${encodeURIComponent(picked.get("game"))}&period=${encodeURIComponent(picked.get("period"))}`;
  };
}
