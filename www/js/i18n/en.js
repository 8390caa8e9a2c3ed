// English texts of the page, by key (see ../lib/i18n.js). Keep zh.js in step: a test
// fails when a key is missing in either.

/** @type {Record<string, string>} */
export default {
  'lang.name': 'English',
  // issue 12: attribution, cost model, chart switch (classic)
  'attribution.label': 'time attribution',
  'attribution.title': "Which second a retry is charged to: arr + ceil(wait / 1000) (the article's), floor, or round",
  'attribution.ceil': "ceil (the article's)",
  'attribution.floor': 'floor',
  'attribution.round': 'round (nearest)',
  'attribution.heading': 'Does the conclusion survive another time convention?',
  'attribution.note':
    "The same scenario and seed run under each attribution convention: the article's key figures side by side, then its acceptance checks. The columns of the convention in use are highlighted.",
  'cost.column': 'cost',
  'cost.title': 'A cost model for this strategy (token billing); off by default',
  'cost.toggle': 'cost model of row {row}',
  'cost.aria': '{field} of row {row}',
  'cost.input_tokens': 'input tokens',
  'cost.output_tokens': 'output tokens',
  'cost.input_price_per_1k': 'input price / 1k',
  'cost.output_price_per_1k': 'output price / 1k',
  'cost.billed': 'failures billed:',
  'cost.billed.error': 'server error',
  'cost.billed.overload': 'overload',
  'cost.billed.timeout': 'timeout',
  'chart.switch': 'What the chart shows',
  'chart.attempts': 'attempts/s',
  'chart.cost': 'cost/s',
  'chart.noCost': 'Give a strategy a cost model to chart its cost per second',
  // issue 12: cluster routes and a hop's cost model
  'routes.table': 'Per route',
  'routes.heading': 'Routes: one picked per call by weight, each with its own client policy',
  'routes.route': 'route {n}',
  'routes.to': 'calls tier',
  'routes.weight': 'weight',
  'routes.remove': 'Remove this route',
  'routes.removeAria': 'Remove route {n} of tier {tier}',
  'routes.add': '+ route',
  'routes.addTitle': 'Call another pool from this tier (its client becomes the first route)',
  'routes.share.budget': 'one retry budget shared by the routes',
  'routes.share.breaker': 'one breaker shared by the routes',
  'cost.model': 'cost model (token billing)',
};
