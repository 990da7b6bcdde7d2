// @ts-check
// Troccas Online — a lesson of the course (issue #28 item 1), played at the real table: the
// same Table as a room's page, fed by the lesson's JSON door (docs/protocol.md "Lessons")
// instead of a websocket. Every move goes to the server, which judges it against the
// lesson's file and answers with the table's new view and why the move was right or not;
// the coach panel above the table says the goal, the answer, and offers what comes next.

import { fmt, h } from "./dom.js";
import { Table } from "./render.js";
import { notices } from "./views/toasts.js";

/**
 * @import { CardId, HintMessage, View } from "./protocol.js"
 * @import { Strings, TableConfig } from "./views/scene.js"
 */

/**
 * What the lesson's door answers (games/teaching/course.py `_frame`).
 * @typedef {object} LessonFrame
 * @property {string} lesson
 * @property {number} scene
 * @property {number} scenes
 * @property {number} step
 * @property {number} version
 * @property {string} goal
 * @property {string | null} expect "card", "deal", "continue", "scart" or "buob"
 * @property {boolean} hints
 * @property {number} wrong
 * @property {View} view
 * @property {any[] | null} events
 * @property {"right" | "wrong" | "illegal" | null} verdict
 * @property {string} message
 * @property {string | null} rule the rules page's section for a wrong move
 * @property {boolean} scene_done
 * @property {boolean} finished
 * @property {number | null} stars
 * @property {string} [done]
 * @property {string | null} next the next lesson's page
 */

/**
 * @typedef {object} LessonConfig
 * @property {string} move
 * @property {string} restart
 * @property {string} hint
 * @property {string} csrf
 * @property {string} course
 */

/**
 * @template T
 * @param {string} id
 * @returns {T}
 */
const read = (id) => JSON.parse(
  /** @type {string} */ (/** @type {HTMLElement} */ (document.getElementById(id)).textContent));
/**
 * @param {string} id
 * @returns {HTMLElement}
 */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {TableConfig} */
const cfg = read("table-config");
/** @type {LessonConfig} */
const lcfg = read("lesson-config");
/** @type {Strings} */
const S = read("table-strings");
/** @type {Record<string, string>} */
const L = read("lesson-strings");
/** @type {Record<CardId, string>} */
const names = read("card-names");
/** @type {LessonFrame} */
let frame = read("lesson-frame");

document.documentElement.classList.add("js");
for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".js-only"))) {
  el.hidden = false;
}

const root = byId("table-app");
const goal = byId("lesson-goal");
const part = byId("lesson-part");
const feedback = byId("lesson-feedback");
const buttons = byId("lesson-buttons");
const { announce, toast } = notices({
  live: byId("live"), liveAlert: byId("live-alert"), toasts: byId("toasts"), fit: () => {},
});
let busy = false;
/** How many answers the page has shown (tests wait on it: data-answers). */
let answers = 0;

/**
 * @param {string} url
 * @param {object} [body]
 * @returns {Promise<any>}
 */
async function post(url, body = {}) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": lcfg.csrf },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.code || "error"), { data });
  return data;
}

/**
 * Send one move; the answer redraws the table and the coach.
 * @param {object} move
 * @param {(() => void) | null} [done]
 */
async function send(move, done = null) {
  if (busy) { if (done) done(); return; }
  busy = true;
  try {
    show(await post(lcfg.move, move));
  } catch (e) {
    const data = /** @type {any} */ (e).data;
    toast(data && data.message ? data.message : L.failed);
  } finally {
    busy = false;
    if (done) done();
  }
}

const table = new Table(root, {
  cfg, S, names, toast, announce,
  command: (type, fields, done = null) => { send({ type, ...(fields || {}) }, done); },
  ask: (_type, done = null) => {
    post(lcfg.hint).then((msg) => {
      /** @type {HintMessage} */
      const hint = { ...msg, action_id: null };
      if (hint.version === frame.version) table.showHint(hint);
      else if (done) done();
    }).catch((e) => {
      const data = /** @type {any} */ (e).data;
      toast(data && data.message ? data.message : L.failed);
      if (done) done();
    });
  },
  editRules: () => {},
  // A refused card is a move like any other here: the server explains it, with the rule.
  refused: (card) => { send({ type: "play_card", card }); },
});

/**
 * @param {string} label
 * @param {() => void} onclick
 * @param {string} name
 */
const button = (label, onclick, name) => h("button.button", { type: "button",
  "data-lesson-action": name, onclick }, label);

/** @param {LessonFrame} f */
function show(f) {
  const before = frame;
  frame = f;
  const events = f.events && f.version === before.version + 1 ? f.events : null;
  table.apply(f.view, f.verdict === "right" ? events : null);
  root.dataset.version = String(f.version);
  root.dataset.step = `${f.scene}.${f.step}`;
  answers += 1;
  root.dataset.answers = String(answers);
  part.textContent = f.scenes > 1 ? fmt(L.scene, { n: f.scene + 1, of: f.scenes }) : "";
  goal.textContent = f.scene_done ? "" : f.goal;
  coach(f);
}

/** @param {LessonFrame} f */
function coach(f) {
  const said = [];
  if (f.verdict) {
    const head = f.verdict === "right" ? L.right : f.verdict === "wrong" ? L.wrong : L.illegal;
    said.push(h("p.lesson-verdict", { "data-verdict": f.verdict }, h("strong", null, head), " ",
      f.message));
    if (f.verdict !== "right") {
      said.push(h("p.lesson-retry", null, L.try_again, " ",
        f.rule ? h("a", { href: f.rule, target: "_blank", rel: "noopener" }, L.rule) : ""));
    }
  }
  if (f.finished) {
    const stars = f.stars || 0;
    said.push(h("p.lesson-finished", { "data-stars": String(stars) }, h("strong", null, L.finished),
      " ", h("span.stars", { role: "img", "aria-label": fmt(L.stars, { n: stars }) },
        ...[1, 2, 3].map((i) => h(`span.star${i <= stars ? ".on" : ""}`, { "aria-hidden": "true" }, "★")))));
    if (f.done) said.push(h("p", null, f.done));
  }
  feedback.replaceChildren(...said);
  feedback.dataset.verdict = f.verdict || "";
  const offer = [];
  if (f.expect === "continue" && !f.scene_done) offer.push(button(L.continue, () => send({ type: "continue" }), "continue"));
  if (f.scene_done && !f.finished) offer.push(button(L.next, () => send({ type: "next" }), "next"));
  if (f.finished) {
    if (f.next) offer.push(h("a.button", { href: f.next, "data-lesson-action": "next-lesson" }, L.next_lesson));
    offer.push(h("a.button.button-secondary", { href: lcfg.course }, L.course));
  }
  offer.push(h("button.button.button-secondary", { type: "button", "data-lesson-action": "restart",
    onclick: async () => { if (busy) return; busy = true;
      try { show(await post(lcfg.restart)); } catch { toast(L.failed); } finally { busy = false; } } },
  L.restart));
  buttons.replaceChildren(...offer);
  if (f.verdict) announce(feedback.textContent || "");
  const first = /** @type {HTMLElement | null} */ (buttons.querySelector("[data-lesson-action='continue'], [data-lesson-action='next'], [data-lesson-action='next-lesson']"));
  if (first && f.verdict === "right") first.focus({ preventScroll: true });
}

root.removeAttribute("aria-busy");
show(frame);
