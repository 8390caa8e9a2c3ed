// The chart's attempts/s ↔ cost/s switch, shared by both models: a radio group whose
// words come from the catalogue (relabelled by applyTexts on a language switch), the
// cost side disabled when no strategy or client policy has a cost model. The choice is
// the share link's `view.cost`; each app keeps it and redraws its chart.

import { el } from './dom.js';
import { t } from './i18n.js';

/**
 * Builds the switch.
 * @param {string} id the radio group's element id (its radios are named after it)
 * @param {(cost: boolean) => void} onChange called with the reader's choice
 * @returns {HTMLElement}
 */
export function costSwitch(id, onChange) {
  /**
   * @param {string} value
   * @param {string} key
   */
  const option = (value, key) => {
    const radio = el('input', { type: 'radio', name: `${id}-series`, value });
    radio.addEventListener('change', () => onChange(value === 'cost'));
    return el('label', {}, radio, ' ', el('span', { text: t(key), 'data-i18n': key }));
  };
  return el(
    'div',
    {
      id,
      class: 'chart-switch editor-only',
      role: 'radiogroup',
      'aria-label': t('chart.switch'),
      'data-i18n-aria-label': 'chart.switch',
    },
    option('attempts', 'chart.attempts'),
    option('cost', 'chart.cost'),
  );
}

/**
 * Sets the switch: the cost side enabled only with a cost model, checked when shown.
 * @param {HTMLElement} box the switch from costSwitch
 * @param {boolean} hasCost some strategy or client policy has a cost model
 * @param {boolean} shown the chart shows cost per second
 */
export function setCostSwitch(box, hasCost, shown) {
  for (const node of box.querySelectorAll('input')) {
    const radio = /** @type {HTMLInputElement} */ (node);
    if (radio.value === 'cost') radio.disabled = !hasCost;
    radio.checked = (radio.value === 'cost') === shown;
  }
  box.title = hasCost ? '' : t('chart.noCost');
}
