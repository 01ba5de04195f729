/**
 * The report's page: reads the embedded data (`<script id="sandkit-data" type="application/json">`)
 * and shows the run (or the two runs) with the instance table, or one instance when the URL's
 * fragment names it (`report.html#<instance_id>`).
 * @module
 */
import 'diff2html/bundles/css/diff2html.min.css';
import 'uplot/dist/uPlot.min.css';
import './viewer.css';
import {
  detailElementId,
  type ViewData,
  type ViewInstance,
  type ViewInstanceSummary,
} from '../model/view-data.js';
import { type Pair, pairRuns, renderChanges, renderPair } from './compare-view.js';
import { type Column, renderTable } from './data-table.js';
import { h, instanceHref } from './dom.js';
import { count, ratio, seconds, usd } from './format.js';
import { renderInstance } from './instance-view.js';
import { type EmbeddedRun, renderOverview } from './overview.js';

const data = JSON.parse(document.getElementById('sandkit-data')?.textContent ?? 'null') as Omit<
  ViewData,
  'runs'
> & {
  runs: EmbeddedRun[];
};
const app = document.getElementById('app') as HTMLElement;
const single = data.runs.length === 1;

/** An instance with its details, parsed from its own JSON element on first use. */
const loaded = new Map<string, ViewInstance>();
function loadInstance(run: number, index: number): ViewInstance {
  const key = `${run}-${index}`;
  let instance = loaded.get(key);
  if (instance === undefined) {
    const detail = JSON.parse(
      document.getElementById(detailElementId(run, index))?.textContent ?? '{}',
    ) as object;
    instance = { ...(data.runs[run]?.instances[index] as ViewInstanceSummary), ...detail } as ViewInstance;
    loaded.set(key, instance);
  }
  return instance;
}

/** The words an instance is found by in the filter box. */
function tags(i: ViewInstanceSummary | undefined): string {
  if (i === undefined) return 'absent';
  return [i.id, i.repo, i.status, i.exitStatus, i.errorKind, ...i.tags].filter((t) => t !== null).join(' | ');
}

const idLink = (id: string): HTMLElement => h('a', { href: instanceHref(id) }, id);
const statusBadge = (status: string): HTMLElement => h('span', { class: `status s-${status}` }, status);

function runColumns(run: EmbeddedRun): Column<ViewInstanceSummary>[] {
  const agent = run.kind === 'run';
  const columns: Column<ViewInstanceSummary>[] = [
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

function header(run: EmbeddedRun, label: string | null): HTMLElement {
  return h(
    'header',
    null,
    h('h1', null, label === null ? '' : `${label}: `, run.title),
    run.model === null ? null : h('p', { class: 'muted' }, `model ${run.model}`),
  );
}

function renderSingle(run: EmbeddedRun): HTMLElement {
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

function renderCompare(runs: [EmbeddedRun, EmbeddedRun], pairs: Pair[]): HTMLElement {
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

const runs = data.runs as [EmbeddedRun] | [EmbeddedRun, EmbeddedRun];
const pairs = runs.length === 1 ? [] : pairRuns(runs[0], runs[1]);
let overview: HTMLElement | null = null;

/** Shows what the fragment names: an instance, or the overview. */
function route(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const back = h('p', null, h('a', { href: '#', class: 'back' }, '← all instances'));
  if (id !== '') {
    const view = single
      ? (() => {
          const index = runs[0].instances.findIndex((i) => i.id === id);
          return index === -1 ? null : renderInstance(loadInstance(0, index), 'i');
        })()
      : (() => {
          const pair = pairs.find((p) => p.id === id);
          return pair === undefined
            ? null
            : renderPair(pair, runs as [EmbeddedRun, EmbeddedRun], loadInstance);
        })();
    app.replaceChildren(back, view ?? h('p', { class: 'error-text' }, `No instance ${id} in this report.`));
    window.scrollTo(0, 0);
    return;
  }
  overview ??= runs.length === 1 ? renderSingle(runs[0]) : renderCompare(runs, pairs);
  app.replaceChildren(overview);
}

window.addEventListener('hashchange', route);
route();
document.body.setAttribute('data-ready', 'true');
performance.mark('sandkit-ready');
