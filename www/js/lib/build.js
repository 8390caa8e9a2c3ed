// Helpers both model pages build their markup with: every id carries the model's prefix
// (`classic-chart`, `cluster-chart`), so the two pages, the shell and the panels they
// hold never share an id; every static text is a catalogue key kept on the element
// (`data-i18n`, `data-i18n-title`, `data-i18n-aria-label`), so applyTexts relabels it
// after a language switch.

import { el } from './dom.js';
import { t } from './i18n.js';

/**
 * The helpers of one page, whose ids start with `prefix-`.
 * @param {string} prefix
 */
export function builder(prefix) {
  /** @param {string} s */
  const id = (s) => `${prefix}-${s}`;
  /**
   * The text of a catalogue key, relabelled on a language switch.
   * @param {string} key
   */
  const tx = (key) => ({ text: t(key), 'data-i18n': key });
  /**
   * An accessible name from a catalogue key, relabelled on a language switch.
   * @param {string} key
   */
  const aria = (key) => ({ 'aria-label': t(key), 'data-i18n-aria-label': key });
  /**
   * A button whose text (and title) are catalogue keys.
   * @param {string} s its id suffix
   * @param {string} key
   * @param {string} [titleKey]
   */
  const btn = (s, key, titleKey) =>
    el('button', {
      type: 'button',
      id: id(s),
      ...tx(key),
      title: titleKey && t(titleKey),
      'data-i18n-title': titleKey,
    });
  /**
   * A focusable scroll box (keyboard users can scroll a wide table) named by `key`.
   * @param {Node} table
   * @param {string} key
   */
  const scrollBox = (table, key) => el('div', { class: 'scroll', tabindex: '0', role: 'region', ...aria(key) }, table);
  return { id, tx, aria, btn, scrollBox };
}

/**
 * Holds an editor's `<details>` open on a wide screen (the CSS hides its summary there)
 * and folded below 1000 px, where the results come first.
 * @param {HTMLDetailsElement} details
 */
export function foldBelowWide(details) {
  const wide = matchMedia('(min-width: 1000px)');
  const fold = () => {
    details.open = wide.matches;
  };
  wide.addEventListener('change', fold);
  fold();
  return details;
}

/**
 * An embed's caption (shown in embeds only): the scenario's title (`prefix-caption-title`,
 * filled by the app) and the link that opens the same state in the playground
 * (`prefix-open`, set by the shell).
 * @param {(s: string) => string} id the page's id maker
 */
export function embedCaption(id) {
  return el(
    'p',
    { id: id('caption'), class: 'embed-only embed-caption' },
    el('strong', { id: id('caption-title') }),
    ' ',
    el('a', {
      id: id('open'),
      class: 'open-link',
      target: '_blank',
      rel: 'noopener',
      'data-i18n': 'shell.openPlayground',
      text: t('shell.openPlayground'),
    }),
  );
}

/**
 * The folded "paste your library's configuration" box of a model's editor: its summary
 * now; its content, code, worker and wasm (js/importer/) when a reader first opens it.
 * `pasted` is the text last used (`{text, from, instance}`), which the link carries;
 * `restore` puts a link's back in the box and reads it.
 * @param {ReturnType<typeof builder>} b the page's ids and texts
 * @param {import('../importer/paste.js').Hooks} hooks what the box reads from and does to the scenario
 */
export function pasteFold(b, hooks) {
  const details = /** @type {HTMLDetailsElement} */ (
    el('details', { id: b.id('paste'), class: 'paste-box' }, el('summary', b.tx('paste.title')))
  );
  /** @type {import('../importer/paste.js').PasteBox | null} */
  let box = null;
  const fold = {
    details,
    box: () => box,
    /** @type {import('../importer/paste.js').Pasted | null} */
    pasted: null,
    /** @param {import('../importer/paste.js').Pasted | null | undefined} p a link's pasted text */
    restore(p) {
      fold.pasted = p ?? null;
      // An embed shows no editor: it has no use for the importer.
      if (!p || document.body.classList.contains('embed')) return;
      if (box) box.fill(p);
      else details.open = true;
    },
  };
  details.addEventListener('toggle', async () => {
    if (!details.open || box) return;
    const { PasteBox } = await import('../importer/paste.js');
    box ??= new PasteBox(details, b, {
      ...hooks,
      apply: (path, value, pasted) => {
        fold.pasted = pasted ?? null;
        hooks.apply(path, value);
      },
    });
    box.start();
    if (fold.pasted) box.fill(fold.pasted);
  });
  return fold;
}
