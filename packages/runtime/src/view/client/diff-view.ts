/**
 * A patch as a rendered diff, by diff2html (bundled into the report), which escapes every line,
 * file name and header it renders (`escapeForHtml` in its render-utils); the markup it returns is
 * the only markup the report sets.
 * @module
 */
import { html } from 'diff2html';
import { h } from './dom.js';

/** The rendered diff of `patch`, or its text when diff2html finds no file in it. */
export function renderDiff(patch: string): HTMLElement {
  const box = h('div', { class: 'diff' });
  const rendered = html(patch, { drawFileList: true, matching: 'lines', outputFormat: 'line-by-line' });
  if (patch.trim() === '') box.append(h('p', { class: 'muted' }, 'empty patch'));
  else if (!rendered.includes('d2h-file-wrapper')) box.append(h('pre', { class: 'raw' }, patch));
  else box.innerHTML = rendered;
  // the file list's links are #d2h-… fragments; the page's fragment names an instance, so scroll instead
  box.addEventListener('click', (event) => {
    const link = (event.target as Element).closest('a[href^="#d2h-"]');
    if (link === null) return;
    event.preventDefault();
    box.querySelector(`[id="${link.getAttribute('href')?.slice(1)}"]`)?.scrollIntoView();
  });
  return box;
}
