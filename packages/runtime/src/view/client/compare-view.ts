/**
 * Two runs side by side (`sandkit view A B`): the instances whose verdict changed, both ways, and
 * each instance's two versions next to each other.
 * @module
 */
import type { ViewInstance, ViewInstanceSummary } from '../model/view-data.js';
import { h, instanceHref } from './dom.js';
import { renderInstance } from './instance-view.js';
import type { EmbeddedRun } from './overview.js';

/** An instance in both runs, or in one: its summary and index in each. */
export interface Pair {
  id: string;
  a: ViewInstanceSummary | undefined;
  b: ViewInstanceSummary | undefined;
  indexA: number;
  indexB: number;
}

/** Every instance id of either run, in A's order then B's. */
export function pairRuns(a: EmbeddedRun, b: EmbeddedRun): Pair[] {
  const inB = new Map(b.instances.map((instance, index) => [instance.id, index]));
  const pairs: Pair[] = a.instances.map((instance, index) => {
    const indexB = inB.get(instance.id) ?? -1;
    return { id: instance.id, a: instance, b: b.instances[indexB], indexA: index, indexB };
  });
  const inA = new Set(a.instances.map((i) => i.id));
  b.instances.forEach((instance, index) => {
    if (!inA.has(instance.id))
      pairs.push({ id: instance.id, a: undefined, b: instance, indexA: -1, indexB: index });
  });
  return pairs;
}

const statusOf = (i: ViewInstanceSummary | undefined): string => i?.status ?? 'absent';

function changeList(title: string, pairs: Pair[], testId: string): HTMLElement {
  return h(
    'div',
    { class: 'changes', 'data-changes': testId },
    h('h3', null, `${title} (${pairs.length})`),
    pairs.length === 0
      ? h('p', { class: 'muted' }, 'none')
      : h(
          'ul',
          null,
          ...pairs.map((p) =>
            h('li', null, h('a', { href: instanceHref(p.id) }, p.id), ` ${statusOf(p.a)} → ${statusOf(p.b)}`),
          ),
        ),
  );
}

/** The list of changed verdicts. */
export function renderChanges(pairs: Pair[]): HTMLElement {
  const resolved = (i: ViewInstanceSummary | undefined): boolean => i?.status === 'resolved';
  return h(
    'section',
    { class: 'compare' },
    changeList(
      'Resolved in A, not in B',
      pairs.filter((p) => resolved(p.a) && !resolved(p.b)),
      'lost',
    ),
    changeList(
      'Resolved in B, not in A',
      pairs.filter((p) => !resolved(p.a) && resolved(p.b)),
      'gained',
    ),
    changeList(
      'Other changes of status',
      pairs.filter((p) => resolved(p.a) === resolved(p.b) && statusOf(p.a) !== statusOf(p.b)),
      'other',
    ),
  );
}

/**
 * One instance of both runs, side by side.
 * @param load an instance with its details, by run and index
 */
export function renderPair(
  pair: Pair,
  runs: [EmbeddedRun, EmbeddedRun],
  load: (run: number, index: number) => ViewInstance,
): HTMLElement {
  const side = (instance: ViewInstance | undefined, run: EmbeddedRun, label: string): HTMLElement =>
    h(
      'div',
      { class: 'side', 'data-side': label },
      h('p', { class: 'side-label' }, `${label}: ${run.dir}`),
      instance === undefined
        ? h('p', { class: 'muted' }, 'not in this run')
        : renderInstance(instance, `i${label}`),
    );
  return h(
    'div',
    { class: 'side-by-side' },
    side(pair.a === undefined ? undefined : load(0, pair.indexA), runs[0], 'A'),
    side(pair.b === undefined ? undefined : load(1, pair.indexB), runs[1], 'B'),
  );
}
