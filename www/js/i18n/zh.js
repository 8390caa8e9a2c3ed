// 页面的中文文本，按键组织（见 ../lib/i18n.js）。与 en.js 保持同步：任一语言缺键，测试即失败。

/** @type {Record<string, string>} */
export default {
  'lang.name': '中文',
  // 议题 12：时间归属、成本模型、图表切换（经典模型）
  'attribution.label': '时间归属',
  'attribution.title': '重试计入哪一秒：arr + ceil(等待 / 1000)（原文的做法）、向下取整或四舍五入',
  'attribution.ceil': 'ceil（原文）',
  'attribution.floor': 'floor（向下取整）',
  'attribution.round': 'round（四舍五入）',
  'attribution.heading': '换一种时间归属约定，结论还成立吗？',
  'attribution.note':
    '同一场景、同一种子在每种归属约定下各运行一次：先并列原文的关键数字，再列出判定标准。当前使用的约定所在列已高亮。',
  'cost.column': '成本',
  'cost.title': '为该策略设置成本模型（按 token 计费）；默认关闭',
  'cost.toggle': '第 {row} 行的成本模型',
  'cost.aria': '第 {row} 行的{field}',
  'cost.input_tokens': '输入 token 数',
  'cost.output_tokens': '输出 token 数',
  'cost.input_price_per_1k': '输入单价 / 千 token',
  'cost.output_price_per_1k': '输出单价 / 千 token',
  'cost.billed': '计费的失败：',
  'cost.billed.error': '服务端错误',
  'cost.billed.overload': '过载拒绝',
  'cost.billed.timeout': '超时',
  'chart.switch': '图表显示的内容',
  'chart.attempts': '每秒请求数',
  'chart.cost': '每秒成本',
  'chart.noCost': '为某个策略设置成本模型后，才能绘制每秒成本',
  // 议题 12：集群路由与调用的成本模型
  'routes.table': '按路由',
  'routes.heading': '路由：每次调用按权重选一条，每条有自己的客户端策略',
  'routes.route': '路由 {n}',
  'routes.to': '调用的层',
  'routes.weight': '权重',
  'routes.remove': '删除这条路由',
  'routes.removeAria': '删除第 {tier} 层的路由 {n}',
  'routes.add': '+ 路由',
  'routes.addTitle': '从这一层调用另一个池（原有客户端策略成为第一条路由）',
  'routes.share.budget': '各路由共用一个重试预算',
  'routes.share.breaker': '各路由共用一个熔断器',
  'cost.model': '成本模型（按 token 计费）',
};
