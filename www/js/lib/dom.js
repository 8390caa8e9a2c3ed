// Tiny DOM helpers. Data (names, messages) only ever goes in through textContent or
// input.value: nothing from a scenario or a link is ever parsed as markup.

/**
 * Creates an element with attributes (set as properties/attributes) and text children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs] `class`, `text`, `on<event>` handlers, properties, attributes
 * @param {...(Node | string | number | null | undefined)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== 'string') /** @type {any} */ (node)[key] = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Shorthand for getElementById, for the elements index.html always has.
 * @param {string} id
 * @returns {HTMLElement}
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Shows a message in the page banner (role=alert); `null` hides it. A `detail` (the
 * engine's technical message) folds away under its summary.
 * @param {string | null} message
 * @param {string} [kind]
 * @param {{summary: string, text: string}} [detail]
 */
export function banner(message, kind = 'error', detail) {
  const node = $('banner');
  if (!message) {
    node.hidden = true;
    node.textContent = '';
    return;
  }
  node.className = `banner ${kind}`;
  node.textContent = message;
  if (detail) {
    node.append(' ', el('details', {}, el('summary', { text: detail.summary }), el('code', { text: detail.text })));
  }
  node.hidden = false;
}
