// Exports of the cluster model: the summary as Markdown, the buckets as CSV (one row per
// bucket and tier), the chart as PNG and the scenario as a JSON file the CLI reads
// (`retrystorm run --scenario FILE`). Text formats come from the engine. Each text also
// lands in the export box, for hand copying where downloads or the clipboard are blocked.

/** Saves text or a blob as a download; text also goes to `box`. */
export function download(box, name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  if (!(content instanceof Blob) && box) box.value = content;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** The scenario as the CLI's file format (with its model). */
export function scenarioFile(cfg) {
  return `${JSON.stringify({ model: 'cluster', ...cfg }, null, 2)}\n`;
}
