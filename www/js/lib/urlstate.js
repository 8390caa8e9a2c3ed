// The page state in the URL: `?s=v1.<base64url>` (encoded and decoded by the engine's
// share codec, so versions and migrations live in Rust) plus view-only parameters like
// `embed`. Committed edits push a history entry, so back/forward step through them;
// edits in progress (typing) replace the current entry.

const STATE_PARAM = 's';
const EMBED_PARAM = 'embed';
const VIEW_PARAM = 'view';
// The reader's settings a link may carry (`lang=zh`, `theme=dark`): kept as they are in
// every URL the page writes, never added by it.
const KEPT_PARAMS = ['lang', 'theme'];

/** The classic page's views: the results table and chart, and the article's three other reports. */
export const VIEWS = ['table', 'herd', 'sweep', 'breaker'];

/**
 * Reads the raw state text, the embed mode, the view and the theme from the location.
 * `embed=herd|sweep|breaker` embeds just that report (and so is also the view).
 * `study`: the studies view's (js/studies/) index (`?studies`: '') or study (`?study=ID`), else null.
 * @param {Location} [loc]
 * @returns {{text: string | null, embed: string | null, view: string, theme: string | null, study: string | null}}
 */
export function readLocation(loc = window.location) {
  const params = new URLSearchParams(loc.search);
  const embedRaw = params.get(EMBED_PARAM);
  let embed = null;
  if (embedRaw !== null) {
    // Unknown values show both rather than failing: an embed should always show something.
    embed = ['chart', 'table', 'both', 'herd', 'sweep', 'breaker', 'study'].includes(embedRaw) ? embedRaw : 'both';
  }
  const viewRaw = embed && VIEWS.includes(embed) ? embed : params.get(VIEW_PARAM);
  const view = viewRaw && VIEWS.includes(viewRaw) ? viewRaw : 'table';
  const themeRaw = params.get('theme');
  const theme = themeRaw === 'dark' || themeRaw === 'light' ? themeRaw : null;
  const study = params.get('study') ?? (params.has('studies') || embed === 'study' ? '' : null);
  return { text: params.get(STATE_PARAM), embed, view, theme, study };
}

/**
 * The URL for a state text, keeping the page's path (and so any sub-path it is hosted
 * under) and the reader's settings; `lang` sets the language (an embed's is fixed).
 * @param {string | null} text
 * @param {{embed?: string | null, view?: string | null, lang?: string | null}} [options]
 */
export function urlFor(text, { embed = null, view = null, lang = null } = {}) {
  const url = new URL(window.location.href);
  url.hash = '';
  const current = new URLSearchParams(url.search);
  const params = new URLSearchParams();
  if (text) params.set(STATE_PARAM, text);
  if (embed) params.set(EMBED_PARAM, embed);
  if (view && view !== 'table' && view !== embed) params.set(VIEW_PARAM, view);
  for (const name of KEPT_PARAMS) {
    const v = name === 'lang' && lang ? lang : current.get(name);
    if (v !== null) params.set(name, v);
  }
  url.search = params.toString();
  return url.toString();
}

/** Writes the state to the address bar: `push` for a committed edit, else replace. */
/**
 * @param {string} text
 * @param {{push?: boolean, embed?: string | null, view?: string | null}} [options]
 */
export function writeLocation(text, { push = false, embed = null, view = null } = {}) {
  const url = urlFor(text, { embed, view });
  if (url === window.location.href) return;
  if (push) history.pushState({ s: text }, '', url);
  else history.replaceState({ s: text }, '', url);
}
