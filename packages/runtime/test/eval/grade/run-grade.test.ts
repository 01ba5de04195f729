import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrade } from '../../../src/eval/grade/run-grade.js';
import { runEval } from '../../../src/eval/run-eval.js';
import {
  buildMirrors,
  miniInstances,
  repoRoot,
  runCli,
  runCliWithPermissions,
  tempDir,
} from '../eval-test-helpers.js';

const fixtures = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');
const dataset = join(fixtures, 'dataset.jsonl');
const logs = join(fixtures, 'logs/run_evaluation/fixture-run');

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('grade'));
});
afterAll(() => cleanup());

describe('runGrade', () => {
  describe('when official logs and report.json files are under --logs', () => {
    it('grades each log and says where the official verdict differs and why', async () => {
      const run = await runGrade({ dataset, logs, out: join(dir, 'out') });
      const result = (id: string) => run.results.get(id);
      expect(run.report).toMatchObject({
        total_instances: 5,
        resolved_ids: ['pallets__flask-90003', 'psf__requests-90002', 'sphinx-doc__sphinx-90001'],
        unresolved_ids: ['pydata__xarray-90005'],
        error_ids: ['pytest-dev__pytest-90004'],
      });
      // tox + ANSI colour + an id cut at a space: the official pytest_v2 parser strips the colour
      expect(result('sphinx-doc__sphinx-90001')?.official).toEqual({
        resolved: true,
        agrees: true,
        reasons: [],
        tests: { agrees: true, differences: [] },
      });
      // parse_log_pytest_options: `[/tmp/data/one.txt]` is listed as `[/one.txt]`
      expect(result('psf__requests-90002')).toMatchObject({ status: 'resolved', missing_tests: [] });
      expect(result('psf__requests-90002')?.official?.agrees).toBe(true);
      // parse_log_pytest reads coloured status lines as no test: the official grader's error
      expect(result('pallets__flask-90003')?.official).toMatchObject({ resolved: false, agrees: false });
      expect(result('pallets__flask-90003')?.official?.reasons.join()).toMatch(/ANSI colour/);
      // the test patch did not apply: never resolved, even with an empty FAIL_TO_PASS list
      expect(result('pytest-dev__pytest-90004')).toMatchObject({ status: 'error', error_kind: 'test_patch' });
      expect(result('pytest-dev__pytest-90004')?.error).toMatch(/already exists in working directory/);
      expect(result('pytest-dev__pytest-90004')?.official?.reasons.join()).toMatch(
        /test patch failed to apply/,
      );
      // two parametrised tests cut to one official id; one failed
      expect(result('pydata__xarray-90005')).toMatchObject({
        status: 'unresolved',
        id_collisions: [
          {
            official: 'test_cut.py::test_cut[x',
            from: ['test_cut.py::test_cut[x y]', 'test_cut.py::test_cut[x z]'],
          },
        ],
      });
      expect(run.disagreements.sort()).toEqual(['pallets__flask-90003', 'pytest-dev__pytest-90004']);
      const summary = await readFile(join(dir, 'out/summary.md'), 'utf8');
      expect(summary).toMatch(/sandkit agrees on 3, differs on 2/);
      // official logs record no patch step (the official report.json has no patch_applied_with)
      expect(result('psf__requests-90002')?.patch_method).toBeNull();
      expect(summary).toMatch(/\| psf__requests-90002 \| resolved \| \d+\/\d+ \| \d+\/\d+ \| {2}\|/);
      expect(summary).toMatch(
        /\| pallets__flask-90003 \| resolved \|.*\| differs: official unresolved; ANSI colour/,
      );
      const report = JSON.parse(
        await readFile(join(dir, 'out/instances/psf__requests-90002/report.json'), 'utf8'),
      );
      expect(report['psf__requests-90002'].tests_status.FAIL_TO_PASS.success).toEqual([
        'test_ids.py::test_path[/one.txt]',
      ]);
    });
  });

  describe('when the official report.json files beside JS, Go and Rust logs come from the official grader', () => {
    it("agrees with each one or names the official grader's error", async () => {
      const multilingual = join(fixtures, 'logs/run_evaluation/multilingual-run');
      const run = await runGrade({
        dataset: join(fixtures, 'dataset-multilingual.jsonl'),
        logs: multilingual,
        out: join(dir, 'multilingual'),
      });
      const officialResolved: Record<string, boolean> = {};
      for (const id of run.results.keys()) {
        const text = await readFile(join(multilingual, 'model-b', id, 'report.json'), 'utf8');
        officialResolved[id] = JSON.parse(text)[id].resolved;
      }
      // as grading.py computed them (scripts/official-grading/run.sh)
      expect(officialResolved).toEqual({
        'axios__axios-4731': true,
        'babel__babel-14532': true,
        'burntsushi__ripgrep-2209': true,
        'caddyserver__caddy-6411': true,
        'diegomura__react-pdf-90002': true,
        'markedjs__marked-90003': false,
        'processing__p5.js-90001': true,
        'vuejs__core-11899': false,
      });
      for (const [id, result] of run.results)
        expect(result.official?.resolved, id).toBe(officialResolved[id]);
      expect(run.disagreements.sort()).toEqual(['axios__axios-4731', 'processing__p5.js-90001']);
      // jest --verbose bare titles (babel) and per-file ids (react-pdf) are found in the official form
      expect(run.results.get('babel__babel-14532')).toMatchObject({ status: 'resolved', missing_tests: [] });
      expect(run.results.get('diegomura__react-pdf-90002')).toMatchObject({
        status: 'resolved',
        missing_tests: [],
      });
      // the official parser counts a skipped TAP test PASSED under an id that keeps `# SKIP -`
      expect(run.results.get('axios__axios-4731')?.official?.reasons.join()).toMatch(/TAP directive/);
      // parse_log_p5js loses the first failure of mocha's failure list: official resolves, sandkit does not
      expect(run.results.get('processing__p5.js-90001')).toMatchObject({ status: 'unresolved' });
      expect(run.results.get('processing__p5.js-90001')?.official?.reasons.join()).toMatch(
        /loses failures.*math:subtracts - badly/,
      );
    });
  });

  describe('when a prediction is an empty patch (the harness writes no log for it)', () => {
    it('grades it empty_patch from an empty patch.diff, or from the predictions', async () => {
      const own = join(dir, 'empty-patch/logs/model');
      await mkdir(join(own, 'psf__requests-90002'), { recursive: true });
      await writeFile(join(own, 'psf__requests-90002/patch.diff'), '');
      const fromDir = await runGrade({ dataset, logs: join(dir, 'empty-patch/logs'), out: join(dir, 'ep1') });
      // every dataset row counts in the total, as in the official report; only one was submitted
      expect(fromDir.report).toMatchObject({
        total_instances: 5,
        submitted_ids: ['psf__requests-90002'],
        empty_patch_ids: ['psf__requests-90002'],
      });

      const sphinx = join(dir, 'empty-patch/one/model/sphinx-doc__sphinx-90001');
      await cp(join(logs, 'model-a/sphinx-doc__sphinx-90001'), sphinx, { recursive: true });
      const predictions = join(dir, 'empty-patch/preds.jsonl');
      const row = (id: string, patch: string) =>
        JSON.stringify({ instance_id: id, model_name_or_path: 'model', model_patch: patch });
      const sphinxPatch = await readFile(join(sphinx, 'patch.diff'), 'utf8');
      await writeFile(
        predictions,
        `${row('sphinx-doc__sphinx-90001', sphinxPatch)}\n${row('psf__requests-90002', '')}\n`,
      );
      const fromPredictions = await runGrade({
        dataset,
        logs: join(dir, 'empty-patch/one'),
        predictions,
        out: join(dir, 'ep2'),
      });
      expect(fromPredictions.report).toMatchObject({
        total_instances: 5,
        empty_patch_ids: ['psf__requests-90002'],
        resolved_ids: ['sphinx-doc__sphinx-90001'],
      });
      expect([...fromPredictions.report.submitted_ids].sort()).toEqual([
        'psf__requests-90002',
        'sphinx-doc__sphinx-90001',
      ]);
      expect(await readFile(join(dir, 'ep2/summary.md'), 'utf8')).not.toMatch(/not finished/);
    });
  });

  describe('when the files beside a log are not what they seem', () => {
    /** A copy of one fixture instance's log directory under a fresh --logs, with `change` applied. */
    const logsWith = async (name: string, id: string, change: (instanceDir: string) => Promise<void>) => {
      const root = join(dir, name, 'logs');
      await cp(join(logs, 'model-a', id), join(root, 'model-a', id), { recursive: true });
      await change(join(root, 'model-a', id));
      return root;
    };

    it('notes an official report.json that is not JSON, in the row and the run report, and grades the log', async () => {
      const root = await logsWith('bad-report', 'sphinx-doc__sphinx-90001', (d) =>
        writeFile(join(d, 'report.json'), '{"sphinx-doc__sphinx-90001": {"resolved": tru'),
      );
      const run = await runGrade({ dataset, logs: root, out: join(dir, 'bad-report/out') });
      const result = run.results.get('sphinx-doc__sphinx-90001');
      expect(result).toMatchObject({ status: 'resolved' });
      expect(result?.official).toBeUndefined();
      expect(result?.grade_notes).toEqual([
        expect.stringMatching(
          /^the official report\.json is not JSON \(.+\): not compared with the official verdict; regenerate it with the official harness or remove it$/,
        ),
      ]);
      expect(run.report.invalid_records).toEqual([
        expect.objectContaining({
          file: join(root, 'model-a/sphinx-doc__sphinx-90001/report.json'),
          instanceId: 'sphinx-doc__sphinx-90001',
          message: expect.stringContaining('report.json: the official report.json is not JSON'),
        }),
      ]);
      const summary = await readFile(join(dir, 'bad-report/out/summary.md'), 'utf8');
      expect(summary).toMatch(
        /\| sphinx-doc__sphinx-90001 \| resolved \|.*the official report\.json is not JSON/,
      );
    });

    it('notes a report.json without an entry for the instance', async () => {
      const root = await logsWith('other-report', 'psf__requests-90002', (d) =>
        writeFile(join(d, 'report.json'), '{"psf__requests-1": {"resolved": true}}'),
      );
      const run = await runGrade({ dataset, logs: root, out: join(dir, 'other-report/out') });
      expect(run.results.get('psf__requests-90002')?.grade_notes).toEqual([
        expect.stringContaining(
          'the official report.json holds no entry for psf__requests-90002 (it has psf__requests-1)',
        ),
      ]);
    });

    it('reports a test_output.txt that is a directory instead of dropping the instance', async () => {
      const root = join(dir, 'log-dir/logs');
      await mkdir(join(root, 'model-a/psf__requests-90002/test_output.txt'), { recursive: true });
      const run = await runGrade({ dataset, logs: root, out: join(dir, 'log-dir/out') });
      expect(run.results.get('psf__requests-90002')).toMatchObject({
        status: 'error',
        error_kind: 'invalid_record',
        error: expect.stringContaining('test_output.txt is a directory, not a log: nothing to grade'),
      });
      expect(run.report.invalid_records.map((record) => record.file)).toEqual([
        join(root, 'model-a/psf__requests-90002/test_output.txt'),
      ]);
    });

    it('reports a log it cannot read (over 2 GiB here: a sparse file) on its row and grades the others', async () => {
      const root = await logsWith('huge-log', 'psf__requests-90002', (d) =>
        truncate(join(d, 'test_output.txt'), 3 * 1024 ** 3),
      );
      await cp(
        join(logs, 'model-a/sphinx-doc__sphinx-90001'),
        join(root, 'model-a/sphinx-doc__sphinx-90001'),
        {
          recursive: true,
        },
      );
      const run = await runGrade({ dataset, logs: root, out: join(dir, 'huge-log/out') });
      expect(run.results.get('psf__requests-90002')).toMatchObject({
        status: 'error',
        error_kind: 'invalid_record',
        error: expect.stringMatching(/test_output.txt is 3221225472 bytes, over the 512 MiB/),
      });
      expect(run.results.get('sphinx-doc__sphinx-90001')).toMatchObject({ status: 'resolved' });
      expect(run.report.invalid_records.map((record) => record.file)).toEqual([
        join(root, 'model-a/psf__requests-90002/test_output.txt'),
      ]);
    });

    it('R17: refuses a log over 512 MiB from its size, unread (a sparse 600 MB file), and grades the others', async () => {
      const root = await logsWith('sparse-log', 'psf__requests-90002', async (d) => {
        execFileSync('truncate', ['-s', '600M', join(d, 'test_output.txt')]);
      });
      await cp(
        join(logs, 'model-a/sphinx-doc__sphinx-90001'),
        join(root, 'model-a/sphinx-doc__sphinx-90001'),
        {
          recursive: true,
        },
      );
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const run = await runGrade({ dataset, logs: root, out: join(dir, 'sparse-log/out') });
      // Reading it took 14 s and 1.2 GB before failing on V8's string length.
      expect(performance.now() - started).toBeLessThan(5000);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
      const message = run.results.get('psf__requests-90002')?.error ?? '';
      expect(run.results.get('psf__requests-90002')).toMatchObject({
        status: 'error',
        error_kind: 'invalid_record',
      });
      expect(message).toMatch(/^test_output.txt is 629145600 bytes, over the 512 MiB \(536870912 bytes\)/);
      expect(message).not.toMatch(/Cannot create a string/);
      expect(run.results.get('sphinx-doc__sphinx-90001')).toMatchObject({ status: 'resolved' });
      expect(run.report.invalid_records.map((record) => record.file)).toEqual([
        join(root, 'model-a/psf__requests-90002/test_output.txt'),
      ]);
    });

    it('R17: says a test_output.txt that is a FIFO, a symlink to a device or a broken symlink is not a regular file, unopened', async () => {
      const kinds: [string, (log: string) => Promise<void>, RegExp][] = [
        ['fifo', async (log) => void execFileSync('mkfifo', [log]), /is a FIFO, not a regular file/],
        [
          'device',
          (log) => symlink('/dev/zero', log),
          /is a symlink to a character device, not a regular file/,
        ],
        ['dangling', (log) => symlink('nowhere.txt', log), /is a symlink that cannot be followed \(ENOENT\)/],
      ];
      for (const [name, make, wording] of kinds) {
        const root = await logsWith(`special-${name}`, 'psf__requests-90002', async (d) => {
          await rm(join(d, 'test_output.txt'));
          await make(join(d, 'test_output.txt'));
        });
        // patch.diff beside it is the model's (non-empty) patch: the row must not read "no prediction".
        expect(
          (await readFile(join(root, 'model-a/psf__requests-90002/patch.diff'), 'utf8')).trim(),
        ).not.toBe('');
        const out = join(dir, `special-${name}/out`);
        const run = await runGrade({ dataset, logs: root, out });
        expect(run.results.get('psf__requests-90002'), name).toMatchObject({
          status: 'error',
          error_kind: 'invalid_record',
          error: expect.stringMatching(wording),
        });
        expect(run.report.invalid_records.map((record) => record.file)).toEqual([
          join(root, 'model-a/psf__requests-90002/test_output.txt'),
        ]);
        const summary = await readFile(join(out, 'summary.md'), 'utf8');
        expect(summary).toMatch(/\| psf__requests-90002 \| error \|.*not a regular file|cannot be followed/);
        expect(summary).not.toMatch(/psf__requests-90002 \| no prediction/);
      }
    });

    it('grades what it can read when a directory, a log or a report.json under --logs is unreadable', async () => {
      // As root, the CLI runs without the capabilities that override file permissions.
      const root = await logsWith('unreadable', 'psf__requests-90002', (d) =>
        writeFile(join(d, 'report.json'), '{}'),
      );
      for (const id of ['sphinx-doc__sphinx-90001', 'pydata__xarray-90005'])
        await cp(join(logs, 'model-a', id), join(root, 'model-a', id), { recursive: true });
      await mkdir(join(root, 'locked/pallets__flask-90003'), { recursive: true });
      const out = join(dir, 'unreadable/out');
      await chmod(join(root, 'locked'), 0o000);
      await chmod(join(root, 'model-a/sphinx-doc__sphinx-90001/test_output.txt'), 0o000);
      await chmod(join(root, 'model-a/psf__requests-90002/report.json'), 0o000);
      const args = ['grade', '--dataset', dataset, '--logs', root, '--out', out, '--json'];
      const cli = await runCliWithPermissions(args);
      await chmod(join(root, 'locked'), 0o755);
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);
      const results = (await readFile(join(out, 'results.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const byId = new Map(results.map((r) => [r.instance_id, r]));
      expect(byId.get('sphinx-doc__sphinx-90001')).toMatchObject({
        status: 'error',
        error_kind: 'invalid_record',
        error: expect.stringContaining('test_output.txt cannot be read (EACCES'),
      });
      expect(byId.get('psf__requests-90002')).toMatchObject({
        status: 'resolved',
        grade_notes: [expect.stringContaining('cannot be read (EACCES')],
      });
      expect(byId.get('pydata__xarray-90005')).toMatchObject({ status: 'unresolved' });
      const report = JSON.parse(cli.stdout);
      expect(report.invalid_records.map((record: { file: string }) => record.file).sort()).toEqual(
        [
          join(root, 'locked'),
          join(root, 'model-a/psf__requests-90002/report.json'),
          join(root, 'model-a/sphinx-doc__sphinx-90001/test_output.txt'),
        ].sort(),
      );
    });

    it('names a prediction whose instance is not in the dataset instead of dropping it silently', async () => {
      const root = await logsWith('stray-prediction', 'psf__requests-90002', async () => {});
      const predictions = join(dir, 'stray-prediction/predictions.jsonl');
      await writeFile(
        predictions,
        ['psf__requests-90002', 'psf__requests-99999']
          .map(
            (id) => `${JSON.stringify({ instance_id: id, model_patch: 'diff', model_name_or_path: 'm' })}\n`,
          )
          .join(''),
      );
      const run = await runGrade({
        dataset,
        logs: root,
        predictions,
        out: join(dir, 'stray-prediction/out'),
      });
      expect(run.results.get('psf__requests-90002')).toMatchObject({ status: 'resolved' });
      expect(run.report.invalid_records).toEqual([
        expect.objectContaining({
          file: predictions,
          instanceId: 'psf__requests-99999',
          message: expect.stringContaining('the prediction for psf__requests-99999 has no row in --dataset'),
        }),
      ]);
    });

    it('grades a log with CRLF line ends as the same log with LF (Python reads both as one line end)', async () => {
      const multilingual = join(fixtures, 'logs/run_evaluation/multilingual-run');
      const root = join(dir, 'crlf/logs');
      await cp(multilingual, root, { recursive: true });
      const ids = [
        'markedjs__marked-90003',
        'processing__p5.js-90001',
        'diegomura__react-pdf-90002',
        'axios__axios-4731',
      ];
      for (const id of ids) {
        const file = join(root, 'model-b', id, 'test_output.txt');
        await writeFile(file, (await readFile(file, 'utf8')).replace(/\n/g, '\r\n'));
      }
      const options = { dataset: join(fixtures, 'dataset-multilingual.jsonl') };
      const [lf, crlf] = await Promise.all([
        runGrade({ ...options, logs: multilingual, out: join(dir, 'crlf/lf-out') }),
        runGrade({ ...options, logs: root, out: join(dir, 'crlf/crlf-out') }),
      ]);
      expect(lf.results.get('markedjs__marked-90003')?.status).toBe('unresolved');
      for (const id of ids) {
        const pick = (r: typeof lf) => {
          const result = r.results.get(id);
          return [result?.status, result?.f2p, result?.p2p, result?.official?.agrees];
        };
        expect(pick(crlf), id).toEqual(pick(lf));
      }
    });

    it('labels a log without the start marker incomplete_log, not patch_apply', async () => {
      const root = await logsWith('no-start', 'psf__requests-90002', (d) =>
        writeFile(join(d, 'test_output.txt'), '+ pip install -e .\nERROR: could not build wheels\n'),
      );
      const run = await runGrade({ dataset, logs: root, out: join(dir, 'no-start/out') });
      expect(run.results.get('psf__requests-90002')).toMatchObject({
        status: 'error',
        error_kind: 'incomplete_log',
        infra_error: true,
        error: expect.stringContaining('no ">>>>> Start Test Output" marker: the tests never started'),
      });
      expect(run.report.patch_apply_error_ids).toEqual([]);
    });

    it('warns when a repository outside the spec table is graded with the fallback parser', async () => {
      const rows = (await readFile(dataset, 'utf8')).split('\n').filter((line) => line.trim() !== '');
      const sphinx = JSON.parse(rows.find((line) => line.includes('sphinx-doc__sphinx-90001')) as string);
      const own = join(dir, 'unknown-repo/dataset.jsonl');
      await mkdir(join(dir, 'unknown-repo'), { recursive: true });
      await writeFile(
        own,
        `${JSON.stringify({ ...sphinx, instance_id: 'octo__widgets-1', repo: 'octo/widgets' })}\n`,
      );
      const root = join(dir, 'unknown-repo/logs');
      await cp(join(logs, 'model-a/sphinx-doc__sphinx-90001'), join(root, 'm/octo__widgets-1'), {
        recursive: true,
      });
      await rm(join(root, 'm/octo__widgets-1/report.json'));
      const run = await runGrade({ dataset: own, logs: root, out: join(dir, 'unknown-repo/out') });
      expect(run.results.get('octo__widgets-1')?.grade_notes).toEqual([
        "octo/widgets is not in the SWE-bench spec table and the row has no test_framework: graded with sandkit's fallback pytest parser, which may not read this repository's log; the official harness has no parser for it either: give the row's test_framework (and test_cmd) if pytest is wrong",
      ]);
    });

    it("recognises sandkit eval's own --out and does not call its report.json official", async () => {
      const mirrors = join(dir, 'own-out/mirrors');
      buildMirrors(mirrors);
      const out = join(dir, 'own-out/eval');
      await runEval({
        dataset: miniInstances,
        gold: true,
        instanceIds: ['sandkit-mini__ledger-1'],
        reposDir: mirrors,
        cacheDir: join(dir, 'own-out/cache'),
        out,
      });
      const run = await runGrade({ dataset: miniInstances, logs: out, out: join(dir, 'own-out/regrade') });
      const result = run.results.get('sandkit-mini__ledger-1');
      expect(result).toMatchObject({ status: 'resolved' });
      expect(result?.official).toBeUndefined();
      expect(result?.grade_notes).toEqual([
        "report.json here is sandkit's own (written by sandkit eval, eval.log beside it), not the official harness's: not compared",
      ]);
      // the patch step sandkit eval's report.json recorded is carried into the row and the report
      const evalReport = JSON.parse(
        await readFile(join(out, 'instances/sandkit-mini__ledger-1/report.json'), 'utf8'),
      );
      expect(evalReport['sandkit-mini__ledger-1'].patch_applied_with).toBe('git apply');
      expect(result?.patch_method).toBe('git apply');
      const regraded = JSON.parse(
        await readFile(join(dir, 'own-out/regrade/instances/sandkit-mini__ledger-1/report.json'), 'utf8'),
      );
      expect(regraded['sandkit-mini__ledger-1'].patch_applied_with).toBe('git apply');
      const summary = await readFile(join(dir, 'own-out/regrade/summary.md'), 'utf8');
      expect(summary).not.toMatch(/official report/i);
      expect(summary).toMatch(/\| sandkit-mini__ledger-1 \| resolved \| [^|]+ \| [^|]+ \| git apply \|/);
    }, 60_000);
  });

  describe('when --logs holds two logs of one instance (gold/ and wrong/ of an --example run)', () => {
    it('grades the first by path (gold/) and lists the other in invalid_records', async () => {
      const root = join(dir, 'two-copies/logs');
      const id = 'psf__requests-90002';
      const from = join(logs, (await readdir(logs))[0] as string, id);
      await cp(from, join(root, 'wrong', id), { recursive: true });
      await cp(from, join(root, 'gold', id), { recursive: true });
      const run = await runGrade({ dataset, logs: root, out: join(dir, 'two-copies/out'), jobs: 1 });
      expect(run.results.get(id)?.model_name_or_path).toBe('gold');
      expect(run.report.invalid_records).toContainEqual(
        expect.objectContaining({
          file: join(root, 'wrong', id),
          instanceId: id,
          message: `${join(root, 'wrong', id)}: a second log of ${id}; only the first (${join(root, 'gold', id)}) is graded`,
        }),
      );
    });
  });

  describe('when --jobs is 1 or several', () => {
    /**
     * 25 logs: the 5 fixture logs under 5 instance ids each, every second copy keeping the original
     * id in its report.json (an official report without an entry: a problem in invalid_records).
     */
    const copies = async (root: string): Promise<string> => {
      const rows = (await readFile(dataset, 'utf8')).split('\n').filter((line) => line.trim() !== '');
      const copied: string[] = [];
      for (let copy = 0; copy < 5; copy++)
        for (const line of rows) {
          const row = JSON.parse(line) as { instance_id: string };
          const from = row.instance_id;
          const id = from.replace(/-900(\d\d)$/, `-9${copy}0$1`);
          copied.push(JSON.stringify({ ...row, instance_id: id }));
          for (const model of await readdir(logs)) {
            if (!(await readdir(join(logs, model))).includes(from)) continue;
            const target = join(root, 'logs', model, id);
            await cp(join(logs, model, from), target, { recursive: true });
            const report = await readFile(join(target, 'report.json'), 'utf8');
            if (copy % 2 === 0) await writeFile(join(target, 'report.json'), report.replaceAll(from, id));
          }
        }
      await writeFile(join(root, 'dataset.jsonl'), `${copied.join('\n')}\n`);
      return root;
    };
    /** summary.md without the time column (each row's wall time of grading). */
    const withoutTimes = (summary: string) =>
      summary.replace(/^(\| [^|]+ \| [^|]* \| [^|]* \| [^|]* \| [^|]* \| )\d+\.\d( \|)/gm, '$1-$2');
    /** results.jsonl without the fields that are times. */
    const withoutTimeFields = (jsonl: string) =>
      jsonl
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const { duration_ms, finished_at, ...rest } = JSON.parse(line);
          expect([typeof duration_ms, typeof finished_at]).toEqual(['number', 'string']);
          return rest;
        });

    it('writes the same files, byte for byte, grading in this thread or on 3 threads', async () => {
      const root = await copies(join(dir, 'jobs'));
      const grade = (jobs: number) =>
        runGrade({
          dataset: join(root, 'dataset.jsonl'),
          logs: join(root, 'logs'),
          out: join(root, `out-${jobs}`),
          jobs,
        });
      const one = await grade(1);
      const three = await grade(3);
      expect([one.threads, three.threads]).toEqual([1, 3]);
      expect(one.report.total_instances).toBe(25);
      expect(one.report.invalid_records.length).toBeGreaterThanOrEqual(10);
      const ids = (await readdir(join(root, 'out-1/instances'))).sort();
      expect(ids).toHaveLength(25);
      expect((await readdir(join(root, 'out-3/instances'))).sort()).toEqual(ids);
      for (const id of ids) {
        const file = `instances/${id}/report.json`;
        expect(await readFile(join(root, 'out-3', file), 'utf8'), file).toBe(
          await readFile(join(root, 'out-1', file), 'utf8'),
        );
      }
      expect(await readFile(join(root, 'out-3/run_report.json'), 'utf8')).toBe(
        await readFile(join(root, 'out-1/run_report.json'), 'utf8'),
      );
      const summary = (jobs: number) => readFile(join(root, `out-${jobs}/summary.md`), 'utf8');
      expect(withoutTimes(await summary(3))).toBe(withoutTimes(await summary(1)));
      expect(withoutTimes(await summary(1))).toMatch(
        /\| pallets__flask-91003 \| resolved \| 1\/1 \| .* \| - \|/,
      );
      const results = (jobs: number) => readFile(join(root, `out-${jobs}/results.jsonl`), 'utf8');
      expect(withoutTimeFields(await results(3))).toEqual(withoutTimeFields(await results(1)));
    }, 120_000);

    it('throws invalid_option for a --jobs that is not an integer from 1 to 1024', async () => {
      for (const jobs of [0, 1.5, 1025, Number.NaN])
        await expect(runGrade({ dataset, logs, out: join(dir, 'bad-jobs'), jobs })).rejects.toMatchObject({
          code: 'invalid_option',
          message: expect.stringMatching(/^--jobs must be an integer from 1 to 1024/),
        });
    });
  });

  describe('when --out already holds a run, or cannot hold one', () => {
    it('grades into the same --out again with overwrite, each report.json rewritten byte for byte and nothing of the earlier run left', async () => {
      const out = join(dir, 'again');
      await runGrade({ dataset, logs, out, jobs: 1 });
      const first = await readFile(join(out, 'instances/psf__requests-90002/report.json'), 'utf8');
      await writeFile(join(out, 'instances/psf__requests-90002/report.json'), 'stale');
      // an instance of the earlier run that this one does not grade, and a file that is not grade's
      await mkdir(join(out, 'instances/earlier__run-1'));
      await writeFile(join(out, 'notes.txt'), 'mine');
      const run = await runGrade({ dataset, logs, out, jobs: 1, overwrite: true });
      expect(run.report.total_instances).toBe(5);
      expect(await readFile(join(out, 'instances/psf__requests-90002/report.json'), 'utf8')).toBe(first);
      expect((await readdir(join(out, 'instances'))).sort()).toEqual([...run.results.keys()].sort());
      expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    });

    it.each([
      ['run_report.json', 'run_report.json'],
      ['results.jsonl', 'results.jsonl'],
      ['instances/x__y-1/report.json', 'instances/'],
    ])('throws invalid_option and writes nothing when --out holds an earlier %s', async (file, named) => {
      const out = join(dir, `earlier-${file.replaceAll('/', '-')}`);
      await mkdir(join(out, file, '..'), { recursive: true });
      await writeFile(join(out, file), 'earlier');
      const before = execFileSync('find', [out], { encoding: 'utf8' });
      await expect(runGrade({ dataset, logs, out, jobs: 1 })).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringContaining(
          `--out ${out} already holds an earlier run's outputs (${named}); grading into it would mix the two runs: give a new --out, or pass --overwrite`,
        ),
      });
      expect(execFileSync('find', [out], { encoding: 'utf8' })).toBe(before);
      expect(await readFile(join(out, file), 'utf8')).toBe('earlier');
    });

    it('throws invalid_option and removes nothing when overwrite would remove the logs being graded', async () => {
      const out = join(dir, 'logs-in-out');
      await cp(logs, join(out, 'instances'), { recursive: true });
      await writeFile(join(out, 'run_report.json'), '{}');
      await expect(
        runGrade({ dataset, logs: join(out, 'instances'), out, jobs: 1, overwrite: true }),
      ).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringMatching(/and the logs being graded are there .*: give a new --out$/),
      });
      expect(await readFile(join(out, 'run_report.json'), 'utf8')).toBe('{}');
      expect((await readdir(join(out, 'instances'))).length).toBeGreaterThan(0);
    });

    it('rejects with the file system error when --out is a file, once the logs are graded', async () => {
      const out = join(dir, 'out-is-a-file');
      await writeFile(out, 'not a directory');
      await expect(runGrade({ dataset, logs, out, jobs: 1 })).rejects.toMatchObject({
        code: expect.stringMatching(/^(?:ENOTDIR|EEXIST)$/),
      });
      expect(await readFile(out, 'utf8')).toBe('not a directory');
    });
  });

  describe('when --dataset holds no valid instance', () => {
    it('throws invalid_option (a usage error, not an empty success)', async () => {
      const bad = join(dir, 'bad.parquet');
      await writeFile(bad, 'PAR1garbagePAR1');
      await expect(runGrade({ dataset: bad, logs, out: join(dir, 'bad') })).rejects.toMatchObject({
        code: 'invalid_option',
        message: expect.stringMatching(/holds no valid instance/),
      });
    });
  });

  describe('when --logs holds no test_output.txt', () => {
    it('throws invalid_option saying what layout it needs', async () => {
      await expect(
        runGrade({ dataset, logs: fixtures + '/logs/nothing', out: join(dir, 'x') }),
      ).rejects.toMatchObject({
        code: 'invalid_option',
      });
      await mkdir(join(dir, 'empty'), { recursive: true });
      await expect(runGrade({ dataset, logs: join(dir, 'empty'), out: join(dir, 'y') })).rejects.toThrow(
        /no <instance_id>\/test_output.txt/,
      );
    });
  });
});

describe('sandkit grade', () => {
  it('prints the summary with the official column and exits 0', async () => {
    const cli = await runCli(['grade', '--dataset', dataset, '--logs', logs, '--out', join(dir, 'cli')]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/# sandkit grade summary/);
    expect(cli.stdout).toMatch(/official report \|/);
    const usage = await runCli(['grade', '--dataset', dataset, '--out', join(dir, 'cli2')]);
    expect(usage.code).toBe(2);
    const jobs = await runCli([
      'grade',
      '--dataset',
      dataset,
      '--logs',
      logs,
      '--jobs',
      '0',
      '--out',
      join(dir, 'cli3'),
    ]);
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toMatch(/--jobs <n>.*must be a positive integer/);
  }, 60_000);
});

describe('sandkit grade --out', () => {
  describe('when --out holds an earlier run', () => {
    it('exits 2 writing nothing and says how to fix it; with --overwrite it replaces only the earlier outputs', async () => {
      const out = join(dir, 'earlier');
      // an earlier run of 48 instances; grading 5 into it must not leave 53 instances/ dirs
      for (let n = 0; n < 48; n++)
        await mkdir(join(out, 'instances', `earlier__run-${n}`), { recursive: true });
      await writeFile(join(out, 'results.jsonl'), '{"instance_id":"earlier__run-0"}\n');
      await writeFile(join(out, 'run_report.json'), '{}\n');
      await writeFile(join(out, 'summary.md'), '# earlier\n');
      await writeFile(join(out, 'notes.txt'), 'mine');
      const args = ['grade', '--dataset', dataset, '--logs', logs, '--out', out, '--jobs', '1'];

      const refused = await runCli(args);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        `sandkit grade: --out ${out} already holds an earlier run's outputs (instances/, results.jsonl, run_report.json, summary.md); grading into it would mix the two runs: give a new --out, or pass --overwrite to remove instances/, results.jsonl, run_report.json and summary.md there first\n`,
      );
      expect(await readdir(join(out, 'instances'))).toHaveLength(48);
      expect(await readFile(join(out, 'summary.md'), 'utf8')).toBe('# earlier\n');

      const replaced = await runCli([...args, '--overwrite']);
      expect(replaced.stderr).toBe('');
      expect(replaced.code).toBe(0);
      expect(replaced.stdout).toMatch(/# sandkit grade summary/);
      expect(await readdir(join(out, 'instances'))).toHaveLength(5);
      const results = (await readFile(join(out, 'results.jsonl'), 'utf8')).trim().split('\n');
      expect(results).toHaveLength(5);
      expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    }, 60_000);
  });

  describe('when asked for --help', () => {
    it('documents --overwrite, the patch column and which of two logs of one instance wins', async () => {
      const help = await runCli(['grade', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/--overwrite +remove an earlier run's instances\/, results.jsonl,/);
      expect(help.stdout).toMatch(
        /"patch applied with" column is filled only from sandkit eval's own report.json/,
      );
      expect(help.stdout).toMatch(/the\s+first by path is graded \(gold\/ before wrong\/\)/);
    });
  });
});
