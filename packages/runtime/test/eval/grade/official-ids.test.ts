import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type IdCollision,
  type OfficialIdForm,
  type OfficialStatuses,
  officialIdForm,
  officialStatuses,
  toOfficialId,
  worseStatus,
} from '../../../src/eval/grade/official-ids.js';
import type { TestStatus } from '../../../src/eval/instance/grade.js';

describe('toOfficialId', () => {
  it.each([
    ['pytest', 't.py::test_x[a b-1]', 't.py::test_x[a'],
    ['pytest', 't.py::test_x[ab]', 't.py::test_x[ab]'],
    ['pytest-options', 't.py::test_x[/tmp/data/one.txt]', 't.py::test_x[/one.txt]'],
    ['pytest-options', 't.py::test_x[//server/share]', 't.py::test_x[//server/share]'],
    ['pytest-options', 't.py::test_x[/tmp/*.txt]', 't.py::test_x[/tmp/*.txt]'],
    ['pytest-options', 't.py::test_x[/a b/c]', 't.py::test_x[/a'],
    ['pytest-options', 't.py::test_x[]', 't.py::test_x[]'],
    ['matplotlib', 't.py::test_click[MouseButton.LEFT]', 't.py::test_click[1]'],
    ['matplotlib', 't.py::test_click[MouseButton.RIGHT-x y]', 't.py::test_click[3-x'],
    ['whole', 'test_x (mod.Class) with spaces', 'test_x (mod.Class) with spaces'],
    ['jest-title', 'math › nested group › add(1, 1) = 2 [table]', 'add(1, 1) = 2 [table]'],
    ['jest-title', 'always fine', 'always fine'],
    ['minitest-shoulda', 'TestSite#test_: Site should render. ', 'TestSite#test_: Site should render'],
    ['minitest-shoulda', 'TestMath#test_adds', 'TestMath#test_adds'],
  ] as const)('in the %s form turns %j into %j', (form, id, official) => {
    expect(toOfficialId(id, form)).toBe(official);
  });

  it('in the jest-title form prefixes a skipped test with `skipped ` as jest --verbose prints it', () => {
    expect(toOfficialId('math › skipped case', 'jest-title', 'SKIPPED')).toBe('skipped skipped case');
    expect(toOfficialId('math › skipped case', 'jest-title', 'FAILED')).toBe('skipped case');
  });

  it('never returns whitespace in the pytest forms and is idempotent', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom('pytest', 'pytest-options', 'matplotlib' as const),
        (id, form) => {
          const once = toOfficialId(id, form);
          expect(/\s/.test(once)).toBe(false);
          expect(toOfficialId(once, form)).toBe(once);
        },
      ),
    );
  });

  it('in the pytest-options form gives what parse_log_pytest_options computes (its regex, in JS)', () => {
    /** `line.split()[1]` then `re.search(r"(.*?)\[(.*)\]", …)` and the path rule, as the official parser. */
    const official = (id: string): string => {
      const cut = id.split(/\s/)[0] as string;
      const match = /(.*?)\[(.*)\]/.exec(cut);
      if (match === null) return cut;
      const [, main, option] = match as unknown as [string, string, string];
      const path = option.startsWith('/') && !option.startsWith('//') && !option.includes('*');
      return `${main}[${path ? `/${option.split('/').at(-1)}` : option}]`;
    };
    const id = fc.string({ unit: fc.constantFrom('a', '/', '*', '[', ']', ' ', '.', ':'), maxLength: 30 });
    fc.assert(
      fc.property(id, (text) => {
        expect(toOfficialId(text, 'pytest-options')).toBe(official(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('officialIdForm', () => {
  it.each([
    ['parse_log_pytest_options', 'pytest', 'pytest-options'],
    ['parse_log_pytest_v2', 'pytest', 'pytest'],
    ['parse_log_matplotlib', 'pytest', 'matplotlib'],
    ['parse_log_django', 'django', 'whole'],
    ['parse_log_gotest', 'go', 'whole'],
    ['parse_log_jest', 'jest', 'jest-title'],
    ['parse_log_immutable_js', 'jest', 'jest-title'],
    ['parse_log_immutable_js', 'jest-json', 'whole'],
    ['parse_log_jekyll', 'minitest', 'minitest-shoulda'],
    ['parse_log_jekyll', 'cucumber', 'whole'],
    ['parse_log_react_pdf', 'jest', 'whole'],
    [null, 'pytest', 'pytest'],
    [null, 'node', 'whole'],
  ] as const)('maps %s (our parser %s) to %s', (official, parser, form) => {
    expect(officialIdForm(official, parser)).toBe(form);
  });
});

describe('officialStatuses', () => {
  describe('when two tests become one official id', () => {
    it('keeps the worst status and names the collision', () => {
      const out = officialStatuses(
        new Map([
          ['t.py::test[a b]', 'FAILED'],
          ['t.py::test[a c]', 'PASSED'],
          ['t.py::other', 'PASSED'],
        ] as const),
        'pytest',
      );
      expect(out.statuses).toEqual(
        new Map([
          ['t.py::test[a', 'FAILED'],
          ['t.py::other', 'PASSED'],
        ]),
      );
      expect(out.collisions).toEqual([
        {
          official: 't.py::test[a',
          from: [
            { id: 't.py::test[a b]', status: 'FAILED' },
            { id: 't.py::test[a c]', status: 'PASSED' },
          ],
          status: 'FAILED',
        },
      ]);
    });
  });
});

/** officialStatuses as it was before its one-probe loop (2026-12-01): the reference of the property below. */
function officialStatusesBefore(
  full: ReadonlyMap<string, TestStatus>,
  form: OfficialIdForm,
): OfficialStatuses {
  if (form === 'whole') return { statuses: new Map(full), collisions: [] };
  const statuses = new Map<string, TestStatus>();
  let collided = false;
  for (const [id, status] of full) {
    const official = toOfficialId(id, form, status);
    const worst = statuses.get(official);
    if (worst === undefined) statuses.set(official, status);
    else {
      collided = true;
      statuses.set(official, worseStatus(worst, status));
    }
  }
  if (!collided) return { statuses, collisions: [] };
  const groups = new Map<string, Array<{ id: string; status: TestStatus }>>();
  for (const [id, status] of full) {
    const official = toOfficialId(id, form, status);
    const group = groups.get(official);
    if (group === undefined) groups.set(official, [{ id, status }]);
    else group.push({ id, status });
  }
  const collisions: IdCollision[] = [];
  for (const [official, from] of groups)
    if (from.length > 1) collisions.push({ official, from, status: statuses.get(official) as TestStatus });
  return { statuses, collisions };
}

describe('officialStatuses', () => {
  describe('when ids collide or not, in every form', () => {
    it('gives the statuses (order included) and collisions the get-then-set loop gave', () => {
      const id = fc.string({
        unit: fc.constantFrom('a', 'b', '/', '*', '[', ']', ' ', '.', '\t', ' › ', 'MouseButton.LEFT', '1'),
        maxLength: 12,
      });
      const status = fc.constantFrom<TestStatus>('PASSED', 'FAILED', 'SKIPPED', 'ERROR', 'XFAIL');
      const form = fc.constantFrom<OfficialIdForm>(
        'whole',
        'pytest',
        'pytest-options',
        'matplotlib',
        'jest-title',
        'minitest-shoulda',
      );
      fc.assert(
        fc.property(fc.array(fc.tuple(id, status), { maxLength: 30 }), form, (entries, chosen) => {
          const full = new Map(entries);
          const now = officialStatuses(full, chosen);
          const before = officialStatusesBefore(full, chosen);
          expect([...now.statuses]).toEqual([...before.statuses]);
          expect(now.collisions).toEqual(before.collisions);
        }),
        { numRuns: 3000 },
      );
    });
  });
});
