// 页面的中文文本，按键组织（见 ../lib/i18n.js）。与 en.js 保持同步：任一语言缺键，测试即失败。

/** @type {Record<string, string>} */
export default {
  'lang.name': '中文',
  // 多种子（seeds/panel.js）
  'seeds.label': '种子数',
  'seeds.hint': '1 = 单次运行；更大的值会用这么多个种子运行该场景（第一个是场景自身的种子）',
  'seeds.cancel': '取消',
  'seeds.progress': '已完成 {done} / {total} 个种子…',
  'seeds.done': '{total} 个种子，用时 {s} 秒',
  'seeds.cancelled': '已取消：完成了 {done} / {total} 个种子',
  'seeds.title': '多种子结果：中位数 [p5–p95]',
  'seeds.metric': '分布指标',
  'seeds.distHint': '每个点是一个种子；点击某个点可打开该种子的单次运行',
  'seeds.distAria': '所选指标在各种子上的分布，每组一条',
  'seeds.exportMd': 'Markdown 表格（中位数 [p5–p95]）',
  'seeds.exportCsv': '每个种子的 CSV',
};
