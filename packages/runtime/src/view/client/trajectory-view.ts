/**
 * An agent run of one instance: each step's text, reasoning, tool calls with their arguments and
 * results (long ones collapsed), errors marked, tokens and cost per step; the final patch at the end.
 * @module
 */
import type { ViewToolCall, ViewTrajectory } from '../model/view-data.js';
import { renderDiff } from './diff-view.js';
import { fileHref, h } from './dom.js';
import { count, usd } from './format.js';

/** A text longer than this many lines or characters is collapsed. */
const longLines = 12;
const longChars = 1200;

const isLong = (text: string): boolean => text.length > longChars || text.split('\n').length > longLines;

function block(label: string, text: string, open: boolean): HTMLElement {
  const details = h('details', { class: 'block' }, h('summary', null, label), h('pre', null, text));
  details.open = open;
  return details;
}

function toolCall(call: ViewToolCall): HTMLElement {
  const result = call.error !== null && call.result === 'null' ? call.error : call.result;
  return h(
    'div',
    { class: call.isError ? 'call error' : 'call', 'data-tool': call.name },
    h(
      'div',
      { class: 'call-head' },
      h('code', null, call.name),
      call.isError ? h('span', { class: 'status s-error' }, 'error') : null,
      call.durationMs === null ? null : h('span', { class: 'muted' }, ` ${Math.round(call.durationMs)} ms`),
    ),
    block('arguments', call.args, !isLong(call.args)),
    block(`result (${count(call.resultChars)} characters)`, result, !isLong(result)),
    call.error === null ? null : h('p', { class: 'error-text' }, call.error),
  );
}

/** The trajectory view. */
export function renderTrajectory(t: ViewTrajectory): HTMLElement {
  return h(
    'section',
    { class: 'trajectory' },
    h(
      'p',
      null,
      'Exit status ',
      h('span', { class: `status s-${t.exitStatus}` }, t.exitStatus),
      ` · ${t.steps.length} steps · model ${t.model} `,
      t.href === null ? null : h('a', { href: fileHref(t.href), target: '_blank' }, 'trajectory file'),
    ),
    t.error === null ? null : h('p', { class: 'error-text' }, t.error),
    h(
      'ol',
      { class: 'steps' },
      ...t.steps.map((step) =>
        h(
          'li',
          {
            class: step.toolCalls.some((c) => c.isError) ? 'step has-error' : 'step',
            'data-step': step.index,
          },
          h(
            'div',
            { class: 'step-head' },
            h('strong', null, `step ${step.index + 1}`),
            ` · ${step.finishReason} · ${count(step.inputTokens)} in / ${count(step.outputTokens)} out tokens · ${usd(step.costUsd)}`,
          ),
          step.reasoning === null ? null : block('reasoning', step.reasoning, false),
          step.text === '' ? null : h('pre', { class: 'model-text' }, step.text),
          ...step.toolCalls.map(toolCall),
        ),
      ),
    ),
    h('h4', null, 'Final patch'),
    renderDiff(t.patch),
  );
}
