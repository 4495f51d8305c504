// Game id -> renderer. A game without one is drawn by GENERIC (seats, the details panel and
// the generic action bar from its legal actions and amount ranges).
import poker from "/games/poker.js";
import stud from "/games/stud.js";
import bacay from "/games/ba-cay.js";
import shedding from "/games/shedding.js";
import phom from "/games/phom.js";
import taixiu from "/games/tai-xiu.js";
import teenpatti from "/games/teen-patti.js";
import tcp from "/games/three-card-poker.js";

export const GENERIC = {};

export const RENDERERS = {
  "texas-holdem": poker,
  "poker-aof": poker,
  lieng: stud,
  "xi-to": stud,
  "ba-cay-ga": bacay,
  "ba-cay-chuong": bacay,
  "tien-len": shedding,
  "sam-loc": shedding,
  phom,
  "tai-xiu": taixiu,
  "teen-patti-2020": teenpatti,
  "three-card-poker": tcp,
};
