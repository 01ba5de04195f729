import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonTestEndings, testDirectives } from '../../../src/eval/specs/test-directives.js';
import {
  diffHeaderPaths,
  patchFileNames,
  patchFilePath,
  testPatchFiles,
} from '../../../src/eval/specs/test-patch-files.js';
import { testPatchTouching } from './spec-test-helpers.js';

describe('testDirectives', () => {
  describe('when the rule is python-paths', () => {
    it.each([
      ['keeps .py paths in patch order', ['b/test_b.py', 'a/test_a.py'], ['b/test_b.py', 'a/test_a.py']],
      [
        'drops every non-test ending (.json .png .txt .md .jpg .jpeg .pkl .yml .yaml .toml)',
        ['t.json', 'i.png', 'n.txt', 'r.md', 'p.jpg', 'p.jpeg', 'd.pkl', 'c.yml', 'c.yaml', 'p.toml', 't.py'],
        ['t.py'],
      ],
      [
        'drops any name ending in csv, dot or not (upstream lists "csv")',
        ['data.csv', 'data.tsv_csv', 't.py'],
        ['t.py'],
      ],
      [
        'keeps other endings (.rst, .cfg, .c, no ending)',
        ['doc.rst', 'setup.cfg', 'ext.c', 'Makefile'],
        ['doc.rst', 'setup.cfg', 'ext.c', 'Makefile'],
      ],
      ['keeps a file the patch adds', ['new:tests/test_new.py'], ['tests/test_new.py']],
    ])('%s', (_title, files, expected) => {
      expect(testDirectives('python-paths', testPatchTouching(files))).toEqual(expected);
    });

    it('keeps a path listed twice twice, as upstream does', () => {
      const patch = testPatchTouching(['t.py']) + testPatchTouching(['t.py']);
      expect(testDirectives('python-paths', patch)).toEqual(['t.py', 't.py']);
    });

    it('returns no directive for a patch with no diff --git header', () => {
      expect(testDirectives('python-paths', '--- a/t.py\n+++ b/t.py\n@@ -1 +1 @@\n-a\n+b\n')).toEqual([]);
    });
  });

  describe('when the rule is django-modules', () => {
    it.each([
      ['tests/admin_views/tests.py', 'admin_views.tests'],
      ['tests/i18n/sampleproject/manage.py', 'i18n.sampleproject.manage'],
      ['tests/runtests.py', 'runtests'],
      // only a leading tests/ goes; a non-.py file keeps its ending
      ['django/test/utils.py', 'django.test.utils'],
      ['tests/templates/base.html', 'templates.base.html'],
    ])('turns %s into %s', (path, module) => {
      expect(testDirectives('django-modules', testPatchTouching([path]))).toEqual([module]);
    });

    it('drops non-test files before the transform', () => {
      const patch = testPatchTouching(['tests/validators/invalid_urls.txt', 'tests/validators/tests.py']);
      expect(testDirectives('django-modules', patch)).toEqual(['validators.tests']);
    });
  });

  describe('when the rule needs no directive', () => {
    it.each(['none', 'calypso'] as const)('returns none for %s', (rule) => {
      expect(testDirectives(rule, testPatchTouching(['src/a.test.js']))).toEqual([]);
    });

    it('returns test.py for humaneval whatever the patch holds', () => {
      expect(testDirectives('humaneval', testPatchTouching(['x.json']))).toEqual(['test.py']);
    });
  });
});

describe('diffHeaderPaths', () => {
  it('takes the path after the last " b/" of the header line', () => {
    expect(diffHeaderPaths('diff --git a/x b/y b/z.py\n')).toEqual(['z.py']);
  });

  it('keeps a carriage return of a CRLF patch in the path, as upstream does', () => {
    expect(diffHeaderPaths('diff --git a/t.py b/t.py\r\n')).toEqual(['t.py\r']);
  });

  it('finds a header that does not start its line', () => {
    expect(diffHeaderPaths('+ see diff --git a/doc b/doc.py\n')).toEqual(['doc.py']);
  });
});

describe('testPatchFiles', () => {
  it('lists modified and deleted files, not added ones', () => {
    const deleted =
      'diff --git a/old.py b/old.py\ndeleted file mode 100644\n--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n';
    const patch = testPatchTouching(['tests/test_a.py', 'new:tests/test_new.py']) + deleted;
    expect(testPatchFiles(patch)).toEqual(['tests/test_a.py', 'old.py']);
  });

  it('takes the source name of a renamed file', () => {
    const rename =
      'diff --git a/t/old.py b/t/new.py\nsimilarity index 90%\nrename from t/old.py\nrename to t/new.py\n--- a/t/old.py\n+++ b/t/new.py\n@@ -1 +1 @@\n-a\n+b\n';
    expect(testPatchFiles(rename)).toEqual(['t/old.py']);
  });

  it('does not read a removed "-- x" hunk line as a file header', () => {
    const patch =
      'diff --git a/t.sql b/t.sql\n--- a/t.sql\n+++ b/t.sql\n@@ -1,2 +1 @@\n--- comment\n-x\n+y\n';
    expect(testPatchFiles(patch)).toEqual(['t.sql']);
  });

  it('lists a binary file from its header', () => {
    const binary =
      'diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n';
    expect(testPatchFiles(binary)).toEqual(['img.png']);
  });

  it('returns nothing for an empty patch', () => {
    expect(testPatchFiles('')).toEqual([]);
  });
});

describe('patchFilePath', () => {
  it.each([
    ['a modified file', testPatchTouching(['x/y.js']), 'x/y.js'],
    ['an added file', testPatchTouching(['new:x/n.js']), 'x/n.js'],
    [
      'a deleted file',
      'diff --git a/d.js b/d.js\ndeleted file mode 100644\n--- a/d.js\n+++ /dev/null\n',
      'd.js',
    ],
  ])('names %s by its repository path', (_title, patch, path) => {
    expect(patchFileNames(patch).map(patchFilePath)).toEqual([path]);
  });
});

describe('testDirectives and testPatchFiles (properties)', () => {
  const segment = fc.stringMatching(/^[a-z0-9_][a-z0-9_.-]{0,8}$/);
  const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
  const paths = fc.uniqueArray(path, { minLength: 1, maxLength: 6 });

  it('keeps exactly the paths without a non-test ending, in order', () => {
    fc.assert(
      fc.property(paths, (list) => {
        const kept = list.filter((p) => !nonTestEndings.some((ending) => p.endsWith(ending)));
        expect(testDirectives('python-paths', testPatchTouching(list))).toEqual(kept);
      }),
    );
  });

  it('gives Django one slash-free module per kept path', () => {
    fc.assert(
      fc.property(paths, (list) => {
        const python = testDirectives('python-paths', testPatchTouching(list));
        const modules = testDirectives('django-modules', testPatchTouching(list));
        expect(modules).toHaveLength(python.length);
        for (const module of modules) expect(module).not.toContain('/');
      }),
    );
  });

  it('resets every modified file and no added one', () => {
    fc.assert(
      fc.property(paths, fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (list, added) => {
        const entries = list.map((p, i) => (added[i] ? `new:${p}` : p));
        expect(testPatchFiles(testPatchTouching(entries))).toEqual(list.filter((_, i) => !added[i]));
      }),
    );
  });
});
