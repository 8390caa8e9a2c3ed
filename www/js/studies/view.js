// The studies view (`?studies`, `?study=ID&seeds=N`, docs/playground.md "Studies"):
// published setups of independent simulators restated in the cluster model, each with its
// source, its setup in words and the source's figures beside the model's, as
// `retrystorm studies` and `retrystorm study ID` give them. Every word about a study, the
// table's cells included, comes from the engine in the page's language; nothing here knows
// any one study. This folder (js/studies/), its worker and its wasm load only when a reader
// first opens the view (shell.js).

import { $, banner, el } from '../lib/dom.js';
import { lang, onLangChange, t } from '../lib/i18n.js';
import { readLocation, urlFor } from '../lib/urlstate.js';

/**
 * @typedef {{work: string, url: string, file: string, commit: string}} Source
 * @typedef {{id: string, title: string, source: Source, seeds: number}} Listed
 * @typedef {{id: string, title: string, source: Source, setup: string, reference: string, note: string, summary: string, seedCount: number, figures: {verdict: string}[],
 *   words: {source: string, setup: string, reference: string, note: string}, head: string[], rows: string[][]}} Study
 * @typedef {{message: string, field?: string, plain?: string}} StudyError
 * @typedef {{ok: true, value: any} | {ok: false, error: StudyError} | {ok: false, cancelled: true}} Answer
 */

/** The style sheet of this view, fetched with it (not part of the first page). */
const STYLE = new URL('./studies.css', import.meta.url);

/**
 * The URL of the studies view: the index (`id` empty) or study `id` over `seeds` seeds
 * (empty: its own count), keeping the reader's settings; `embed` embeds it.
 * @param {string} id
 * @param {{seeds?: string, embed?: boolean, lang?: string | null}} [options]
 */
export function studyUrl(id, { seeds = '', embed = false, lang = null } = {}) {
  const url = new URL(urlFor(null, { embed: embed ? 'study' : null, lang }));
  if (id) url.searchParams.set('study', id);
  else if (!embed) url.searchParams.set('studies', '');
  if (id && seeds) url.searchParams.set('seeds', seeds);
  // `?studies=` reads as `?studies` does; the link looks cleaner without the `=`.
  return url.toString().replace(/([?&]studies)=(?=&|$)/, '$1');
}

export class StudiesView {
  /**
   * Builds the view's (empty) root in `parent`.
   * @param {HTMLElement} parent
   * @param {() => void} route shows what the URL asks for (shell.js)
   * @param {() => import('../embed/dialog.js').EmbedDialog} dialog the page's embed dialog
   */
  constructor(parent, route, dialog) {
    this.route = route;
    // While the view is on screen, the header's "Copy link" and "Embed…" are about it: its
    // listeners run first (capture), so the shell's, which are about the models, never do.
    // Here rather than in shell.js: the first page carries none of the view's code.
    const on = () => document.body.classList.contains('studies');
    document.addEventListener(
      'click',
      (e) => {
        const button = e.target instanceof Element ? e.target.closest('#copy-link, #copy-embed') : null;
        if (!button || !on()) return;
        e.stopPropagation();
        if (button.id === 'copy-link') this.copyLink();
        else dialog().open(this.embedSource(), $('copy-embed'));
      },
      true,
    );
    // A study's words are the engine's: shown again (run again) in the new language.
    onLangChange(() => {
      if (on()) this.show();
    });
    document.head.append(el('link', { rel: 'stylesheet', href: STYLE.href }));
    this.root = el('section', { id: 'studies-root', class: 'studies-view' });
    // What "Copy link" did (the models' status lines are hidden with them).
    this.flash = el('p', { id: 'studies-flash', class: 'hint', role: 'status' });
    parent.append(this.root);
    /** @type {Worker | null} started on first use, ended by a cancel */
    this.worker = null;
    this.nextId = 0;
    /** @type {Map<number, (a: Answer) => void>} */
    this.waiting = new Map();
    /** Each show() counts up: an answer for an older one is dropped. */
    this.shown = 0;
    /** What is on screen: the index (`id` empty) or a study, and its seeds. */
    this.current = { id: '', seeds: '' };
    /** The title on screen, for the embed dialog. */
    this.title = '';
  }

  /**
   * Opens the index (`id` empty) or a study in a new history entry (the same again: none).
   * @param {string} id
   * @param {string} seeds
   */
  go(id, seeds) {
    const url = studyUrl(id, { seeds });
    if (url === location.href) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    this.route();
  }

  /** The header's "Copy link" on this view: the address on screen, which is the view's link. */
  async copyLink() {
    // The link is shown either way: ticked once copied, else to copy by hand (no
    // clipboard in some iframes, or a denied permission).
    let copied = '';
    try {
      await navigator.clipboard.writeText(location.href);
      copied = '✓ ';
    } catch {}
    this.flash.textContent = `${copied}${location.href}`;
  }

  /** What the embed dialog embeds: the study on screen (or the index). */
  embedSource() {
    const { id, seeds } = this.current;
    return {
      model: /** @type {const} */ ('studies'),
      views: ['study'],
      view: 'study',
      url: () => studyUrl(id, { seeds, embed: true, lang: lang() }),
      title: this.title,
    };
  }

  /**
   * Posts a request to the studies' worker (started if need be) and resolves with its answer.
   * @param {Record<string, unknown>} request
   * @returns {Promise<Answer>}
   */
  ask(request) {
    if (!this.worker) {
      const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      worker.onmessage = (e) => {
        const done = this.waiting.get(e.data.id);
        this.waiting.delete(e.data.id);
        done?.(e.data);
      };
      this.worker = worker;
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker?.postMessage({ id, lang: lang(), ...request });
    });
  }

  /** Stops a run: its worker ends (a wasm call cannot be interrupted), the next request starts another. */
  cancel() {
    this.worker?.terminate();
    this.worker = null;
    for (const done of this.waiting.values()) done({ ok: false, cancelled: true });
    this.waiting.clear();
  }

  /**
   * Shows what the URL asks for: the index, or a study over its `seeds` (none: its own
   * count); a link the engine refuses shows the engine's one-line message and falls back.
   */
  async show() {
    const id = readLocation().study ?? '';
    const seeds = new URLSearchParams(location.search).get('seeds') ?? '';
    const token = ++this.shown;
    this.flash.textContent = '';
    this.current = { id, seeds };
    // A run still going is for what was on screen: end it (an idle worker is kept).
    if (this.waiting.size) this.cancel();
    // The embed's host waits for the figures (boot.js: nothing `running` on the body).
    document.body.dataset.study = 'running';
    try {
      const list = await this.ask({ kind: 'list' });
      if (token !== this.shown || !list.ok) return;
      /** @type {Listed[]} */
      const studies = list.value;
      const listed = studies.find((s) => s.id === id);
      if (!id || !listed) {
        if (id) await this.refused(token, id, seeds);
        if (token === this.shown) this.index(studies);
        return;
      }
      await this.study(token, listed, seeds);
    } finally {
      if (token === this.shown) delete document.body.dataset.study;
    }
  }

  /**
   * A study id no study has: the engine's own message names the field and the ids allowed.
   * @param {number} token
   * @param {string} id
   * @param {string} seeds
   */
  async refused(token, id, seeds) {
    const answer = await this.ask({ kind: 'run', study: id, seeds });
    if (token === this.shown && !answer.ok && 'error' in answer) this.problem(answer.error);
  }

  /**
   * A link's value the engine refuses: its plain words, the technical message folded.
   * @param {StudyError} err
   */
  problem(err) {
    banner(err.plain || err.message, 'error', { summary: t('shell.badLink.detail'), text: err.message });
  }

  /**
   * A link to the index or a study that opens in place, in a new history entry.
   * @param {string} id
   * @param {string} text
   * @param {string} [seeds]
   */
  link(id, text, seeds = '') {
    return el('a', {
      href: studyUrl(id, { seeds }),
      text,
      onclick: (/** @type {MouseEvent} */ e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        this.go(id, seeds);
      },
    });
  }

  /**
   * The source of a study, linked.
   * @param {Source} source
   */
  source(source) {
    return [
      el('a', { href: source.url, target: '_blank', rel: 'noopener', text: source.work }),
      ` (${source.file}, ${source.commit})`,
    ];
  }

  /** @param {Listed[]} studies */
  index(studies) {
    this.title = t('studies.title');
    this.root.replaceChildren(
      el('h2', { id: 'studies-h', text: this.title }),
      el('p', { id: 'studies-intro', text: t('studies.intro') }),
      this.flash,
      el(
        'ul',
        { id: 'studies-list', class: 'studies-list' },
        ...studies.map((s) =>
          el(
            'li',
            { 'data-study': s.id },
            this.link(s.id, s.title),
            el('br'),
            el('span', { class: 'hint' }, ...this.source(s.source)),
          ),
        ),
      ),
    );
  }

  /**
   * A study: its heading at once, its figures when the worker has run it.
   * @param {number} token
   * @param {Listed} listed
   * @param {string} seeds
   */
  async study(token, listed, seeds) {
    this.title = listed.title;
    const input = el('input', {
      id: 'study-seeds',
      type: 'number',
      min: 2,
      step: 1,
      value: seeds || String(listed.seeds),
    });
    const status = el('span', { id: 'study-status', role: 'status', class: 'hint', text: t('shell.running') });
    const cancel = el('button', {
      type: 'button',
      id: 'study-cancel',
      text: t('shell.cancel'),
      onclick: () => {
        this.shown++;
        this.cancel();
        delete document.body.dataset.study;
        status.textContent = '';
        cancel.hidden = true;
      },
    });
    const body = el('div', { id: 'study-body' });
    const run = () => this.go(listed.id, /** @type {HTMLInputElement} */ (input).value.trim());
    this.root.replaceChildren(
      el('p', { class: 'editor-only' }, this.link('', t('studies.back'))),
      el('h2', { id: 'studies-h', 'data-study': listed.id, text: listed.title }),
      this.flash,
      el('p', { class: 'study-source' }, ...this.source(listed.source)),
      el(
        'form',
        {
          class: 'study-run editor-only',
          onsubmit: (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            run();
          },
        },
        el('label', { for: 'study-seeds', text: t('seeds.label') }),
        ' ',
        input,
        ' ',
        el('button', { type: 'submit', id: 'study-run', text: t('studies.run') }),
        ' ',
        cancel,
        ' ',
        status,
      ),
      body,
      el(
        'p',
        { class: 'embed-only' },
        el('a', {
          href: studyUrl(listed.id, { seeds }),
          target: '_blank',
          rel: 'noopener',
          text: t('shell.openPlayground'),
        }),
      ),
    );
    let answer = await this.ask({ kind: 'run', study: listed.id, seeds });
    if (token !== this.shown) return;
    if (!answer.ok && 'error' in answer && seeds) {
      // A seed count the engine refuses: its message, then the study's own count.
      this.problem(answer.error);
      /** @type {HTMLInputElement} */ (input).value = String(listed.seeds);
      answer = await this.ask({ kind: 'run', study: listed.id, seeds: '' });
      if (token !== this.shown) return;
    }
    cancel.hidden = true;
    if (!answer.ok) {
      // A cancel has already said so; a failure says what the engine said.
      if ('error' in answer) status.textContent = answer.error.message;
      return;
    }
    status.textContent = '';
    this.figures(body, answer.value);
  }

  /**
   * The study's words and its table, as the engine wrote them.
   * @param {HTMLElement} body
   * @param {Study} s
   */
  figures(body, s) {
    const para = (/** @type {string} */ head, /** @type {string} */ text) =>
      el('p', {}, el('strong', { text: `${head}: ` }), text);
    const table = el(
      'table',
      { id: 'study-figures', class: 'study-figures' },
      el('thead', {}, el('tr', {}, ...s.head.map((h) => el('th', { scope: 'col', text: h })))),
      el(
        'tbody',
        {},
        ...s.rows.map((r, i) =>
          el(
            'tr',
            { class: s.figures[i].verdict },
            el('th', { scope: 'row', text: r[0] }),
            ...r.slice(1).map((c) => el('td', { text: c })),
          ),
        ),
      ),
    );
    body.replaceChildren(
      // The verdicts counted come first: what a doubting reader looks for.
      el('p', { id: 'study-summary', class: 'study-summary', text: s.summary }),
      para(s.words.setup, s.setup),
      el('div', { class: 'table-wrap' }, table),
      para(s.words.reference, s.reference),
      para(s.words.note, s.note),
    );
  }
}
