// @ts-check
// The find page (games/templates/games/find.html, issue #24 item 15): joins and leaves the
// queue through /api/queue, shows how many wait and how long I have waited, offers "Play
// with bots" once the chosen wait is over, and moves the player to the table that formed.
// Live through the site socket's `queue`, `queue_table` and `queue_left` frames (handed on
// by static/js/site_socket.js as "troccas:site" events); a slow poll of /api/queue covers
// a frame missed while that socket was reconnecting.

/**
 * @typedef {{status: string | null, waiting?: number, waited?: number,
 *   bots_after?: number | null, bots_offered?: boolean, room?: string | null}} QueueState
 * @typedef {{join: string, leave: string, bots: string, room: string, code: string,
 *   queue: QueueState}} FindConfig
 */

const POLL_MS = 15000;

/** @param {string} id */
function readJson(id) {
  const node = document.getElementById(id);
  return JSON.parse(node?.textContent || "null");
}

/** @type {FindConfig} */
const config = readJson("find-config");
/** @type {Record<string, string>} */
const words = readJson("find-strings");

/** @param {string} selector */
function el(selector) {
  const node = document.querySelector(selector);
  if (!(node instanceof HTMLElement)) throw new Error(`missing ${selector}`);
  return node;
}

const form = /** @type {HTMLFormElement} */ (el("[data-find-form]"));
const wait = el("[data-find-wait]");
const count = el("[data-find-count]");
const waited = el("[data-find-waited]");
const botsIn = el("[data-find-bots-in]");
const botsForm = /** @type {HTMLFormElement} */ (el("[data-find-bots]"));
const outcome = el("[data-find-outcome]");
const errorBox = el("[data-find-error]");

/** @type {QueueState} */
let state = config.queue;
// When `state.waited` was true (the page's clock): the wait is counted on from here.
let since = performance.now();

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** @param {string} template @param {Record<string, string | number>} values */
function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_m, key) => String(values[key] ?? ""));
}

function elapsed() {
  return (state.waited ?? 0) + (performance.now() - since) / 1000;
}

function render() {
  const waiting = state.status === "waiting";
  form.hidden = waiting;
  wait.hidden = !waiting;
  if (!waiting) return;
  count.textContent = fill(words.waiting, { n: state.waiting ?? 1 });
  const now = elapsed();
  waited.textContent = fill(words.waited, { time: clock(now) });
  const after = state.bots_after;
  const offered = after !== null && after !== undefined && now >= after;
  botsForm.hidden = !offered;
  botsIn.hidden = offered || after === null || after === undefined;
  if (!botsIn.hidden && after !== null && after !== undefined) {
    botsIn.textContent = fill(words.bots_in, { time: clock(after - now) });
  }
}

/** @param {QueueState} next */
function apply(next) {
  state = next;
  since = performance.now();
  if (next.status === "waiting") {
    outcome.hidden = true;
    errorBox.hidden = true;
  }
  render();
}

/** @param {string} code */
function goTo(code) {
  outcome.textContent = words.formed;
  outcome.hidden = false;
  location.assign(config.room.replace(config.code, encodeURIComponent(code)));
}

/** @param {string} reason */
function ended(reason) {
  apply({ status: reason });
  outcome.textContent = words[reason] ?? "";
  outcome.hidden = !outcome.textContent;
}

/**
 * @param {string} url @param {Record<string, unknown> | null} body
 * @returns {Promise<any>}
 */
async function call(url, body) {
  const response = await fetch(url, {
    method: body === null ? "GET" : "POST",
    credentials: "same-origin",
    headers: body === null ? {} : { "Content-Type": "application/json" },
    body: body === null ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(typeof data.message === "string" ? data.message : String(response.status));
  return data;
}

/** @param {unknown} error */
function showError(error) {
  errorBox.textContent = error instanceof Error ? error.message : String(error);
  errorBox.hidden = false;
}

function chosenRules() {
  /** @type {Record<string, unknown>} */
  const rules = {};
  for (const select of form.querySelectorAll("select[data-queue-option]")) {
    if (!(select instanceof HTMLSelectElement) || select.value === "") continue;
    rules[select.dataset.queueOption ?? ""] = JSON.parse(select.value);
  }
  return rules;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const select = form.querySelector("select[data-queue-bots-after]");
  const raw = select instanceof HTMLSelectElement ? select.value : "";
  try {
    /** @type {QueueState} */
    const joined = await call(config.join, { rules: chosenRules(), bots_after: raw === "" ? null : Number(raw) });
    // The fourth to come is seated by their own join: the frame may come later, or never.
    if (joined.status === "seated" && joined.room) goTo(joined.room);
    else apply(joined);
  } catch (error) {
    showError(error);
  }
});

el("[data-find-leave]").addEventListener("click", async () => {
  try {
    await call(config.leave, {});
    ended("left");
  } catch (error) {
    showError(error);
  }
});

botsForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const level = new FormData(botsForm).get("level");
  try {
    const data = await call(config.bots, { level: typeof level === "string" ? level : "easy" });
    goTo(String(data.room));
  } catch (error) {
    showError(error);
  }
});

document.addEventListener("troccas:site", (event) => {
  if (!(event instanceof CustomEvent)) return;
  /** @type {{type?: string, room?: string, reason?: string} & QueueState} */
  const frame = event.detail;
  if (frame.type === "queue") apply(frame);
  else if (frame.type === "queue_table" && typeof frame.room === "string") goTo(frame.room);
  else if (frame.type === "queue_left" && typeof frame.reason === "string") ended(frame.reason);
});

// The wait's clock, and a poll in case a frame was missed while the socket reconnected.
window.setInterval(render, 1000);
window.setInterval(async () => {
  if (state.status !== "waiting") return;
  try {
    /** @type {QueueState} */
    const now = await call(config.join, null);
    if ((now.status === "seated" || now.status === "bots") && now.room) goTo(now.room);
    else if (now.status === "waiting") apply(now);
    else if (now.status) ended(now.status);
  } catch {
    // the next poll tries again
  }
}, POLL_MS);

render();
