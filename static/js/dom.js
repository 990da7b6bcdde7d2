// @ts-check
// Small DOM helpers for the live table and the replay viewer (no framework, no build step).

/**
 * What `h` appends: nodes and text (strings and numbers); null, undefined and false are
 * skipped.
 * @typedef {Node | string | number | null | undefined | false} Leaf
 */
/**
 * A child of `h`: a leaf, or lists of them (flattened; the type stops at two levels, `h`
 * itself at none).
 * @typedef {Leaf | Leaf[] | Array<Leaf | Leaf[]>} Child
 */

/**
 * The attributes `h` sets. `on…` functions become event listeners, `class` is added to the
 * tag's classes, `dataset` and `style` are objects, `true` sets an empty attribute, and
 * null, undefined and false set nothing. Anything else is set with setAttribute.
 * @typedef {{
 *   [name: string]: unknown,
 *   class?: string | null,
 *   dataset?: Record<string, string | number>,
 *   style?: Record<string, string>,
 *   onclick?: (e: MouseEvent) => void,
 *   onchange?: (e: Event) => void,
 *   oninput?: (e: Event) => void,
 *   ontoggle?: (e: Event) => void,
 * }} Attrs
 */

/**
 * h("button.primary", {onclick, "aria-label": ...}, child, ...) → HTMLElement
 * @param {string} tag a tag name with optional ".class" suffixes ("div" when only classes)
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
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

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Fill "%(name)s" placeholders of a translated sentence.
 * @param {string | null | undefined} template
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function fmt(template, params = {}) {
  return String(template ?? "").replace(/%\((\w+)\)[sd]/g, (_, key) =>
    key in params ? String(params[key]) : "");
}

/** The key each slot was last built for (see `patch`). @type {WeakMap<Element, string>} */
const built = new WeakMap();

/**
 * Replace `slot`'s content with what `build` returns only if `key` changed since the last call.
 * @param {Element} slot
 * @param {string} key
 * @param {() => Node | Array<Node | null | undefined | false>} build
 * @returns {boolean} whether the slot was rebuilt
 */
export function patch(slot, key, build) {
  if (built.get(slot) === key) return false;
  built.set(slot, key);
  const node = build();
  slot.replaceChildren(...(Array.isArray(node) ? node : [node]).filter(isNode));
  return true;
}

/**
 * Forget what `slot` was built for, so the next `patch` of it rebuilds it.
 * @param {Element} slot
 */
export function forget(slot) {
  built.delete(slot);
}

/**
 * @param {Node | null | undefined | false} node
 * @returns {node is Node}
 */
const isNode = (node) => Boolean(node);

// Media queries read once and kept live: reading them never forces a layout.
const motionQuery = window.matchMedia("(prefers-reduced-motion: reduce)");
export const reducedMotion = () => motionQuery.matches;
const narrowQuery = window.matchMedia("(max-width: 599px)");
export const narrowScreen = () => narrowQuery.matches;
/** @param {() => void} fn */
export const onNarrowChange = (fn) => narrowQuery.addEventListener("change", fn);

/**
 * A fresh action id; crypto.randomUUID needs a secure context, so fall back politely.
 * @returns {string}
 */
export function uuid() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
