// The page shell: the URL and history, the model switch, embed mode, "copy link" and
// the embed dialog, and the presets that switch models. It talks to the two model apps
// (classic/app.js, cluster/app.js) through the same interface, ModelApp below; each app
// owns its scenario, editor, runner, charts, tables and exports.

import { EmbedDialog } from './embed/dialog.js';
import { $, banner } from './lib/dom.js';
import { lang, onLangChange, setLang, t } from './lib/i18n.js';
import { readLocation, urlFor, VIEWS, writeLocation } from './lib/urlstate.js';

/** @typedef {import('./lib/jobs.js').Wasm} Wasm */
/** @typedef {'classic' | 'cluster'} Model */

/**
 * The page state a share link carries (the engine's share codec reads and checks it).
 * @typedef {{model?: Model, classic?: any, cluster?: any, cluster_a?: any, view?: {hidden: number[], cost?: boolean}, classic_sweep?: any, cluster_sweep?: any, classic_paste?: any, cluster_paste?: any}} PageState
 */

/** @typedef {import('../retrystorm-web.js').Preset} Preset */

/**
 * What the shell needs of a model's app.
 * @typedef {object} ModelApp
 * @property {import('./lib/exports.js').Exports} exports where copied links show
 * @property {() => PageState} linkState this model's part of the share state
 * @property {(state: PageState | null, shown: boolean) => void} restore loads a link's state (null: the defaults)
 * @property {(preset: Preset) => void} loadPreset
 * @property {(active: boolean) => void} setActive shows or hides the model
 * @property {(href: string) => void} setOpenLink the "open in playground" link of embeds
 * @property {() => string} embedTitle the scenario's title, as the embed's caption shows it
 * @property {() => void} [relabel] redraws the texts it built after a language switch
 * @property {(view: string) => void} [setView] shows one of the article's reports (the classic model)
 */

/**
 * What an app is given to tell the shell about edits.
 * @typedef {object} ShellHooks
 * @property {Wasm} wasm
 * @property {string | null} embed
 * @property {Preset[]} presets every bundled scenario, in the page's language (refilled in place on a switch)
 * @property {(commit: boolean, viewOnly?: boolean) => void} changed writes the URL: `commit` adds a history entry
 * @property {(preset: Preset) => void} loadPreset loads a preset of any model, switching to it
 * @property {(view: string) => void} setView shows the results table or one of the article's reports, in a new history entry
 * @property {(model: Model) => void} shown a run of the model is on screen (an embed then tells its host it is ready)
 */

/** What an embed of each model can show (`embed=`), in the dialog's order. */
const EMBED_VIEWS = {
  classic: ['both', 'chart', 'table', 'herd', 'sweep', 'breaker'],
  cluster: ['chart', 'both', 'table'],
};

export class Shell {
  /**
   * @param {Wasm} wasm
   * @param {string | null} embed
   * @param {(hooks: ShellHooks) => Record<Model, ModelApp>} makeApps
   */
  constructor(wasm, embed, makeApps) {
    this.wasm = wasm;
    this.embed = embed;
    // The skip link moves the focus itself: under <base> its "#app" would load another page.
    document.querySelector('.skip-link')?.addEventListener('click', (e) => {
      e.preventDefault();
      document.getElementById('app')?.focus();
    });
    /** @type {Model} */
    this.model = 'classic';
    /** @type {string | null} */
    this.entryText = null;
    this.entryDirty = false;
    /** The classic page's view: the results table or one of the article's reports. */
    this.view = readLocation().view;
    /** Called when the model on screen has shown a run (boot.js: an embed's height is then its content's). */
    this.onShown = () => {};
    /** @type {EmbedDialog | null} built on first use */
    this.embedDialog = null;
    /** @type {import('./studies/view.js').StudiesView | null} the studies view, loaded on first use */
    this.studies = null;
    // The presets in the page's language; refilled in place on a switch, so every app's
    // reference to the list stays current.
    const presets = wasm.bundledScenarios(lang());
    this.apps = makeApps({
      wasm,
      embed,
      presets,
      changed: (commit, viewOnly = false) => this.syncUrl({ commit, viewOnly }),
      loadPreset: (preset) => this.loadPreset(preset),
      setView: (view) => this.setView(view),
      shown: (model) => {
        if (model === this.model) this.onShown();
      },
    });
    for (const radio of this.radios()) {
      radio.addEventListener('change', () => {
        if (radio.checked) this.setModel(/** @type {Model} */ (radio.value), { commit: true });
      });
    }
    $('copy-link')?.addEventListener('click', () =>
      this.app.exports.copy(urlFor(this.stateText(), { view: this.shownView() }), t('shell.what.link')),
    );
    $('studies-link')?.addEventListener('click', (e) => {
      e.preventDefault();
      this.route(true);
    });
    $('copy-embed')?.addEventListener('click', () => this.openEmbed());
    const select = /** @type {HTMLSelectElement | null} */ ($('lang-select'));
    if (select) {
      select.value = lang();
      select.addEventListener('change', () => setLang(select.value === 'zh' ? 'zh' : 'en', { remember: true }));
    }
    onLangChange(() => {
      if (select) select.value = lang();
      presets.splice(0, presets.length, ...wasm.bundledScenarios(lang()));
      for (const [, app] of this.entries()) app.relabel?.();
    });
    addEventListener('popstate', () => this.restore({ fromHistory: true }));
  }

  /**
   * Opens the embed dialog for the model and view on screen. The embed's language is the
   * page's, fixed in its link: its measured height holds for that language's texts.
   */
  openEmbed() {
    this.embedDialog ??= new EmbedDialog();
    const text = this.safeStateText() ?? readLocation().text;
    const view = this.shownView();
    this.embedDialog.open(
      {
        model: this.model,
        views: EMBED_VIEWS[this.model],
        view: this.model === 'classic' && view !== 'table' ? view : EMBED_VIEWS[this.model][0],
        url: (embed) => urlFor(text, { embed, lang: lang() }),
        title: this.app.embedTitle(),
      },
      $('copy-embed'),
    );
  }

  /** The view a link should carry: reports belong to the classic model. */
  shownView() {
    return this.model === 'classic' ? this.view : 'table';
  }

  /**
   * Shows the results table or one of the article's reports, in a new history entry.
   * @param {string} view
   * @param {{write?: boolean}} [options]
   */
  setView(view, { write = true } = {}) {
    this.view = VIEWS.includes(view) ? view : 'table';
    this.apps.classic.setView?.(this.view);
    if (!write || this.embed) return;
    const text = this.safeStateText();
    if (text !== null) writeLocation(text, { push: true, view: this.shownView() });
    this.entryText = text;
    this.entryDirty = false;
  }

  /** The app on screen. */
  get app() {
    return this.apps[this.model];
  }

  /** @returns {HTMLInputElement[]} */
  radios() {
    return [...document.querySelectorAll('input[name="model"]')].map((r) => /** @type {HTMLInputElement} */ (r));
  }

  /** The share-link text of the current state. */
  stateText() {
    const classic = this.apps.classic.linkState();
    const cluster = this.apps.cluster.linkState();
    // One view for the page: the classic strategies hidden, and the cost switch of the
    // chart on screen (both models' charts read `view.cost`).
    const cost = (this.model === 'cluster' ? cluster : classic).view?.cost;
    const view = { hidden: classic.view?.hidden ?? [], ...(cost ? { cost: true } : {}) };
    return this.wasm.encodeState({ model: this.model, ...classic, ...cluster, view });
  }

  /**
   * Loads the state from the URL: a bad link shows its problem and the defaults.
   * @param {{fromHistory?: boolean}} [options]
   */
  restore({ fromHistory = false } = {}) {
    const { text } = readLocation();
    /** @type {PageState | null} */
    let state = null;
    if (text) {
      try {
        state = this.wasm.decodeState(text, lang());
        banner(null);
      } catch (e) {
        const err = /** @type {Error & {plain?: string}} */ (e);
        banner(t('shell.badLink', { message: err.plain || err.message }), 'error', {
          summary: t('shell.badLink.detail'),
          text: err.message,
        });
      }
    } else if (!fromHistory) {
      banner(null);
    }
    /** @type {Model} */
    const model = state?.model === 'cluster' ? 'cluster' : 'classic';
    // The entry on screen holds exactly this (committed) state.
    this.entryText = text;
    this.entryDirty = false;
    for (const [name, app] of this.entries()) app.restore(state, name === model);
    this.setModel(model);
    this.setView(readLocation().view, { write: false });
    this.route();
  }

  /**
   * Shows the studies view when the URL asks for it (`?studies`, `?study=ID`) or `open`
   * (its index, in a new history entry), else the models. Its code, worker and wasm
   * (js/studies/) load the first time; it answers the header's buttons while on screen.
   */
  async route(open = false) {
    const on = open || readLocation().study !== null;
    document.body.classList.toggle('studies', on);
    if (!on) return;
    const { StudiesView } = await import('./studies/view.js');
    this.studies ??= new StudiesView(
      $('app'),
      () => this.route(),
      () => (this.embedDialog ??= new EmbedDialog()),
    );
    if (open) this.studies.go('', '');
    else this.studies.show();
  }

  /** @returns {[Model, ModelApp][]} */
  entries() {
    return [
      ['classic', this.apps.classic],
      ['cluster', this.apps.cluster],
    ];
  }

  /**
   * Shows one model; each keeps its own state.
   * @param {Model} model
   * @param {{commit?: boolean}} [options]
   */
  setModel(model, { commit = false } = {}) {
    this.model = model === 'cluster' ? 'cluster' : 'classic';
    document.body.classList.toggle('model-cluster', this.model === 'cluster');
    for (const radio of this.radios()) radio.checked = radio.value === this.model;
    for (const [name, app] of this.entries()) app.setActive(name === this.model);
    this.setOpenLink();
    if (commit) this.syncUrl({ commit: true });
  }

  /**
   * Loads a preset of any model and shows that model, in one history entry.
   * @param {Preset} preset
   */
  loadPreset(preset) {
    this.apps[preset.model].loadPreset(preset);
    if (preset.model !== this.model) this.setModel(preset.model);
    this.syncUrl({ commit: true });
  }

  setOpenLink() {
    const view = this.shownView();
    if (this.embed) this.app.setOpenLink(urlFor(readLocation().text, { view }));
    else this.app.setOpenLink(urlFor(this.safeStateText(), { view }));
  }

  /** The state text, or null while a half-typed value cannot be encoded yet. */
  safeStateText() {
    try {
      return this.stateText();
    } catch {
      return null;
    }
  }

  /**
   * Writes the state to the URL. The first edit after a committed state pushes a new
   * history entry; further typing replaces it; a commit (blur, select, button) seals it.
   * So back/forward step through committed states. View-only changes (`viewOnly`, e.g.
   * hiding a series) replace the entry and never add one.
   * @param {{commit: boolean, viewOnly?: boolean}} options
   */
  syncUrl({ commit, viewOnly = false }) {
    if (this.embed) return;
    const text = this.safeStateText();
    if (text === null) return; // keep the last URL
    this.app.setOpenLink(urlFor(text, { view: this.shownView() }));
    if (text === this.entryText) {
      if (commit) this.entryDirty = false;
      return;
    }
    writeLocation(text, { push: !viewOnly && !this.entryDirty, view: this.shownView() });
    this.entryText = text;
    if (!viewOnly) this.entryDirty = !commit;
  }
}
