// @ts-check
// The site socket (/ws/me/, docs/protocol.md "The site socket"), opened by every page of a
// signed-in player: it keeps the player "online" for their friends (a ping every 25 s) and
// shows the unread-notification count in the header as it changes; when the account's friends
// change it tells the page (a "troccas:friends" event: the room's invite list reads them again,
// invite_list.js); any other frame goes to the page as a "troccas:site" event (find.js,
// tournament_live.js). A tournament's page names its tournament (data-watch-tournament): each
// time the socket opens it asks to watch it, and the tournament's changes come as
// "tournament" frames (docs/protocol.md "The site socket").
// Reconnects with backoff; a refusal (signed out, too many tabs) is not retried.

const FATAL = new Set([4401, 4403, 4429]);
const PING_MS = 25000;
const MAX_DELAY_MS = 30000;

/** @param {number} unread */
function showUnread(unread) {
  for (const badge of document.querySelectorAll("[data-notice-count]")) {
    if (!(badge instanceof HTMLElement)) continue;
    badge.textContent = unread > 0 ? String(unread) : "";
    badge.hidden = unread === 0;
    badge.dataset.noticeCount = String(unread);
  }
}

/**
 * A tournament round started: the player's table is ready (games/clubs/rounds.py). A banner
 * at the top of the page links it; the sentence comes translated in the frame.
 * @param {{url?: unknown, text?: unknown}} msg
 */
function showTableReady(msg) {
  if (typeof msg.url !== "string" || !msg.url.startsWith("/") || typeof msg.text !== "string") {
    return;
  }
  if (location.pathname === msg.url) return; // already there
  let banner = document.getElementById("table-ready");
  if (!banner) {
    banner = document.createElement("p");
    banner.id = "table-ready";
    banner.className = "message table-ready";
    banner.setAttribute("role", "status");
    document.body.prepend(banner);
  }
  const link = document.createElement("a");
  link.href = msg.url;
  link.textContent = msg.text;
  banner.replaceChildren(link);
}

/** The tournament this page shows, if it is one of a tournament's live pages. */
function watchedTournament() {
  const node = document.querySelector("[data-watch-tournament]");
  const id = node instanceof HTMLElement ? Number(node.dataset.watchTournament) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

function start() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}/ws/me/`;
  let attempts = 0;
  /** @type {number | undefined} */
  let ping;
  /** @type {number | undefined} */
  let retry;
  let stopped = false;

  function connect() {
    retry = undefined;
    const ws = new WebSocket(url);
    ws.addEventListener("open", () => {
      attempts = 0;
      const tournament = watchedTournament();
      if (tournament !== null) ws.send(JSON.stringify({ type: "watch", tournament }));
      clearInterval(ping);
      ping = window.setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
      }, PING_MS);
    });
    ws.addEventListener("message", (e) => {
      /** @type {{type?: string, unread?: number, url?: unknown, text?: unknown}} */
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "notices" && typeof msg.unread === "number") showUnread(msg.unread);
      else if (msg.type === "friends") document.dispatchEvent(new CustomEvent("troccas:friends"));
      else if (msg.type === "table_ready") showTableReady(msg);
      // Every other frame is a page's (Find a game's queue frames: static/js/find.js).
      else if (typeof msg.type === "string") {
        document.dispatchEvent(new CustomEvent("troccas:site", { detail: msg }));
      }
    });
    ws.addEventListener("close", (e) => {
      clearInterval(ping);
      if (stopped || FATAL.has(e.code)) { stopped = true; return; }
      attempts += 1;
      const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** Math.min(attempts, 5))
        * (0.5 + Math.random() / 2);
      retry = window.setTimeout(connect, delay);
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && retry !== undefined && !stopped) {
      clearTimeout(retry);
      connect();
    }
  });
  connect();
}

start();
