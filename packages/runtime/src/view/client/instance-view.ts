/**
 * One instance: its verdict and why, FAIL_TO_PASS and PASS_TO_PASS with each test's status
 * (`missing`: named in the dataset, absent from the log), the official agreement, the patch as a
 * rendered diff with the patch chain's steps, the test output, and the trajectory of agent runs.
 * @module
 */
import type { ViewInstance, ViewTest } from '../model/view-data.js';
import { renderDiff } from './diff-view.js';
import { h } from './dom.js';
import { ratio, seconds, usd } from './format.js';
import { lineId, renderLog } from './log-view.js';
import { renderTrajectory } from './trajectory-view.js';

function testList(
  list: 'FAIL_TO_PASS' | 'PASS_TO_PASS',
  tests: readonly ViewTest[],
  scope: string,
): HTMLElement {
  const mine = tests.filter((t) => t.list === list);
  return h(
    'div',
    { class: 'test-list', 'data-list': list },
    h('h4', null, `${list} (${mine.filter((t) => t.status === 'passed').length} of ${mine.length} passed)`),
    mine.length === 0
      ? h('p', { class: 'muted' }, 'no test statuses recorded')
      : h(
          'ul',
          null,
          ...mine.map((test) => {
            const jump =
              test.line === null
                ? null
                : h(
                    'button',
                    {
                      type: 'button',
                      class: 'line-link',
                      onclick: () =>
                        document
                          .getElementById(lineId(scope, test.line as number))
                          ?.scrollIntoView({ block: 'center' }),
                    },
                    `line ${test.line}`,
                  );
            return h(
              'li',
              { 'data-test': test.name, 'data-status': test.status },
              h('span', { class: `status s-${test.status}` }, test.status),
              ' ',
              h('code', null, test.name),
              ' ',
              jump,
            );
          }),
        ),
  );
}

/** The view of `instance`; `scope` makes its element ids unique (two runs side by side). */
export function renderInstance(instance: ViewInstance, scope: string): HTMLElement {
  const o = instance.official;
  return h(
    'article',
    { class: 'instance', 'data-instance': instance.id },
    h(
      'h2',
      null,
      instance.id,
      ' ',
      h('span', { class: `status s-${instance.status}`, 'data-verdict': instance.status }, instance.status),
    ),
    h('p', { class: 'reason', 'data-reason': '' }, instance.reason),
    h(
      'p',
      { class: 'muted' },
      `${instance.repo} · FAIL_TO_PASS ${ratio(instance.f2p)} · PASS_TO_PASS ${ratio(instance.p2p)} · ${seconds(instance.durationMs)}`,
      instance.exitStatus === null
        ? ''
        : ` · exit status ${instance.exitStatus} · ${instance.steps ?? 0} steps · ${usd(instance.costUsd)}`,
    ),
    o === null
      ? null
      : h(
          'div',
          {
            class: o.agrees ? 'official agrees' : 'official differs',
            'data-official': o.agrees ? 'agrees' : 'differs',
          },
          h(
            'strong',
            null,
            `Official report.json: ${o.resolved ? 'resolved' : 'unresolved'}; sandkit ${o.agrees ? 'agrees' : 'differs'}.`,
          ),
          ...o.reasons.map((reason) => h('p', null, reason)),
          o.testDifferences.length === 0
            ? null
            : h(
                'ul',
                null,
                ...o.testDifferences.map((d) =>
                  h(
                    'li',
                    null,
                    h('code', null, d.id),
                    ` (${d.list}): official ${d.official}, sandkit ${d.sandkit}: ${d.why}`,
                  ),
                ),
              ),
        ),
    instance.notes.length === 0
      ? null
      : h('ul', { class: 'notes' }, ...instance.notes.map((note) => h('li', null, note))),
    h(
      'div',
      { class: 'tests' },
      testList('FAIL_TO_PASS', instance.tests, scope),
      testList('PASS_TO_PASS', instance.tests, scope),
    ),
    h('h3', null, 'Patch'),
    instance.patchSteps.length === 0
      ? h(
          'p',
          { class: 'muted', 'data-patch-method': instance.patchMethod ?? '' },
          instance.patchMethod === null
            ? 'No step of the patch chain applied it.'
            : `Applied with ${instance.patchMethod}.`,
        )
      : h(
          'ol',
          { class: 'patch-chain', 'data-patch-method': instance.patchMethod ?? '' },
          ...instance.patchSteps.map((step) =>
            h(
              'li',
              { class: step.applied ? 'applied' : 'not-applied' },
              h('code', null, step.method),
              step.applied ? ' applied the patch' : ' did not apply it',
              step.output === ''
                ? null
                : h('details', null, h('summary', null, 'output'), h('pre', null, step.output)),
            ),
          ),
        ),
    instance.patch === null ? h('p', { class: 'muted' }, 'no patch file') : renderDiff(instance.patch),
    h('h3', null, 'Test output'),
    instance.log === null
      ? h('p', { class: 'muted' }, 'no test output recorded')
      : renderLog(instance.log, instance.tests, scope),
    instance.trajectory === null ? null : h('h3', null, 'Trajectory'),
    instance.trajectory === null ? null : renderTrajectory(instance.trajectory),
  );
}
