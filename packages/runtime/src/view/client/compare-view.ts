/**
 * Two runs side by side (`sandkit view A B`): the instances whose verdict changed, both ways, and
 * each instance's two versions next to each other.
 * @module
 */
import type { ViewInstance, ViewRun } from '../model/view-data.js';
import { h, instanceHref } from './dom.js';
import { renderInstance } from './instance-view.js';

/** An instance in both runs, or in one. */
export interface Pair {
  id: string;
  a: ViewInstance | undefined;
  b: ViewInstance | undefined;
}

/** Every instance id of either run, in A's order then B's. */
export function pairRuns(a: ViewRun, b: ViewRun): Pair[] {
  const inB = new Map(b.instances.map((i) => [i.id, i]));
  const pairs: Pair[] = a.instances.map((i) => ({ id: i.id, a: i, b: inB.get(i.id) }));
  const inA = new Set(a.instances.map((i) => i.id));
  for (const i of b.instances) if (!inA.has(i.id)) pairs.push({ id: i.id, a: undefined, b: i });
  return pairs;
}

const statusOf = (i: ViewInstance | undefined): string => i?.status ?? 'absent';

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
  const resolved = (i: ViewInstance | undefined): boolean => i?.status === 'resolved';
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

/** One instance of both runs, side by side. */
export function renderPair(pair: Pair, runs: [ViewRun, ViewRun]): HTMLElement {
  const side = (instance: ViewInstance | undefined, run: ViewRun, label: string): HTMLElement =>
    h(
      'div',
      { class: 'side', 'data-side': label },
      h('p', { class: 'side-label' }, `${label}: ${run.dir}`),
      instance === undefined
        ? h('p', { class: 'muted' }, 'not in this run')
        : renderInstance(instance, `i${label}`),
    );
  return h('div', { class: 'side-by-side' }, side(pair.a, runs[0], 'A'), side(pair.b, runs[1], 'B'));
}
