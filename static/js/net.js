// The table's websocket: reconnects with backoff, pings every 25 s, and hands every frame on.

const FATAL = new Set([4401, 4403, 4404, 4429]);
const PING_MS = 25000;

export class Connection {
  constructor(path, { onMessage, onOpen, onOffline, onFatal }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}`;
    this.handlers = { onMessage, onOpen, onOffline, onFatal };
    this.attempts = 0;
    this.opened = 0;
    this.ws = null;
    this.timer = null;
    this.ping = null;
    this.stopped = false;
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
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
    this.timer = setTimeout(() => { this.timer = null; this.connect(); }, delay);
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}
