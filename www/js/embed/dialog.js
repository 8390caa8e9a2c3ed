// The embed dialog (the header's "Embed…"): the reader picks what the embed shows (the
// views of the model on screen) and a width, sees the embed live in a preview (the embed
// page itself, in an iframe), and gets a snippet whose fixed height is the preview's
// measured content height for that view and width. The embedded page posts its height
// and width (boot.js), so the height is measured where the reader's blog will show it,
// and a host that strips the script shows no blank gap and no inner scroll. A modal
// <dialog>: Esc or Close closes it, and the focus goes back to the button that opened it.

import { el } from '../lib/dom.js';
import { applyTexts, t } from '../lib/i18n.js';
import { embedSnippet } from './snippet.js';

/** The widths offered, in CSS pixels; 0 is the full width of the preview's box (a snippet 100% wide). */
const WIDTHS = [360, 640, 0];

/**
 * Added to the measured height: a reader's fonts may wrap a line where the preview's did
 * not, and a few pixels of blank are better than a scroll bar (a gap shows from ~40 px).
 */
const HEIGHT_SLACK_PX = 8;

/**
 * What the dialog embeds, from the shell, for the model on screen.
 * @typedef {object} EmbedSource
 * @property {'classic' | 'cluster' | 'studies'} model
 * @property {string[]} views the model's embed views (`embed=` values)
 * @property {string} view the one chosen first
 * @property {(view: string) => string} url the embed's URL for a view
 * @property {string} title the scenario's title, for the iframe's accessible name
 */

/**
 * A radio button with its label.
 * @param {string} name
 * @param {string} value
 * @param {string} text
 * @param {boolean} checked
 */
const radio = (name, value, text, checked) =>
  el('label', {}, el('input', { type: 'radio', name, value, checked }), ' ', el('span', { text }));

export class EmbedDialog {
  constructor() {
    this.views = el('fieldset', { class: 'embed-views' });
    this.widths = el('fieldset', { class: 'embed-widths' });
    this.frame = this.newFrame();
    this.measure = el('p', { id: 'embed-measure', class: 'hint', role: 'status' });
    this.code = el('textarea', {
      id: 'embed-code',
      class: 'export-text',
      rows: 4,
      readonly: true,
      spellcheck: 'false',
    });
    this.copied = el('span', { class: 'copied', role: 'status' });
    this.dialog = el(
      'dialog',
      { id: 'embed-dialog', class: 'embed-dialog', 'aria-labelledby': 'embed-dialog-h' },
      el('h2', { id: 'embed-dialog-h', 'data-i18n': 'embed.heading' }),
      el('p', { class: 'hint', 'data-i18n': 'embed.intro' }),
      el('div', { class: 'embed-choices' }, this.views, this.widths),
      // A scroll box (a tall preview in a short window): focusable, so the keyboard scrolls it.
      el(
        'div',
        { class: 'embed-preview-box', tabindex: '0', role: 'region', 'data-i18n-aria-label': 'embed.preview' },
        this.frame,
      ),
      this.measure,
      el('label', { class: 'export-label', for: 'embed-code', 'data-i18n': 'embed.code' }),
      this.code,
      el(
        'div',
        { class: 'row-actions' },
        el('button', { type: 'button', id: 'embed-copy', 'data-i18n': 'embed.copy', onclick: () => this.copy() }),
        el('button', { type: 'button', id: 'embed-close', 'data-i18n': 'embed.close', onclick: () => this.close() }),
        this.copied,
      ),
    );
    this.views.addEventListener('change', () => this.load());
    this.widths.addEventListener('change', () => this.resize());
    this.dialog.addEventListener('close', () => this.closed());
    addEventListener('message', (e) => this.heard(e));
    document.body.append(this.dialog);
    /** @type {EmbedSource | null} */
    this.source = null;
    /** @type {HTMLElement | null} the button to focus again on closing */
    this.opener = null;
    this.src = '';
    /** The preview's last report: its content height and width, and whether its run is shown. */
    this.last = { height: 0, width: 0, ready: false };
  }

  /**
   * Opens the dialog for `source`.
   * @param {EmbedSource} source
   * @param {HTMLElement | null} opener
   */
  open(source, opener) {
    this.source = source;
    this.opener = opener;
    const width = this.checked(this.widths)?.value ?? '640';
    this.views.replaceChildren(
      el('legend', { text: t('embed.show') }),
      ...source.views.map((v) => radio('embed-view', v, t(`embed.view.${source.model}.${v}`), v === source.view)),
    );
    this.widths.replaceChildren(
      el('legend', { text: t('embed.width') }),
      ...WIDTHS.map((w) =>
        radio('embed-width', String(w), w ? t('embed.px', { n: w }) : t('embed.full'), String(w) === width),
      ),
    );
    applyTexts(this.dialog);
    this.copied.textContent = '';
    this.dialog.showModal();
    this.checked(this.views)?.focus();
    this.resize();
    this.load();
  }

  close() {
    this.dialog.close();
  }

  /** The preview stops (its page and workers go) and the focus returns to the opener. */
  closed() {
    const blank = this.newFrame();
    this.frame.replaceWith(blank);
    this.frame = blank;
    this.src = '';
    this.opener?.focus();
  }

  /**
   * The checked radio button of a group.
   * @param {HTMLElement} group
   * @returns {HTMLInputElement | null}
   */
  checked(group) {
    return group.querySelector('input:checked');
  }

  /** The width chosen: CSS pixels, or 0 for the full width. */
  width() {
    return Number(this.checked(this.widths)?.value ?? 0);
  }

  /** The preview's iframe: a new one for every view, so no message of the last view's page counts for this one. */
  newFrame() {
    return el('iframe', { class: 'embed-preview', title: t('embed.preview'), 'data-i18n-title': 'embed.preview' });
  }

  /** Loads the preview of the view chosen; its height is measured again. */
  load() {
    if (!this.source) return;
    const view = this.checked(this.views)?.value ?? this.source.view;
    this.src = this.source.url(view);
    this.last = { height: 0, width: 0, ready: false };
    const frame = this.newFrame();
    frame.style.width = this.frame.style.width;
    frame.src = this.src;
    this.frame.replaceWith(frame);
    this.frame = frame;
    this.render();
  }

  /** Gives the preview the width chosen; the embedded page answers with its new height. */
  resize() {
    const w = this.width();
    this.frame.style.width = w ? `${w}px` : '100%';
    this.render();
  }

  /**
   * The preview's height message (boot.js): the frame follows its content, so it never
   * scrolls (a scroll bar would narrow it and change what is measured).
   * @param {MessageEvent} e
   */
  heard(e) {
    const d = e.data;
    if (e.source !== this.frame.contentWindow || e.origin !== location.origin) return;
    if (d?.type !== 'retrystorm:height' || typeof d.height !== 'number') return;
    this.last = { height: d.height, width: Number(d.width) || 0, ready: !!d.ready };
    this.frame.style.height = `${d.height}px`;
    this.render();
  }

  /**
   * The snippet and what the measure says. The height counts once the preview has shown
   * its run at the width the frame has now.
   */
  render() {
    if (!this.source || !this.src) return;
    const { height, width, ready } = this.last;
    const measured = ready && Math.abs(width - this.frame.clientWidth) <= 1;
    const fixed = height + HEIGHT_SLACK_PX;
    this.code.value = embedSnippet(this.src, {
      width: this.width(),
      height: fixed,
      title: t('embed.frameTitle', { app: t('app.title'), title: this.source.title }),
    });
    this.measure.textContent = measured ? t('embed.measured', { height: fixed, width }) : t('embed.measuring');
    // For the tests: the height in the snippet, once measured, and the width it holds for.
    if (measured) Object.assign(this.dialog.dataset, { height: String(fixed), width: String(width) });
    else delete this.dialog.dataset.height;
  }

  /** Copies the snippet when the clipboard is allowed, else selects it to copy by hand. */
  async copy() {
    const what = t('shell.what.embed');
    try {
      await navigator.clipboard.writeText(this.code.value);
      this.copied.textContent = t('export.copied', { what });
    } catch {
      this.code.focus();
      this.code.select();
      this.copied.textContent = t('export.selectCopy', { what });
    }
  }
}
