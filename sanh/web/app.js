// sanh browser client: a single page over the hall's HTTP API and WebSocket protocol.
// It renders only what the server sends (views) and offers only the server's legal actions.
import { STRINGS, t, getLang, setLang, applyStatic, has } from "/i18n.js";
import { cardsHTML, isCardCode } from "/cards.js";

const app = document.getElementById("app");
const banner = document.getElementById("banner");
const state = {
  token: localStorage.getItem("sanh.token"),
  player: localStorage.getItem("sanh.player"),
  games: [],
  balance: null,
  ws: null,
  table: null,       // current table id
  update: null,      // last "table" message
  result: null,      // last "result" message
  buyin: null,       // open buy-in panel
  lost: false,
  retry: 0,
  ticker: null,
};
window.sanh = state; // for debugging and tests

// ----- helpers ---------------------------------------------------------------------------
export function gold(units) {
  const sign = units < 0 ? "-" : "";
  const abs = Math.abs(units);
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}
function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
async function api(path, { method = "GET", body } = {}) {
  const headers = { "content-type": "application/json" };
  if (state.token) headers.authorization = `Bearer ${state.token}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.message || response.statusText);
    error.code = data.error;
    error.status = response.status;
    throw error;
  }
  return data;
}
function showBanner(text, kind = "info", ms = 0) {
  banner.hidden = false;
  banner.textContent = text;
  banner.className = `banner ${kind}`;
  if (ms) setTimeout(() => { if (banner.textContent === text) banner.hidden = true; }, ms);
}
function gameName(id) {
  const game = state.games.find((g) => g.id === id);
  return t(`game.${id}`, game ? (getLang() === "vi" ? game.name_vi : game.name) : id);
}
function setBalance(units) {
  if (typeof units === "number") state.balance = units;
  document.getElementById("balance").textContent =
    state.balance === null ? "" : `${t("profile.balance")}: ${gold(state.balance)}`;
}
function saveSession(data) {
  state.token = data.token;
  state.player = data.player;
  localStorage.setItem("sanh.token", data.token);
  localStorage.setItem("sanh.player", data.player);
  if (data.language && STRINGS[data.language] && !localStorage.getItem("sanh.lang")) setLang(data.language);
}

// ----- routing ---------------------------------------------------------------------------
async function route() {
  clearInterval(state.ticker);
  applyStatic();
  const hash = location.hash || "#/lobby";
  if (!state.token) return renderAuth();
  if (!state.games.length) {
    try { state.games = (await api("/api/games")).games; } catch (e) { /* shown below */ }
  }
  try {
    const me = await api("/api/me");
    setBalance(me.balance);
  } catch (e) {
    if (e.status === 401) { logout(); return; }
  }
  const [, page, arg] = hash.split("/");
  if (page !== "table") closeSocket();
  if (page === "table" && arg) return renderTable(decodeURIComponent(arg));
  if (page === "profile") return renderProfile();
  if (page === "recall") return renderRecall(arg);
  return renderLobby();
}
window.addEventListener("hashchange", route);

function logout() {
  closeSocket();
  localStorage.removeItem("sanh.token");
  localStorage.removeItem("sanh.player");
  state.token = null;
  state.player = null;
  location.hash = "#/";
  route();
}

// ----- auth --------------------------------------------------------------------------------
function renderAuth() {
  app.innerHTML = `
  <section class="panel auth">
    <h1>${t("auth.title")}</h1>
    <button id="guest" class="primary">${t("auth.guest")}</button>
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
    saveSession(await api("/api/guest", { method: "POST", body: { language: getLang() } }));
    location.hash = "#/lobby";
    route();
  };
  document.getElementById("login-form").onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const which = event.submitter ? event.submitter.value : "login";
    const body = { username: form.get("username"), password: form.get("password") };
    if (which === "register") { body.name = form.get("name") || null; body.language = getLang(); }
    try {
      saveSession(await api(`/api/${which}`, { method: "POST", body }));
      location.hash = "#/lobby";
      route();
    } catch (e) {
      document.getElementById("auth-error").textContent = `${t("auth.failed")}: ${e.message}`;
    }
  };
}

// ----- lobby -------------------------------------------------------------------------------
async function renderLobby() {
  const params = new URLSearchParams(location.hash.split("?")[1] || "");
  const filter = params.get("game") || "";
  const query = filter ? `?game=${encodeURIComponent(filter)}` : "";
  const { tables } = await api(`/api/lobby${query}`);
  const gameTabs = [`<a href="#/lobby" class="${filter ? "" : "active"}">${t("lobby.all")}</a>`]
    .concat(state.games.map((g) => `<a href="#/lobby?game=${g.id}" class="${filter === g.id ? "active" : ""}">${esc(gameName(g.id))}</a>`))
    .join("");
  const rows = tables.map((tb) => `
    <tr>
      <td>${esc(gameName(tb.game))}${tb.system ? ` <span class="tag">${t("lobby.system")}</span>` : ""}${tb.quick ? ` <span class="tag">${t("lobby.quick")}</span>` : ""}</td>
      <td>${gold(tb.stake)}</td>
      <td>${tb.seated}/${tb.seats}</td>
      <td class="opts">${esc(Object.entries(tb.options).map(([k, v]) => `${k}=${v}`).join(", "))}</td>
      <td><a class="button" href="#/table/${encodeURIComponent(tb.id)}" data-table="${esc(tb.id)}">${t("lobby.open")}</a></td>
    </tr>`).join("");
  app.innerHTML = `
  <section class="panel">
    <h1>${t("lobby.title")}</h1>
    <nav class="tabs" aria-label="${t("lobby.game")}">${gameTabs}</nav>
    <table class="list">
      <thead><tr><th>${t("lobby.game")}</th><th>${t("lobby.stake")}</th><th>${t("lobby.seats")}</th><th>${t("lobby.options")}</th><th></th></tr></thead>
      <tbody>${rows || `<tr><td colspan="5">${t("lobby.empty")}</td></tr>`}</tbody>
    </table>
  </section>
  <section class="panel">
    <h2>${t("lobby.create")}</h2>
    <form id="create" class="form grid">
      <label>${t("lobby.game")} <select name="game" id="create-game">${state.games.map((g) => `<option value="${g.id}" ${g.id === filter ? "selected" : ""}>${esc(gameName(g.id))}</option>`).join("")}</select></label>
      <label>${t("lobby.stake")} <input name="stake" type="number" min="0.01" step="0.01" value="10"></label>
      <label>${t("lobby.seats")} <input name="seats" type="number" min="1" max="50" id="create-seats"></label>
      <label>${t("lobby.bots")} <input name="bots" type="number" min="0" max="49" value="0"></label>
      <label class="check"><input name="quick" type="checkbox"> ${t("lobby.quick")}</label>
      <label class="check"><input name="private" type="checkbox"> ${t("lobby.private")}</label>
      <fieldset id="create-options"><legend>${t("lobby.options")}</legend></fieldset>
      <button type="submit" class="primary">${t("lobby.create")}</button>
      <p id="create-msg" role="status"></p>
    </form>
    <form id="invite" class="form row">
      <label>${t("lobby.invite")} <input name="code" maxlength="12"></label>
      <button type="submit">${t("lobby.join_invite")}</button>
    </form>
  </section>`;
  const select = document.getElementById("create-game");
  const fillOptions = () => {
    const game = state.games.find((g) => g.id === select.value);
    const box = document.getElementById("create-options");
    const seats = document.getElementById("create-seats");
    if (!game) return;
    seats.min = game.seats_min; seats.max = game.seats_max; seats.value = game.seats_max;
    box.innerHTML = `<legend>${t("lobby.options")}</legend>` + game.options.map((o) => {
      const label = esc(t(`option.${o.name}`, o.name));
      if (typeof o.default === "boolean") {
        return `<label class="check"><input type="checkbox" data-opt="${o.name}" ${o.default ? "checked" : ""}> ${label}</label>`;
      }
      if (o.choices && o.choices.length) {
        return `<label>${label} <select data-opt="${o.name}">${o.choices.map((c) => `<option ${c === o.default ? "selected" : ""}>${esc(c)}</option>`).join("")}</select></label>`;
      }
      const type = typeof o.default === "number" ? "number" : "text";
      return `<label>${label} <input type="${type}" data-opt="${o.name}" value="${esc(o.default)}"></label>`;
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
          bots: Number(form.get("bots")) || 0,
        },
      });
      document.getElementById("create-msg").textContent =
        `${t("lobby.created")}${created.invite_code ? ` · ${t("lobby.invite")}: ${created.invite_code}` : ""}`;
      if (created.invite_code) sessionStorage.setItem(`sanh.invite.${created.id}`, created.invite_code);
      location.hash = `#/table/${encodeURIComponent(created.id)}`;
    } catch (e) {
      document.getElementById("create-msg").textContent = `${t("error.generic")}: ${e.message}`;
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
  state.table = null;
  state.update = null;
  state.result = null;
  state.buyin = null;
}

function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(message));
}

function connect(tableId) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(state.token)}`);
  state.ws = ws;
  ws.onopen = () => {
    const resume = sessionStorage.getItem(`sanh.resume.${tableId}`);
    const invite = sessionStorage.getItem(`sanh.invite.${tableId}`);
    send({ type: "join", table: tableId, invite_code: invite });
    if (resume) send({ type: "resume", resume_token: resume });
    if (state.lost) showBanner(t("conn.back"), "ok", 2500);
    state.lost = false;
    state.retry = 0;
  };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = () => {
    if (state.table !== tableId) return;
    state.lost = true;
    showBanner(t("conn.lost"), "warn");
    renderTableBody();
    const wait = Math.min(5000, 300 * 2 ** state.retry++);
    setTimeout(() => { if (state.table === tableId) connect(tableId); }, wait);
  };
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      setBalance(message.balance);
      break;
    case "table":
      if (state.table && message.table !== state.table) {
        // a private table joined by invite code: adopt its real id
        sessionStorage.setItem(`sanh.invite.${message.table}`, state.table);
        state.table = message.table;
      }
      state.update = message;
      if (message.resume_token) sessionStorage.setItem(`sanh.resume.${message.table}`, message.resume_token);
      if (message.view && !message.view.terminal && state.result && state.result.hand !== message.hand) state.result = null;
      renderTableBody();
      break;
    case "result":
      state.result = message;
      if (typeof message.balance === "number") setBalance(message.balance);
      renderTableBody();
      break;
    case "buyin_panel":
      state.buyin = message;
      renderTableBody();
      break;
    case "ack":
      break;
    case "error":
      showBanner(`${t(`error.${message.code}`, message.code)}: ${message.message}`, "error", 4000);
      break;
    default:
      break;
  }
}

function renderTable(tableId) {
  closeSocket();
  state.table = tableId;
  app.innerHTML = `<section class="table-page" id="table-page" aria-live="polite"><p>${t("table.waiting")}</p></section>`;
  connect(tableId);
  state.ticker = setInterval(tickTimers, 250);
}

function tickTimers() {
  document.querySelectorAll("[data-deadline]").forEach((el) => {
    const left = Math.max(0, Number(el.dataset.deadline) - Date.now() / 1000);
    el.textContent = `${Math.ceil(left)} ${t("table.seconds")}`;
    el.classList.toggle("urgent", left < 5);
  });
}

function seatName(seat) {
  if (!seat.player) return t("table.empty_seat");
  if (seat.player === state.player) return `${t("table.you")} (${esc(seat.name)})`;
  return esc(seat.name);
}

function renderSeats(update) {
  const view = update.view || {};
  const deadlines = update.deadlines || {};
  return update.seats.map((seat) => {
    const engine = seat.engine_seat;
    const acting = engine !== null && engine !== undefined && (view.to_act || []).includes(engine);
    const deadline = engine !== null && engine !== undefined ? deadlines[String(engine)] : undefined;
    const tags = [
      seat.bot ? `<span class="tag">${t("table.bot")}</span>` : "",
      seat.host ? `<span class="tag">${t("table.host")}</span>` : "",
      seat.player && !seat.connected ? `<span class="tag warn">${t("table.offline")}</span>` : "",
    ].join("");
    const stake = seat.table_stake !== undefined ? `<div>${t("table.stake")}: ${gold(seat.table_stake)}</div>` : "";
    const timer = deadline ? `<div class="timer" data-deadline="${deadline}"></div>` : "";
    const sit = !seat.player && update.your_seat === null
      ? `<button data-sit="${seat.seat}">${t("table.sit")}</button>` : "";
    return `<div class="seat ${acting ? "acting" : ""} ${seat.player === state.player ? "mine" : ""}" data-seat="${seat.seat}">
      <div class="seat-name">${seatName(seat)} ${tags}</div>${stake}${timer}${sit}</div>`;
  }).join("");
}

const BASE_FIELDS = new Set(["game", "version", "viewer", "to_act", "legal_actions", "amount_ranges", "terminal"]);
const MONEY = /(pot|bet|stack|amount|stake|bank|balance|contribution|wager|committed|ante|gold|chips|call|raise|reserved|pay)/i;

function renderValue(key, value) {
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => v === null || isCardCode(v))) return cardsHTML(value);
    if (value.length && value.every((v) => Array.isArray(v))) {
      return `<ol class="groups">${value.map((v, i) => `<li><span class="idx">${i + 1}</span> ${renderValue(key, v)}</li>`).join("")}</ol>`;
    }
    if (value.length && value.every((v) => v && typeof v === "object")) {
      return `<ol class="objs">${value.map((v) => `<li>${renderObject(v)}</li>`).join("")}</ol>`;
    }
    if (!value.length) return "—";
    return value.map((v) => (typeof v === "number" && MONEY.test(key) ? gold(v) : esc(v))).join(" · ");
  }
  if (value && typeof value === "object") return renderObject(value);
  if (typeof value === "number" && MONEY.test(key)) return gold(value);
  if (typeof value === "boolean") return value ? "✓" : "✗";
  if (value === null) return "—";
  if (isCardCode(value)) return cardsHTML([value]);
  return esc(t(`value.${value}`, String(value)));
}

function renderObject(obj) {
  return `<dl class="fields">${Object.entries(obj)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `<dt>${esc(t(`field.${k}`, k))}</dt><dd>${renderValue(k, v)}</dd>`).join("")}</dl>`;
}

function renderView(view) {
  const fields = Object.entries(view).filter(([k]) => !BASE_FIELDS.has(k));
  return `<dl class="fields view">${fields
    .map(([k, v]) => `<dt>${esc(t(`field.${k}`, k))}</dt><dd data-field="${esc(k)}">${renderValue(k, v)}</dd>`).join("")}</dl>`;
}

function actionLabel(action) {
  const name = t(`action.${action.type}`, action.type);
  const extra = Object.entries(action)
    .filter(([k]) => k !== "type" && k !== "seat")
    .map(([k, v]) => {
      if (Array.isArray(v)) return v.every(isCardCode) ? v.map((c) => c.replace("T", "10")).join(" ") : v.join(",");
      if (typeof v === "number" && MONEY.test(k)) return gold(v);
      return t(`value.${v}`, String(v));
    })
    .join(" ");
  return extra ? `${name} ${extra}` : name;
}

function renderActions(view) {
  if (!view || !view.legal_actions) return "";
  const buttons = view.legal_actions.map((a, i) =>
    `<button class="act" data-action="${i}" data-type="${esc(a.type)}">${esc(actionLabel(a))}</button>`).join("");
  const ranges = (view.amount_ranges || []).map((r, i) => `
    <form class="range" data-range="${i}">
      <span>${esc(actionLabel({ ...r.action, [r.field]: undefined }).replace("undefined", ""))}</span>
      <input type="range" min="${r.min}" max="${r.max}" step="${r.step}" value="${r.min}" aria-label="${t("table.amount")}">
      <input type="number" min="${r.min / 100}" max="${r.max / 100}" step="${r.step / 100}" value="${r.min / 100}" aria-label="${t("table.amount")}">
      <button type="submit" data-type="${esc(r.action.type)}">${t("table.confirm")}</button>
    </form>`).join("");
  if (!buttons && !ranges) return "";
  return `<div class="actions" role="group" aria-label="${t("table.your_turn")}"><strong>${t("table.your_turn")}</strong>${buttons}${ranges}</div>`;
}

function renderResult(result) {
  if (!result) return "";
  const s = result.settlement;
  const who = (seat) => {
    if (seat === null || seat === undefined) return t("table.house");
    const player = result.seats[seat];
    if (player === state.player) return t("table.you");
    const entry = (state.update ? state.update.seats : []).find((x) => x.player === player);
    return entry ? esc(entry.name) : esc(player || "?");
  };
  const lines = (s.lines || []).map((l) =>
    `<tr><td>${who(l.seat)}</td><td>${esc(t(`item.${l.item}`, l.item))}</td><td>${l.stake ? gold(l.stake) : ""}</td><td class="${l.amount >= 0 ? "win" : "loss"}">${gold(l.amount)}</td></tr>`).join("");
  const totals = s.deltas.map((d, i) =>
    `<tr class="total"><td>${who(i)}</td><td>${t("table.net")}</td><td></td><td class="${d >= 0 ? "win" : "loss"}" data-net-seat="${i}">${gold(d)}</td></tr>`).join("");
  const extra = [
    s.house ? `<tr><td>${t("table.house")}</td><td></td><td></td><td>${gold(s.house)}</td></tr>` : "",
    s.fee ? `<tr><td>${t("table.fee")}</td><td></td><td></td><td>${gold(s.fee)}</td></tr>` : "",
    s.breakage ? `<tr><td>${t("table.breakage")}</td><td></td><td></td><td>${gold(s.breakage)}</td></tr>` : "",
  ].join("");
  return `<section class="result" aria-label="${t("table.result")}"><h2>${t("table.result")} · ${t("table.hand")} ${result.hand}</h2>
    <table class="list">${lines}${totals}${extra}</table>
    ${result.server_seed ? `<p class="fair">${t("table.seed")}: <code>${esc(result.server_seed)}</code></p>` : ""}</section>`;
}

function renderBuyin() {
  const panel = state.buyin;
  if (!panel || (state.update && state.update.seats.some((s) => s.player === state.player && s.ready))) return "";
  return `<form class="buyin" id="buyin"><h2>${t("table.buyin")}</h2>
    <input type="range" min="${panel.min}" max="${panel.max}" step="1" value="${panel.max}" aria-label="${t("table.amount")}">
    <input type="number" min="${panel.min / 100}" max="${panel.max / 100}" step="0.01" value="${panel.max / 100}" aria-label="${t("table.amount")}">
    <span class="timer" data-deadline="${panel.deadline}"></span>
    <button type="submit" class="primary">${t("table.confirm")}</button>
    <p>${t("table.buyin_auto")}</p></form>`;
}

function renderTableBody() {
  const page = document.getElementById("table-page");
  const update = state.update;
  if (!page || !update) return;
  const view = update.view;
  const tableDeadline = (update.deadlines || {}).table;
  const mine = update.your_seat !== null;
  page.innerHTML = `
    <header class="table-head">
      <h1>${esc(gameName(update.game))}</h1>
      <span>${t("table.hand")} ${update.hand}</span>
      ${tableDeadline ? `<span>${t("table.table_clock")}: <span class="timer" data-deadline="${tableDeadline}"></span></span>` : ""}
      ${update.commitment ? `<span class="fair" title="${t("table.fair")}">${t("table.fair")}: <code>${update.commitment.slice(0, 12)}…</code></span>` : ""}
      <span class="buttons">
        ${mine ? `<button id="stand">${t("table.stand")}</button>` : ""}
        <button id="add-bots">${t("table.add_bots")}</button>
        <a class="button" href="#/lobby" id="leave">${t("table.leave")}</a>
      </span>
    </header>
    <div class="seats">${renderSeats(update)}</div>
    <div class="felt">${view ? renderView(view) : `<p>${t("table.waiting")}</p>`}</div>
    ${renderBuyin()}
    ${state.lost ? "" : renderActions(view)}
    ${renderResult(state.result)}`;
  bindTable(page, view);
  tickTimers();
}

function bindTable(page, view) {
  page.querySelectorAll("[data-sit]").forEach((b) => {
    b.onclick = () => send({ type: "sit", table: state.table, seat: Number(b.dataset.sit) });
  });
  const stand = page.querySelector("#stand");
  if (stand) stand.onclick = () => send({ type: "stand", table: state.table });
  page.querySelector("#add-bots").onclick = () => send({ type: "add_bots", table: state.table, count: 1 });
  page.querySelector("#leave").onclick = () => send({ type: "leave", table: state.table });
  const act = (action) => send({ type: "act", table: state.table, nonce: crypto.randomUUID(), version: view.version, action });
  page.querySelectorAll("button.act").forEach((b) => {
    b.onclick = () => act(view.legal_actions[Number(b.dataset.action)]);
  });
  page.querySelectorAll("form.range").forEach((form) => {
    const spec = view.amount_ranges[Number(form.dataset.range)];
    const [slider, number] = form.querySelectorAll("input");
    slider.oninput = () => { number.value = Number(slider.value) / 100; };
    number.oninput = () => { slider.value = Math.round(Number(number.value) * 100); };
    form.onsubmit = (event) => {
      event.preventDefault();
      act({ ...spec.action, [spec.field]: Math.round(Number(number.value) * 100) });
    };
  });
  const buyin = page.querySelector("#buyin");
  if (buyin) {
    const [slider, number] = buyin.querySelectorAll("input");
    slider.oninput = () => { number.value = Number(slider.value) / 100; };
    number.oninput = () => { slider.value = Math.round(Number(number.value) * 100); };
    buyin.onsubmit = (event) => {
      event.preventDefault();
      send({ type: "buyin", table: state.table, amount: Math.round(Number(number.value) * 100) });
      state.buyin = null;
    };
  }
}

// ----- profile and recall ------------------------------------------------------------------
async function renderProfile() {
  const me = await api("/api/me");
  const { transfers } = await api("/api/statement?limit=30");
  const { clans } = await api("/api/clans");
  setBalance(me.balance);
  const xp = Object.entries(me.xp || {}).map(([game, value]) =>
    `<tr><td>${esc(gameName(game))}</td><td>${value}</td><td>${Math.round((me.play_seconds || {})[game] || 0)} s</td></tr>`).join("");
  const clan = me.clan
    ? `<p>${esc(me.clan.name)} (${esc(me.clan.role || "")}) <button id="leave-clan">${t("profile.leave_clan")}</button></p>`
    : `<p>${t("profile.no_clan")}</p>
       <form id="new-clan" class="row"><input name="name" required aria-label="${t("profile.clan")}"><button>${t("profile.create_clan")}</button></form>
       <ul>${clans.map((c) => `<li>${esc(c.name)} <button data-join="${esc(c.id)}">${t("profile.join")}</button></li>`).join("")}</ul>`;
  app.innerHTML = `
  <section class="panel"><h1>${t("profile.title")}</h1>
    <p>${esc(me.name)} · ${t("profile.balance")}: <strong id="profile-balance">${gold(me.balance)}</strong></p>
    <h2>${t("profile.xp")}</h2>
    <table class="list"><thead><tr><th>${t("lobby.game")}</th><th>${t("profile.xp")}</th><th>${t("profile.playtime")}</th></tr></thead><tbody>${xp}</tbody></table>
    <h2>${t("profile.clan")}</h2>${clan}
    <h2>${t("profile.statement")}</h2>
    <table class="list"><thead><tr><th>${t("profile.when")}</th><th>${t("profile.reason")}</th><th>${t("profile.amount")}</th></tr></thead>
    <tbody>${transfers.map((x) => `<tr><td>${esc(x.time || "")}</td><td>${esc(t(`reason.${x.code}`, x.code))}</td><td class="${x.amount >= 0 ? "win" : "loss"}">${gold(x.amount)}</td></tr>`).join("")}</tbody></table>
  </section>`;
  const leave = document.getElementById("leave-clan");
  if (leave) leave.onclick = async () => { await api("/api/clans/leave", { method: "POST" }); route(); };
  const form = document.getElementById("new-clan");
  if (form) form.onsubmit = async (e) => { e.preventDefault(); await api("/api/clans", { method: "POST", body: { name: new FormData(form).get("name") } }); route(); };
  document.querySelectorAll("[data-join]").forEach((b) => {
    b.onclick = async () => { await api(`/api/clans/${encodeURIComponent(b.dataset.join)}/join`, { method: "POST" }); route(); };
  });
}

async function renderRecall(handId) {
  if (handId) {
    const hand = await api(`/api/recall/${encodeURIComponent(handId)}`);
    app.innerHTML = `<section class="panel"><h1>${esc(gameName(hand.game))} · ${t("table.hand")} ${hand.hand}</h1>
      ${renderView(hand.view)}
      <h2>${t("recall.actions")}</h2><ol class="log">${hand.actions.map((a) => `<li>${esc(a)}</li>`).join("")}</ol>
      ${renderResult({ hand: hand.hand, settlement: hand.settlement, seats: hand.players, server_seed: hand.server_seed })}</section>`;
    return;
  }
  const { hands } = await api("/api/recall?limit=20");
  app.innerHTML = `<section class="panel"><h1>${t("recall.title")}</h1>
    ${hands.length ? `<table class="list">${hands.map((h) => `<tr><td>${esc(gameName(h.game))}</td><td>${t("table.hand")} ${h.hand}</td><td class="${h.net >= 0 ? "win" : "loss"}">${gold(h.net)}</td><td><a class="button" href="#/recall/${encodeURIComponent(h.id)}">${t("recall.open")}</a></td></tr>`).join("")}</table>` : `<p>${t("recall.none")}</p>`}
  </section>`;
}

// ----- start ---------------------------------------------------------------------------------
const langSelect = document.getElementById("lang");
langSelect.value = getLang();
setLang(getLang());
langSelect.onchange = () => {
  setLang(langSelect.value);
  if (state.token) api("/api/me", { method: "PATCH", body: { language: langSelect.value } }).catch(() => {});
  route();
  renderTableBody();
};
document.getElementById("logout").onclick = logout;
export { has };
route();
