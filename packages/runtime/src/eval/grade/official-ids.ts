/**
 * Test ids in the form the official SWE-bench log parsers produce them, computed from the full ids
 * our parsers keep. Facts from `swebench/harness/log_parsers/python.py` (SWE-bench v4.1.0, commit
 * 726c5461e2ef52d83cf1ea2107870a8bb3328d57):
 * - `parse_log_pytest` (and its aliases), `parse_log_pytest_v2`, `parse_log_seaborn`: the id is the
 *   second whitespace-separated word of a status line, so a parametrised id is cut at its first
 *   space (`test_x[a b]` → `test_x[a`);
 * - `parse_log_pytest_options` (psf/requests, pylint, pydicom): the same cut, then a parameter that
 *   is an absolute path (`/…`, not `//…`, no `*`) keeps only its last component
 *   (`test_x[/tmp/a/b.txt]` → `test_x[/b.txt]`);
 * - `parse_log_matplotlib`: `MouseButton.LEFT` → `1` and `MouseButton.RIGHT` → `3` before the cut;
 * - `parse_log_jest` (babel, docusaurus; immutable-js where its instance runs jest --verbose), in
 *   `swebench/harness/log_parsers/javascript.py`: the text after the `✓`/`✕`/`○` mark of jest
 *   --verbose, i.e. the test's own title without its describe blocks (`math › adds` → `adds`); a
 *   skipped test's line reads `○ skipped <title>`, so its id is `skipped <title>`;
 * - `parse_log_jekyll` on minitest output (`log_parsers/ruby.py`, `parse_log_minitest`): the name
 *   before the last `. ` of a `<name> = <time> s = <mark>` line, so the trailing `. ` of jekyll's
 *   shoulda-style names (`test_: <context> should <name>. `) is dropped;
 * - Django, sympy and every other parser: ids as printed (for the ids some official parsers read
 *   from summary lines instead, see `runner-summary-ids.ts`).
 * When several full ids become one official id, the official parser keeps the status of the last
 * line; sandkit keeps the worst status instead (conservative) and names the collision.
 * @module
 */
import type { TestStatus } from '../instance/grade.js';

/** How full ids are turned into official ones. */
export type OfficialIdForm =
  | 'whole'
  | 'pytest'
  | 'pytest-options'
  | 'matplotlib'
  | 'jest-title'
  | 'minitest-shoulda';

/** The id form of an official parser function; `null` parser (outside the table) → by our parser. */
export function officialIdForm(officialParser: string | null, parser: string): OfficialIdForm {
  switch (officialParser) {
    case 'parse_log_pytest':
    case 'parse_log_pytest_v2':
    case 'parse_log_seaborn':
      return 'pytest';
    case 'parse_log_pytest_options':
      return 'pytest-options';
    case 'parse_log_matplotlib':
      return 'matplotlib';
    case 'parse_log_jest':
      return 'jest-title';
    case 'parse_log_immutable_js':
      return parser === 'jest' ? 'jest-title' : 'whole';
    case 'parse_log_jekyll':
      return parser === 'minitest' ? 'minitest-shoulda' : 'whole';
    case null:
      return parser === 'pytest' ? 'pytest' : 'whole';
    default:
      return 'whole';
  }
}

/** One full id in `form`; `status` matters only to `jest-title` (a SKIPPED id gets `skipped `). */
export function toOfficialId(id: string, form: OfficialIdForm, status?: TestStatus): string {
  if (form === 'whole') return id;
  if (form === 'minitest-shoulda') return id.replace(/\.\s+$/, '');
  if (form === 'jest-title') {
    const title = id.split(' › ').at(-1) as string;
    return status === 'SKIPPED' ? `skipped ${title}` : title;
  }
  const source =
    form === 'matplotlib' ? id.replaceAll('MouseButton.LEFT', '1').replaceAll('MouseButton.RIGHT', '3') : id;
  const space = source.search(whitespace);
  const cut = space < 0 ? source : source.slice(0, space);
  if (form !== 'pytest-options') return cut;
  // As the official `re.match(r"^(.*?)\[(.*)\]", …)`: the first `[` to the last `]`, anything after dropped.
  const open = cut.indexOf('[');
  const close = cut.lastIndexOf(']');
  if (open < 0 || close <= open) return cut;
  // The option (between them) starts with `/`, not `//`, and holds no `*`: keep its last component.
  // Read in place: two slices instead of the option's, its last component's and a template's.
  if (cut.charCodeAt(open + 1) === 47 && cut.charCodeAt(open + 2) !== 47) {
    const star = cut.indexOf('*', open + 1);
    if (star < 0 || star > close)
      return cut.slice(0, open + 1) + cut.slice(cut.lastIndexOf('/', close), close + 1);
  }
  // Unchanged: the id itself, whose hash the caller's maps already hold.
  return close === cut.length - 1 ? cut : cut.slice(0, close + 1);
}

const whitespace = /\s/;

/** Several full ids that became one official id. */
export interface IdCollision {
  official: string;
  /** The full ids with their statuses, in the order of the parser's status map. */
  from: Array<{ id: string; status: TestStatus }>;
  /** The status sandkit grades with: the worst of them. */
  status: TestStatus;
}

/** Statuses keyed by official id. */
export interface OfficialStatuses {
  statuses: Map<string, TestStatus>;
  /** Official ids that several full ids collapsed into (each only when their statuses differ or not). */
  collisions: IdCollision[];
}

const severity: Record<TestStatus, number> = { PASSED: 0, XFAIL: 1, SKIPPED: 2, FAILED: 3, ERROR: 4 };

/** The worse of two statuses (PASSED < XFAIL < SKIPPED < FAILED < ERROR); `a` absent → `b`. */
export function worseStatus(a: TestStatus | undefined, b: TestStatus): TestStatus {
  return a !== undefined && severity[a] > severity[b] ? a : b;
}

/** Re-keys `full` (full id → status) by official id; colliding ids get the worst status. */
export function officialStatuses(
  full: ReadonlyMap<string, TestStatus>,
  form: OfficialIdForm,
): OfficialStatuses {
  if (form === 'whole') return { statuses: new Map(full), collisions: [] };
  // One probe per id (a set, its size telling a new id from a repeated one) instead of a get and a
  // set; the first repeated id (rare) sends the whole map through the worst-status pass below.
  const first = new Map<string, TestStatus>();
  for (const [id, status] of full) {
    const size = first.size;
    first.set(toOfficialId(id, form, status), status);
    if (first.size === size) return collidingStatuses(full, form);
  }
  return { statuses: first, collisions: [] };
}

/** {@link officialStatuses} when some full ids become one official id: the worst status of each, and the collisions named. */
function collidingStatuses(full: ReadonlyMap<string, TestStatus>, form: OfficialIdForm): OfficialStatuses {
  const statuses = new Map<string, TestStatus>();
  const groups = new Map<string, Array<{ id: string; status: TestStatus }>>();
  for (const [id, status] of full) {
    const official = toOfficialId(id, form, status);
    statuses.set(official, worseStatus(statuses.get(official), status));
    const group = groups.get(official);
    if (group === undefined) groups.set(official, [{ id, status }]);
    else group.push({ id, status });
  }
  const collisions: IdCollision[] = [];
  for (const [official, from] of groups)
    if (from.length > 1) collisions.push({ official, from, status: statuses.get(official) as TestStatus });
  return { statuses, collisions };
}
