/**
 * The report's page: reads the embedded data (`<script id="sandkit-data" type="application/json">`)
 * and shows the run (or the two runs) with the instance table, or one instance when the URL's
 * fragment names it (`report.html#<instance_id>`).
 * @module
 */
import 'diff2html/bundles/css/diff2html.min.css';
import 'uplot/dist/uPlot.min.css';
import './viewer.css';
import type { ViewData, ViewInstance, ViewRun } from '../model/view-data.js';
import { type Pair, pairRuns, renderChanges, renderPair } from './compare-view.js';
import { type Column, renderTable } from './data-table.js';
import { h, instanceHref } from './dom.js';
import { count, ratio, seconds, usd } from './format.js';
import { renderInstance } from './instance-view.js';
import { renderOverview } from './overview.js';

const data = JSON.parse(document.getElementById('sandkit-data')?.textContent ?? 'null') as ViewData;
const app = document.getElementById('app') as HTMLElement;
const single = data.runs.length === 1;

const failedIn = (i: ViewInstance, list: 'FAIL_TO_PASS' | 'PASS_TO_PASS'): boolean =>
  i.tests.some((t) => t.list === list && t.status !== 'passed') ||
  (list === 'FAIL_TO_PASS' ? i.f2p : i.p2p)?.success !== (list === 'FAIL_TO_PASS' ? i.f2p : i.p2p)?.total;

/** The words an instance is found by in the filter box. */
function tags(i: ViewInstance | undefined): string {
  if (i === undefined) return 'absent';
  const graded = i.status === 'resolved' || i.status === 'unresolved';
  return [
    i.id,
    i.repo,
    i.status,
    i.exitStatus,
    i.errorKind,
    graded && failedIn(i, 'FAIL_TO_PASS') ? 'FAIL_TO_PASS failed' : null,
    graded && failedIn(i, 'PASS_TO_PASS') ? 'PASS_TO_PASS failed' : null,
    i.errorKind === 'patch_apply' ? 'patch did not apply' : null,
    i.infraError ? 'infrastructure error' : null,
    i.tests.some((t) => t.status === 'missing') ? 'missing tests' : null,
    i.official === null ? null : i.official.agrees ? 'official agrees' : 'official differs',
  ]
    .filter((t) => t !== null)
    .join(' | ');
}

const idLink = (id: string): HTMLElement => h('a', { href: instanceHref(id) }, id);
const statusBadge = (status: string): HTMLElement => h('span', { class: `status s-${status}` }, status);

function runColumns(run: ViewRun): Column<ViewInstance>[] {
  const agent = run.kind === 'run';
  const columns: Column<ViewInstance>[] = [
    { label: 'instance', cell: (i) => idLink(i.id), sort: (i) => i.id },
    { label: 'repository', cell: (i) => i.repo, sort: (i) => i.repo },
    { label: 'status', cell: (i) => statusBadge(i.status), sort: (i) => i.status },
    {
      label: 'FAIL_TO_PASS',
      cell: (i) => ratio(i.f2p),
      sort: (i) => (i.f2p === null || i.f2p.total === 0 ? null : i.f2p.success / i.f2p.total),
      numeric: true,
    },
    {
      label: 'PASS_TO_PASS',
      cell: (i) => ratio(i.p2p),
      sort: (i) => (i.p2p === null || i.p2p.total === 0 ? null : i.p2p.success / i.p2p.total),
      numeric: true,
    },
    { label: 'patch applied with', cell: (i) => i.patchMethod ?? '' },
    { label: 'time', cell: (i) => seconds(i.durationMs), sort: (i) => i.durationMs, numeric: true },
  ];
  if (agent)
    columns.push(
      { label: 'exit status', cell: (i) => i.exitStatus ?? '', sort: (i) => i.exitStatus },
      { label: 'cost', cell: (i) => usd(i.costUsd), sort: (i) => i.costUsd, numeric: true },
      { label: 'tokens', cell: (i) => count(i.tokens), sort: (i) => i.tokens, numeric: true },
      { label: 'steps', cell: (i) => count(i.steps), sort: (i) => i.steps, numeric: true },
    );
  if (run.kind === 'grade')
    columns.push({
      label: 'official',
      cell: (i) => (i.official === null ? '' : i.official.agrees ? 'agrees' : 'differs'),
      sort: (i) => (i.official === null ? null : String(i.official.agrees)),
    });
  return columns;
}

const quickFilters = ['FAIL_TO_PASS failed', 'patch did not apply', 'infrastructure error', 'missing tests'];

function header(run: ViewRun, label: string | null): HTMLElement {
  return h(
    'header',
    null,
    h('h1', null, label === null ? '' : `${label}: `, run.title),
    run.model === null ? null : h('p', { class: 'muted' }, `model ${run.model}`),
  );
}

function renderSingle(run: ViewRun): HTMLElement {
  return h(
    'main',
    null,
    header(run, null),
    renderOverview(run),
    h('h2', null, 'Instances'),
    renderTable({
      rows: run.instances,
      columns: runColumns(run),
      searchText: tags,
      status: (i) => i.status,
      quickFilters,
    }),
  );
}

function renderCompare(runs: [ViewRun, ViewRun], pairs: Pair[]): HTMLElement {
  const columns: Column<Pair>[] = [
    { label: 'instance', cell: (p) => idLink(p.id), sort: (p) => p.id },
    { label: 'A', cell: (p) => statusBadge(p.a?.status ?? 'absent'), sort: (p) => p.a?.status ?? null },
    { label: 'B', cell: (p) => statusBadge(p.b?.status ?? 'absent'), sort: (p) => p.b?.status ?? null },
    {
      label: 'time A',
      cell: (p) => seconds(p.a?.durationMs ?? null),
      sort: (p) => p.a?.durationMs ?? null,
      numeric: true,
    },
    {
      label: 'time B',
      cell: (p) => seconds(p.b?.durationMs ?? null),
      sort: (p) => p.b?.durationMs ?? null,
      numeric: true,
    },
  ];
  return h(
    'main',
    null,
    h(
      'header',
      null,
      h('h1', null, 'Two runs compared'),
      h('p', null, `A: ${runs[0].title}`),
      h('p', null, `B: ${runs[1].title}`),
    ),
    renderChanges(pairs),
    h(
      'div',
      { class: 'side-by-side' },
      h('div', { class: 'side' }, header(runs[0], 'A'), renderOverview(runs[0])),
      h('div', { class: 'side' }, header(runs[1], 'B'), renderOverview(runs[1])),
    ),
    h('h2', null, 'Instances'),
    renderTable({
      rows: pairs,
      columns,
      searchText: (p) => `${tags(p.a)} | ${tags(p.b)} | ${p.a?.status === p.b?.status ? 'same' : 'changed'}`,
      status: (p) => `${p.a?.status ?? 'absent'} → ${p.b?.status ?? 'absent'}`,
      quickFilters: ['changed', ...quickFilters],
    }),
  );
}

const pairs = single ? [] : pairRuns(data.runs[0], data.runs[1] as ViewRun);
let overview: HTMLElement | null = null;

/** Shows what the fragment names: an instance, or the overview. */
function route(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const back = h('p', null, h('a', { href: '#', class: 'back' }, '← all instances'));
  if (id !== '') {
    const view = single
      ? (() => {
          const instance = data.runs[0].instances.find((i) => i.id === id);
          return instance === undefined ? null : renderInstance(instance, 'i');
        })()
      : (() => {
          const pair = pairs.find((p) => p.id === id);
          return pair === undefined ? null : renderPair(pair, data.runs as [ViewRun, ViewRun]);
        })();
    app.replaceChildren(back, view ?? h('p', { class: 'error-text' }, `No instance ${id} in this report.`));
    window.scrollTo(0, 0);
    return;
  }
  overview ??= single ? renderSingle(data.runs[0]) : renderCompare(data.runs as [ViewRun, ViewRun], pairs);
  app.replaceChildren(overview);
}

window.addEventListener('hashchange', route);
route();
document.body.setAttribute('data-ready', 'true');
