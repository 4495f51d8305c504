// Motion at the table (Web Animations): cards dealt from the shoe to each seat, chips sliding
// to a bet, to the pot and to the winner, the Tài Xỉu dice bowl shaking and lifting, a squeezed
// 3 Cây card peeling open, a Tiến lên / Sâm play sliding to the middle. The page redraws the
// table whole on every update: snapshot() reads where things were before, animate() compares
// the new page with it and moves what is new from where it came from. Each step lasts under
// 400 ms; a click or a key finishes every motion at once; under prefers-reduced-motion nothing
// moves (the page is drawn in its final state, as without this file).

const STEP = 300; // ms, one step (a deal, a chip's slide, the bowl's shake, its lift)
const STAGGER = 35; // ms between cards dealt together
const MAX_DELAY = 280; // the last card of a deal starts by then
const PEEL_GAMES = new Set(["ba-cay-ga", "ba-cay-chuong"]);
const PLAY_GAMES = new Set(["tien-len", "sam-loc"]); // a play slides from its seat to the middle

// What ran, for the tests (window.sanhMotion): counts per kind, the longest step in ms.
export const stats = {
  started: 0, kinds: {}, longest: 0, skipped: 0,
  get moving() { return [...running].filter((a) => a.playState !== "finished").length; }, // not ended yet
};
window.sanhMotion = stats;

const running = new Set();

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function track(animation, kind, duration) {
  stats.started += 1;
  stats.kinds[kind] = (stats.kinds[kind] || 0) + 1;
  stats.longest = Math.max(stats.longest, duration);
  running.add(animation);
  const done = () => running.delete(animation);
  animation.finished.then(done, done);
  return animation;
}

function play(el, kind, keyframes, { duration = STEP, delay = 0, easing = "cubic-bezier(.2,.7,.3,1)" } = {}) {
  const animation = el.animate(keyframes, { duration, delay, easing, fill: "backwards" });
  return track(animation, kind, duration);
}

// Skipping: any click or key while something moves ends every motion in its final state.
export function skip() {
  if (!running.size) return;
  stats.skipped += 1;
  for (const animation of [...running]) animation.finish();
}
document.addEventListener("pointerdown", skip, true);
document.addEventListener("keydown", skip, true);

// ----- reading the page ------------------------------------------------------------------------
function rect(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

// The container a card or a bet belongs to: a seat, your own hand, the board or the middle.
function placeOf(el) {
  const seat = el.closest(".seat[data-seat]");
  if (seat) return `seat:${seat.dataset.seat}`;
  if (el.closest(".my-area, #actions")) return "mine";
  if (el.closest(".board")) return "board";
  if (el.closest("#felt")) return "felt";
  return "other";
}

// The amount a text shows, in minor units (gold() always writes two decimals): "1.234,50" -> 123450.
function units(text) {
  const digits = String(text || "").replace(/[^\d]/g, "");
  return digits ? Number(digits) : 0;
}

function readCards(page) {
  const cards = [];
  const perPlace = {};
  page.querySelectorAll("svg.card").forEach((el) => {
    const place = placeOf(el);
    const index = perPlace[place] || 0;
    perPlace[place] = index + 1;
    cards.push({ el, place, index, code: el.dataset.card || "", rect: rect(el) });
  });
  return { cards, perPlace };
}

function readSeats(page) {
  const seats = {};
  page.querySelectorAll(".seat[data-seat]").forEach((el) => {
    const bet = el.querySelector(".seat-bet");
    const avatar = el.querySelector(".avatar") || el;
    seats[el.dataset.seat] = {
      el,
      rect: rect(avatar),
      bet: bet ? units(bet.textContent) : 0,
      betRect: bet ? rect(bet) : null,
      winner: el.classList.contains("winner"),
      acting: el.classList.contains("acting"),
      mine: el.dataset.mine === "1",
    };
  });
  return seats;
}

function readPot(page) {
  const pots = [...page.querySelectorAll(".pot strong")];
  if (!pots.length) return null;
  return { total: pots.reduce((sum, el) => sum + units(el.textContent), 0), rect: rect(pots[0].closest(".pot")) };
}

// Chips a player has put on a betting area of a house table (Tài Xỉu cells, spots).
function readAreas(page) {
  const areas = {};
  page.querySelectorAll(".my-chips").forEach((el) => {
    const area = el.closest("[data-area], [data-spot]");
    if (area) areas[area.dataset.area || area.dataset.spot] = { amount: units(el.textContent), el: area };
  });
  return areas;
}

// Where the table is before a redraw (null when the page shows no table yet: a first drawing,
// a reload, moves nothing).
export function snapshot(page) {
  if (!page || !page.querySelector("#felt")) return null;
  const felt = page.querySelector("#felt");
  return {
    hand: page.querySelector(".table-head .pill")?.textContent || "",
    felt: rect(felt),
    ...readCards(page),
    seats: readSeats(page),
    pot: readPot(page),
    areas: readAreas(page),
    dice: Boolean(page.querySelector(".dice")),
    result: page.querySelector("#result")?.dataset.hand || "",
  };
}

// ----- moving ----------------------------------------------------------------------------------
function from(target, source, scale = 1) {
  const dx = source.x - target.x;
  const dy = source.y - target.y;
  return [
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: scale < 1 ? 0.4 : 1 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
  ];
}

// A chip token flying between two points (fixed on the viewport, removed when it lands).
function chip(kind, source, target, delay = 0) {
  const token = document.createElement("span");
  token.className = "motion-chip";
  token.setAttribute("aria-hidden", "true");
  token.style.left = `${target.x}px`;
  token.style.top = `${target.y}px`;
  document.body.append(token);
  const animation = play(token, kind, [
    { transform: `translate(-50%, -50%) translate(${source.x - target.x}px, ${source.y - target.y}px)`, opacity: 1 },
    { transform: "translate(-50%, -50%)", opacity: 0.9 },
  ], { delay });
  const gone = () => token.remove();
  animation.finished.then(gone, gone);
}

function animateCards(previous, after, game) {
  // A new hand deals every card again: the last hand's cards are not where these come from.
  const before = previous.hand === after.hand ? previous : { ...previous, cards: [], perPlace: {} };
  const old = new Map(before.cards.filter((c) => c.code).map((c) => [c.code, c]));
  const seen = new Set(before.cards.map((c) => `${c.place}#${c.index}#${c.code}`));
  // Seats that hold fewer cards than before played them (a Tiến lên play by a bot).
  const gave = Object.keys(before.perPlace).filter((p) => p.startsWith("seat:") && (after.perPlace[p] || 0) < before.perPlace[p]);
  let dealt = 0;
  for (const card of after.cards) {
    if (seen.has(`${card.place}#${card.index}#${card.code}`)) continue;
    const was = card.code ? old.get(card.code) : null;
    if (was && was.place !== card.place) { // the same card elsewhere before: a play sliding over
      play(card.el, "play", from(card.rect, was.rect));
      continue;
    }
    if (PLAY_GAMES.has(game) && card.place === "felt" && gave.length && before.seats[gave[0].slice(5)]) {
      play(card.el, "play", from(card.rect, before.seats[gave[0].slice(5)].rect, 0.6));
      continue;
    }
    const here = before.cards.find((c) => c.place === card.place && c.index === card.index);
    if (here && !here.code && card.code) { // a back turned face up at its place
      if (PEEL_GAMES.has(game) && card.place === "mine") {
        play(card.el, "peel", [
          { clipPath: "polygon(100% 100%, 100% 100%, 100% 100%, 100% 100%)" },
          { clipPath: "polygon(100% 35%, 100% 100%, 35% 100%, 0% 100%)", offset: 0.45 },
          { clipPath: "polygon(100% 0%, 100% 100%, 0% 100%, 0% 0%)" },
        ], { duration: 380, easing: "ease-out" });
      } else {
        play(card.el, "reveal", [{ transform: "rotateY(90deg)" }, { transform: "rotateY(0)" }], { duration: 260 });
      }
      continue;
    }
    if (here) continue; // the same place shows another card (a redraw, a sort): no motion
    const delay = Math.min(dealt * STAGGER, MAX_DELAY);
    dealt += 1;
    play(card.el, "deal", from(card.rect, { x: before.felt.x, y: before.felt.y - before.felt.h / 4 }, 0.5), { delay });
  }
}

function animateChips(before, after) {
  const pot = after.pot ? after.pot.rect : after.felt;
  let wins = 0;
  for (const [seat, now] of Object.entries(after.seats)) {
    const was = before.seats[seat];
    if (!was) continue;
    if (now.bet > was.bet && now.betRect) chip("chips", was.rect, now.betRect);
    if (now.winner && !was.winner) { // the pot slides to the winner
      chip("win", before.pot ? before.pot.rect : before.felt, now.rect, 60 * wins);
      wins += 1;
    }
  }
  if (after.pot && before.pot && after.pot.total > before.pot.total) {
    // Bets swept into the pot at the end of a betting round, or a stake put in directly.
    const swept = Object.entries(before.seats).filter(([s, was]) => was.bet && !(after.seats[s] && after.seats[s].bet >= was.bet));
    if (swept.length) swept.forEach(([, was], i) => chip("chips", was.betRect || was.rect, pot, 40 * i));
    else {
      const acted = Object.values(before.seats).find((s) => s.acting) || Object.values(before.seats).find((s) => s.mine);
      if (acted) chip("chips", acted.rect, pot);
    }
  }
  const mine = Object.values(after.seats).find((s) => s.mine) || before.seats[Object.keys(before.seats)[0]];
  for (const [area, now] of Object.entries(after.areas)) {
    const was = before.areas[area];
    if (now.amount > (was ? was.amount : 0)) {
      chip("chips", mine ? mine.rect : { x: window.innerWidth / 2, y: window.innerHeight }, rect(now.el));
    }
  }
}

// The Tài Xỉu bowl: over the dice just rolled, it shakes, then lifts off them.
function animateBowl(page) {
  const dice = page.querySelector(".dice");
  if (!dice) return;
  const box = dice.getBoundingClientRect();
  const bowl = document.createElement("span");
  bowl.className = "motion-bowl";
  bowl.setAttribute("aria-hidden", "true");
  Object.assign(bowl.style, {
    left: `${box.left - 8}px`, top: `${box.top - 8}px`,
    width: `${Math.min(box.width, 200) + 16}px`, height: `${box.height + 16}px`,
  });
  document.body.append(bowl);
  play(bowl, "bowl", [
    { transform: "rotate(0)" }, { transform: "rotate(-7deg)" }, { transform: "rotate(6deg)" },
    { transform: "rotate(-4deg)" }, { transform: "rotate(0)" },
  ], { duration: 340, easing: "ease-in-out" });
  const lift = play(bowl, "bowl", [
    { transform: "translateY(0)", opacity: 1 }, { transform: "translateY(-70%)", opacity: 0 },
  ], { duration: 280, delay: 340, easing: "ease-in" });
  lift.effect.updateTiming({ fill: "both" });
  const gone = () => bowl.remove();
  lift.finished.then(gone, gone);
}

// After a redraw: move what is new since `before` (see the top of the file).
export function animate(page, before, game) {
  if (!before || !page || reducedMotion() || typeof Element.prototype.animate !== "function") return;
  const felt = page.querySelector("#felt");
  if (!felt) return;
  const after = {
    hand: page.querySelector(".table-head .pill")?.textContent || "", felt: rect(felt), ...readCards(page), seats: readSeats(page), pot: readPot(page), areas: readAreas(page),
  };
  animateCards(before, after, game);
  animateChips(before, after);
  if (!before.dice && page.querySelector(".dice")) animateBowl(page);
}
