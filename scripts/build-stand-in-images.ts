/**
 * Builds stand-ins for SWE-bench's per-instance evaluation images from the project's own small
 * repositories, with the official layout and the official names, so `sandkit eval --sandbox
 * docker` can be tested offline exactly as it runs on the published images:
 * - the repository at `/testbed`, a real clone checked out at `base_commit`, no `origin` remote
 *   (`make_repo_script_list_*` in `swebench/harness/test_spec/`, SWE-bench v4.1.0, commit
 *   726c5461e2ef52d83cf1ea2107870a8bb3328d57);
 * - `/opt/miniconda3/bin/activate`, a shim that makes `source /opt/miniconda3/bin/activate` and
 *   `conda activate testbed` work (the runners come from Debian in the base image);
 * - tagged `swebench/sweb.eval.x86_64.<id with __ → _1776_, lower case>:latest`.
 * Built on `localhost/sandkit-sandbox:bookworm` with the docker CLI (`create`, `cp`) against the
 * engine at DOCKER_HOST and `podman commit` (or `docker commit` where podman is absent), no
 * registry. Idempotent: an existing image is kept
 * unless `--force`.
 *
 * Run: `DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx scripts/build-stand-in-images.ts
 *   [--dataset packages/runtime/datasets/swebench-mini/instances.jsonl] [--base localhost/sandkit-sandbox:bookworm]
 *   [--force] [instance ids…]`
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildExampleRepos as buildMiniRepos } from '../packages/runtime/src/example-dataset/build-example-repos.js';
import {
  instanceImageName,
  officialImageNaming,
} from '../packages/runtime/src/eval/sandbox/official-image.js';

/** The activation shim: `conda activate <env>` succeeds for `base` and `testbed` and does nothing else. */
export const activateShim = `# sandkit stand-in for /opt/miniconda3/bin/activate (no conda here: the runners are on PATH).
# Sourcing it defines \`conda activate testbed\` as in SWE-bench's images.
conda() {
  if [ "$1" = activate ]; then
    case "\${2:-base}" in
      base|testbed) CONDA_DEFAULT_ENV="\${2:-base}"; export CONDA_DEFAULT_ENV; return 0 ;;
      *) echo "stand-in conda: no environment \${2}" >&2; return 1 ;;
    esac
  fi
  echo "stand-in conda: only 'conda activate' is supported" >&2
  return 1
}
CONDA_DEFAULT_ENV=base; export CONDA_DEFAULT_ENV
`;

/** What {@link buildStandInImages} needs. */
export interface StandInOptions {
  /** Dataset rows to build images for (instance_id, repo, base_commit). */
  instances: ReadonlyArray<{ instance_id: string; repo: string; base_commit: string }>;
  /** Image the stand-ins start from. @default 'localhost/sandkit-sandbox:bookworm' */
  base?: string;
  /** Rebuild images that exist. @default false */
  force?: boolean;
  /** Called with each image name and whether it was built or kept. */
  onImage?: (image: string, built: boolean) => void;
}

/**
 * Commits `container` as `image`. Podman's Docker-compatible service (4.3) refuses the docker CLI's
 * commit request ("Decode(): EOF"), so `podman commit` is used where it exists, with the name
 * fully qualified as the Docker API resolves short names (`swebench/x` → `docker.io/swebench/x`).
 */
function commit(container: string, image: string): void {
  const qualified = /^[^/]*[.:][^/]*\/|^localhost\//.test(image) ? image : `docker.io/${image}`;
  try {
    execFileSync('podman', ['commit', '-q', container, qualified], { stdio: 'pipe' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    execFileSync('docker', ['commit', container, image], { stdio: 'pipe' });
  }
}

/** Builds the images; returns their names in instance order. Throws when the engine or a git step fails. */
export function buildStandInImages(options: StandInOptions): string[] {
  const base = options.base ?? 'localhost/sandkit-sandbox:bookworm';
  const work = mkdtempSync(join(tmpdir(), 'sandkit-stand-in-'));
  const docker = (...args: string[]): string => execFileSync('docker', args, { encoding: 'utf8' }).trim();
  try {
    const mirrors = join(work, 'mirrors');
    const repos = new Set(options.instances.map((instance) => instance.repo));
    if ([...repos].some((repo) => repo.startsWith('sandkit-mini/'))) buildMiniRepos(mirrors);
    return options.instances.map((instance) => {
      const image = instanceImageName(instance, officialImageNaming);
      const exists = docker('images', '-q', image) !== '';
      if (exists && !options.force) {
        options.onImage?.(image, false);
        return image;
      }
      const root = join(work, instance.instance_id);
      const testbed = join(root, 'testbed');
      const git = (...args: string[]) => execFileSync('git', args, { stdio: 'pipe' });
      git('clone', '-q', '--no-local', join(mirrors, instance.repo.replace('/', '__')), testbed);
      git('-C', testbed, '-c', 'advice.detachedHead=false', 'reset', '-q', '--hard', instance.base_commit);
      git('-C', testbed, 'remote', 'remove', 'origin');
      mkdirSync(join(root, 'opt/miniconda3/bin'), { recursive: true });
      writeFileSync(join(root, 'opt/miniconda3/bin/activate'), activateShim, { mode: 0o755 });
      const container = docker('create', base, 'true');
      try {
        docker('cp', `${root}/.`, `${container}:/`);
        commit(container, image);
      } finally {
        docker('rm', '-f', container);
      }
      options.onImage?.(image, true);
      return image;
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      dataset: { type: 'string', default: 'packages/runtime/datasets/swebench-mini/instances.jsonl' },
      base: { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  });
  const rows = readFileSync(resolve(values.dataset), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { instance_id: string; repo: string; base_commit: string })
    .filter((row) => positionals.length === 0 || positionals.includes(row.instance_id));
  buildStandInImages({
    instances: rows,
    ...(values.base === undefined ? {} : { base: values.base }),
    force: values.force,
    onImage: (image, built) => process.stdout.write(`${built ? 'built' : 'kept '} ${image}\n`),
  });
}
