// Small DOM helpers for the live table (no framework, no build step).

/** h("button.primary", {onclick, "aria-label": ...}, child, ...) → HTMLElement */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value);
      } else if (key === "class") {
        el.className += (el.className ? " " : "") + value;
      } else if (key === "dataset") {
        Object.assign(el.dataset, value);
      } else if (key === "style" && typeof value === "object") {
        for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
      } else if (value === true) {
        el.setAttribute(key, "");
      } else {
        el.setAttribute(key, String(value));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Fill "%(name)s" placeholders of a translated sentence. */
export function fmt(template, params = {}) {
  return String(template ?? "").replace(/%\((\w+)\)[sd]/g, (_, key) =>
    key in params ? String(params[key]) : "");
}

/** Replace `slot`'s content with `node` only if `key` changed since the last call. */
export function patch(slot, key, build) {
  if (slot.__key === key) return false;
  slot.__key = key;
  const node = build();
  slot.replaceChildren(...(Array.isArray(node) ? node : [node]).filter(Boolean));
  return true;
}

// Media queries read once and kept live: reading them never forces a layout.
const motionQuery = window.matchMedia("(prefers-reduced-motion: reduce)");
export const reducedMotion = () => motionQuery.matches;
const narrowQuery = window.matchMedia("(max-width: 599px)");
export const narrowScreen = () => narrowQuery.matches;
export const onNarrowChange = (fn) => narrowQuery.addEventListener("change", fn);

/** A fresh action id; crypto.randomUUID needs a secure context, so fall back politely. */
export function uuid() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
