// Downloads and copies for both models. Every text also lands in the model's export box,
// so it can be copied by hand where the clipboard or downloads are not allowed (e.g.
// inside an iframe); a short message in the model's status line says what happened.

import { t } from './i18n.js';

/** The longest text (UTF-16 units; bytes for a blob) the export box is given: about 1 MB. */
const BOX_MAX = 1_000_000;

/** The share box and status line of one model's page. */
export class Exports {
  /**
   * @param {HTMLTextAreaElement} box the export box
   * @param {HTMLElement} status where "copied" / "saved" messages show
   */
  constructor(box, status) {
    this.box = box;
    this.status = status;
    this.timer = 0;
  }

  /** @param {string} message */
  flash(message) {
    this.status.textContent = message;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.status.textContent = '';
    }, 3000);
  }

  /**
   * Copies text to the clipboard when allowed; always shows it in the export box.
   * @param {string} text
   * @param {string} what names the text in the message ("Link")
   */
  async copy(text, what) {
    this.box.value = text;
    try {
      await navigator.clipboard.writeText(text);
      this.flash(t('export.copied', { what }));
    } catch {
      this.box.focus();
      this.box.select();
      this.flash(t('export.selectCopy', { what }));
    }
  }

  /**
   * Saves text or a blob as a download; text (a text blob too) also goes to the export box,
   * unless it is too long for a textarea to take at once: filling it with a 10,000-seed
   * ensemble's per-seed CSV (about 50 MB) held the page for seconds. The box is then emptied
   * rather than left showing an earlier export.
   * @param {string} name file name
   * @param {string | Blob} content
   * @param {string} type MIME type of text content
   */
  download(name, content, type) {
    const blob = content instanceof Blob ? content : new Blob([content], { type });
    if (typeof content === 'string') this.box.value = content.length <= BOX_MAX ? content : '';
    else if (blob.type.startsWith('text/')) {
      this.box.value = '';
      if (blob.size <= BOX_MAX) {
        blob.text().then((text) => {
          this.box.value = text;
        });
      }
    }
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    this.flash(t('export.saved', { name }));
  }

  /**
   * Saves the canvas as a PNG download.
   * @param {HTMLCanvasElement} canvas
   * @param {string} name
   */
  png(canvas, name) {
    canvas.toBlob((blob) => {
      if (blob) this.download(name, blob, 'image/png');
    }, 'image/png');
  }
}
