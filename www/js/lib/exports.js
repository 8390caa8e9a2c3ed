// Downloads and copies for both models. Every text also lands in the model's export box,
// so it can be copied by hand where the clipboard or downloads are not allowed (e.g.
// inside an iframe); a short message in the model's status line says what happened.

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
      this.flash(`${what} copied to the clipboard (and in the export box below)`);
    } catch {
      this.box.focus();
      this.box.select();
      this.flash(`${what} is selected in the export box below: press Ctrl+C / ⌘C to copy`);
    }
  }

  /**
   * Saves text or a blob as a download; text also goes to the export box.
   * @param {string} name file name
   * @param {string | Blob} content
   * @param {string} type MIME type of text content
   */
  download(name, content, type) {
    const blob = content instanceof Blob ? content : new Blob([content], { type });
    if (!(content instanceof Blob)) this.box.value = content;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    this.flash(`saved ${name}`);
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

/**
 * The `<iframe>` snippet embedding the page at `src`.
 * @param {string} src
 * @param {string} embed what the embed shows: both, chart or table
 */
export function embedSnippet(src, embed) {
  const height = embed === 'chart' ? 420 : embed === 'table' ? 320 : 720;
  /** @param {string} s */
  const esc = (s) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  return (
    `<iframe src="${esc(src)}" width="100%" height="${height}" style="border:0;max-width:100%" ` +
    `title="Retry Storm Playground" loading="lazy"></iframe>`
  );
}
