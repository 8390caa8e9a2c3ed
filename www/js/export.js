// Share and export: copy link, copy embed code, and downloads of the Markdown table,
// the per-second CSV, the chart PNG and the scenario JSON. Text formats come from the
// engine (markdownTable, csvPerSecond). Every text also lands in the export box, so it
// can be copied by hand where the clipboard is not allowed (e.g. inside an iframe).

import { $ } from './dom.js';
import { urlFor } from './urlstate.js';

/** Copies text to the clipboard when allowed; always shows it in the export box. */
export async function copyText(text, what) {
  const box = $('export-text');
  box.value = text;
  try {
    await navigator.clipboard.writeText(text);
    flash(`${what} copied to the clipboard`);
  } catch {
    box.focus();
    box.select();
    flash(`${what} is selected below: press Ctrl+C / ⌘C to copy`);
  }
}

/** Saves text or a blob as a download and shows the text in the export box. */
export function download(name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  if (!(content instanceof Blob)) $('export-text').value = content;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  flash(`saved ${name}`);
}

let flashTimer = 0;
function flash(message) {
  const node = $('timing');
  const previous = node.dataset.timing || node.textContent;
  node.dataset.timing = previous;
  node.textContent = message;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { node.textContent = node.dataset.timing; }, 2500);
}

/** The `<iframe>` snippet for embedding the current state. */
export function embedSnippet(text, embed = 'both') {
  const src = urlFor(text, { embed });
  const height = embed === 'chart' ? 420 : embed === 'table' ? 320 : 720;
  const esc = (s) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  return `<iframe src="${esc(src)}" width="100%" height="${height}" style="border:0;max-width:100%" ` +
    `title="Retry Storm Playground" loading="lazy"></iframe>`;
}

/** Wires the share/export buttons; `app` supplies the state text and the last output. */
export function bindExports(app) {
  $('copy-link').addEventListener('click', () => copyText(urlFor(app.stateText()), 'Link'));
  $('copy-embed').addEventListener('click', () => copyText(embedSnippet(app.stateText()), 'Embed code'));
  $('export-md').addEventListener('click', () => {
    if (app.output) download('retry-storm-results.md', app.wasm.markdownTable(app.output), 'text/markdown');
  });
  $('export-csv').addEventListener('click', () => {
    if (app.output) download('retry-storm-per-second.csv', app.wasm.csvPerSecond(app.output), 'text/csv');
  });
  $('export-png').addEventListener('click', () => {
    $('chart').toBlob((blob) => { if (blob) download('retry-storm-chart.png', blob, 'image/png'); }, 'image/png');
  });
  $('export-json').addEventListener('click', () => {
    download('retry-storm-scenario.json', `${JSON.stringify(app.cfg, null, 2)}\n`, 'application/json');
  });
}
