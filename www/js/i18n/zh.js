// 页面的中文文本，按键组织（见 ../lib/i18n.js）。与 en.js 保持同步：任一语言缺键，测试即失败。

/** @type {Record<string, string>} */
export default {
  'lang.name': '中文',
};
