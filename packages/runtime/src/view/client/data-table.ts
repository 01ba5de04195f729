/**
 * The instance table: a filter box, a status choice, quick filters and sortable columns over every
 * row; the matching rows are shown {@link pageRows} at a time ("show more", "show all"). A row's
 * element is built the first time it is shown and kept; filtering and sorting work on plain
 * records and re-show at most a page of built rows, so a 2,300-row table answers a keystroke
 * in tens of milliseconds (bench/view-report.ts, BENCHMARKS.md).
 * @module
 */
import { h } from './dom.js';

/** One column. */
export interface Column<Row> {
  label: string;
  cell: (row: Row) => Node | string;
  /** Present on sortable columns: the value rows sort by (`null` last). */
  sort?: (row: Row) => number | string | null;
  numeric?: boolean;
}

/** What the table is made of. */
export interface TableSpec<Row> {
  rows: Row[];
  columns: Column<Row>[];
  /** The words a row is found by: id, repository, status, tags such as `FAIL_TO_PASS failed`. */
  searchText: (row: Row) => string;
  /** The status a row is picked by in the status choice. */
  status: (row: Row) => string;
  /** Buttons that put their text in the filter box. */
  quickFilters: string[];
}

/** Matching rows shown at once before "show more". */
export const pageRows = 100;

interface Built<Row> {
  row: Row;
  tr: HTMLTableRowElement | null;
  text: string;
  status: string;
}

/** Whether `text` holds every word of `query` (case-insensitive; `status:x` matches the status exactly). */
function matches(built: { text: string; status: string }, terms: readonly string[]): boolean {
  for (const term of terms) {
    if (term.startsWith('status:')) {
      if (built.status.toLowerCase() !== term.slice(7)) return false;
    } else if (!built.text.includes(term)) return false;
  }
  return true;
}

/** The table with its controls. */
export function renderTable<Row>(spec: TableSpec<Row>): HTMLElement {
  const built: Built<Row>[] = spec.rows.map((row) => ({
    row,
    tr: null,
    text: spec.searchText(row).toLowerCase(),
    status: spec.status(row),
  }));
  const rowOf = (b: Built<Row>): HTMLTableRowElement =>
    (b.tr ??= h(
      'tr',
      null,
      ...spec.columns.map((c) => h('td', c.numeric ? { class: 'num' } : null, c.cell(b.row))),
    ));
  const tbody = h('tbody');
  const shown = h('span', { class: 'shown', 'data-shown': '' });
  const input = h('input', {
    type: 'search',
    placeholder: 'filter: id, repository, status, "FAIL_TO_PASS failed", "patch did not apply"',
    'aria-label': 'filter instances',
    class: 'filter',
  });
  const statuses = [...new Set(built.map((b) => b.status))];
  const select = h(
    'select',
    { 'aria-label': 'status', class: 'status-choice' },
    h('option', { value: '' }, 'every status'),
    ...statuses.map((s) => h('option', { value: s }, s)),
  );
  let order: Built<Row>[] = built;
  let sortColumn = -1;
  let descending = false;
  let limit = pageRows;
  let visible: Built<Row>[] = [];
  const more = h('button', { type: 'button', class: 'quick', 'data-more': '' });
  const all = h('button', { type: 'button', class: 'quick', 'data-all': '' });
  const draw = (): void => {
    const page = visible.slice(0, limit);
    tbody.replaceChildren(...page.map(rowOf));
    const rest = visible.length - page.length;
    more.hidden = rest === 0;
    all.hidden = rest <= pageRows;
    more.textContent = `show ${Math.min(rest, pageRows)} more`;
    all.textContent = `show all ${visible.length}`;
    shown.textContent = `${visible.length} of ${built.length} instances${rest > 0 ? ` (${page.length} shown)` : ''}`;
    shown.setAttribute('data-shown', String(visible.length));
  };
  const update = (): void => {
    const terms = input.value
      .toLowerCase()
      .split(/\s+/)
      .filter((t) => t !== '');
    const status = select.value;
    visible = order.filter((b) => (status === '' || b.status === status) && matches(b, terms));
    limit = pageRows;
    draw();
  };
  more.addEventListener('click', () => {
    limit += pageRows;
    draw();
  });
  all.addEventListener('click', () => {
    limit = visible.length;
    draw();
  });
  const headers = spec.columns.map((column, i) => {
    const th = h('th', column.numeric ? { class: 'num' } : null, column.label);
    if (column.sort !== undefined) {
      const key = column.sort;
      th.classList.add('sortable');
      th.setAttribute('role', 'button');
      th.addEventListener('click', () => {
        descending = sortColumn === i ? !descending : column.numeric === true;
        sortColumn = i;
        const sign = descending ? -1 : 1;
        order = [...built].sort((a, b) => {
          const x = key(a.row);
          const y = key(b.row);
          if (x === y) return 0;
          if (x === null) return 1;
          if (y === null) return -1;
          return (x < y ? -1 : 1) * sign;
        });
        for (const other of headers) other.removeAttribute('aria-sort');
        th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        update();
      });
    }
    return th;
  });
  input.addEventListener('input', update);
  select.addEventListener('change', update);
  const quick = spec.quickFilters.map((text) =>
    h(
      'button',
      {
        type: 'button',
        class: 'quick',
        onclick: () => {
          input.value = `"${text}"`.replace(/"/g, '');
          update();
        },
      },
      text,
    ),
  );
  const clear = h(
    'button',
    {
      type: 'button',
      class: 'quick',
      onclick: () => {
        input.value = '';
        select.value = '';
        update();
      },
    },
    'clear',
  );
  update();
  return h(
    'section',
    { class: 'instances' },
    h('div', { class: 'controls' }, input, select, ...quick, clear, shown),
    h('table', { class: 'instance-table' }, h('thead', null, h('tr', null, ...headers)), tbody),
    h('p', null, more, ' ', all),
  );
}
