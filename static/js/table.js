// @ts-check
// Troccas Online — the live room page: lobby and table in one page, fed by the websocket
// /ws/rooms/<code>/. The server's `state` message is the whole truth; this file keeps the
// newest version, sends commands with a fresh action_id and the version they were made on,
// and measures how long applying a state takes (window.__troccasMetrics).

import { fmt, h, uuid } from "./dom.js";
import { Connection } from "./net.js";
import { Table } from "./render.js";
import { nameBots } from "./views/bots.js";
import { roomChrome } from "./room_chrome.js";
import { rulesEditor } from "./views/dialogs.js";
import { renderRules } from "./views/rules.js";
import { createTalk } from "./talk.js";
import { notices } from "./views/toasts.js";
import { guardLeaving } from "./views/leave.js";
import { singleCardSwitch } from "./views/play_pref.js";

/**
 * @import { CardId, CommandFields, CommandType, ServerMessage, StateMessage }
 *   from "./protocol.js"
 * @import { Strings, TableConfig } from "./views/scene.js"
 */

/**
 * The figures tests and curious developers read from window.__troccasMetrics.
 * @typedef {object} Metrics
 * @property {number} lastApplyMs
 * @property {number} maxApplyMs
 * @property {number} applied
 * @property {number} totalApplyMs
 * @property {number} ignoredStale
 * @property {number} syncs
 * @property {number} reconnects
 * @property {number} version
 * @property {number[]} recent the last 200 apply times (ms)
 * @property {() => { last: number, max: number, median: number, p95: number, mean: number,
 *   applied: number }} summary
 * @property {((n?: number) => { runs: number, median: number, max: number }) | null} bench
 */

/**
 * @template T
 * @param {string} id the id of a json_script element
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
/** @type {Strings} */
const S = read("table-strings");
/** @type {Record<CardId, string>} */
const names = read("card-names");
const rulesTable = /** @type {HTMLTableElement | null} */ (document.getElementById("rules-table"));
/** @type {import("./views/rules.js").RuleWords | null} */
const ruleWords = document.getElementById("rule-words") ? read("rule-words") : null;
const root = byId("table-app");

/** @type {Metrics} */
const metrics = {
  lastApplyMs: 0, maxApplyMs: 0, applied: 0, totalApplyMs: 0, ignoredStale: 0, syncs: 0,
  reconnects: 0, version: -1, recent: [],
  /** Median and 95th percentile of the last 200 applies (ms). */
  summary() {
    const xs = [...this.recent].sort((a, b) => a - b);
    /** @param {number} q */
    const at = (q) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] : 0);
    return { last: this.lastApplyMs, max: this.maxApplyMs, median: at(0.5), p95: at(0.95),
      mean: this.applied ? this.totalApplyMs / this.applied : 0, applied: this.applied };
  },
  bench: null,
};
/** @type {Window & { __troccasMetrics?: Metrics }} */ (window).__troccasMetrics = metrics;
document.documentElement.classList.add("js");
for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".js-only"))) {
  el.hidden = false;
}

// --- announcements and toasts --------------------------------------------------------------

const chrome = roomChrome();
const { announce, toast } = notices({
  live: byId("live"), liveAlert: byId("live-alert"), toasts: byId("toasts"),
  fit: chrome.fitToasts,
});

// --- invite link -----------------------------------------------------------------------------

const copyBtn = document.getElementById("copy-invite");
const inviteInput = /** @type {HTMLInputElement | null} */ (document.getElementById("invite-link"));
if (copyBtn && inviteInput) {
  copyBtn.hidden = false;
  copyBtn.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(inviteInput.value);
    } catch {
      inviteInput.select();
      // The fallback of browsers without the async clipboard (deprecated, still supported).
      document.execCommand("copy");
    }
    toast(S.copied, "info");
  });
  inviteInput.addEventListener("focus", () => inviteInput.select());
}

// --- not signed in -------------------------------------------------------------------------

if (!cfg.me) {
  root.removeAttribute("aria-busy");
  root.dataset.state = "anonymous";
  root.replaceChildren(h("p.notice", null, h("a.button", { href: cfg.login }, S.sign_in)));
} else {
  start();
}

function start() {
  let version = -1;
  /** @type {Map<string, (() => void) | null>} action_id → callback when answered */
  const pending = new Map();
  /** The type of each command still waiting for its answer, by action_id.
   *  @type {Map<string, CommandType | "hint">} */
  const sentTypes = new Map();
  /** The commands the page sent by itself (a card chosen early, a single legal card): a
   *  refusal because the table moved on is not shown (the view that follows says it all).
   *  @type {Set<string>} */
  const quietIds = new Set();
  /** Commands whose refusal is never shown: a card the view refuses, said at once here and
   *  sent only so the server counts the attempt (issue #28 item 5, the newcomers' funnel).
   *  @type {Set<string>} */
  const silentIds = new Set();
  const MOVED_ON = ["STALE_VERSION", "NOT_YOUR_TURN", "WRONG_PHASE"];

  // --- the owner's house-rule editor (the server-rendered form, filled from the view) --------

  const dialog = /** @type {HTMLDialogElement} */ (byId("rules-dialog"));
  const form = /** @type {HTMLFormElement} */ (byId("rules-form"));
  const editRules = rulesEditor(dialog, form, () => (table.view ? table.view.room.options : null),
    (options) => command("set_options", { options }));

  const table = new Table(root, { cfg, S, names, command, ask, toast, announce, editRules,
    refused: (card, why) => { toast(why); command("play_card", { card }, null, "silent"); } });
  guardLeaving(() => table.view, S);
  table.setBanner(S.connecting);

  // Re-apply the current view `n` times from scratch (every region rebuilt): the worst case
  // of a state message, measured without the network. For tests and curious developers.
  metrics.bench = (n = 30) => {
    const times = [];
    for (let i = 0; i < n && table.view; i++) {
      table.invalidate();
      const t0 = performance.now();
      table.apply(table.view, null);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { runs: times.length, median: times[Math.floor(times.length / 2)] || 0,
      max: times[times.length - 1] || 0 };
  };

  const conn = new Connection(cfg.ws, {
    onOpen(again) {
      table.setBanner("");
      if (again) {
        metrics.reconnects += 1;
        toast(S.back_online, "info");
        // The server sends our view on connect; ask again in case that frame was missed.
        sync();
      }
    },
    onOffline(delay) {
      table.setBanner(fmt(S.reconnect_in, { seconds: Math.max(1, Math.round(delay / 1000)) }));
      root.dataset.state = "offline";
    },
    onFatal(code) {
      table.setBanner(S[`closed_${code}`] || S.offline);
      root.dataset.state = "closed";
    },
    onMessage,
  });
  const talk = createTalk({ words: read("talk-words"), me: cfg.me,
    // Talk frames are not table commands (no expected_version): docs/protocol.md "Table talk".
    send: (m) => conn.send(/** @type {any} */ (m)), toast: (text, kind) => toast(text, kind) });
  if (talk.badge) table.attachTalk(talk.badge.button, talk.badge.flash);
  singleCardSwitch(cfg, (on) => table.setSingleCard(on), (text) => toast(text),
    S.single_card_not_saved);
  conn.connect();

  function sync() {
    metrics.syncs += 1;
    conn.send({ type: "sync" });
  }

  /** @param {ServerMessage} msg */
  function onMessage(msg) {
    if (talk.handle(msg)) return;
    switch (msg.type) {
      case "state":
        applyState(msg);
        break;
      case "presence":
        applyPresence(msg.connected || [], msg.away_since || {});
        table.setWatching(msg.watching || 0);
        break;
      case "error":
        if (msg.action_id && sentTypes.get(msg.action_id) === "regame"
          && (msg.code === "STALE_VERSION" || msg.code === "WRONG_PHASE")) {
          // Two players pressed Regame together: the other press started the next deal.
          toast(S.regame_already, "info");
        } else if (msg.code === "NEW_MATCH_ALREADY_ON") {
          // "Same four again" pressed together: the other press started the new match.
          toast(msg.message || msg.code, "info");
        } else if ((msg.code === "MUST_FOLLOW_SUIT" || msg.code === "MUST_PLAY_TRUMP")
          && table.view && table.view.legal_cards.includes("NARR")) {
          // The sentence names the Narr only to a player who holds it (issue #24 item 14).
          toast(`${msg.message || msg.code} ${S.refusal_narr}`);
        } else if (msg.action_id && silentIds.has(msg.action_id)) {
          // Said already, when the card was chosen.
        } else if (!(msg.action_id && quietIds.has(msg.action_id) && MOVED_ON.includes(msg.code))) {
          toast(msg.message || msg.code);
        }
        answered(msg.action_id);
        break;
      case "ack":
        answered(msg.action_id);
        break;
      case "hint":
        // Judged at another version (the table moved on meanwhile): not this decision's.
        pending.delete(msg.action_id || "");
        if (msg.version === version) table.showHint(msg);
        else answered(msg.action_id);
        break;
      default:
        break; // pong and anything new
    }
  }

  /** @param {string | null} actionId */
  function answered(actionId) {
    if (!actionId || !pending.has(actionId)) return;
    const done = pending.get(actionId);
    pending.delete(actionId);
    sentTypes.delete(actionId);
    quietIds.delete(actionId);
    silentIds.delete(actionId);
    if (done) done();
  }

  /** @param {StateMessage} msg */
  function applyState(msg) {
    if (msg.version < version) {
      metrics.ignoredStale += 1;
      return;
    }
    const t0 = performance.now();
    // A change's own events animate it; after a gap (an update that never reached us) they
    // would animate from a table we never saw, so the view alone is shown, complete as always.
    const events = msg.events && (version < 0 || msg.version === version + 1) ? msg.events : null;
    version = msg.version;
    nameBots(msg.view, S);
    table.apply(msg.view, events);
    chrome.setInMatch(!table.inLobby());
    renderRules(rulesTable, ruleWords, msg.view.room.options);
    talk.setView(msg.view);
    const dt = performance.now() - t0;
    metrics.lastApplyMs = dt;
    metrics.maxApplyMs = Math.max(metrics.maxApplyMs, dt);
    metrics.applied += 1;
    metrics.totalApplyMs += dt;
    metrics.recent.push(dt);
    if (metrics.recent.length > 200) metrics.recent.shift();
    metrics.version = version;
    root.dataset.version = String(version);
  }

  /**
   * @param {number[]} connected the user ids with an open socket
   * @param {Record<string, number | null>} away since when each seated player without one is away
   */
  function applyPresence(connected, away) {
    const v = table.view;
    if (!v) return;
    const ids = new Set(connected);
    const seats = v.seats.map((s) => ({ ...s, connected: ids.has(s.player.id),
      away_since: ids.has(s.player.id) ? null : away[String(s.player.id)] ?? s.away_since ?? null }));
    table.apply({ ...v, seats }, null);
  }

  /**
   * @template {CommandType} K
   * @param {K} type
   * @param {CommandFields[K]} [fields]
   * @param {(() => void) | null} [done] runs once the server answered (or it was not sent)
   * @param {boolean | "silent"} [quiet] sent by the page itself: a refusal because the table
   *   moved on is not shown; "silent": no refusal is shown
   */
  function command(type, fields, done = null, quiet = false) {
    const actionId = uuid();
    const message = { type, action_id: actionId, expected_version: version, ...fields };
    if (!conn.send(message)) {
      toast(S.offline);
      if (done) done();
      return;
    }
    pending.set(actionId, done);
    sentTypes.set(actionId, type);
    if (quiet === "silent") silentIds.add(actionId);
    else if (quiet) quietIds.add(actionId);
  }

  /**
   * A request that changes nothing (docs/protocol.md "Hints"): no version; `done` runs if it
   * is refused (its `error`) or cannot be sent.
   * @param {"hint"} type
   * @param {(() => void) | null} [done]
   */
  function ask(type, done = null) {
    const actionId = uuid();
    if (!conn.send({ type, action_id: actionId })) {
      toast(S.offline);
      if (done) done();
      return;
    }
    pending.set(actionId, done);
    sentTypes.set(actionId, type);
  }

  // --- keyboard shortcuts ----------------------------------------------------------------------

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (/** @type {HTMLElement} */ (e.target).tagName || "").toLowerCase();
    // No shortcut reaches the table behind an open dialog (house rules, the drawer).
    if (["input", "select", "textarea"].includes(tag) || document.querySelector("dialog[open]")) return;
    const key = e.key.toLowerCase();
    if (key === "b") table.pressBuob();
    else if (key === "l" && table.view && table.view.last_trick) table.toggleLast();
    else if (key === "d") table.pressDeal();
    else if (key === "h") table.pressHint();
    else if (key === "?") byId("help-pop").togglePopover();
    // Esc closes what lies on top first: the score sheet lies over the felt, so it goes
    // before the trick held under it (unless Esc is closing the help over the sheet). The
    // trick's hold ends on a timer; while it lasts (a slow device, a paused page clock) Esc
    // used to gather the hidden trick and leave the sheet in place (issue #24 item 7).
    else if (key === "escape" && table.sheetShown() && !byId("help-pop").matches(":popover-open")) {
      table.closeSheet();
    }
    else if (key === "escape" && table.showLast) table.toggleLast(false);
    else if (key === "escape" && table.hold && !table.sheetShown()) table.skipHold();
    else return;
    e.preventDefault();
  });

}
