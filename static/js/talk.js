// @ts-check
// The table talk panel (issue #17; docs/protocol.md "Table talk"). What arrives is always
// rendered as text (textContent), never as HTML; a URL becomes a link only when the server
// says the speaker's links may be links for this reader (`links`: a friend's, and nobody is a
// friend yet). Seated players see the table's talk; spectators also their own chat, in a tab.

import { fmt, h, uuid } from "./dom.js";
import { talkBadge } from "./views/talk_badge.js";

/**
 * One message as this reader gets it (games/talk/frames.py `for_reader`).
 * @typedef {object} TalkLine
 * @property {number} id
 * @property {"table" | "spectators"} audience
 * @property {number} author the speaker's user id
 * @property {string} name
 * @property {number | null} seat
 * @property {string} text a quick phrase already in this reader's language
 * @property {string | null} phrase
 * @property {number | null} match
 * @property {number} version @property {number | null} deal @property {number | null} trick
 * @property {boolean} links
 */

/**
 * @typedef {object} TalkWords
 * @property {string} title @property {string} table @property {string} spectators
 * @property {string} open @property {string} close @property {string} label
 * @property {string} placeholder @property {string} spectator_placeholder
 * @property {string} send @property {string} phrases @property {string} mute
 * @property {string} unmute @property {string} report @property {string} reported
 * @property {string} report_title @property {string} report_note @property {string} report_send
 * @property {string} report_cancel @property {number} report_max
 * @property {{ key: string, text: string }[]} report_reasons
 * @property {string} empty @property {string} public_note @property {string} spectator_note
 * @property {string} silent @property {string} phrases_only
 * @property {string} unread_one @property {string} unread "%(n)s new messages" (issue #24)
 * @property {number} max
 * @property {{ key: string, text: string }[]} palette
 */

/**
 * @typedef {{ type: "talk", message: TalkLine } | { type: "talk_history", messages: TalkLine[] }
 *   | { type: "talk_hidden", id: number }
 *   | { type: "talk_ack", action_id: string, id?: number, duplicate: boolean }} TalkFrame
 */

const URL_RE = /\bhttps?:\/\/[^\s<>"']+/g;
// Wide enough for the panel beside the table (static/css/talk.css uses the same width);
// narrower, the panel is a drawer that the header's button opens.
const wideQuery = window.matchMedia("(min-width: 64rem)");

/**
 * The text of a message as nodes: plain text, and links only where `links` allows.
 * @param {string} text
 * @param {boolean} links
 * @returns {(Node | string)[]}
 */
export function textNodes(text, links) {
  if (!links) return [text];
  /** @type {(Node | string)[]} */
  const out = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    out.push(h("a", { href: m[0], rel: "nofollow noopener noreferrer", target: "_blank" }, m[0]));
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * Build the panel's behaviour around the server-rendered #talk.
 * @param {object} opts
 * @param {TalkWords} opts.words
 * @param {{ id: number, name: string } | null} opts.me
 * @param {(message: object) => boolean} opts.send sends one frame; false when offline
 * @param {(text: string, kind?: "error" | "info") => void} opts.toast
 */
export function createTalk({ words, me, send, toast }) {
  const found = document.getElementById("talk");
  // The header's button, a small phone's in the room drawer (talk.css shows one of them), and
  // the panel's own "hide" button.
  const toggles = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll(".talk-toggle")]);
  if (!found || !me) {
    if (found) found.remove();
    return { handle: (/** @type {{ type: string }} */ _m) => false, setView: (/** @type {any} */ _v) => {},
      badge: null };
  }
  const panel = found;
  const form = /** @type {HTMLFormElement} */ (panel.querySelector("#talk-form"));
  const input = /** @type {HTMLInputElement} */ (panel.querySelector("#talk-input"));
  const note = /** @type {HTMLElement} */ (panel.querySelector("#talk-note"));
  const tabs = /** @type {HTMLElement} */ (panel.querySelector("#talk-tabs"));
  const paletteEl = /** @type {HTMLElement} */ (panel.querySelector("#talk-palette"));
  /** @type {Record<string, HTMLOListElement>} */
  const lists = {
    table: /** @type {HTMLOListElement} */ (panel.querySelector("#talk-list-table")),
    spectators: /** @type {HTMLOListElement} */ (panel.querySelector("#talk-list-spectators")),
  };
  /** @type {Map<number, TalkLine>} */
  const lines = new Map();
  /** @type {Map<number, string>} the speakers muted from this page, by id: their names */
  const muted = new Map();
  const unmuteRow = h("div.talk-unmute");
  note.after(unmuteRow);
  /** @type {Set<number>} */
  const reported = new Set();
  let seated = false;
  let mode = "free";
  let tab = "table";
  let match = /** @type {number | null} */ (null);

  for (const p of words.palette) {
    paletteEl.append(h("button.talk-phrase", { type: "button",
      onclick: () => say({ phrase: p.key }) }, p.text));
  }
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (tabs.querySelectorAll(".talk-tab"))) {
    b.addEventListener("click", () => { tab = b.dataset.audience || "table"; layout(); });
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (say({ text })) input.value = "";
  });

  // A panel beside the table on a wide screen; on a phone a drawer the button opens.
  let open = wideQuery.matches;
  const flip = () => {
    open = !open;
    layout();
    if (open) input.focus();
  };
  // The table's own button, in the score bar (issue #24 item 1).
  const badge = talkBadge(words, flip);
  for (const toggle of toggles) {
    toggle.addEventListener("click", () => {
      // From the room drawer: it closes, so the talk shows at once.
      const dialog = toggle.closest("dialog");
      if (dialog) dialog.close();
      flip();
    });
  }
  wideQuery.addEventListener("change", () => { open = wideQuery.matches; layout(); });

  /**
   * Send `say`; false while offline (the table shows its own offline banner then, and the
   * text stays in the input to send again).
   * @param {Record<string, unknown>} fields
   */
  function say(fields) {
    return send({ type: "say", action_id: uuid(), ...fields });
  }

  function layout() {
    panel.hidden = !open;
    badge.setOpen(open);
    const unread = badge.unread();
    for (const toggle of toggles) {
      toggle.setAttribute("aria-expanded", String(open));
      if (!toggle.classList.contains("talk-toggle-close")) {
        toggle.textContent = open ? words.close : unread ? `${words.open} (${unread})` : words.open;
      }
    }
    tabs.hidden = seated;
    if (seated) tab = "table";
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (tabs.querySelectorAll(".talk-tab"))) {
      b.setAttribute("aria-pressed", String(b.dataset.audience === tab));
    }
    lists.table.hidden = tab !== "table";
    lists.spectators.hidden = tab !== "spectators";
    // A spectator speaks in the spectators' chat: the composer shows under that tab only.
    const speaking = seated || tab === "spectators";
    form.hidden = !speaking || mode !== "free";
    paletteEl.hidden = !speaking || mode === "silent";
    input.placeholder = seated ? words.placeholder : words.spectator_placeholder;
    note.textContent = mode === "silent" ? words.silent
      : mode === "phrases" ? words.phrases_only
        : tab === "spectators" ? words.spectator_note : words.public_note;
    for (const list of Object.values(lists)) {
      if (!list.children.length) list.dataset.empty = words.empty;
    }
    unmuteRow.replaceChildren(...[...muted].map(([id, name]) => h("button.talk-unmute-one",
      { type: "button", onclick: () => {
        if (send({ type: "mute", action_id: uuid(), player: id, muted: false })) {
          muted.delete(id);
          layout();
        }
      } }, fmt(words.unmute, { name }))));
  }

  /** @param {TalkLine} m */
  function row(m) {
    const mine = m.author === me?.id;
    const actions = mine ? null : h("span.talk-actions", null,
      h("button.talk-mute", { type: "button", "aria-pressed": String(muted.has(m.author)),
        "aria-label": fmt(words.mute, { name: m.name }), title: fmt(words.mute, { name: m.name }),
        onclick: () => {
          if (send({ type: "mute", action_id: uuid(), player: m.author, muted: true })) {
            muted.set(m.author, m.name);
            layout();
          }
        } },
      "⊘"),
      h("button.talk-report", { type: "button", disabled: reported.has(m.id),
        "aria-label": fmt(words.report, { name: m.name }), title: fmt(words.report, { name: m.name }),
        "aria-expanded": "false",
        onclick: (e) => {
          const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
          const line = /** @type {HTMLElement} */ (button.closest(".talk-line"));
          const open = line.querySelector(".talk-report-form");
          if (open) {
            open.remove();
            button.setAttribute("aria-expanded", "false");
          } else {
            line.append(reportForm(m, button));
            button.setAttribute("aria-expanded", "true");
          }
        } }, "⚑"));
    return h("li.talk-line", { dataset: { id: m.id, author: m.author } },
      h("span.talk-name", null, m.name), " ",
      h("span.talk-text", null, ...textNodes(m.text, m.links)), actions);
  }

  /**
   * A report asks why (issue #24 item 14): one of the listed reasons (required) and an
   * optional note; sent, the message's ⚑ stays disabled.
   * @param {TalkLine} m
   * @param {HTMLButtonElement} button
   */
  function reportForm(m, button) {
    const group = `talk-reason-${m.id}`;
    const form = h("form.talk-report-form", {
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const data = new FormData(/** @type {HTMLFormElement} */ (e.currentTarget));
        const reason = String(data.get("reason") || "");
        const note = String(data.get("note") || "").trim();
        if (!reason) return;
        if (send({ type: "report", action_id: uuid(), message: m.id, reason,
          ...(note ? { note } : {}) })) {
          reported.add(m.id);
          button.disabled = true;
          button.setAttribute("aria-expanded", "false");
          form.remove();
          toast(words.reported, "info");
        }
      },
    },
    h("fieldset", null,
      h("legend", null, fmt(words.report_title, { name: m.name })),
      ...words.report_reasons.map((r) => h("label.talk-reason", null,
        h("input", { type: "radio", name: "reason", value: r.key, required: true,
          id: `${group}-${r.key}` }), " ", r.text))),
    h("label.talk-report-note", null, words.report_note,
      h("input", { type: "text", name: "note", maxlength: words.report_max })),
    h("span.talk-report-buttons", null,
      h("button", { type: "submit" }, words.report_send),
      h("button", { type: "button", onclick: () => {
        form.remove();
        button.setAttribute("aria-expanded", "false");
        button.focus();
      } }, words.report_cancel)));
    return form;
  }

  /** @param {TalkLine} m */
  function add(m) {
    if (m.match !== match && m.match !== null) {
      // A new match: its talk starts afresh, as the server's history does.
      if (match !== null) clear();
      match = m.match;
    }
    if (lines.has(m.id)) return;
    lines.set(m.id, m);
    const list = lists[m.audience] || lists.table;
    list.append(row(m));
    delete list.dataset.empty;
    list.scrollTop = list.scrollHeight;
  }

  function clear() {
    lines.clear();
    for (const list of Object.values(lists)) list.replaceChildren();
  }

  /**
   * Handle a talk frame; false for any other frame.
   * @param {{ type: string }} msg
   */
  function handle(msg) {
    const f = /** @type {TalkFrame} */ (msg);
    if (f.type === "talk") {
      const fresh = !lines.has(f.message.id);
      add(f.message);
      // Someone else spoke while the panel is closed: the button counts it, the band shows it.
      if (fresh && f.message.author !== me?.id) badge.arrived(f.message);
    }
    else if (f.type === "talk_history") {
      clear();
      match = null;
      for (const m of f.messages) add(m);
    } else if (f.type === "talk_hidden") {
      lines.delete(f.id);
      panel.querySelector(`.talk-line[data-id="${f.id}"]`)?.remove();
    } else if (f.type !== "talk_ack") return false;
    layout();
    return true;
  }

  /**
   * Follow the table: whether this reader holds a seat, and the room's `table_talk` rule.
   * @param {{ seat: number | null, room: { options: { table_talk?: string } } }} view
   */
  function setView(view) {
    const nowSeated = view.seat !== null && view.seat !== undefined;
    const nowMode = view.room.options.table_talk || "free";
    if (nowSeated === seated && nowMode === mode) return;
    seated = nowSeated;
    mode = nowMode;
    layout();
  }

  layout();
  return { handle, setView, badge };
}
