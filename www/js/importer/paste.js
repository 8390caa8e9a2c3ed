// "Paste your library's retry configuration": a reader's own Resilience4j, gRPC or AWS
// settings read by the engine's importer (`retrystorm import`, in a worker of its own),
// shown in words with the library's quirks and filled-in defaults, then used as the
// client policy of a tier or route of the cluster scenario on screen, or as a strategy
// row of the classic one (`retrystorm import --preset article`). This folder
// (js/importer/) and the importer's wasm load only when a reader first opens the box
// (lib/build.js pasteFold).

import { el } from '../lib/dom.js';
import { lang, t } from '../lib/i18n.js';

/**
 * @typedef {{library: string, source: string, policy: Record<string, unknown>, words: string[], quirks: string[], defaults: string[]}} Imported
 * @typedef {{message: string, field?: string, allowed?: string, plain?: string}} ImportError
 * @typedef {{path: string, label: string}} Target a client policy of the scenario
 * @typedef {{library: string, text: string, cannot: string[]}} Written
 * @typedef {{strategy: Record<string, unknown>, cannot: string[], defaults: string[]}} Row a classic strategy row
 * @typedef {{text: string, from?: string, instance?: string}} Pasted a configuration text as the link carries it
 * @typedef {object} Hooks what the box reads from and does to the scenario on screen
 * @property {() => Target[]} targets where a policy read can go
 * @property {(path: string, value: Record<string, unknown>, pasted?: Pasted) => void} apply puts a client policy (or, with `row`, a strategy row) at a target; `pasted`: the text it was read from
 * @property {(path: string) => unknown} [client] a client policy of the scenario, to write for a library (none: no "write it")
 * @property {boolean} [row] the classic model: a policy goes in as a strategy row
 */

export class PasteBox {
  /**
   * Fills `root` (the `<details>` whose summary the page built) with the box.
   * @param {HTMLDetailsElement} root
   * @param {ReturnType<typeof import('../lib/build.js').builder>} b the app's element ids and catalogue texts
   * @param {Hooks} hooks
   */
  constructor(root, { id, tx, aria }, hooks) {
    this.hooks = hooks;
    /** @type {Worker | null} started on first use */
    this.worker = null;
    this.nextId = 0;
    /** @type {Map<number, (m: any) => void>} */
    this.waiting = new Map();
    /** @type {Map<string, string>} each library's own name, by its `--from` name */
    this.titles = new Map();
    /** @type {Imported | null} the last configuration read */
    this.imported = null;
    this.text = el('textarea', { id: id('paste-text'), rows: 8, spellcheck: false, ...aria('paste.text') });
    this.library = el('select', { id: id('paste-library') }, el('option', { value: '', ...tx('paste.detect') }));
    // A file with several instances (routes, profiles, clients): which one, once the
    // engine has named them.
    this.instance = el('select', { id: id('paste-instance') });
    this.instanceRow = el('label', { hidden: true }, el('span', tx('paste.instance')), ' ', this.instance);
    this.instance.addEventListener('change', () => this.read());
    this.readButton = el('button', { type: 'button', id: id('paste-read'), ...tx('paste.read') });
    this.status = el('p', { id: id('paste-status'), class: 'hint', role: 'status' });
    this.out = el('div', { id: id('paste-out'), class: 'paste-out', hidden: true });
    this.target = el('select', { id: id('paste-target') });
    this.applyButton = el('button', { type: 'button', id: id('paste-apply'), ...tx('paste.apply') });
    // The other way: a client policy of the scenario written as a library's configuration.
    this.source = el('select', { id: id('write-from') });
    this.to = el('select', { id: id('write-to') });
    this.writeButton = el('button', { type: 'button', id: id('write'), ...tx('paste.write') });
    this.written = el('textarea', {
      id: id('write-text'),
      rows: 8,
      readOnly: true,
      spellcheck: false,
      ...aria('paste.writeTitle'),
    });
    this.cannot = el('ul', { id: id('write-cannot') });
    this.writeStatus = el('p', { id: id('write-status'), class: 'hint', role: 'status' });
    this.writeButton.addEventListener('click', () => this.write());
    this.root = root;
    // What the classic row could not say of the policy, once it is used.
    this.rowNotes = el('div', { id: id('paste-row-notes') });
    root.append(
      el('p', { class: 'hint', ...tx('paste.hint') }),
      this.text,
      el(
        'div',
        { class: 'paste-row' },
        el('label', {}, el('span', tx('paste.library')), ' ', this.library),
        this.instanceRow,
        this.readButton,
      ),
      this.status,
      el(
        'div',
        { class: 'paste-row', id: id('paste-use'), hidden: true },
        el('label', {}, el('span', tx(hooks.row ? 'paste.useAsRow' : 'paste.useAs')), ' ', this.target),
        this.applyButton,
      ),
      this.out,
      this.rowNotes,
    );
    if (hooks.client)
      root.append(
        el('h4', tx('paste.writeTitle')),
        el(
          'div',
          { class: 'paste-row' },
          el('label', {}, el('span', tx('paste.writeFrom')), ' ', this.source),
          el('label', {}, el('span', tx('paste.writeTo')), ' ', this.to),
          this.writeButton,
        ),
        this.writeStatus,
        this.written,
        this.cannot,
      );
    this.use = /** @type {HTMLElement} */ (root.querySelector(`#${id('paste-use')}`));
    this.readButton.addEventListener('click', () => {
      // Another text: its instances are named again if it has several.
      this.instanceRow.hidden = true;
      this.read();
    });
    this.applyButton.addEventListener('click', () => this.apply());
  }

  /** Starts the importer's worker (once) and fills the list of libraries. */
  start() {
    this.renderSources();
    if (this.worker) return;
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => {
      const done = this.waiting.get(e.data.id);
      this.waiting.delete(e.data.id);
      done?.(e.data);
    };
    this.status.textContent = t('paste.loading');
    this.ready = this.ask({ kind: 'libraries' }).then((m) => {
      this.status.textContent = '';
      if (!m.ok) return;
      for (const { name, title } of /** @type {{name: string, title: string}[]} */ (m.value)) {
        this.library.append(el('option', { value: name, text: title }));
        this.to.append(el('option', { value: name, text: title }));
        this.titles.set(name, title);
      }
    });
  }

  /**
   * Puts a link's pasted text back in the box, with its library and instance, and reads it.
   * @param {Pasted} p
   */
  async fill(p) {
    this.start();
    await this.ready;
    /** @type {HTMLTextAreaElement} */ (this.text).value = p.text;
    /** @type {HTMLSelectElement} */ (this.library).value = p.from ?? '';
    this.instance.replaceChildren(...(p.instance ? [el('option', { value: p.instance, text: p.instance })] : []));
    this.instanceRow.hidden = !p.instance;
    return this.read();
  }

  /**
   * Posts a request to the importer and resolves with its answer.
   * @param {Record<string, unknown>} request
   * @returns {Promise<any>}
   */
  ask(request) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker?.postMessage({ id, ...request });
    });
  }

  /** The client policies a configuration can be written from, as the scenario has them now. */
  renderSources() {
    const was = /** @type {HTMLSelectElement} */ (this.source).value;
    this.source.replaceChildren(
      ...this.hooks.targets().map(({ path, label }) => el('option', { value: path, text: label })),
    );
    if (was) /** @type {HTMLSelectElement} */ (this.source).value = was;
  }

  /** Writes the client policy chosen as the chosen library's configuration, with what it cannot say. */
  async write() {
    this.renderSources();
    const path = /** @type {HTMLSelectElement} */ (this.source).value;
    const label = this.hooks.targets().find((x) => x.path === path)?.label ?? path;
    const m = await this.ask({
      kind: 'write',
      client: this.hooks.client?.(path),
      to: /** @type {HTMLSelectElement} */ (this.to).value,
      // The instance or route's name in the configuration: the call it makes.
      name: label.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'client',
      lang: lang(),
    });
    if (!m.ok) {
      const err = /** @type {ImportError} */ (m.error);
      this.writeStatus.textContent = err.plain || err.message;
      /** @type {HTMLTextAreaElement} */ (this.written).value = '';
      this.cannot.replaceChildren();
      return;
    }
    const w = /** @type {Written} */ (m.value);
    this.writeStatus.textContent = '';
    /** @type {HTMLTextAreaElement} */ (this.written).value = w.text;
    this.cannot.replaceChildren(...w.cannot.map((c) => el('li', { text: c })));
  }

  /**
   * Reads the text pasted and shows what it does, or where it cannot be read.
   * @returns {Promise<void>}
   */
  async read() {
    this.start();
    this.status.textContent = t('paste.reading');
    const m = await this.ask({
      kind: 'read',
      text: /** @type {HTMLTextAreaElement} */ (this.text).value,
      from: /** @type {HTMLSelectElement} */ (this.library).value,
      instance: this.instanceRow.hidden ? '' : /** @type {HTMLSelectElement} */ (this.instance).value,
      lang: lang(),
    });
    if (!m.ok) {
      const err = /** @type {ImportError} */ (m.error);
      // Several instances and none chosen: the engine lists them ("one of: a, b"); the
      // first is read at once, the others are a choice away.
      const names = err.field === '--instance' ? (err.allowed ?? '').replace(/^one of: /, '').split(', ') : [];
      if (names.length > 1 && this.instanceRow.hidden) {
        this.instance.replaceChildren(...names.map((n) => el('option', { value: n, text: n })));
        this.instanceRow.hidden = false;
        return this.read();
      }
      this.imported = null;
      this.out.hidden = true;
      this.use.hidden = true;
      // The words a reader reads, then the engine's line: the key path in the file, the
      // value, what is allowed (as `retrystorm import` says it).
      this.status.replaceChildren(
        el('span', { text: err.plain || err.message }),
        ...(err.plain ? [el('br'), el('code', { text: err.message })] : []),
      );
      this.status.classList.add('field-msg');
      return;
    }
    this.status.textContent = '';
    this.status.classList.remove('field-msg');
    this.imported = /** @type {Imported} */ (m.value);
    this.render();
  }

  /** The policy read, in the engine's words, and where to use it. */
  render() {
    const imp = this.imported;
    if (!imp) return;
    this.target.replaceChildren(
      ...this.hooks.targets().map(({ path, label }) => el('option', { value: path, text: label })),
    );
    this.out.replaceChildren(
      el('ul', { class: 'paste-words' }, ...imp.words.map((w) => el('li', { text: w }))),
      ...list('paste.quirks', imp.quirks),
      ...list('paste.defaults', imp.defaults),
    );
    this.rowNotes.replaceChildren();
    this.out.hidden = false;
    this.use.hidden = false;
  }

  /** After a language switch: the engine words what was read again, in the new language. */
  relabel() {
    if (this.imported) this.read();
  }

  /**
   * Makes the policy read the client policy chosen (or, in the classic model, the
   * strategy row chosen, as the engine writes it, with what the row cannot say); the
   * scenario runs again.
   */
  async apply() {
    const imp = this.imported;
    const path = /** @type {HTMLSelectElement} */ (this.target).value;
    if (!imp || !path) return;
    let value = imp.policy;
    if (this.hooks.row) {
      // The row is named as the engine words the source: "Resilience4j (instance payments)".
      const m = await this.ask({ kind: 'classic', client: imp.policy, name: imp.words[0], lang: lang() });
      if (!m.ok) {
        this.status.textContent = /** @type {ImportError} */ (m.error).message;
        return;
      }
      const row = /** @type {Row} */ (m.value);
      value = row.strategy;
      this.rowNotes.replaceChildren(...list('paste.rowCannot', row.cannot), ...list('paste.defaults', row.defaults));
    }
    const instance = this.instanceRow.hidden ? undefined : /** @type {HTMLSelectElement} */ (this.instance).value;
    this.hooks.apply(path, value, {
      text: /** @type {HTMLTextAreaElement} */ (this.text).value,
      from: imp.library,
      ...(instance ? { instance } : {}),
    });
    const label = this.hooks.targets().find((x) => x.path === path)?.label ?? path;
    const library = this.titles.get(imp.library) ?? imp.library;
    this.status.textContent = this.hooks.row
      ? t('paste.appliedRow', { name: String(value.name), library })
      : t('paste.applied', { target: label, library });
  }
}

/**
 * A titled list of the engine's sentences, nothing when there are none.
 * @param {string} key the title's catalogue key
 * @param {string[]} lines
 */
function list(key, lines) {
  return lines.length ? [el('h4', { text: t(key) }), el('ul', {}, ...lines.map((l) => el('li', { text: l })))] : [];
}
