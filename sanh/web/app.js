// sanh browser client: a single page over the hall's HTTP API and WebSocket protocol.
// It renders only what the server sends (views) and offers only the server's legal actions.
import { t, tg, tf, getLang, setLang, applyStatic, loadStrings, languages, has } from "/i18n.js";
import { cardsHTML, isCardCode, dieSVG, mountFourColourToggle } from "/cards.js";
import { tableCues, stopCues, resultCue, actSent, ackCue, mountSoundToggle } from "/sound.js";
import { gold, signed, esc, tv, actionLabel, actionHTML, sameTemplate, describe, textParts } from "/util.js";
import { RENDERERS, GENERIC } from "/games/index.js";
import { mountTableChat, mountLobbyChat, chatMessage, chatTableUpdate, recallChatHTML } from "/chat.js";
import { renderRulesPage } from "/rules.js";
import { recentHTML } from "/road.js";
import { seatHTML, ringHTML, houseHTML, isHouse, fitTable, refitTable, confirmDialog } from "/felt.js";
import { decorateKeys, installKeys } from "/keys.js";
import { lobbyTableHTML, searchBoxHTML, mountLobbySearch } from "/people.js";
import { avatarHTML } from "/avatar.js";
import { renderFriends, renderLeaders, mountInvite, socialMessage } from "/social.js";
import { renderTournaments } from "/tournaments.js";
import { snapshot as motionSnapshot, animate as animateMotion } from "/motion.js";

const PROTOCOL = 1; // the WebSocket protocol version spoken (docs/protocol.md)
const app = document.getElementById("app");
const banner = document.getElementById("banner");
const state = {
  token: localStorage.getItem("sanh.token"),
  player: localStorage.getItem("sanh.player"),
  games: [],
  balance: null,
  ws: null,
  welcomed: false, // the current socket's hello was answered with a welcome
  table: null, // current table id
  update: null, // last "table" message
  result: null, // last "result" message
  buyin: null, // open buy-in panel
  leave: null, // a pending leave ("leave_pending" message) while a hand is on
  quote: null, // the last "leave_quote" (what leaving now costs)
  confirmLeave: false, // a "leave now" click waits for its fresh quote
  lost: false,
  retry: 0,
  ticker: null,
  actions: [], // actions offered on the page, by index
  ranges: [], // amount ranges offered on the page, by index
  ui: {}, // per-game UI state (selected cards, chip, area)
  firstSeen: {}, // deadline -> when it was first seen (for the timer bars)
  rendered: 0, // how many times the table was drawn (tests wait on it)
};
window.sanh = state; // for debugging and tests

// ----- helpers ---------------------------------------------------------------------------
async function api(path, { method = "GET", body } = {}) {
  const headers = { "content-type": "application/json" };
  if (state.token) headers.authorization = `Bearer ${state.token}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.message || response.statusText);
    error.code = data.error;
    error.text = data.text || null; // the message as a text code (sanh/games/_texts.py)
    error.status = response.status;
    throw error;
  }
  return data;
}
// An HTTP error in words: the translated headline of its code, then its text code in the
// current language (the server's English message when there is no code the client knows).
function errorText(e) {
  const detail = e.text && knownText("", e.text) ? plainText(describe("", e.text)) : e.message;
  return detail ? `${errorHeadline(e.code)} (${detail})` : errorHeadline(e.code);
}
function plainText(html) {
  return new DOMParser().parseFromString(html, "text/html").body.textContent;
}
function showBanner(text, kind = "info", ms = 0, detail = "") {
  banner.hidden = false;
  banner.textContent = text;
  if (detail) {
    const more = document.createElement("small");
    more.className = "banner-detail";
    more.textContent = detail;
    banner.append(" ", more);
  }
  banner.className = `banner ${kind}`;
  banner.dataset.kind = kind;
  delete banner.dataset.code;
  const shown = banner.textContent;
  if (ms) setTimeout(() => { if (banner.textContent === shown) banner.hidden = true; }, ms);
}
// The translated headline of an error code (every code of the protocol and the HTTP API has
// one); the server's English message may follow as secondary text.
function errorHeadline(code) {
  return code && has(`error.${code}`) ? t(`error.${code}`) : t("error.generic");
}
// Whether a text is made of codes the client can translate (sanh/games/_texts.py).
function knownText(game, text) {
  const parts = textParts(text);
  return Boolean(parts && parts.every((p) => has(`text.${game}.${p.code}`) || has(`text.${p.code}`)));
}
// The detail of an error: a refusal's text code (message.text) in the current language, else the
// server's English message. Seats are named as on the table (engine seats).
function refusalText(message) {
  const update = state.update && (!message.table || state.update.table === message.table) ? state.update : null;
  const game = update ? update.game : "";
  if (!message.text || !knownText(game, message.text)) return message.message || "";
  const byEngine = update ? seatByEngine(update) : {};
  const names = (engine) => {
    const seat = byEngine[engine];
    if (!seat) return t("table.seat_n", { n: engine + 1 });
    return seat.player === state.player ? t("table.you") : esc(seat.name);
  };
  return plainText(describe(game, message.text, { names }));
}
function gameName(id) {
  return t(`game.${id}`);
}
function setBalance(units) {
  if (typeof units === "number") state.balance = units;
  const el = document.getElementById("balance");
  el.textContent = state.balance === null ? "" : `${t("profile.balance")}: ${gold(state.balance)}`;
  el.dataset.units = state.balance === null ? "" : String(state.balance);
}
function saveSession(data) {
  state.token = data.token;
  state.player = data.player;
  localStorage.setItem("sanh.token", data.token);
  localStorage.setItem("sanh.player", data.player);
  if (data.language && languages().includes(data.language) && !localStorage.getItem("sanh.lang")) setLang(data.language);
}
function optionValue(game, value) {
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (typeof value === "number") return String(value);
  return has(`value.${game}.${value}`) || has(`value.${value}`) ? tv(game, value) : esc(value);
}

// ----- routing ---------------------------------------------------------------------------
async function route() {
  clearInterval(state.ticker);
  applyStatic();
  setBalance();
  const hash = location.hash || "#/lobby";
  if (!state.token) return renderAuth();
  const [, page, arg] = hash.split("?")[0].split("/");
  // The page's first requests go out together (one round trip, not three): the games, the
  // player, and for the lobby its tables.
  const lobby = !page || page === "lobby" ? lobbyRequest() : null;
  lobby?.catch(() => {}); // handled where it is awaited; this keeps an early refusal quiet
  const [games, me] = await Promise.allSettled([
    state.games.length ? Promise.resolve({ games: state.games }) : api("/api/games"),
    api("/api/me"),
  ]);
  if (games.status === "fulfilled") state.games = games.value.games; // else shown below
  if (me.status === "fulfilled") setBalance(me.value.balance);
  else if (me.reason.status === 401) { logout(); return; }
  document.body.dataset.page = page || "lobby"; // the table's compact top bar at phone width
  closeMenu();
  if (page !== "table") closeSocket();
  if (page === "table" && arg) return renderTable(decodeURIComponent(arg));
  if (page === "profile") return renderProfile();
  if (page === "recall") return renderRecall(arg ? decodeURIComponent(arg) : arg);
  if (page === "rules") return renderRulesPage(app, arg ? decodeURIComponent(arg) : null);
  const social = { api, showBanner, errorText, gameName, games: state.games };
  if (page === "friends") return renderFriends(app, social);
  if (page === "leaders") return renderLeaders(app, social, hash.split("?")[1]);
  if (page === "tournaments") return renderTournaments(app, { ...social, setBalance }, arg ? decodeURIComponent(arg) : null);
  return renderLobby(lobby);
}
window.addEventListener("hashchange", route);

// The top bar's menu (at a table at phone width the links and log-out fold behind it).
const menuToggle = document.getElementById("menu-toggle");
function closeMenu() {
  document.querySelector(".topbar").classList.remove("open");
  menuToggle.setAttribute("aria-expanded", "false");
}
menuToggle.onclick = () => {
  const open = document.querySelector(".topbar").classList.toggle("open");
  menuToggle.setAttribute("aria-expanded", String(open));
};

// Go to a page: a new hash routes through hashchange, the same hash routes at once.
function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function logout() {
  closeSocket();
  localStorage.removeItem("sanh.token");
  localStorage.removeItem("sanh.player");
  state.token = null;
  state.player = null;
  state.balance = null;
  go("#/");
}

// The log-out button ends the session on the server too (POST /api/logout), then here.
async function signOut() {
  if (state.token) {
    try { await api("/api/logout", { method: "POST" }); } catch (e) { /* ended already */ }
  }
  logout();
}

// ----- auth --------------------------------------------------------------------------------
function renderAuth() {
  app.innerHTML = `
  <section class="panel auth">
    <h1>${t("auth.title")}</h1>
    <button id="guest" class="primary big">${t("auth.guest")}</button>
    <p class="muted">${t("auth.or")}</p>
    <form id="login-form" class="form">
      <label>${t("auth.username")} <input name="username" autocomplete="username" required></label>
      <label>${t("auth.password")} <input name="password" type="password" autocomplete="current-password" required></label>
      <label>${t("auth.name")} <input name="name" autocomplete="nickname"></label>
      <div class="row">
        <button type="submit" name="do" value="login">${t("auth.login")}</button>
        <button type="submit" name="do" value="register">${t("auth.register")}</button>
      </div>
      <p class="error" id="auth-error" role="alert"></p>
    </form>
  </section>`;
  document.getElementById("guest").onclick = async () => {
    try {
      saveSession(await api("/api/guest", { method: "POST", body: { language: getLang() } }));
      go("#/lobby");
    } catch (e) {
      document.getElementById("auth-error").textContent = `${t("auth.failed")}: ${errorText(e)}`;
    }
  };
  document.getElementById("login-form").onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const which = event.submitter ? event.submitter.value : "login";
    const body = { username: form.get("username"), password: form.get("password") };
    if (which === "register") { body.name = form.get("name") || null; body.language = getLang(); }
    try {
      saveSession(await api(`/api/${which}`, { method: "POST", body }));
      go("#/lobby");
    } catch (e) {
      document.getElementById("auth-error").textContent = `${t("auth.failed")}: ${errorText(e)}`;
    }
  };
}

// ----- lobby -------------------------------------------------------------------------------
function lobbyRequest() {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const query = new URLSearchParams();
  if (params.get("game")) query.set("game", params.get("game"));
  if (params.get("open") === "1") query.set("open_seats", "1");
  return api(`/api/lobby?${query}`);
}

async function renderLobby(request = null) {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const filter = params.get("game") || "";
  const openOnly = params.get("open") === "1";
  const { tables } = await (request || lobbyRequest());
  const tab = (id, label) => {
    const q = new URLSearchParams();
    if (id) q.set("game", id);
    if (openOnly) q.set("open", "1");
    return `<a href="#/lobby?${q}" class="${filter === id ? "active" : ""}" ${filter === id ? 'aria-current="page"' : ""}>${esc(label)}</a>`;
  };
  const gameTabs = [tab("", t("lobby.all"))].concat(state.games.map((g) => tab(g.id, gameName(g.id)))).join("");
  const optionsOf = (tb) => Object.entries(tb.options).map(([k, v]) => `${esc(t(`option.${k}`))}: ${optionValue(tb.game, v)}`).join("; ") || `<span class="muted">${t("lobby.default")}</span>`;
  const tablesHTML = lobbyTableHTML(tables, { gameName, options: optionsOf });
  app.innerHTML = `
  <section class="panel">
    <div class="row spread"><h1>${t("lobby.title")}</h1>
      <div class="row">
        <label class="check"><input type="checkbox" id="open-only" ${openOnly ? "checked" : ""}> ${t("lobby.filter_open")}</label>
        <button id="refresh" type="button">${t("lobby.refresh")}</button>
      </div></div>
    <nav class="tabs" aria-label="${t("lobby.game")}">${gameTabs}</nav>
    ${searchBoxHTML()}
    ${tablesHTML}
  </section>
  <section class="panel">
    <h2>${t("lobby.create")}</h2>
    <form id="create" class="form grid">
      <label>${t("lobby.game")} <select name="game" id="create-game">${state.games.map((g) => `<option value="${g.id}" ${g.id === filter ? "selected" : ""}>${esc(gameName(g.id))}</option>`).join("")}</select></label>
      <label>${t("lobby.stake")} <input name="stake" type="number" min="0.01" step="0.01" value="1"></label>
      <label>${t("lobby.seats")} <input name="seats" type="number" min="1" max="50" id="create-seats"></label>
      <label>${t("lobby.bots")} <input name="bots" type="number" min="0" max="49" value="0" id="create-bots"></label>
      <label>${t("lobby.table_name")} <input name="name" maxlength="40"></label>
      <label class="check"><input name="quick" type="checkbox"> ${t("lobby.quick")}</label>
      <label class="check"><input name="private" type="checkbox"> ${t("lobby.private")}</label>
      <fieldset id="create-options" class="options"><legend>${t("lobby.options")}</legend></fieldset>
      <button type="submit" class="primary" id="create-submit">${t("lobby.create")}</button>
      <p id="create-msg" role="status"></p>
    </form>
    <form id="invite" class="form row">
      <label>${t("lobby.invite")} <input name="code" maxlength="12" autocomplete="off"></label>
      <button type="submit">${t("lobby.join_invite")}</button>
    </form>
  </section>`;
  mountLobbyChat(app, { token: state.token, player: state.player, protocol: PROTOCOL });
  mountLobbySearch(app, { api, tables });
  document.getElementById("refresh").onclick = () => route();
  document.getElementById("open-only").onchange = (e) => {
    const q = new URLSearchParams();
    if (filter) q.set("game", filter);
    if (e.target.checked) q.set("open", "1");
    location.hash = `#/lobby?${q}`;
  };
  const select = document.getElementById("create-game");
  const fillOptions = () => {
    const game = state.games.find((g) => g.id === select.value);
    const box = document.getElementById("create-options");
    const seats = document.getElementById("create-seats");
    if (!game) return;
    seats.min = game.seats_min; seats.max = game.seats_max; seats.value = game.seats_max;
    box.innerHTML = `<legend>${t("lobby.options")}</legend>` + game.options.map((o) => {
      const label = esc(t(`option.${o.name}`));
      const help = ` title="${esc(tg("option_help", game.id, o.name))}"`;
      if (typeof o.default === "boolean") {
        return `<label class="check"${help}><input type="checkbox" data-opt="${o.name}" ${o.default ? "checked" : ""}> ${label}</label>`;
      }
      if (o.choices && o.choices.length) {
        return `<label${help}>${label} <select data-opt="${o.name}">${o.choices.map((c) => `<option value="${esc(c)}" ${c === o.default ? "selected" : ""}>${optionValue(game.id, c)}</option>`).join("")}</select></label>`;
      }
      const type = typeof o.default === "number" ? "number" : "text";
      return `<label${help}>${label} <input type="${type}" data-opt="${o.name}" value="${esc(o.default)}"></label>`;
    }).join("");
  };
  select.onchange = fillOptions;
  fillOptions();
  document.getElementById("create").onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const game = state.games.find((g) => g.id === form.get("game"));
    const options = {};
    document.querySelectorAll("#create-options [data-opt]").forEach((el) => {
      const spec = game.options.find((o) => o.name === el.dataset.opt);
      let value = el.type === "checkbox" ? el.checked : el.value;
      if (typeof spec.default === "number") value = Number(value);
      if (value !== spec.default) options[spec.name] = value;
    });
    try {
      const created = await api("/api/tables", {
        method: "POST",
        body: {
          game: game.id,
          stake: Math.round(Number(form.get("stake")) * 100),
          seats: Number(form.get("seats")) || null,
          options,
          quick: form.get("quick") === "on",
          private: form.get("private") === "on",
          name: String(form.get("name") || ""),
        },
      });
      document.getElementById("create-msg").textContent =
        `${t("lobby.created")}${created.invite_code ? ` · ${t("lobby.invite")}: ${created.invite_code}` : ""}`;
      if (created.invite_code) sessionStorage.setItem(`sanh.invite.${created.id}`, created.invite_code);
      // Bots join once the host is seated, so the first hand includes the host.
      const bots = Number(form.get("bots")) || 0;
      if (bots) sessionStorage.setItem(`sanh.bots.${created.id}`, String(bots));
      sessionStorage.setItem(`sanh.autosit.${created.id}`, "1");
      location.hash = `#/table/${encodeURIComponent(created.id)}`;
    } catch (e) {
      document.getElementById("create-msg").textContent = errorText(e);
    }
  };
  document.getElementById("invite").onsubmit = (event) => {
    event.preventDefault();
    const code = new FormData(event.target).get("code").trim().toUpperCase();
    if (code) location.hash = `#/table/${encodeURIComponent(code)}`;
  };
}

// ----- the table ---------------------------------------------------------------------------
function closeSocket() {
  if (state.ws) {
    state.ws.onclose = null;
    state.ws.close();
  }
  state.ws = null;
  state.welcomed = false;
  state.table = null;
  state.update = null;
  state.result = null;
  state.recent = [];
  state.buyin = null;
  state.leave = null;
  state.quote = null;
  state.confirmLeave = false;
  state.lost = false;
  state.ui = {};
  stopCues();
}

// Messages go out only once the socket's hello has been welcomed.
function send(message) {
  if (state.ws && state.welcomed && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(message));
}

// The session token travels in the first frame (a hello), never in the URL: servers and
// proxies log URLs. The table is joined (and the seat resumed) once the welcome has come.
// In a cluster the table may be another node's: the server answers "moved" with that node's
// WebSocket URL and the client follows (docs/SCALING.md); a lost connection starts again
// from the page's own node, which sends it on to wherever the table lives by then.
function connect(tableId, url) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(url || `${scheme}://${location.host}/ws`);
  state.ws = ws;
  state.welcomed = false;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, token: state.token }));
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (state.ws !== ws) return;
    if (!state.welcomed && message.type === "welcome") {
      state.welcomed = true;
      joinTable(tableId);
    } else if (!state.welcomed && message.type === "error" && message.code === "unauthenticated") {
      logout(); // the hello's token is no longer a session (nothing else was sent yet)
      return;
    }
    onMessage(message);
  };
  ws.onclose = () => {
    if (state.table !== tableId || state.ws !== ws) return;
    if (state.revoked) { state.revoked = false; logout(); return; }
    state.lost = true;
    state.retry += 1;
    showBanner(`${t("conn.lost")} ${t("table.reconnecting", { n: state.retry })}`, "warn");
    renderTableBody();
    const wait = Math.min(5000, 250 * 2 ** Math.min(state.retry, 5));
    setTimeout(() => { if (state.table === tableId && state.lost) connect(tableId); }, wait);
  };
}

// The table is played by another node of the cluster: follow it there (a few hops at most),
// or, when its new node is not known yet (it is being taken over), ask again in a moment.
function onMoved(message) {
  if (!state.table) return;
  if (message.table && message.table !== state.table) {
    // a private table joined by invite code: adopt its real id (as a "table" message does)
    sessionStorage.setItem(`sanh.invite.${message.table}`, state.table);
    state.table = message.table;
  }
  const tableId = state.table;
  state.hops = (state.hops || 0) + 1;
  const old = state.ws;
  state.ws = null;
  if (old) old.close();
  const wait = message.url && state.hops <= 3 ? 0 : Math.min(2000, 250 * state.hops);
  setTimeout(() => { if (state.table === tableId && !state.ws) connect(tableId, message.url || null); }, wait);
}

function joinTable(tableId) {
  const resume = sessionStorage.getItem(`sanh.resume.${tableId}`);
  const invite = sessionStorage.getItem(`sanh.invite.${tableId}`);
  send({ type: "join", table: tableId, invite_code: invite });
  if (resume) send({ type: "resume", resume_token: resume });
  if (state.lost) showBanner(t("conn.back"), "ok", 5000);
  state.lost = false;
  state.retry = 0;
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      setBalance(message.balance);
      break;
    case "table": {
      state.hops = 0;
      if (state.table && message.table !== state.table) {
        // a private table joined by invite code: adopt its real id
        sessionStorage.setItem(`sanh.invite.${message.table}`, state.table);
        state.table = message.table;
      }
      const previous = state.update;
      state.update = message;
      if (message.resume_token) sessionStorage.setItem(`sanh.resume.${message.table}`, message.resume_token);
      if (!previous || previous.hand !== message.hand) state.ui = {};
      // A buy-in or a cash-out moves gold between the wallet and the table stake.
      if (myStake(previous) !== myStake(message)) refreshBalance();
      maybeAutoSit(message);
      chatTableUpdate(message, state.player);
      renderTableBody();
      break;
    }
    case "recent":
      if (message.table === state.table) state.recent = message.records || [];
      renderTableBody();
      break;
    case "result":
      state.result = message;
      resultCue(message, state.player);
      if (message.record && message.table === state.table) {
        state.recent = [...(state.recent || []), message.record].slice(-100);
      }
      if (typeof message.balance === "number") setBalance(message.balance);
      renderTableBody();
      break;
    case "buyin_panel":
      state.buyin = message;
      renderTableBody();
      break;
    case "balance":
      setBalance(message.balance);
      break;
    case "leave_pending":
      state.leave = message.pending ? message : null;
      if (message.pending) send({ type: "quote_leave", table: message.table });
      renderTableBody();
      break;
    case "leave_quote":
      onLeaveQuote(message);
      renderTableBody();
      break;
    case "left":
      onLeft(message);
      break;
    case "ack":
      ackCue(message);
      break;
    case "chat":
    case "chat_history":
      chatMessage(message);
      break;
    case "friend_invite":
      socialMessage(message, banner);
      break;
    case "moved":
      onMoved(message);
      break;
    case "error":
      showBanner(errorHeadline(message.code), "error", 5000, refusalText(message));
      banner.dataset.code = message.code || "";
      // Logged out elsewhere, or the password changed: the server closes the socket next.
      if (message.code === "session_revoked") state.revoked = true;
      break;
    default:
      break;
  }
}

// ----- leaving (docs/protocol.md "Leaving a table") --------------------------------------
// Between hands "Rời bàn" leaves at once (free). During a hand it asks to leave after this
// hand (the seat plays on) and offers "leave now" at the cost the server quotes, confirmed.
function inMyHand(update) {
  const mine = update && update.seats.find((s) => s.player && s.player === state.player);
  return Boolean(mine && mine.engine_seat !== null && mine.engine_seat !== undefined && update.view && !update.view.terminal);
}

function leaveButtonsHTML(inHand) {
  if (!inHand) return `<a class="button" href="#/lobby" id="leave">${t("table.leave")}</a>`;
  if (!state.leave) return `<button id="leave" type="button">${t("table.leave_after_hand")}</button>`;
  const label = state.leave.stand ? t("table.stand_pending") : t("table.leave_pending");
  const cost = state.quote && state.quote.hand === state.leave.hand ? gold(state.quote.cost) : "…";
  return `<span class="pill leave-pending" id="leave-pending">${label}</span>
    <button id="cancel-leave" type="button">${t("table.cancel_leave")}</button>
    <button id="leave-now" type="button" class="danger">${t("table.leave_now", { cost })}</button>`;
}

function bindLeave(page) {
  const leave = page.querySelector("#leave");
  // the link (between hands) also goes to the lobby; the button keeps the page until the result
  if (leave) leave.onclick = () => send({ type: "leave", table: state.table });
  const cancel = page.querySelector("#cancel-leave");
  if (cancel) cancel.onclick = () => send({ type: "cancel_leave", table: state.table });
  const now = page.querySelector("#leave-now");
  if (now) {
    now.onclick = () => {
      state.confirmLeave = true; // confirmed against a fresh quote (the hand may have moved)
      send({ type: "quote_leave", table: state.table });
    };
  }
}

function onLeaveQuote(message) {
  state.quote = message;
  if (!state.confirmLeave) return;
  state.confirmLeave = false;
  const basis = t(`table.leave_basis_${message.basis}`);
  confirmDialog({
    id: "leave-confirm",
    title: t("table.leave_now_title"),
    text: t("table.leave_now_confirm", { cost: gold(message.cost), basis }),
    ok: t("table.leave_now", { cost: gold(message.cost) }),
    cancel: t("table.cancel_leave"),
  }).then((yes) => {
    if (yes && state.table === message.table) send({ type: "leave_now", table: message.table, quote_id: message.quote_id });
  });
}

function onLeft(message) {
  const stand = state.leave && state.leave.stand;
  state.leave = null;
  state.quote = null;
  refreshBalance();
  if (!stand && message.table === state.table) go("#/lobby");
}

function myStake(update) {
  const seat = update && update.seats.find((s) => s.player && s.player === state.player);
  return seat ? seat.table_stake : undefined;
}

async function refreshBalance() {
  try {
    setBalance((await api("/api/me")).balance);
  } catch (e) { /* the next message will tell */ }
}

// The host of a new table sits at once and then calls the bots asked for at creation.
function maybeAutoSit(update) {
  const id = update.table;
  if (sessionStorage.getItem(`sanh.autosit.${id}`) && update.your_seat === null) {
    sessionStorage.removeItem(`sanh.autosit.${id}`);
    send({ type: "sit", table: id });
    return;
  }
  const bots = Number(sessionStorage.getItem(`sanh.bots.${id}`) || 0);
  if (bots && update.your_seat !== null) {
    sessionStorage.removeItem(`sanh.bots.${id}`);
    send({ type: "add_bots", table: id, count: bots });
  }
}

function renderTable(tableId) {
  closeSocket();
  state.table = tableId;
  app.innerHTML = `<section class="table-page" id="table-page"><p>${t("table.waiting")}</p></section>`;
  window.scrollTo(0, 0); // the lobby's create form may have been scrolled to
  mountTableChat(app, tableId, send, state.player);
  app.insertAdjacentHTML("beforeend", `<div id="invite-slot"></div>`);
  mountInvite(app, () => state.table, { api, showBanner, errorText });
  connect(tableId);
  state.ticker = setInterval(() => {
    tickTimers();
    const page = document.getElementById("table-page");
    if (page && window.scrollY === 0) refitTable(page);
  }, 200);
}

function tickTimers() {
  const now = Date.now() / 1000;
  document.querySelectorAll("[data-deadline]").forEach((el) => {
    const deadline = Number(el.dataset.deadline);
    const left = Math.max(0, deadline - now);
    const first = state.firstSeen[deadline] || (state.firstSeen[deadline] = now);
    const total = Math.max(0.5, deadline - first);
    const text = el.querySelector(".t") || el;
    text.textContent = `${Math.ceil(left)} ${t("table.seconds")}`;
    const bar = el.querySelector(".bar > i");
    if (bar) bar.style.width = `${Math.max(0, Math.min(100, (left / total) * 100))}%`;
    el.style.setProperty("--left", String(Math.max(0, Math.min(1, left / total)))); // the seat's timer ring
    el.classList.toggle("urgent", left < 3);
  });
}

function timerHTML(deadline, label = "") {
  if (!deadline) return "";
  return `<div class="timer" data-deadline="${deadline}" role="timer" aria-label="${esc(label || t("table.deadline"))}"><span class="t"></span><span class="bar"><i></i></span></div>`;
}

// Engine seat -> the table seat entry of the player sitting there (for names).
function seatByEngine(update) {
  const out = {};
  for (const seat of update.seats) {
    const engine = engineOf(seat, update);
    if (engine !== null) out[engine] = seat;
  }
  return out;
}

// A seat's engine seat: from the server while a hand runs; once it is over (the last view is
// still shown) from the result's seat mapping.
function engineOf(seat, update) {
  if (seat.engine_seat !== null && seat.engine_seat !== undefined) return seat.engine_seat;
  const result = state.result;
  if (seat.player && update.view && update.view.terminal && result && result.hand === update.hand) {
    const index = result.seats.indexOf(seat.player);
    return index >= 0 ? index : null;
  }
  return null;
}

function makeContext(update) {
  const view = update.view;
  const game = update.game;
  const byEngine = seatByEngine(update);
  const mySeat = update.seats.find((s) => s.player === state.player && s.player);
  const me = mySeat ? engineOf(mySeat, update) : null;
  state.actions = [];
  state.ranges = [];
  if (!state.ui[game]) state.ui[game] = {};
  const ctx = {
    game,
    view,
    update,
    me,
    ui: state.ui[game],
    lost: state.lost,
    tv: (value) => tv(game, value),
    name(engine) {
      if (engine === null || engine === undefined) return t("table.house");
      const seat = byEngine[engine];
      if (!seat) return t("table.seat_n", { n: engine + 1 });
      return seat.player === state.player ? t("table.you") : esc(seat.name);
    },
    // A button for one legal action (looked up by index when clicked).
    button(action, { label, cls = "", attrs = "" } = {}) {
      const index = state.actions.push(action) - 1;
      const text = label !== undefined ? label : esc(actionLabel(game, action, { names: ctx.name }));
      if (action.type === "Leave") cls += " danger";
      return `<button type="button" class="act ${cls}" data-act="${index}" data-type="${esc(action.type)}" ${attrs} ${state.lost ? "disabled" : ""}>${text}</button>`;
    },
    // An amount form for one amount range: slider, number input (gold) and confirm.
    rangeForm(range, { label, quick = [] } = {}) {
      const index = state.ranges.push(range) - 1;
      const name = label !== undefined ? label : esc(actionLabel(game, { ...range.action, [range.field]: undefined }));
      const start = ctx.ui[`amount.${JSON.stringify(range.action)}`] ?? range.min;
      const value = Math.min(range.max, Math.max(range.min, start));
      const quicks = quick
        .filter((q) => q.amount >= range.min && q.amount <= range.max)
        .map((q) => `<button type="button" class="quick" data-set="${q.amount}">${esc(q.label)}</button>`).join("");
      return `<form class="range" data-range="${index}" data-type="${esc(range.action.type)}">
        <span class="range-name">${name}</span>
        <input type="range" min="${range.min}" max="${range.max}" step="${range.step}" value="${value}" aria-label="${esc(t("table.amount"))}">
        <input type="number" min="${range.min / 100}" max="${range.max / 100}" step="0.01" value="${value / 100}" aria-label="${esc(t("table.amount"))}" inputmode="decimal">
        ${quicks}
        <button type="submit" class="primary" ${state.lost ? "disabled" : ""}>${t("table.confirm")}</button>
      </form>`;
    },
    act(action) {
      actNow(action);
    },
    rerender() {
      renderTableBody();
    },
  };
  return ctx;
}

function actNow(action) {
  const view = state.update && state.update.view;
  if (!view) return;
  const nonce = crypto.randomUUID();
  actSent(nonce, action);
  send({ type: "act", table: state.table, nonce, version: view.version, action });
}

// The generic action bar: every legal action as a button, every amount range as a form.
export function genericActions(view, ctx, { skip = () => false } = {}) {
  const ranges = view.amount_ranges || [];
  const covered = (a) => ranges.some((r) => sameTemplate(a, r.action, r.field));
  const buttons = (view.legal_actions || [])
    .filter((a) => !covered(a) && !skip(a))
    .map((a) => ctx.button(a)).join("");
  const forms = ranges.filter((r) => !skip(r.action)).map((r) => ctx.rangeForm(r)).join("");
  return buttons + forms;
}

function renderSeat(seat, update, ctx, renderer, compact = false) {
  const view = update.view;
  const engine = engineOf(seat, update);
  const inHand = Boolean(view) && engine !== null;
  const acting = inHand && !view.terminal && (view.to_act || []).includes(engine);
  const deadline = inHand ? (update.deadlines || {})[String(engine)] : undefined;
  const mine = Boolean(seat.player && seat.player === state.player);
  const info = seat.player && inHand && renderer.seat ? renderer.seat(view, engine, ctx) || {} : {};
  return seatHTML(seat, { mine, acting, inHand, engine, info, deadline, compact, canSit: update.your_seat === null, timer: timerHTML });
}

// The name of an engine seat in a result: "you", the name of the player sitting there (from the
// table's seats, {player, name}), else "Seat n"; no seat is the house. Already escaped.
function seatNamer(players, seats) {
  return (seat) => {
    if (seat === null || seat === undefined) return t("table.house");
    const player = players[seat];
    if (player && player === state.player) return t("table.you");
    const entry = player ? seats.find((x) => x.player === player) : null;
    return entry && entry.name ? esc(entry.name) : t("table.seat_n", { n: seat + 1 });
  };
}

// Why a hand was voided: the reason's text code translated, else the server's English.
function voidedHTML(game, result) {
  if (result.voided_text && knownText(game, result.voided_text)) return `<p class="muted small voided-reason">${describe(game, result.voided_text)}</p>`;
  return result.voided ? `<p class="muted small voided-reason">${esc(result.voided)}</p>` : "";
}

// The last result stays up between hands and clears once the next hand is dealt (a view of a
// later hand under way); house tables keep their last rounds in the road below.
function resultShown(result, update) {
  if (!result) return false;
  const view = update && update.view;
  return !view || view.terminal || update.hand <= result.hand;
}

function renderResult(result, update) {
  if (!result) return "";
  const game = update ? update.game : "";
  const s = result.settlement;
  if (result.voided || !s || !s.deltas) {
    return `<section class="result voided" id="result" data-hand="${result.hand}" aria-label="${t("table.result")}">
      <h2>${t("table.result")} · ${t("table.hand")} ${result.hand}</h2>
      <p class="my-result">${t("table.voided")}</p>${voidedHTML(game, result)}</section>`;
  }
  const mine = result.seats.indexOf(state.player);
  const who = seatNamer(result.seats, update ? update.seats : []);
  const lines = (s.lines || []).map((l) => `<tr class="${l.seat === mine ? "mine" : ""}">
      <td>${who(l.seat)}</td><td>${esc(tg("item", game, l.item))}${l.detail ? ` <span class="muted line-detail">${describe(game, l.detail, { names: who })}</span>` : ""}</td>
      <td class="num">${l.stake ? gold(l.stake) : ""}</td><td class="num ${l.amount >= 0 ? "win" : "loss"}">${signed(l.amount)}</td></tr>`).join("");
  const totals = s.deltas.map((d, i) => `<tr class="total ${i === mine ? "mine" : ""}"><td>${who(i)}</td><td>${t("table.net")}</td><td></td>
      <td class="num ${d >= 0 ? "win" : "loss"}" data-net-seat="${i}" ${i === mine ? `data-my-net="${d}"` : ""}>${signed(d)}</td></tr>`).join("");
  const extra = [
    s.house ? `<tr><td>${t("table.house")}</td><td></td><td></td><td class="num">${signed(s.house)}</td></tr>` : "",
    s.fee ? `<tr><td>${t("table.fee")}</td><td></td><td></td><td class="num">${gold(s.fee)}</td></tr>` : "",
    (s.clan_share || []).some((x) => x) ? `<tr><td>${t("table.clan")}</td><td></td><td></td><td class="num">${gold(s.clan_share.reduce((a, b) => a + b, 0))}</td></tr>` : "",
    s.breakage ? `<tr><td>${t("table.breakage")}</td><td></td><td></td><td class="num">${gold(s.breakage)}</td></tr>` : "",
  ].join("");
  const facts = (s.detail || []).map(([key, value]) => `<dt>${esc(t(`detail.${key}`))}</dt><dd>${renderValue(game, key, value, who)}</dd>`).join("");
  return `<section class="result" id="result" data-hand="${result.hand}" aria-label="${t("table.result")}">
    <h2>${t("table.result")} · ${t("table.hand")} ${result.hand}</h2>
    ${mine >= 0 ? `<p class="my-result ${s.deltas[mine] >= 0 ? "win" : "loss"}">${t("table.you")}: <strong>${signed(s.deltas[mine])}</strong></p>` : ""}
    <div class="scroll" tabindex="0"><table class="list lines"><thead><tr><th></th><th></th><th class="num">${t("table.bet")}</th><th class="num">${t("table.net")}</th></tr></thead>
    <tbody>${lines}${totals}${extra}</tbody></table></div>
    ${facts ? `<dl class="fields facts">${facts}</dl>` : ""}
    ${result.server_seed ? `<p class="fair">${t("table.seed")}: <code>${esc(result.server_seed)}</code></p>` : ""}</section>`;
}

// A generic rendering of a view value (the details panel and the settlement facts).
const MONEY = /(pot|bet|stack|amount|stake|bank|balance|contribution|contributed|committed|ante|blind|call|paid|won|delta|result|cover|totals|^ga$|^my_(confirmed|pending)$)/i;
// Card counts (Tiến lên's penalty lá, paid per seat): counts, never gold, though "paid" looks
// like money.
const COUNTS = /(_la$|^la$|^la_)/;
// Seat fields whose names also look like money (small_blind_seat, banker): a seat wins.
const SEAT_FIRST = /(^|_)(seat|banker)$/;
// Fields holding engine text codes (sanh/games/_texts.py), not enumerated values.
const TEXT_FIELDS = new Set(["detail", "log", "reason"]);
const SEATS = /(seat|winner|banker|declarer|liable|current|host|leader|button|start|turn|ranking|order|players|winners|in_play|passed|finished|undecided|sitting_out|left|thoi)$/;
// A rule option named in a view without its game prefix (Xì tố's "rules": [["auto_follow_2", true], ...]).
function optionLabel(game, short) {
  const info = state.games.find((g) => g.id === game);
  const spec = info && (info.options || []).find((o) => o.name === short || o.name.endsWith(`.${short}`));
  return spec && has(`option.${spec.name}`) ? t(`option.${spec.name}`) : short;
}

function renderValue(game, key, value, who) {
  const name = who || ((s) => t("table.seat_n", { n: s + 1 }));
  if (key === "rules" && Array.isArray(value) && value.every((v) => Array.isArray(v) && v.length === 2 && typeof v[0] === "string")) {
    return value.map(([option, setting]) => `${esc(optionLabel(game, option))}: ${renderValue(game, "", setting, who)}`).join(" · ") || "—";
  }
  if (key === "pots" && Array.isArray(value)) {
    return value.map((pot) => `${gold(pot[0])}${Array.isArray(pot[1]) ? ` (${pot[1].map((s) => name(s)).join(", ")})` : ""}${Array.isArray(pot[2]) ? ` → ${pot[2].map((s) => name(s)).join(", ")}` : ""}`).join("; ") || "—";
  }
  if (key === "shown" && Array.isArray(value)) {
    return value.map((entry) => Array.isArray(entry) && typeof entry[0] === "number"
      ? `<div>${name(entry[0])}: ${entry.slice(1).map((v) => renderValue(game, "", v, who)).join(" · ")}</div>`
      : renderValue(game, "", entry, who)).join("") || "—";
  }
  if (COUNTS.test(key) && Array.isArray(value) && value.every((v) => typeof v === "number")) {
    return value.map((v, seat) => `<span data-count-seat="${seat}">${name(seat)}: ${t("table.la_count", { n: v })}</span>`).join(" · ") || "—";
  }
  if (COUNTS.test(key) && typeof value === "number") return t("table.la_count", { n: value });
  if (Array.isArray(value)) {
    if (!value.length) return "—";
    if (value.every((v) => v === null || isCardCode(v))) return cardsHTML(value, { size: "xs" });
    if (value.every((v) => typeof v === "number") && SEATS.test(key) && !MONEY.test(key)) return value.map((v) => name(v)).join(", ");
    if (value.every((v) => Array.isArray(v) || (v && typeof v === "object"))) {
      return `<ol class="groups">${value.map((v) => `<li>${renderValue(game, key, v, who)}</li>`).join("")}</ol>`;
    }
    return value.map((v) => renderValue(game, key, v, who)).join(" · ");
  }
  if (value && typeof value === "object") {
    return `<dl class="fields">${Object.entries(value).filter(([k]) => k !== "type").map(([k, v]) => `<dt>${esc(has(`field.${k}`) ? t(`field.${k}`) : k)}</dt><dd>${renderValue(game, k, v, who)}</dd>`).join("")}</dl>`;
  }
  if (typeof value === "string" && TEXT_FIELDS.has(key)) return describe(game, value, { names: name }) || "—";
  if (typeof value === "string" && key === "item") return esc(tg("item", game, value));
  if (typeof value === "number" && SEAT_FIRST.test(key)) return name(value);
  if (game === "tai-xiu" && key === "max_bet" && value === 0) return t("table.no_max"); // 0: none
  if (typeof value === "number" && MONEY.test(key)) return gold(value);
  if (typeof value === "number" && SEATS.test(key)) return name(value);
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (value === null || value === "") return "—";
  if (isCardCode(value)) return cardsHTML([value], { size: "xs" });
  if (typeof value === "string" && /^([2-9TJQKA][cdhs])( [2-9TJQKA][cdhs])+$/.test(value)) return cardsHTML(value.split(" "), { size: "xs" });
  if (typeof value === "string") return esc(has(`value.${game}.${value}`) || has(`value.${value}`) ? tv(game, value) : value);
  return esc(value);
}

const BASE_FIELDS = new Set(["game", "version", "viewer", "to_act", "legal_actions", "amount_ranges", "terminal"]);
function renderDetails(view, ctx) {
  const fields = Object.entries(view).filter(([k]) => !BASE_FIELDS.has(k));
  return `<details class="details"><summary>${t("table.details")}</summary><dl class="fields view">${fields
    .map(([k, v]) => `<dt>${esc(tg("field", ctx.game, k))}</dt><dd data-field="${esc(k)}">${renderValue(ctx.game, k, v, ctx.name)}</dd>`).join("")}</dl></details>`;
}

function renderBuyin() {
  const panel = state.buyin;
  if (!panel || (state.update && state.update.seats.some((s) => s.player === state.player && s.ready))) return "";
  return `<form class="buyin" id="buyin"><h2>${t("table.buyin")}</h2>
    <p>${t("table.buyin_range", { min: gold(panel.min), max: gold(panel.max) })}</p>
    <input type="range" min="${panel.min}" max="${panel.max}" step="1" value="${panel.max}" aria-label="${t("table.amount")}">
    <input type="number" min="${panel.min / 100}" max="${panel.max / 100}" step="0.01" value="${panel.max / 100}" aria-label="${t("table.amount")}">
    ${timerHTML(panel.deadline)}
    <button type="submit" class="primary">${t("table.confirm")}</button>
    <p class="muted">${t("table.buyin_auto")}</p></form>`;
}

// A player-hosted table (Tài Xỉu): a seated player may become the banker, with the amount they
// choose (the server checks it against their balance); nobody is ever made the banker.
function renderBankForm(update, seated) {
  const banker = update.seats.some((s) => s.player === state.player && s.host) && update.bank !== null;
  if (!seated || !(update.status === "waiting_for_host" || banker)) return "";
  const value = banker ? update.bank / 100 : "";
  return `<form class="bank" id="bank-form">
    ${banker ? `<span class="pill">${t("table.bank")}: ${gold(update.bank)}</span>` : ""}
    <input type="number" min="0" step="0.01" value="${value}" aria-label="${t("table.bank_amount")}" placeholder="${t("table.bank_amount")}" required>
    <button type="submit" class="primary">${t("table.be_banker")}</button></form>`;
}

function renderTableBody() {
  const page = document.getElementById("table-page");
  const update = state.update;
  if (!page || !update) return;
  const view = update.view;
  const renderer = RENDERERS[update.game] || GENERIC;
  const ctx = makeContext(update);
  const tableDeadline = (update.deadlines || {}).table;
  const seated = update.your_seat !== null;
  const isHost = update.seats.some((s) => s.player === state.player && s.host);
  const free = update.seats.filter((s) => !s.player).length;
  const turn = view && view.to_act && view.to_act.length && !view.terminal;
  const myTurn = turn && ctx.me !== null && view.to_act.includes(ctx.me) && ((view.legal_actions || []).length || (view.amount_ranges || []).length);
  const deadlines = update.deadlines || {};
  tableCues(update.hand, Boolean(view && !view.terminal), Boolean(myTurn), myTurn ? deadlines[String(ctx.me)] || deadlines.table : null);
  let actions = "";
  if (view && !view.terminal && seated && ctx.me !== null) {
    actions = renderer.actions ? renderer.actions(view, ctx, genericActions) : genericActions(view, ctx);
  }
  const waitingFor = turn && !myTurn ? `<p class="waiting-for">${t("table.waiting_for")}: ${view.to_act.map((e) => ctx.name(e)).join(", ")}</p>` : "";
  const waitingHost = update.status === "waiting_for_host";
  const status = waitingHost
    ? `<p class="muted" data-status="waiting_for_host">${t("text.waiting_for_host")}</p>`
    : !view ? `<p class="muted">${state.result ? t("table.next_hand") : t("table.waiting")}</p>` : "";
  const before = motionSnapshot(page);
  page.innerHTML = `
    <header class="table-head">
      <h1>${esc(gameName(update.game))}</h1>
      <span class="pill">${t("table.hand")} ${update.hand}</span>
      ${tableDeadline ? `<span class="pill clock">${t("table.table_clock")}: ${timerHTML(tableDeadline, t("table.table_clock"))}</span>` : ""}
      ${update.commitment ? `<span class="fair pill" title="${t("table.fair")}: ${esc(update.commitment)}">${t("table.fair")}: <code>${update.commitment.slice(0, 10)}…</code></span>` : ""}
      <span class="buttons">
        ${seated && !state.leave ? `<button id="stand" type="button">${t("table.stand")}</button>` : ""}
        ${isHost && free ? `<button id="add-bots" type="button">${t("table.add_bots")}</button>` : ""}
        ${leaveButtonsHTML(inMyHand(update))}
      </span>
    </header>
    ${state.lost ? `<div class="lost" role="alert">${t("conn.lost")}</div>` : ""}
    ${tableLayout(update, ctx, renderer, view ? `${renderer.center ? renderer.center(view, ctx) : ""}${waitingFor}` : status)}
    <div class="me-row">${seated ? "" : `<p class="muted spectator">${t("table.spectator")}</p>`}
      <div class="my-area">${view && renderer.mine ? renderer.mine(view, ctx) : ""}</div></div>
    ${renderBuyin()}
    ${renderBankForm(update, seated)}
    ${actions || myTurn ? `<div class="actions ${myTurn ? "my-turn" : ""}" id="actions" role="group" aria-label="${t("table.your_turn")}">${myTurn ? `<strong class="turn-label">${t("table.your_turn")}</strong>` : ""}${actions || `<span class="muted">${t("table.choose_in_hand")}</span>`}</div>` : ""}
    ${resultShown(state.result, update) ? renderResult(state.result, update) : ""}
    ${recentHTML(update.game, state.recent)}
    ${view ? renderDetails(view, ctx) : ""}`;
  bindTable(page, update, ctx, renderer);
  decorateKeys(page);
  tickTimers(); // fills the clocks' text before the layout is measured
  fitTable(page);
  animateMotion(page, before, update.game);
  state.rendered += 1;
  page.dataset.rendered = String(state.rendered);
}

// The seats around the felt, or a house table's betting layout and its few seats (felt.js).
function tableLayout(update, ctx, renderer, center) {
  const house = isHouse(update.game, state.games);
  const draw = (seat) => renderSeat(seat, update, ctx, renderer, house);
  const args = { game: update.game, seats: update.seats, mySeat: update.your_seat, draw, center, watching: update.watching || 0 };
  return house ? houseHTML(args) : ringHTML(args);
}

function bindTable(page, update, ctx, renderer) {
  page.querySelectorAll("[data-sit]").forEach((b) => {
    b.onclick = () => send({ type: "sit", table: state.table, seat: Number(b.dataset.sit) });
  });
  const stand = page.querySelector("#stand");
  if (stand) stand.onclick = () => send({ type: "stand", table: state.table });
  const bots = page.querySelector("#add-bots");
  if (bots) bots.onclick = () => send({ type: "add_bots", table: state.table, count: 1 });
  bindLeave(page);
  page.querySelectorAll("button.act").forEach((b) => {
    b.onclick = () => {
      const action = state.actions[Number(b.dataset.act)];
      if (action) actNow(action);
    };
  });
  page.querySelectorAll("form.range").forEach((form) => {
    const spec = state.ranges[Number(form.dataset.range)];
    const [slider, number] = form.querySelectorAll("input");
    const remember = (units) => { ctx.ui[`amount.${JSON.stringify(spec.action)}`] = units; };
    slider.oninput = () => { number.value = Number(slider.value) / 100; remember(Number(slider.value)); };
    number.oninput = () => { slider.value = Math.round(Number(number.value) * 100); remember(Math.round(Number(number.value) * 100)); };
    form.querySelectorAll("[data-set]").forEach((b) => {
      b.onclick = () => { slider.value = b.dataset.set; number.value = Number(b.dataset.set) / 100; remember(Number(b.dataset.set)); };
    });
    form.onsubmit = (event) => {
      event.preventDefault();
      let amount = Math.round(Number(number.value) * 100);
      amount = Math.min(spec.max, Math.max(spec.min, amount));
      actNow({ ...spec.action, [spec.field]: amount });
    };
  });
  const bankForm = page.querySelector("#bank-form");
  if (bankForm) {
    bankForm.onsubmit = (event) => {
      event.preventDefault();
      const amount = Math.round(Number(bankForm.querySelector("input").value) * 100);
      send({ type: "host", table: state.table, amount });
    };
  }
  const buyin = page.querySelector("#buyin");
  if (buyin) {
    const [slider, number] = buyin.querySelectorAll("input");
    slider.oninput = () => { number.value = Number(slider.value) / 100; };
    number.oninput = () => { slider.value = Math.round(Number(number.value) * 100); };
    buyin.onsubmit = (event) => {
      event.preventDefault();
      send({ type: "buyin", table: state.table, amount: Math.round(Number(number.value) * 100) });
      state.buyin = null;
      renderTableBody();
    };
  }
  if (update.view && renderer.bind) renderer.bind(page, update.view, ctx);
}

// ----- profile and recall ------------------------------------------------------------------
async function renderProfile() {
  const me = await api("/api/me");
  const { transfers } = await api("/api/statement?limit=50");
  const { clans } = await api("/api/clans");
  setBalance(me.balance);
  const xp = Object.entries(me.xp || {}).map(([game, value]) =>
    `<tr><td>${esc(gameName(game))}</td><td class="num">${value}</td><td class="num">${Math.round((me.play_seconds || {})[game] || 0)} ${t("table.seconds")}</td></tr>`).join("");
  const clan = me.clan
    ? `<p><strong>${esc(me.clan.name)}</strong> · XP ${me.clan.xp} <button id="leave-clan">${t("profile.leave_clan")}</button></p>`
    : `<p>${t("profile.no_clan")}</p>
       <form id="new-clan" class="row"><input name="name" required aria-label="${t("profile.clan")}"><button>${t("profile.create_clan")}</button></form>
       <ul class="clans">${clans.map((c) => `<li>${esc(c.name)} (XP ${c.xp}) <button data-join="${esc(c.id)}">${t("profile.join")}</button></li>`).join("")}</ul>`;
  app.innerHTML = `
  <section class="panel"><h1>${t("profile.title")}</h1>
    <p class="row">${avatarHTML({ player: me.player, name: me.name }, 48)} ${t("profile.name")}: <strong>${esc(me.name)}</strong> <span class="level" data-level="${me.level}">${t("table.level", { n: me.level })}</span> · ${t("profile.balance")}: <strong id="profile-balance">${gold(me.balance)}</strong></p>
    <p class="row"><button id="daily-gold" type="button">${t("daily.button")}</button> <span class="muted">${t("daily.hint")}</span></p>
    <h2>${t("profile.xp")}</h2>
    ${xp ? `<div class="scroll" tabindex="0"><table class="list"><thead><tr><th>${t("lobby.game")}</th><th class="num">${t("profile.xp")}</th><th class="num">${t("profile.playtime")}</th></tr></thead><tbody>${xp}</tbody></table></div>` : `<p class="muted">${t("profile.none")}</p>`}
    <h2>${t("profile.clan")}</h2>${clan}
    <h2>${t("profile.statement")}</h2>
    <div class="scroll" tabindex="0"><table class="list statement"><thead><tr><th>${t("profile.when")}</th><th>${t("profile.reason")}</th><th>${t("profile.status")}</th><th class="num">${t("profile.amount")}</th><th class="num">${t("profile.balance_after")}</th></tr></thead>
    <tbody>${transfers.map(statementRowHTML).join("")}</tbody></table></div>
  </section>`;
  document.getElementById("daily-gold").onclick = async () => {
    try {
      const claim = await api("/api/daily", { method: "POST" });
      setBalance(claim.balance);
      document.getElementById("profile-balance").textContent = gold(claim.balance);
      showBanner(t("daily.claimed", { gold: gold(claim.amount), balance: gold(claim.balance) }), "info", 4000);
    } catch (err) { showBanner(errorText(err), "error", 4000); }
  };
  const leave = document.getElementById("leave-clan");
  if (leave) leave.onclick = async () => { await api("/api/clans/leave", { method: "POST" }); route(); };
  const form = document.getElementById("new-clan");
  if (form) {
    form.onsubmit = async (e) => {
      e.preventDefault();
      try {
        await api("/api/clans", { method: "POST", body: { name: new FormData(form).get("name") } });
        route();
      } catch (err) { showBanner(errorText(err), "error", 4000); }
    };
  }
  document.querySelectorAll("[data-join]").forEach((b) => {
    b.onclick = async () => { await api(`/api/clans/${encodeURIComponent(b.dataset.join)}/join`, { method: "POST" }); route(); };
  });
}

// One line of the wallet: a hold is one line, pending (the amount held) until its hand
// settles it (the amount posted) or releases it; the last column is the running balance.
function statementRowHTML(x) {
  const pending = x.status === "pending";
  const amount = pending ? x.held : x.amount;
  const held = x.status === "settled" || x.status === "released"
    ? ` <span class="muted">(${t("profile.held")} ${gold(Math.abs(x.held))})</span>` : "";
  return `<tr class="statement-line ${esc(x.status)}" data-status="${esc(x.status)}" data-amount="${x.amount}" data-balance="${x.balance}">`
    + `<td>${esc(x.time || "")}</td><td>${esc(t(`reason.${x.code}`))}</td>`
    + `<td>${esc(t(`statement.${x.status}`))}${held}</td>`
    + `<td class="num ${pending ? "muted" : amount >= 0 ? "win" : "loss"}">${signed(amount)}</td>`
    + `<td class="num">${gold(x.balance)}</td></tr>`;
}

// One event of a recalled hand (the server lists only what this seat could know): the deal and
// the dice are chance; an action says who took it and what, with its cards, amount and area.
function recallEventHTML(game, event, who) {
  if (event.type === "shuffle") {
    return `<li class="recall-event chance" data-type="shuffle">${t("recall.deal")}</li>`;
  }
  if (event.type === "roll") {
    const dice = event.dice || [];
    const info = state.games.find((g) => g.id === game);
    if (info ? info.deck === "dice" : dice.length === 3) {
      return `<li class="recall-event chance" data-type="roll">${t("recall.dice")}: <span class="dice-text">${dice.join("·")}</span> <span class="dice small">${dice.map((d) => dieSVG(d, 22)).join("")}</span></li>`;
    }
    return `<li class="recall-event chance" data-type="roll">${t("recall.draw")}: ${dice.map((d) => esc(d)).join("·")}</li>`;
  }
  const actor = event.type === "SitIn" ? event.chair : event.seat;
  const name = actor === null || actor === undefined ? t("recall.table") : who(actor);
  return `<li class="recall-event" data-type="${esc(event.type)}" data-seat="${actor ?? ""}"><span class="who">${name}</span>: <span class="what">${actionHTML(game, event, { names: who })}</span></li>`;
}

async function renderRecall(handId) {
  if (handId) {
    const hand = await api(`/api/recall/${encodeURIComponent(handId)}`);
    const game = hand.game;
    const players = hand.players || [];
    const seats = players.map((player, i) => ({ player, name: (hand.names || [])[i] || null }));
    const update = { game, seats };
    const who = seatNamer(players, seats);
    const view = hand.view || {};
    const fields = Object.entries(view).filter(([k]) => !BASE_FIELDS.has(k));
    app.innerHTML = `<section class="panel recall"><p><a href="#/recall">← ${t("recall.back")}</a></p>
      <h1>${esc(gameName(game))} · ${t("table.hand")} ${hand.hand}</h1>
      <dl class="fields view">${fields.map(([k, v]) => `<dt>${esc(tg("field", game, k))}</dt><dd>${renderValue(game, k, v, who)}</dd>`).join("")}</dl>
      <h2>${t("recall.actions")}</h2><ol class="log recall-log" id="recall-log" data-lang="${getLang()}">${(hand.actions || []).map((a) => recallEventHTML(game, a, who)).join("")}</ol>
      ${recallChatHTML(hand.chat)}
      ${renderResult({ hand: hand.hand, settlement: hand.settlement, seats: players, server_seed: hand.server_seed }, update)}</section>`;
    return;
  }
  const { hands } = await api("/api/recall?limit=20");
  app.innerHTML = `<section class="panel"><h1>${t("recall.title")}</h1>
    ${hands.length ? `<div class="scroll"><table class="list">${hands.map((h) => `<tr><td>${esc(gameName(h.game))}</td><td>${t("table.hand")} ${h.hand}</td><td class="num ${h.net >= 0 ? "win" : "loss"}">${signed(h.net)}</td><td><a class="button" href="#/recall/${encodeURIComponent(h.id)}">${t("recall.open")}</a></td></tr>`).join("")}</table></div>` : `<p>${t("recall.none")}</p>`}
  </section>`;
}

// ----- start ---------------------------------------------------------------------------------
await loadStrings();
const langSelect = document.getElementById("lang");
langSelect.innerHTML = languages().map((l) => `<option value="${l}">${t(`lang.${l}`)}</option>`).join("");
langSelect.value = getLang();
// body[data-drawn-lang] names the language the page was last redrawn in after a choice: it is
// cleared at the choice and set once the redraw (which may wait for requests) is done, so a
// test (or anything else) can wait for the page in the new language before using it.
const drawn = () => { document.body.dataset.drawnLang = getLang(); };
langSelect.onchange = () => {
  delete document.body.dataset.drawnLang;
  setLang(langSelect.value);
  if (state.token) api("/api/me", { method: "PATCH", body: { language: langSelect.value } }).catch(() => {});
  if (state.update) {
    applyStatic();
    setBalance();
    renderTableBody();
    drawn();
  } else {
    Promise.resolve(route()).finally(drawn);
  }
};
document.getElementById("logout").onclick = signOut;
mountSoundToggle(document.getElementById("sound-toggle"));
mountFourColourToggle(document.getElementById("four-colour"));
installKeys();
window.addEventListener("resize", () => { const page = document.getElementById("table-page"); if (page) fitTable(page); });
document.body.dataset.ready = "1";
Promise.resolve(route()).finally(drawn);
export { state, tf };
