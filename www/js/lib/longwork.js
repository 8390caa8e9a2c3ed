// Long work asks first. Before a run, an ensemble or a sweep starts (from an edit or from
// a link), the page asks the engine's estimate (estimateRun / estimatePlan); when the
// engine says to ask (`ask`: over its ASK_ABOVE_S, crate/src/estimate/mod.rs, the one
// threshold), the work does not start: a notice in the results area says how long it
// would take, in the engine's words, with a "Run anyway" button. What is on screen (the
// last result, or the defaults') stays.

import { el } from './dom.js';
import { lang, onLangChange, t } from './i18n.js';

/** @typedef {import('../../retrystorm-web.js').Estimate} Estimate */
/** @typedef {'run' | 'ensemble' | 'sweep'} WorkKind */

/**
 * The notice of one kind of work (a model's single run, its ensemble, its sweep), and
 * the work the reader said to run anyway.
 */
export class AskFirst {
  /**
   * @param {WorkKind} kind what the notice calls the work
   * @param {string} model `classic` or `cluster`, for the notice's `data-long-work` (tests)
   */
  constructor(kind, model) {
    this.kind = kind;
    this.button = el('button', { type: 'button', class: 'long-work-run', text: t('long.runAnyway') });
    this.text = el('span', { class: 'long-work-text' });
    /** The notice: place it in the results area (`node`). */
    this.node = el(
      'div',
      { class: 'banner info long-work', role: 'status', hidden: true, 'data-long-work': `${model}-${kind}` },
      this.text,
      ' ',
      this.button,
    );
    /** @type {string | null} the work the reader said to run anyway */
    this.approved = null;
    /** @type {{key: string, estimate: () => Estimate | Promise<Estimate>, start: () => void} | null} the work waiting */
    this.waiting = null;
    this.button.addEventListener('click', () => {
      const w = this.waiting;
      if (!w) return;
      this.approved = w.key;
      this.clear();
      w.start();
    });
    onLangChange(() => {
      this.button.textContent = t('long.runAnyway');
      const w = this.waiting;
      if (!w) return;
      // Worded again by the engine; a worker's estimate comes back later.
      Promise.resolve(w.estimate()).then(
        (e) => {
          if (this.waiting === w) this.render(e);
        },
        () => {},
      );
    });
  }

  /**
   * True when the work `key` may start now: the engine's estimate does not ask, or the
   * reader said "Run anyway" to this very work. Otherwise shows the notice, whose button
   * calls `start`. An estimate that throws lets the work start: the run itself names
   * the problem, where the page already shows it.
   * @param {string} key the work (its scenario and settings, as JSON text)
   * @param {(lang: string) => Estimate | Promise<Estimate>} estimate the engine's estimate,
   *   its words in `lang`: at once for the page's language, later (a worker's) for another
   * @param {() => void} start starts the work once the reader says so
   */
  allows(key, estimate, start) {
    if (key === this.approved) {
      this.clear();
      return true;
    }
    /** @type {Estimate} */
    let e;
    try {
      e = /** @type {Estimate} */ (estimate(lang()));
    } catch {
      this.clear();
      return true;
    }
    if (!e.ask) {
      this.clear();
      return true;
    }
    this.waiting = { key, estimate: () => estimate(lang()), start };
    this.render(e);
    return false;
  }

  /**
   * `allows` for an estimate made elsewhere (the pool's worker), asked in the page's
   * language: resolves to whether the work may start, or to null when `stale()` says
   * newer work replaced it meanwhile. Work the reader said to run is not estimated again.
   * @param {string} key
   * @param {(lang: string) => Promise<Estimate>} estimate
   * @param {() => void} start
   * @param {() => boolean} stale
   * @returns {Promise<boolean | null>}
   */
  async check(key, estimate, start, stale) {
    /** @type {Estimate | null} */
    let e = null;
    let words = '';
    while (key !== this.approved && words !== lang() && !stale()) {
      words = lang();
      e = await estimate(words).catch(() => null);
    }
    if (stale()) return null;
    return this.allows(
      key,
      (l) => {
        if (l !== words) return estimate(l);
        // An estimate that failed lets the work start: the run names the problem.
        if (!e) throw new Error('no estimate');
        return e;
      },
      start,
    );
  }

  /** @param {Estimate} e */
  render(e) {
    this.text.textContent = t(`long.${this.kind}`, {
      time: e.time,
      memory: e.memory,
      runs: e.runs.toLocaleString('en'),
    });
    this.node.hidden = false;
  }

  /** Hides the notice: the work started, or other work replaced it. */
  clear() {
    this.waiting = null;
    this.node.hidden = true;
  }
}

/** Resolves in a next task: long synchronous steps split there, so the page can paint and answer. */
export function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The longer of two estimates (work run one after the other, e.g. a sweep and the same
 * sweep of the pinned scenario A): the notice gives the longer one's figures.
 * @param {Estimate[]} estimates
 * @returns {Estimate}
 */
export function longest(estimates) {
  return estimates.reduce((a, b) => (b.seconds > a.seconds ? b : a));
}
