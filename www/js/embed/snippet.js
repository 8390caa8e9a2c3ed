// The code a blogger pastes: an <iframe> of the playground in embed mode, with a fixed
// height measured for its view and width (the embed dialog measures it), so a host that
// strips the script (Confluence, Notion, many CMSs) still shows it whole, and the few
// lines of script that size it to its content where scripts are allowed.

// The host page's side of the embed's height message (boot.js): it sizes the iframe
// that sent it, and only from the playground's origin.
const HEIGHT_LISTENER =
  "<script>addEventListener('message',function(e){var d=e.data;if(!d||d.type!=='retrystorm:height')return;" +
  "document.querySelectorAll('iframe[data-retrystorm]').forEach(function(f){" +
  "if(f.contentWindow===e.source&&new URL(f.src).origin===e.origin)f.style.height=d.height+'px';});});</script>";

/** @param {string} s */
const attr = (s) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * The `<iframe>` snippet embedding the page at `src`, then the listener script.
 * @param {string} src the embed's URL
 * @param {{width: number, height: number, title: string}} size `width` in CSS pixels (0: the host's column), `height` the content's
 */
export function embedSnippet(src, { width, height, title }) {
  return (
    `<iframe data-retrystorm src="${attr(src)}" width="${width || '100%'}" height="${height}" ` +
    `style="border:0;max-width:100%" title="${attr(title)}" loading="lazy"></iframe>\n${HEIGHT_LISTENER}`
  );
}
