// @ts-check
// The "?" help (#help-pop, opened from the score bar or with "?"): the table's sound switch,
// then the four rules a player meets in every trick — the suit led, must-trump, BUOB and the
// Narr — each in words, with a line about this very moment when it applies and a link to its
// section of the rules page; then the keyboard shortcuts. A spectator holds no hand, so is not
// told the keys that move through one, play a card, call BUOB or deal.

import { fmt, h } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { View } from "../protocol.js"
 */

/**
 * The four topics: their words in the page's strings and their anchors on the rules page
 * (games/templates/games/rules/, stable across languages).
 */
const TOPICS = /** @type {const} */ ([
  ["led", "follow-suit"],
  ["trump", "must-trump"],
  ["buob", "buob"],
  ["narr", "narr"],
]);

/**
 * What each topic says about the moment, if anything: only from the receiver's own view.
 * @param {Table} t
 * @param {View} v
 * @returns {Record<typeof TOPICS[number][0], string>}
 */
function now(t, v) {
  const S = t.S;
  const trick = v.phase === "PLAY" ? v.trick : null;
  const led = trick ? trick.led : null;
  const legal = v.actions.play ? v.legal_cards || [] : [];
  const cannotFollow = !!led && led !== "T" && legal.length > 0
    && !legal.some((c) => c[0] === led) && legal.some((c) => c[0] === "T");
  return {
    led: led ? fmt(S.help_led_now, { suit: S[`suit_${led}`] }) : "",
    trump: cannotFollow ? S.help_trump_now : "",
    buob: v.buob && v.buob.call ? t.buobText(v.buob.call)
      : v.actions.buob_suits && v.actions.buob_suits.length ? S.help_buob_now : "",
    narr: (v.hand || []).includes("NARR") ? S.help_narr_now : "",
  };
}

/**
 * The sound switch: a button with role=switch that saves the choice (./sounds.js) and follows
 * it (a refused save turns it back).
 * @param {Table} t
 */
function soundSwitch(t) {
  const S = t.S;
  const sounds = t.attention.sounds;
  const button = h("button.switch", { type: "button", role: "switch", id: "sound-switch",
    "aria-checked": String(sounds.on), "aria-describedby": "sound-hint",
    onclick: () => { sounds.set(!sounds.on); } },
  h("span.switch-track", { "aria-hidden": "true" }, h("span.switch-thumb")),
  h("span.switch-label", null, S.sounds));
  return h("div.help-sound", null, button, h("p.muted.small", { id: "sound-hint" }, S.sounds_hint));
}

/**
 * The shortcuts the receiver can use: the hand's keys for a seated player only.
 * @param {Table} t
 * @param {boolean} seated
 */
function shortcuts(t, seated) {
  const S = t.S;
  /** @type {Array<[string[], string[]]>} */
  const hand = [
    [["←", "→"], [S.key_arrows]], [["Enter", "Space"], [S.key_enter]], [["B"], [S.key_b]],
    [["D"], [S.key_d]],
  ];
  // The Hint button is at practice tables only (views/hint.js).
  if (t.view && t.view.match && t.view.match.practice) hand.push([["H"], [S.key_h]]);
  // A key with two uses (Esc) is listed twice: the list is a two-column grid of dt and dd.
  /** @type {Array<[string[], string[]]>} */
  const keys = [...(seated ? hand : []), [["L"], [S.key_l]], [["?"], [S.key_help]],
    [["Esc"], [S.key_esc]], [["Esc"], [S.key_skip_hold]]];
  return [h("h3", null, S.help_title), h("dl.keys", null, keys.flatMap(([ks, what]) => [
    h("dt", null, ks.flatMap((k, i) => [i ? " " : "", h("kbd", null, k)])),
    ...what.map((w) => h("dd", null, w))]))];
}

/**
 * The topics and the shortcuts for the table as it is now.
 * @param {Table} t
 */
function body(t) {
  const S = t.S;
  const v = t.view;
  const seated = !!v && v.seat !== null && v.seat !== undefined;
  const moment = v && !t.inLobby() ? now(t, v) : null;
  const rules = t.ctx.cfg.rules;
  return [
    h("div.help-topics", null, TOPICS.map(([key, anchor]) => {
      const title = S[`help_${key}_title`];
      const line = moment ? moment[key] : "";
      return h(`section.help-topic${line ? ".now" : ""}`, { "data-topic": key },
        h("h3", null, title),
        h("p", null, S[`help_${key}`]),
        line ? h("p.help-now", null, h("strong", null, line)) : null,
        h("a", { href: `${rules}#${anchor}` }, fmt(S.help_rules_link, { section: title })));
    })),
    ...shortcuts(t, seated),
  ];
}

/**
 * Draw the help into `pop` when it opens, and keep its topics current while it is open (the
 * sound switch and the close button stay, so the focus does not jump).
 * @param {Table} t
 * @param {HTMLElement} pop
 * @returns {() => void} redraws the topics if the help is open
 */
export function wireHelp(t, pop) {
  const S = t.S;
  const content = h("div.help-body");
  /** @type {HTMLElement | null} */
  let sound = null;
  const draw = () => { content.replaceChildren(...body(t)); };
  pop.addEventListener("beforetoggle", (e) => {
    if (/** @type {ToggleEvent} */ (e).newState !== "open") return;
    sound = soundSwitch(t);
    pop.replaceChildren(h("h2", null, S.help), sound, content,
      h("button.button.button-secondary", { type: "button", popovertarget: pop.id,
        popovertargetaction: "hide" }, S.close));
    draw();
  });
  t.attention.sounds.listeners.add(() => {
    const button = sound && sound.querySelector("[role=switch]");
    if (button) button.setAttribute("aria-checked", String(t.attention.sounds.on));
  });
  return () => { if (pop.matches(":popover-open")) draw(); };
}
