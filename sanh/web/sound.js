// Table sounds, synthesised with WebAudio (no sound files): deal, your turn, ten seconds left,
// a win, chips. Browsers let a page start audio only after a user gesture, so no AudioContext
// exists before the first click or key press; until then (and whenever the player has muted
// the sounds, a choice remembered in localStorage) a cue is skipped, not queued.
// window.__sanhSound.log lists the cues played ({cue, at} and, for "ten", the deadline) and .skipped the others ({cue, why})
// so a test can follow what was heard without replacing WebAudio.
const KEY = "sanh.sound";
const CHIP_ACTIONS = new Set(["AllIn", "Bet", "Call", "Confirm", "Place", "Raise", "RaiseTo"]);
const log = [];
const skipped = [];
let audio = null;
let master = null;
let gestured = false;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

function start() {
  if (audio || !gestured || !soundOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = new Context();
  master = audio.createGain();
  master.gain.value = 0.3;
  master.connect(audio.destination);
}

export function setSoundOn(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) {
    start();
    if (audio && audio.state === "suspended") audio.resume();
  } else if (audio && audio.state === "running") {
    audio.suspend();
  }
}

function onGesture() {
  gestured = true;
  window.removeEventListener("pointerdown", onGesture, true);
  window.removeEventListener("keydown", onGesture, true);
  start();
}
window.addEventListener("pointerdown", onGesture, true);
window.addEventListener("keydown", onGesture, true);

window.__sanhSound = {
  log,
  skipped,
  get state() { return audio ? audio.state : "none"; },
  get gestured() { return gestured; },
};

// ----- the synthesis -----------------------------------------------------------------------
// Each cue is scheduled on an output {ctx, dest}: the page's context and master gain, or an
// OfflineAudioContext (renderCue) that renders it to samples.
function tone(out, freq, at, length, { type = "sine", gain = 0.5 } = {}) {
  const osc = out.ctx.createOscillator();
  const env = out.ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.008);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(env).connect(out.dest);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(out, at, length, { freq = 3000, q = 1, gain = 0.6 } = {}) {
  const rate = out.ctx.sampleRate;
  const buffer = out.ctx.createBuffer(1, Math.round(rate * (length + 0.02)), rate);
  const data = buffer.getChannelData(0);
  let seed = 7;
  for (let i = 0; i < data.length; i += 1) {
    seed = (seed * 16807) % 2147483647; // a fixed sequence: every deal sounds alike
    data[i] = (seed / 1073741823.5) - 1;
  }
  const src = out.ctx.createBufferSource();
  const filter = out.ctx.createBiquadFilter();
  const env = out.ctx.createGain();
  src.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  env.gain.setValueAtTime(gain, at);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  src.connect(filter).connect(env).connect(out.dest);
  src.start(at);
  src.stop(at + length + 0.02);
}

const CUES = {
  // cards flicked off the shoe: short bursts of filtered noise
  deal(o, t) { for (let i = 0; i < 4; i += 1) noise(o, t + i * 0.075, 0.05, { freq: 2200 + i * 150, q: 0.9, gain: 0.9 }); },
  // a soft rising two-note chime
  turn(o, t) { tone(o, 659.3, t, 0.22, { gain: 0.35 }); tone(o, 987.8, t + 0.12, 0.32, { gain: 0.3 }); },
  // three short ticks
  ten(o, t) { for (let i = 0; i < 3; i += 1) tone(o, 1320, t + i * 0.16, 0.07, { type: "square", gain: 0.12 }); },
  // an arpeggio up to the octave
  win(o, t) { [523.3, 659.3, 784, 1046.5].forEach((f, i) => tone(o, f, t + i * 0.09, 0.35, { type: "triangle", gain: 0.35 })); },
  // chips clacking: bright clicks with a short ring
  chips(o, t) { [0, 0.05, 0.12].forEach((d, i) => { noise(o, t + d, 0.03, { freq: 5200 - i * 400, q: 4, gain: 1 }); tone(o, 3100 - i * 250, t + d, 0.05, { gain: 0.06 }); }); },
};
export const CUE_NAMES = Object.keys(CUES);

// A cue rendered offline (no speaker, no gesture needed): its length in seconds and its peak
// and RMS levels, for tests and for tuning.
export async function renderCue(cue) {
  const ctx = new OfflineAudioContext(1, 22050, 22050);
  CUES[cue]({ ctx, dest: ctx.destination }, 0);
  const samples = (await ctx.startRendering()).getChannelData(0);
  let peak = 0;
  let sum = 0;
  let last = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const v = Math.abs(samples[i]);
    peak = Math.max(peak, v);
    sum += v * v;
    if (v > 0.001) last = i;
  }
  return { seconds: (last + 1) / ctx.sampleRate, peak, rms: Math.sqrt(sum / samples.length) };
}

export function play(cue, detail = {}) {
  if (!soundOn()) { skipped.push({ cue, why: "muted" }); return; }
  if (!audio) { skipped.push({ cue, why: "no_gesture" }); return; }
  if (audio.state === "suspended") audio.resume();
  CUES[cue]({ ctx: audio, dest: master }, audio.currentTime + 0.01);
  log.push({ cue, at: Date.now(), ...detail });
}

// ----- when the table plays them (app.js calls these) ------------------------------------
let dealtHand = null;
let turnHand = null;
let wasTurn = false;
let tenTimer = null;
let tenFor = null;
const sent = new Map();

// Every drawing of the table: a new hand's first view deals; my turn starting chimes, and ten
// seconds before its deadline (epoch seconds) ticks, when the turn was longer than that.
export function tableCues(hand, hasView, myTurn, deadline) {
  if (hasView && hand !== dealtHand) {
    dealtHand = hand;
    play("deal");
  }
  if (myTurn && (!wasTurn || turnHand !== hand)) play("turn");
  if (myTurn && deadline && deadline !== tenFor) {
    clearTimeout(tenTimer);
    tenFor = deadline;
    const wait = (deadline - 10) * 1000 - Date.now();
    if (wait > 0) tenTimer = setTimeout(() => play("ten", { deadline }), wait);
  } else if (!myTurn) {
    stopCues();
  }
  wasTurn = Boolean(myTurn);
  turnHand = hand;
}

export function stopCues() {
  clearTimeout(tenTimer);
  tenTimer = null;
  tenFor = null;
}

// A result: a win when my net is positive.
export function resultCue(result, player) {
  const mine = (result.seats || []).indexOf(player);
  const deltas = result.settlement && result.settlement.deltas;
  if (mine >= 0 && deltas && deltas[mine] > 0) play("win");
}

// An act sent (by nonce), then its ack: chips when it put chips on the table.
export function actSent(nonce, action) {
  sent.set(nonce, action);
  if (sent.size > 64) sent.delete(sent.keys().next().value);
}

export function ackCue(ack) {
  const action = sent.get(ack.nonce);
  sent.delete(ack.nonce);
  if (!action || ack.duplicate) return;
  const bets = CHIP_ACTIONS.has(action.type) || (typeof action.amount === "number" && action.amount > 0)
    || (action.type === "Play" && !action.cards);
  if (bets) play("chips");
}

// The top bar's mute button: aria-pressed is "sound on".
export function mountSoundToggle(button) {
  const show = () => button.setAttribute("aria-pressed", String(soundOn()));
  button.onclick = () => { setSoundOn(!soundOn()); show(); };
  show();
}
