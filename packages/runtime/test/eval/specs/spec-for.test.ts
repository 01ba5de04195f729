import { SandkitError } from '@sandkit/core';
import { testFrameworks } from '@sandkit/tools';
import { describe, expect, it } from 'vitest';
import { buildEvalCommand } from '../../../src/eval/specs/build-eval-command.js';
import {
  missingSpecMessage,
  repoOfInstanceId,
  requireSpecForInstance,
  specFor,
  specForInstance,
  specForInstanceId,
} from '../../../src/eval/specs/spec-for.js';
import { allRepoSpecs, knownRepos, knownVersions } from '../../../src/eval/specs/spec-table.js';
import { testPatchTouching } from './spec-test-helpers.js';

function thrown(run: () => unknown): SandkitError {
  try {
    run();
  } catch (error) {
    if (SandkitError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a SandkitError');
}

describe('specFor', () => {
  it('finds a row whatever the case of the repository name', () => {
    expect(specFor('Django/Django', '3.0')?.repo).toBe('django/django');
    expect(specFor('BurntSushi/ripgrep', '2576')?.repo).toBe('burntsushi/ripgrep');
  });

  it('returns undefined for an unknown version or repository', () => {
    expect(specFor('django/django', '9.9')).toBeUndefined();
    expect(specFor('nobody/nothing', '1.0')).toBeUndefined();
  });

  it('keeps a version spelled "v5.3" distinct from "5.3" (astropy has both forms upstream)', () => {
    expect(specFor('astropy/astropy', 'v5.3')?.version).toBe('v5.3');
    expect(specFor('astropy/astropy', '5.3')).toBeUndefined();
  });
});

describe('specForInstance', () => {
  it('finds a Multilingual row from the instance id when the row has no version', () => {
    const row = specForInstance({ instance_id: 'caddyserver__caddy-6411', repo: 'caddyserver/caddy' });
    expect(row?.version).toBe('6411');
  });

  it('prefers the row version when both are given', () => {
    const row = specForInstance({
      instance_id: 'gin-gonic__gin-9999',
      repo: 'gin-gonic/gin',
      version: '4003',
    });
    expect(row?.version).toBe('4003');
  });

  it('does not read a release-versioned repository from its instance id', () => {
    expect(specForInstance({ instance_id: 'django__django-4', repo: 'django/django' })).toBeUndefined();
  });
});

describe('repoOfInstanceId', () => {
  it.each([
    ['django__django-11099', 'django/django'],
    ['Automattic__wp-calypso-21964', 'Automattic/wp-calypso'],
    ['BurntSushi__ripgrep-2209', 'burntsushi/ripgrep'],
    ['pvlib__pvlib-python-1854', 'pvlib/pvlib-python'],
    ['mrdoob__three.js-25687', 'mrdoob/three.js'],
  ])('reads %s as %s', (id, repo) => {
    expect(repoOfInstanceId(id)).toBe(repo);
  });

  it.each(['me__tool-1', 'django-11099', 'django__django'])('returns undefined for %s', (id) => {
    expect(repoOfInstanceId(id)).toBeUndefined();
  });
});

describe('specForInstanceId', () => {
  it('finds a per-pull-request row from the id alone', () => {
    expect(specForInstanceId('tokio-rs__axum-682')?.testCommand).toEqual([
      'RUSTFLAGS=-Awarnings cargo test --package axum --lib trailing -- with_trailing_slash_post without_trailing_slash_post',
    ]);
  });

  it('returns undefined for a release-versioned repository', () => {
    expect(specForInstanceId('django__django-11099')).toBeUndefined();
  });
});

describe('requireSpecForInstance', () => {
  describe('when the repository is unknown', () => {
    it('throws SandkitError with code invalid_record that says to give a test_cmd', () => {
      const error = thrown(() =>
        requireSpecForInstance({ instance_id: 'me__tool-1', repo: 'me/tool', version: '1' }),
      );
      expect(error.code).toBe('invalid_record');
      expect(error.message).toBe(
        'me__tool-1: me/tool is not in the SWE-bench spec table (SWE-bench v4.1.0 repositories only); give the row a test_cmd (and a test_framework) to evaluate it without the table',
      );
    });
  });

  describe('when the version is unknown', () => {
    it('throws with the known versions listed', () => {
      const error = thrown(() =>
        requireSpecForInstance({ instance_id: 'pallets__flask-1', repo: 'pallets/flask', version: '9.0' }),
      );
      expect(error.message).toContain('pallets/flask has no version "9.0" in the SWE-bench spec table');
      expect(error.message).toContain('(known: 2.0, 2.1, 2.2, 2.3, 3.0, 3.1)');
      expect(error.details).toEqual({
        instanceId: 'pallets__flask-1',
        repo: 'pallets/flask',
        version: '9.0',
      });
    });
  });

  describe('when the row has no version', () => {
    it('throws asking for one', () => {
      expect(missingSpecMessage('psf/requests', undefined)).toMatch(
        /^the row of psf\/requests has no version; set it to one of 0\.7, 0\.8, /,
      );
    });
  });

  it('cuts a long list of versions after 20', () => {
    expect(knownVersions('sphinx-doc/sphinx')).toHaveLength(34);
    const message = missingSpecMessage('sphinx-doc/sphinx', '0.1');
    expect(message).toContain('(known: 1.5, 1.6,');
    expect(message).toContain(', 4.4, …)');
    expect(message).not.toContain('4.5');
  });
});

describe('buildEvalCommand', () => {
  const patch = testPatchTouching(['tests/test_a.py']);

  describe('when the row has its own test_cmd', () => {
    it('runs it as written, with the table environment and parser', () => {
      const built = buildEvalCommand({
        instance_id: 'pallets__flask-1',
        repo: 'pallets/flask',
        version: '2.3',
        test_patch: patch,
        test_cmd: 'pytest -x tests/test_a.py',
      });
      expect(built).toMatchObject({
        source: 'row',
        testCommand: 'pytest -x tests/test_a.py',
        directives: [],
        activate: ['source /opt/miniconda3/bin/activate', 'conda activate testbed'],
        beforeTestPatch: ['python -m pip install -e .'],
        parser: 'pytest',
        officialParser: 'parse_log_pytest',
      });
    });

    it('needs no table row', () => {
      const built = buildEvalCommand({
        instance_id: 'me__tool-1',
        repo: 'me/tool',
        test_patch: patch,
        test_cmd: 'node --test test/',
        test_framework: 'node',
      });
      expect(built).toMatchObject({
        spec: undefined,
        activate: [],
        testCommand: 'node --test test/',
        parser: 'node',
      });
      expect(built.testFiles).toEqual(['tests/test_a.py']);
    });
  });

  it('reads the log with the row test_framework over the table parser', () => {
    const row = { instance_id: 'sympy__sympy-1', repo: 'sympy/sympy', version: '1.1', test_patch: patch };
    expect(buildEvalCommand({ ...row, test_framework: 'pytest' }).parser).toBe('pytest');
  });

  describe('when the table row has no official command (dbt-core)', () => {
    const row = {
      instance_id: 'dbt-labs__dbt-core-1',
      repo: 'dbt-labs/dbt-core',
      version: '1.7',
      test_patch: patch,
    };

    it('throws SandkitError invalid_record asking for a test_cmd', () => {
      const error = thrown(() => buildEvalCommand(row));
      expect(error.code).toBe('invalid_record');
      expect(error.message).toBe(
        'dbt-labs__dbt-core-1: the official harness has no test command for dbt-labs/dbt-core 1.7; give the row a test_cmd (and a test_framework)',
      );
    });

    it('accepts a row test_cmd', () => {
      expect(buildEvalCommand({ ...row, test_cmd: 'pytest -rA' }).officialParser).toBeNull();
    });
  });

  it('shell-quotes a directive upstream would paste raw', () => {
    const built = buildEvalCommand({
      instance_id: 'pytest-dev__pytest-1',
      repo: 'pytest-dev/pytest',
      version: '8.0',
      test_patch: testPatchTouching(['testing/test it.py']),
    });
    expect(built.testCommand).toBe("pytest -rA 'testing/test it.py'");
  });

  describe('when a Multimodal row carries image_assets', () => {
    const row = {
      instance_id: 'chartjs__Chart.js-1',
      repo: 'chartjs/Chart.js',
      version: '4.4',
      test_patch: patch,
    };
    const assets = {
      test_patch: [
        { path: 'test/fixtures/a.png', url: 'https://example.org/a.png' },
        { path: 'b.png', url: 'u' },
      ],
    };

    it('downloads each image after the reset, from JSON text or an object', () => {
      const expected = [
        'mkdir -p test/fixtures',
        'curl -o test/fixtures/a.png https://example.org/a.png',
        'chmod 777 test/fixtures/a.png',
        'mkdir -p .',
        'curl -o b.png u',
        'chmod 777 b.png',
      ];
      expect(buildEvalCommand({ ...row, image_assets: JSON.stringify(assets) }).afterReset).toEqual(expected);
      expect(buildEvalCommand({ ...row, image_assets: assets }).afterReset).toEqual(expected);
    });

    it('throws SandkitError invalid_record for text that is not JSON', () => {
      expect(thrown(() => buildEvalCommand({ ...row, image_assets: '{oops' })).code).toBe('invalid_record');
    });
  });
});

describe('the spec table', () => {
  it('holds the 66 repositories and 689 versions of SWE-bench v4.1.0', () => {
    expect(knownRepos()).toHaveLength(66);
    expect(allRepoSpecs()).toHaveLength(689);
  });

  it('marks exactly the official FAIL_ONLY repositories', () => {
    const failOnly = new Set(
      allRepoSpecs()
        .filter((row) => row.failOnly)
        .map((row) => row.repo),
    );
    expect([...failOnly].sort()).toEqual(['chartjs/Chart.js', 'markedjs/marked', 'processing/p5.js']);
  });

  it('activates conda for every Python row and nothing for the others', () => {
    for (const row of allRepoSpecs()) {
      expect(row.activate.length > 0).toBe(row.language === 'python');
      if (row.language !== 'python') expect(row.install).toBeNull();
    }
  });

  it('gives every row with an official parser a parser that @sandkit/tools has', () => {
    const rows = allRepoSpecs().filter((row) => row.officialParser !== null);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(testFrameworks, `${row.repo} ${row.version}`).toContain(row.parser);
  });
});
