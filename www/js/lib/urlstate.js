// The page state in the URL: `?s=v1.<base64url>` (encoded and decoded by the engine's
// share codec, so versions and migrations live in Rust) plus view-only parameters like
// `embed`. Committed edits push a history entry, so back/forward step through them;
// edits in progress (typing) replace the current entry.

const STATE_PARAM = 's';
const EMBED_PARAM = 'embed';

/** Reads the raw state text and the embed mode from the current location. */
/**
 * @param {Location} [loc]
 * @returns {{text: string | null, embed: string | null}}
 */
export function readLocation(loc = window.location) {
  const params = new URLSearchParams(loc.search);
  const embedRaw = params.get(EMBED_PARAM);
  let embed = null;
  if (embedRaw !== null) {
    // Unknown values show both rather than failing: an embed should always show something.
    embed = ['chart', 'table', 'both'].includes(embedRaw) ? embedRaw : 'both';
  }
  return { text: params.get(STATE_PARAM), embed };
}

/** The URL for a state text, keeping the page's path (and so any sub-path it is hosted under). */
/**
 * @param {string | null} text
 * @param {{embed?: string | null}} [options]
 */
export function urlFor(text, { embed = null } = {}) {
  const url = new URL(window.location.href);
  url.hash = '';
  const params = new URLSearchParams();
  if (text) params.set(STATE_PARAM, text);
  if (embed) params.set(EMBED_PARAM, embed);
  url.search = params.toString();
  return url.toString();
}

/** Writes the state to the address bar: `push` for a committed edit, else replace. */
/**
 * @param {string} text
 * @param {{push?: boolean, embed?: string | null}} [options]
 */
export function writeLocation(text, { push = false, embed = null } = {}) {
  const url = urlFor(text, { embed });
  if (url === window.location.href) return;
  if (push) history.pushState({ s: text }, '', url);
  else history.replaceState({ s: text }, '', url);
}
