// English texts of the page, by key (see ../lib/i18n.js). Keep zh.js in step: a test
// fails when a key is missing in either.

/** @type {Record<string, string>} */
export default {
  'lang.name': 'English',
};
