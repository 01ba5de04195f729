/**
 * The test output of an instance: the lines that decided each listed test highlighted (by the
 * test's status), long stretches between them folded, the whole embedded part one click away,
 * and a link to the whole log file when it sits beside the report.
 * @module
 */
import type { ViewLog, ViewTest } from '../model/view-data.js';
import { fileHref, h } from './dom.js';

/** Lines kept in view around a highlighted line before folding. */
const context = 6;
/** Stretches shorter than this are never folded. */
const minFold = 12;

/** The element id of a log line, unique in the page. */
export const lineId = (scope: string, line: number): string => `${scope}-L${line}`;

interface Mark {
  status: string;
  names: string[];
}

function lineRow(scope: string, n: number, text: string, mark: Mark | undefined): HTMLElement {
  return h(
    'div',
    {
      class: mark === undefined ? 'ln' : `ln hl hl-${mark.status}`,
      id: lineId(scope, n),
      title: mark === undefined ? undefined : `decides ${mark.names.join(', ')} (${mark.status})`,
    },
    h('span', { class: 'no' }, n),
    h('span', { class: 'tx' }, text),
  );
}

/**
 * The log view.
 * @param scope a prefix unique to this instance view (line ids)
 */
export function renderLog(log: ViewLog, tests: readonly ViewTest[], scope: string): HTMLElement {
  const marks = new Map<number, Mark>();
  for (const test of tests) {
    if (test.line === null) continue;
    const mark = marks.get(test.line) ?? { status: test.status, names: [] };
    if (test.status === 'failed') mark.status = 'failed';
    mark.names.push(test.name);
    marks.set(test.line, mark);
  }
  const body = h('div', { class: 'log' });
  const folds: HTMLElement[] = [];
  let previousEnd = 0;
  for (const window of log.windows) {
    if (window.startLine > previousEnd + 1)
      body.append(
        h(
          'div',
          { class: 'gap' },
          `… lines ${previousEnd + 1}–${window.startLine - 1} are not in the report`,
        ),
      );
    const near = (n: number): boolean => {
      for (let d = -context; d <= context; d++) if (marks.has(n + d)) return true;
      return false;
    };
    let i = 0;
    const lines = window.lines;
    while (i < lines.length) {
      const n = window.startLine + i;
      let j = i;
      while (j < lines.length && !near(window.startLine + j)) j++;
      const stretch = j - i;
      if (stretch >= minFold && i > 2 && j < lines.length - 2) {
        const hidden = lines.slice(i, j);
        const fold = h(
          'button',
          { type: 'button', class: 'fold' },
          `show ${stretch} lines (${n}–${n + stretch - 1})`,
        );
        fold.addEventListener('click', () => {
          fold.replaceWith(...hidden.map((text, k) => lineRow(scope, n + k, text, undefined)));
        });
        folds.push(fold);
        body.append(fold);
        i = j;
      } else {
        const end = stretch >= minFold ? j : Math.max(j, i + 1);
        for (let k = i; k < end; k++)
          body.append(
            lineRow(scope, window.startLine + k, lines[k] as string, marks.get(window.startLine + k)),
          );
        i = end;
      }
    }
    previousEnd = window.startLine + lines.length - 1;
  }
  if (previousEnd < log.totalLines)
    body.append(
      h('div', { class: 'gap' }, `… lines ${previousEnd + 1}–${log.totalLines} are not in the report`),
    );
  const expandAll = h('button', { type: 'button', class: 'quick', 'data-expand-log': '' }, 'show all of it');
  expandAll.addEventListener('click', () => {
    for (const fold of folds) if (fold.isConnected) fold.click();
    expandAll.remove();
  });
  return h(
    'div',
    { class: 'log-box' },
    h(
      'p',
      { class: 'muted' },
      `${log.totalLines} lines, ${log.totalBytes} bytes${log.whole ? '' : ' (cut to the lines around each deciding line, its head and its tail)'}. `,
      folds.length > 0 ? expandAll : null,
      ' ',
      log.href === null ? null : h('a', { href: fileHref(log.href), target: '_blank' }, 'open the whole log'),
    ),
    body,
  );
}
