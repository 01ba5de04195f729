/**
 * The run at a glance: totals by status, the resolved rate with and without infrastructure
 * errors, breakdowns by repository and by exit status, and for agent runs cost, tokens and steps
 * as small charts.
 * @module
 */
import type { ViewInstanceSummary, ViewRun } from '../model/view-data.js';

/** A run as the page holds it: its instances without their details. */
export type EmbeddedRun = Omit<ViewRun, 'instances'> & { instances: ViewInstanceSummary[] };
import { histogram } from './charts.js';
import { h } from './dom.js';
import { count, percent, usd } from './format.js';

const card = (label: string, value: string, testId: string): HTMLElement =>
  h(
    'div',
    { class: 'card', 'data-total': testId },
    h('div', { class: 'card-value' }, value),
    h('div', { class: 'card-label' }, label),
  );

/** A count table: one row per key of `counts`. */
function countTable(caption: string, head: string, counts: Record<string, number>): HTMLElement {
  return h(
    'table',
    { class: 'small', 'data-breakdown': caption },
    h('caption', null, caption),
    h('thead', null, h('tr', null, h('th', null, head), h('th', { class: 'num' }, 'instances'))),
    h(
      'tbody',
      null,
      ...Object.entries(counts).map(([key, n]) =>
        h(
          'tr',
          null,
          h('td', null, h('span', { class: `status s-${key}` }, key)),
          h('td', { class: 'num' }, n),
        ),
      ),
    ),
  );
}

/** Instances per repository and status. */
function repoTable(run: EmbeddedRun): HTMLElement {
  const graded = run.totals.resolvedRate !== null;
  const statuses = Object.keys(run.totals.byStatus);
  const rows = new Map<string, Record<string, number>>();
  for (const instance of run.instances) {
    const row = rows.get(instance.repo) ?? {};
    row[instance.status] = (row[instance.status] ?? 0) + 1;
    rows.set(instance.repo, row);
  }
  return h(
    'table',
    { class: 'small', 'data-breakdown': 'by repository' },
    h('caption', null, 'By repository'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', null, 'repository'),
        ...statuses.map((s) => h('th', { class: 'num' }, s)),
        graded ? h('th', { class: 'num' }, 'resolved rate') : null,
      ),
    ),
    h(
      'tbody',
      null,
      ...[...rows.entries()]
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([repo, row]) => {
          const total = Object.values(row).reduce((a, b) => a + b, 0);
          return h(
            'tr',
            null,
            h('td', null, repo),
            ...statuses.map((s) => h('td', { class: 'num' }, row[s] ?? 0)),
            graded ? h('td', { class: 'num' }, percent((row.resolved ?? 0) / total)) : null,
          );
        }),
    ),
  );
}

/** The overview of one run. */
export function renderOverview(run: EmbeddedRun): HTMLElement {
  const t = run.totals;
  const cards = h(
    'div',
    { class: 'cards' },
    card('instances', String(t.instances), 'instances'),
    t.resolvedRate === null ? null : card('resolved', String(t.resolved), 'resolved'),
    t.resolvedRate === null ? null : card('resolved rate', percent(t.resolvedRate), 'rate'),
    t.resolvedRate === null
      ? null
      : card(
          `resolved rate without the ${t.infraErrors} infrastructure errors`,
          percent(t.resolvedRateWithoutInfra),
          'rate-without-infra',
        ),
    card('infrastructure errors', String(t.infraErrors), 'infra'),
    t.byExitStatus === null ? null : card('cost', usd(t.costUsd), 'cost'),
    t.byExitStatus === null ? null : card('tokens', count(t.tokens), 'tokens'),
    t.byExitStatus === null ? null : card('steps', count(t.steps), 'steps'),
  );
  const tables = h(
    'div',
    { class: 'breakdowns' },
    countTable('By status', 'status', t.byStatus),
    t.byExitStatus === null ? null : countTable('By exit status', 'exit status', t.byExitStatus),
    repoTable(run),
  );
  const charts =
    t.byExitStatus === null
      ? null
      : h(
          'div',
          { class: 'charts' },
          histogram(
            'cost per instance (USD)',
            run.instances.map((i) => i.costUsd),
            (v) => v.toFixed(3),
          ),
          histogram(
            'tokens per instance',
            run.instances.map((i) => i.tokens),
            (v) => (v >= 1000 ? `${(v / 1000).toPrecision(3)}k` : String(Math.round(v))),
          ),
          histogram(
            'steps per instance',
            run.instances.map((i) => i.steps),
            (v) => String(Math.round(v)),
          ),
        );
  return h('section', { class: 'overview' }, cards, charts, tables);
}
