// @ts-check
// The table's websocket: reconnects with backoff, pings every 25 s, and hands every frame on.

/** @import { ClientMessage, ServerMessage } from "./protocol.js" */

/**
 * @typedef {object} ConnectionHandlers
 * @property {(msg: ServerMessage) => void} onMessage every frame that parses as JSON
 * @property {(again: boolean) => void} onOpen `again`: not the first time this page connected
 * @property {(delay: number) => void} onOffline the socket dropped; retrying in `delay` ms
 * @property {(code: number) => void} onFatal closed with a code that must not be retried
 */

// 4426: this page speaks an older protocol than the server; reloading it is the cure.
const FATAL = new Set([4401, 4403, 4404, 4426, 4429]);
// The protocol version this script speaks (docs/protocol.md §3), named in the socket's URL.
export const PROTOCOL = 2;
const PING_MS = 25000;

export class Connection {
  /**
   * @param {string} path the socket's path, e.g. "/ws/rooms/<code>/"
   * @param {ConnectionHandlers} handlers
   */
  constructor(path, { onMessage, onOpen, onOffline, onFatal }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}?protocol=${PROTOCOL}`;
    this.handlers = { onMessage, onOpen, onOffline, onFatal };
    this.attempts = 0;
    this.opened = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {number | undefined} the pending reconnect */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.ping = undefined;
    this.stopped = false;
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const again = this.opened > 0;
      this.opened += 1;
      this.attempts = 0;
      clearInterval(this.ping);
      this.ping = setInterval(() => this.send({ type: "ping" }), PING_MS);
      this.handlers.onOpen(again);
    });
    ws.addEventListener("message", (e) => {
      /** @type {ServerMessage} */
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.handlers.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.ping);
      this.ws = null;
      if (FATAL.has(e.code)) {
        this.stopped = true;
        this.handlers.onFatal(e.code);
        return;
      }
      this.schedule();
    });
  }

  schedule() {
    if (this.stopped || this.timer) return;
    // 0.5 s, 1 s, 2 s … up to 15 s, with jitter so a restarted server is not stampeded.
    const base = Math.min(15000, 500 * 2 ** this.attempts);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempts += 1;
    this.handlers.onOffline(delay);
    this.timer = setTimeout(() => { this.timer = undefined; this.connect(); }, delay);
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.connect();
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Send one frame; false (and nothing sent) while the socket is not open.
   * @param {ClientMessage} message
   * @returns {boolean}
   */
  send(message) {
    const ws = this.ws;
    if (ws === null || !this.open) return false;
    ws.send(JSON.stringify(message));
    return true;
  }
}
