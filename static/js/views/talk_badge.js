// @ts-check
// Talk you can see at the table (issue #24 item 1): the score bar's "Talk" button, with the
// count of the messages that came while the panel was closed in its label, and the newest of
// them shown on one line for a few seconds in the band above the trick (render.js's
// .felt-band), which lies over no card and no hand. The panel itself is talk.js's.

import { fmt, h } from "../dom.js";

/** How long a new message's line stays in the band. */
const FLASH_MS = 5000;
/** Past this many, the badge says "9+". */
const MOST = 9;

/**
 * @typedef {object} BadgeWords
 * @property {string} open @property {string} close
 * @property {string} unread_one "%(n)s new message" @property {string} unread the other counts
 */

/**
 * @param {BadgeWords} words
 * @param {() => void} toggle opens or closes the panel
 */
export function talkBadge(words, toggle) {
  const label = h("span.talk-label", null, words.open);
  // A speech bubble; on a phone held sideways the score bar has room for it alone
  // (table_notices.css), and the label stays the button's name.
  const ns = "http://www.w3.org/2000/svg";
  const icon = document.createElementNS(ns, "svg");
  icon.setAttribute("viewBox", "0 0 20 20");
  icon.setAttribute("aria-hidden", "true");
  icon.classList.add("talk-icon");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M3 3h14a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H9l-4 3.5V14H3a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z");
  icon.append(path);
  const count = h("span.talk-count", { "aria-hidden": "true", hidden: true });
  const button = /** @type {HTMLButtonElement} */ (h(
    "button.button.button-secondary.button-small-solid.talk-bar-toggle",
    { type: "button", "data-action": "talk", "aria-controls": "talk", "aria-expanded": "false",
      onclick: toggle }, icon, label, count));
  // Always in the page, empty between messages: a live region that appears with its text is
  // not read reliably.
  const flash = h("p.talk-flash", { "aria-live": "polite", "aria-atomic": "true" });
  let unread = 0;
  let open = false;
  /** @type {number | undefined} */
  let timer;

  function show() {
    label.textContent = open ? words.close : words.open;
    count.hidden = unread === 0;
    count.textContent = unread > MOST ? `${MOST}+` : String(unread);
    button.setAttribute("aria-expanded", String(open));
    // The count is in the button's accessible name ("Talk, 2 new messages").
    if (unread) {
      button.setAttribute("aria-label", `${label.textContent}, ${fmt(unread === 1
        ? words.unread_one : words.unread, { n: unread })}`);
    } else {
      button.removeAttribute("aria-label");
    }
  }

  function clearFlash() {
    clearTimeout(timer);
    flash.replaceChildren();
  }

  return {
    button,
    flash,
    /** How many messages came since the panel was last open. */
    unread: () => unread,
    /** @param {boolean} isOpen the panel is on show: everything in it is read */
    setOpen(isOpen) {
      open = isOpen;
      if (open) {
        unread = 0;
        clearFlash();
      }
      show();
    },
    /**
     * Someone else said something: counted and shown in the band while the panel is closed.
     * @param {{ name: string, text: string }} line
     */
    arrived(line) {
      if (open) return;
      unread += 1;
      show();
      clearTimeout(timer);
      flash.replaceChildren(h("span.talk-flash-name", null, `${line.name}:`), " ",
        h("span.talk-flash-text", null, line.text));
      timer = setTimeout(clearFlash, FLASH_MS);
    },
  };
}
