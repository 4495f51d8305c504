// Chat: the table's (over the table page's socket) and the lobby's (its own socket), with quick
// phrases and emoji in both languages, and muting per browser. docs/protocol.md "chat".
//
// A line is the player's plain text: it is only ever put in the page as a text node
// (textContent), never as markup, so "<img onerror=...>" or "<script>" shows as those characters.
// Muting is the browser's own (localStorage "sanh.muted"): the server sends every line, the page
// does not show a muted player's.
import { t } from "/i18n.js";
import { esc } from "/util.js";
import { openRulesPanel } from "/rules.js";

const MAX_CHARS = 200; // CHAT_MAX_CHARS (sanh/server/chat.py); the server refuses longer lines
const PHRASES = ["hello", "luck", "nice", "hurry", "thanks", "again", "gg", "bye"];
const EMOJI = [
  ["smile", "😀"], ["laugh", "😂"], ["cool", "😎"], ["cry", "😭"], ["angry", "😡"],
  ["love", "😍"], ["wow", "😮"], ["heart", "❤"], ["peace", "✌"], ["joker", "🃏"],
];

const docks = { table: null, lobby: null }; // the chat panels on the page, by kind
let lobbySocket = null;

// ----- muting (per browser) ----------------------------------------------------------------
function muted() {
  try {
    const list = JSON.parse(localStorage.getItem("sanh.muted") || "[]");
    return Array.isArray(list) ? list : [];
  } catch (e) {
    return [];
  }
}
function isMuted(player) {
  return muted().some((m) => m.id === player);
}
function setMuted(player, name, on) {
  const list = muted().filter((m) => m.id !== player);
  if (on) list.push({ id: player, name });
  localStorage.setItem("sanh.muted", JSON.stringify(list));
  for (const dock of Object.values(docks)) if (dock) redraw(dock);
}

// ----- a chat panel --------------------------------------------------------------------------
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

function makeDock(kind, say) {
  const root = el("section", { className: `chat panel chat-${kind}`, id: `chat-${kind}`, "aria-label": t(kind === "lobby" ? "chat.lobby_title" : "chat.title") });
  const head = el("div", { className: "chat-head row spread" }, el("h2", { text: t(kind === "lobby" ? "chat.lobby_title" : "chat.title") }));
  const list = el("ol", { className: "chat-lines", id: `chat-lines-${kind}`, "aria-live": "polite" });
  const note = el("p", { className: "chat-note muted", hidden: true, text: t("chat.read_only") });
  const form = el("form", { className: "chat-form row" });
  const input = el("input", { type: "text", maxLength: MAX_CHARS, placeholder: t("chat.placeholder"), autocomplete: "off", className: "chat-input", "aria-label": t("chat.input") });
  const sendButton = el("button", { type: "submit", className: "primary", text: t("chat.send") });
  form.append(input, sendButton);
  const phrases = el("div", { className: "chat-phrases", role: "group", "aria-label": t("chat.phrases") });
  for (const key of PHRASES) {
    phrases.append(el("button", { type: "button", className: "chip-phrase", "data-phrase": key, text: t(`chat.phrase.${key}`) }));
  }
  const emoji = el("div", { className: "chat-emoji", role: "group", "aria-label": t("chat.emoji") });
  for (const [key, char] of EMOJI) {
    emoji.append(el("button", { type: "button", className: "emoji", "data-emoji": key, text: char, title: t(`chat.emoji.${key}`), "aria-label": t(`chat.emoji.${key}`) }));
  }
  const mutedBox = el("p", { className: "chat-muted muted" });
  root.append(head, list, note, form, phrases, emoji, mutedBox);
  const dock = { kind, root, head, list, note, form, input, phrases, emoji, mutedBox, lines: [], me: null, canWrite: true, say };
  form.onsubmit = (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !dock.canWrite) return;
    say(text);
    input.value = "";
  };
  phrases.onclick = (event) => {
    const key = event.target.dataset && event.target.dataset.phrase;
    if (key && dock.canWrite) say(t(`chat.phrase.${key}`));
  };
  emoji.onclick = (event) => {
    const key = event.target.dataset && event.target.dataset.emoji;
    const found = EMOJI.find(([k]) => k === key);
    if (!found || !dock.canWrite) return;
    if (input.value) { input.value = `${input.value}${found[1]}`.slice(0, MAX_CHARS); input.focus(); } else say(found[1]);
  };
  return dock;
}

// The panel's words in the page's language (after a change of language).
function relabel(dock) {
  const title = t(dock.kind === "lobby" ? "chat.lobby_title" : "chat.title");
  dock.root.setAttribute("aria-label", title);
  dock.head.querySelector("h2").textContent = title;
  dock.note.textContent = t("chat.read_only");
  dock.input.placeholder = t("chat.placeholder");
  dock.input.setAttribute("aria-label", t("chat.input"));
  dock.form.querySelector("button").textContent = t("chat.send");
  dock.phrases.setAttribute("aria-label", t("chat.phrases"));
  dock.phrases.querySelectorAll("[data-phrase]").forEach((b) => { b.textContent = t(`chat.phrase.${b.dataset.phrase}`); });
  dock.emoji.setAttribute("aria-label", t("chat.emoji"));
  dock.emoji.querySelectorAll("[data-emoji]").forEach((b) => {
    b.title = t(`chat.emoji.${b.dataset.emoji}`);
    b.setAttribute("aria-label", b.title);
  });
  if (dock.extraLabels) dock.extraLabels();
  redraw(dock);
}
new MutationObserver(() => {
  for (const dock of Object.values(docks)) if (dock && dock.root.isConnected) relabel(dock);
}).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });

function lineNode(dock, line) {
  const mine = line.player === dock.me;
  const who = el("span", { className: "who", text: mine ? t("chat.you") : line.name });
  if (line.seat === null || line.seat === undefined) {
    if (dock.kind === "table") who.append(el("small", { className: "muted", text: ` (${t("chat.spectator")})` }));
  }
  const item = el("li", { className: `chat-line${mine ? " mine" : ""}`, "data-player": line.player }, who, el("span", { className: "sep", text: ": " }), el("span", { className: "text", text: line.text }));
  if (!mine) {
    const mute = el("button", { type: "button", className: "mute link", text: t("chat.mute_short"), title: t("chat.mute", { name: line.name }), "aria-label": t("chat.mute", { name: line.name }) });
    mute.onclick = () => setMuted(line.player, line.name, true);
    item.append(" ", mute);
  }
  return item;
}

function redraw(dock) {
  const shown = dock.lines.filter((line) => !isMuted(line.player));
  dock.list.replaceChildren(...(shown.length ? shown.map((line) => lineNode(dock, line)) : [el("li", { className: "muted chat-empty", text: t("chat.empty") })]));
  dock.list.scrollTop = dock.list.scrollHeight;
  const list = muted();
  dock.mutedBox.replaceChildren();
  if (list.length) {
    dock.mutedBox.append(el("span", { text: `${t("chat.muted_count", { n: list.length })}: ` }));
    for (const m of list) {
      const unmute = el("button", { type: "button", className: "unmute link", "data-player": m.id, text: m.name, title: t("chat.unmute", { name: m.name }), "aria-label": t("chat.unmute", { name: m.name }) });
      unmute.onclick = () => setMuted(m.id, m.name, false);
      dock.mutedBox.append(unmute, " ");
    }
  }
}

function setWritable(dock, canWrite) {
  dock.canWrite = canWrite;
  dock.note.hidden = canWrite;
  dock.input.disabled = !canWrite;
  dock.form.querySelector("button").disabled = !canWrite;
  dock.phrases.querySelectorAll("button").forEach((b) => { b.disabled = !canWrite; });
  dock.emoji.querySelectorAll("button").forEach((b) => { b.disabled = !canWrite; });
}

function addLines(dock, lines, replace = false) {
  dock.lines = (replace ? lines : dock.lines.concat(lines)).slice(-100);
  redraw(dock);
}

// ----- the table's chat ----------------------------------------------------------------------
// Put the chat (and the rules button) next to the table page; send(message) is the page's socket.
export function mountTableChat(container, tableId, send, me) {
  const dock = makeDock("table", (text) => send({ type: "chat", table: tableId, text }));
  dock.me = me;
  dock.tableId = tableId;
  const rules = el("button", { type: "button", id: "rules-open", text: t("rules.open") });
  rules.onclick = () => openRulesPanel(dock.game);
  const allow = el("label", { className: "check chat-allow", hidden: true });
  const box = el("input", { type: "checkbox", id: "chat-allow" });
  box.onchange = () => send({ type: "chat_spectators", table: dock.tableId, allow: box.checked });
  const allowText = document.createTextNode(` ${t("chat.allow_spectators")}`);
  allow.append(box, allowText);
  dock.head.append(el("span", { className: "buttons" }, allow, rules));
  dock.allow = allow;
  dock.extraLabels = () => {
    rules.textContent = t("rules.open");
    allowText.textContent = ` ${t("chat.allow_spectators")}`;
  };
  dock.allowBox = box;
  docks.table = dock;
  container.append(dock.root);
  redraw(dock);
  return dock;
}

// A "table" update: who may write (seated players and the host; spectators if the host allows).
export function chatTableUpdate(update, me) {
  const dock = docks.table;
  if (!dock || !dock.root.isConnected) return;
  dock.me = me;
  dock.game = update.game;
  dock.tableId = update.table;
  const mine = update.seats.find((s) => s.player && s.player === me);
  const host = Boolean(mine && (mine.host || mine.manages)); // a house table's manager too
  setWritable(dock, Boolean(mine) || Boolean(update.spectator_chat));
  dock.allow.hidden = !host;
  dock.allowBox.checked = Boolean(update.spectator_chat);
}

// A "chat" or "chat_history" message, for the table's chat or the lobby's.
export function chatMessage(message) {
  const dock = message.table === null || message.table === undefined ? docks.lobby : docks.table;
  if (!dock || !dock.root.isConnected) return;
  if (message.type === "chat_history") addLines(dock, message.lines, true);
  else addLines(dock, [message.line]);
}

// ----- the lobby's chat (its own socket while the lobby is shown) ----------------------------
export function mountLobbyChat(container, { token, player, protocol }) {
  closeLobbyChat();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  const dock = makeDock("lobby", (text) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "chat", text }));
  });
  dock.me = player;
  docks.lobby = dock;
  container.append(dock.root);
  redraw(dock);
  lobbySocket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", protocol, token }));
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "welcome") ws.send(JSON.stringify({ type: "lobby_chat", watch: true }));
    else if (message.type === "chat" || message.type === "chat_history") chatMessage(message);
    else if (message.type === "error") showError(dock, message);
  };
}

export function closeLobbyChat() {
  if (lobbySocket) {
    lobbySocket.onmessage = null;
    lobbySocket.close();
  }
  lobbySocket = null;
  docks.lobby = null;
}

function showError(dock, message) {
  const code = message.code || "generic";
  const old = dock.root.querySelector(".chat-error");
  if (old) old.remove();
  dock.form.after(el("p", { className: "chat-error error", role: "alert", "data-code": code, text: t(`error.${code}`) }));
}

window.addEventListener("hashchange", () => {
  if (!(location.hash || "#/lobby").startsWith("#/lobby")) closeLobbyChat();
});

// ----- the recall of a hand ------------------------------------------------------------------
// The lines said during a recalled hand (muted players left out), as HTML (every text escaped).
export function recallChatHTML(lines) {
  const shown = (lines || []).filter((line) => !isMuted(line.player));
  if (!shown.length) return "";
  return `<h2>${t("chat.recall")}</h2><ol class="chat-lines recall-chat" id="recall-chat">${shown.map((line) => `<li class="chat-line" data-player="${esc(line.player)}"><span class="who">${esc(line.name)}</span>: <span class="text">${esc(line.text)}</span></li>`).join("")}</ol>`;
}
