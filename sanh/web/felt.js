// The table as a table: seats placed around an oval felt by seat count (you always at the
// bottom), each with a generated avatar (avatar.js), name, level, stack, timer ring, state, dealer button and
// blinds; the pots, board and the combination to beat in the middle. House tables (Tài Xỉu,
// Three Card Poker, Teen Patti 20-20) show their betting layout first, the few occupied seats
// compactly and "+N playing / watching". The page (app.js) gives each seat's facts; this file
// only places and draws them.
import { t } from "/i18n.js";
import { esc, gold } from "/util.js";
import { avatarHTML } from "/avatar.js";

export { avatarHTML };

const HOUSE_SHOWN = 4; // seats drawn at a house table: yours first, then the banker, then others

// A game whose house banks every seat (GET /api/games `banked`: the game's declared seat model,
// never its id) is drawn as a house table: its betting layout first, a few seats compactly.
export function isHouse(game, games) {
  return Boolean((games || []).find((g) => g.id === game)?.banked);
}

// ----- seats -----------------------------------------------------------------------------
// The state a seat shows, in one word (class and badge): folded, all-in, thinking, away.
function seatState(seat, o) {
  if (o.info.state) return o.info.state;
  if (!seat.connected) return "away";
  if (o.acting) return "thinking";
  return "";
}

const STATE_LABEL = { folded: "table.folded", all_in: "table.all_in", thinking: "table.thinking", away: "table.away" };

// One seat. o = {mine, acting, inHand, engine, info (the renderer's seat facts), deadline,
// canSit, compact, timer (deadline, label) -> the timer element}.
export function seatHTML(seat, o) {
  if (!seat.player) {
    const sit = o.canSit ? `<button data-sit="${seat.seat}" class="sit">${t("table.sit")}</button>` : "";
    return `<div class="seat empty" data-seat="${seat.seat}"><span class="avatar empty" aria-hidden="true">+</span><div class="seat-name muted">${t("table.seat_n", { n: seat.seat + 1 })} · ${t("table.empty_seat")}</div>${sit}</div>`;
  }
  const info = o.info || {};
  const state = seatState(seat, { ...o, info });
  const tags = [
    seat.bot ? `<span class="tag">${t("table.bot")}</span>` : "",
    seat.host ? `<span class="tag host" title="${t("table.host")}"><span aria-hidden="true">♛</span> <span class="word">${t("table.host")}</span></span>` : "",
    ...(info.tags || []),
  ].join("");
  const hasStack = info.stack !== undefined && info.stack !== null;
  const stake = seat.table_stake !== undefined && !hasStack
    ? `<div class="stake-line"><span class="lbl">${t("table.stake")}: </span><strong data-stake="${seat.table_stake}">${gold(seat.table_stake)}</strong></div>` : "";
  const stack = hasStack ? `<div class="stack"><span class="lbl">${t("table.stack")}: </span><strong>${gold(info.stack)}</strong></div>` : "";
  const bet = info.bet ? `<div class="seat-bet"><span class="chip-ico" aria-hidden="true"></span>${gold(info.bet)}</div>` : "";
  const badge = state ? `<span class="status state" data-state="${state}">${t(STATE_LABEL[state])}</span>` : "";
  const statuses = [badge, ...(info.status || []).map((s) => `<span class="status">${s}</span>`)].join("");
  const dealer = info.dealer ? `<span class="dealer-btn" title="${t("table.dealer")}" aria-label="${t("table.dealer")}">D</span>` : "";
  const cls = ["seat", o.compact ? "compact" : "", o.acting ? "acting" : "", o.mine ? "mine" : "", info.out ? "out" : "", info.winner ? "winner" : "", state ? `state-${state}` : ""].filter(Boolean).join(" ");
  const stakeAttr = seat.table_stake !== undefined ? `data-table-stake="${seat.table_stake}"` : "";
  // The level is a badge on the avatar (it takes no room of its own in a crowded ring).
  const level = seat.level
    ? `<span class="level" data-level="${seat.level}" title="${t("table.level", { n: seat.level })}"><span aria-hidden="true">${seat.level}</span><span class="sr-only">${t("table.level", { n: seat.level })}</span></span>` : "";
  const ring = `<span class="avatar-ring">${avatarHTML(seat)}${level}${o.deadline ? o.timer(o.deadline, seat.name) : ""}</span>`;
  return `<div class="${cls}" data-seat="${seat.seat}" data-engine="${o.inHand ? o.engine : ""}" ${o.mine ? 'data-mine="1"' : ""} ${stakeAttr} ${state ? `data-state="${state}"` : ""}>
    <div class="seat-head">${ring}<div class="seat-id"><span class="seat-name" title="${esc(seat.name)}">${o.mine ? `${t("table.you")} · ` : ""}${esc(seat.name)}</span>${stake}${stack}</div>${dealer}</div>
    ${info.cards ? `<div class="seat-cards">${info.cards}</div>` : ""}
    ${bet || statuses || tags ? `<div class="statuses">${bet}${statuses}<span class="seat-tags">${tags}</span></div>` : ""}
  </div>`;
}

// ----- the ring --------------------------------------------------------------------------
// Where seat `index` of `count` sits when seat `bottom` is yours: clockwise from the bottom,
// as a point on the unit circle (the CSS scales it to the felt's ellipse).
export function seatPoint(index, count, bottom) {
  const angle = Math.PI / 2 + ((((index - bottom) % count) + count) % count) * (2 * Math.PI / count);
  const round = (v) => Math.round(v * 1000) / 1000;
  return { x: round(Math.cos(angle)), y: round(Math.sin(angle)) };
}

// The whole table for a game with few seats: every table seat around the felt (empty ones
// too, with their sit button), yours at the bottom (a spectator sees seat 1 there).
// seats: the table's seat entries; mySeat: your table seat or null; draw(seat) -> seat HTML.
export function ringHTML({ game, seats, mySeat, draw, center }) {
  const count = seats.length;
  const bottom = mySeat === null || mySeat === undefined ? 0 : mySeat;
  const density = count >= 7 ? "dense" : count >= 5 ? "mid" : "few";
  const placed = seats.map((seat) => {
    const p = seatPoint(seat.seat, count, bottom);
    return `<div class="seat-spot${seat.seat === bottom && mySeat !== null ? " mine-spot" : ""}" data-spot-seat="${seat.seat}" data-k="${(((seat.seat - bottom) % count) + count) % count}" style="--cx:${p.x};--cy:${p.y}">${draw(seat)}</div>`;
  }).join("");
  return `<div class="ring ${density} game-${esc(game)}" id="ring" data-seats="${count}">
    <div class="felt-oval" aria-hidden="true"></div>
    <div class="felt felt-center" id="felt">${center}</div>
    ${placed}
  </div>`;
}

// ----- house tables ------------------------------------------------------------------------
// The betting layout first; then your seat, the banker and a few more, compactly; then how
// many more play and watch.
export function houseHTML({ game, seats, mySeat, draw, center, watching = 0 }) {
  const taken = seats.filter((s) => s.player);
  const mine = taken.filter((s) => s.seat === mySeat);
  const hosts = taken.filter((s) => s.seat !== mySeat && s.host);
  const others = taken.filter((s) => s.seat !== mySeat && !s.host);
  const shown = [...mine, ...hosts, ...others].slice(0, HOUSE_SHOWN);
  const playing = taken.length - shown.length;
  const more = [];
  if (playing > 0) more.push(t("table.more_playing", { n: playing }));
  if (watching > 0) more.push(t("table.more_watching", { n: watching }));
  const free = seats.length - taken.length;
  const sit = mySeat === null && free > 0
    ? `<button data-sit="${seats.find((s) => !s.player).seat}" class="sit">${t("table.sit")}</button>` : "";
  return `<div class="house game-${esc(game)}" id="house">
    <div class="felt house-board" id="felt">${center}</div>
    <div class="house-seats" id="house-seats">${shown.map(draw).join("")}
      ${more.length ? `<span class="house-more" id="house-more" data-playing="${playing}" data-watching="${watching}">${more.join(" · ")}</span>` : ""}
      ${sit}
    </div>
  </div>`;
}

// ----- fitting the page ----------------------------------------------------------------------
// The action bar is fixed at the bottom of the viewport; the page keeps room for it (its height
// measured, not guessed) so nothing ends up under it. At a house table the betting board is
// scaled down, when it must, to end above the bar.
// Seats at equal distances along the felt's rim (not at equal angles: on a wide felt those
// crowd the ends), measured on the ellipse the CSS places seat centres on.
function placeSeats(ring) {
  const style = getComputedStyle(ring);
  const rx = ring.clientWidth / 2 - parseFloat(style.getPropertyValue("--seat-w")) / 2;
  const ry = ring.clientHeight / 2 - parseFloat(style.getPropertyValue("--seat-h")) / 2;
  const count = Number(ring.dataset.seats);
  if (!(rx > 0 && ry > 0 && count > 1)) return;
  const steps = 720;
  const arcs = [0];
  const at = (i) => Math.PI / 2 + (i / steps) * 2 * Math.PI; // clockwise from the bottom
  for (let i = 1; i <= steps; i += 1) {
    const dx = rx * (Math.cos(at(i)) - Math.cos(at(i - 1)));
    const dy = ry * (Math.sin(at(i)) - Math.sin(at(i - 1)));
    arcs.push(arcs[i - 1] + Math.hypot(dx, dy));
  }
  const round = (v) => Math.round(v * 1000) / 1000;
  ring.querySelectorAll(".seat-spot").forEach((spot) => {
    const goal = (Number(spot.dataset.k) / count) * arcs[steps];
    let i = 0;
    while (i < steps && arcs[i] < goal) i += 1;
    spot.style.setProperty("--cx", String(round(Math.cos(at(i)))));
    spot.style.setProperty("--cy", String(round(Math.sin(at(i)))));
  });
}

export function fitTable(page) {
  const ring = page.querySelector(".ring");
  if (ring) placeSeats(ring);
  const bar = page.querySelector("#actions");
  const height = bar ? Math.ceil(bar.getBoundingClientRect().height) : 0;
  document.documentElement.style.setProperty("--bar-h", `${height}px`);
  page.classList.toggle("has-bar", Boolean(bar));
  const board = page.querySelector(".house-board");
  if (!board) return;
  board.style.zoom = "";
  const top = board.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - height - top - 6;
  // Zoom does not scale the height in proportion (the board reflows to its wider room), so
  // a few steps close in on the height that ends above the bar.
  let zoom = 1;
  for (let step = 0; step < 6 && room > 0; step += 1) {
    const needed = board.getBoundingClientRect().height;
    if (needed <= room || zoom <= 0.55) break;
    zoom = Math.max(0.55, Math.floor(zoom * (room / needed) * 995) / 1000);
    board.style.zoom = String(zoom);
  }
}

// ----- a confirmation on the page (leaving now, at its cost) -------------------------------
// A modal dialog, not window.confirm: it shows the cost in the page's own type, "stay" has the
// focus (Enter or Escape keep the seat), and the table's shortcuts are off while it is open.
export function confirmDialog({ id, title, text, ok, cancel }) {
  document.getElementById(id)?.remove();
  const dialog = document.createElement("dialog");
  dialog.id = id;
  dialog.className = "confirm-dialog panel";
  dialog.innerHTML = `<form method="dialog"><h2></h2><p class="confirm-text"></p>
    <div class="row"><button value="cancel" class="confirm-cancel" autofocus></button><button value="ok" class="danger confirm-ok"></button></div></form>`;
  dialog.querySelector("h2").textContent = title;
  dialog.querySelector(".confirm-text").textContent = text;
  dialog.querySelector(".confirm-cancel").textContent = cancel;
  dialog.querySelector(".confirm-ok").textContent = ok;
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => { resolve(dialog.returnValue === "ok"); dialog.remove(); });
    dialog.showModal();
  });
}

// Called on the page's clock (every 200 ms): fits the table again when the bar or the board
// moved since the last redraw (a clock's text rewrapping the header, a resize, a late layout).
export function refitTable(page) {
  const bar = page.querySelector("#actions");
  const height = bar ? Math.ceil(bar.getBoundingClientRect().height) : 0;
  const board = page.querySelector(".house-board");
  const under = board && bar && board.getBoundingClientRect().bottom > bar.getBoundingClientRect().top + 0.5;
  const reserved = parseFloat(document.documentElement.style.getPropertyValue("--bar-h")) || 0;
  if (under || height !== reserved) fitTable(page);
}
