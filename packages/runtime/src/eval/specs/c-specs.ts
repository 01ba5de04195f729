/**
 * The C and C++ repositories of SWE-bench Multilingual, one row per pull request. Source: SWE-bench
 * v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/c.py`
 * (`MAP_REPO_VERSION_TO_SPECS_C`) and `log_parsers/c.py`. Every row builds at evaluation time
 * (`build`, after the test patch is applied). micropython's `pre_install` (a venv) is baked into
 * the official image; its test command changes directory (`cd tests`) for the next line.
 * @module
 */
import type { RepoTable, VersionFields } from './repo-table.js';

const redisBuild = ['make distclean', 'make'];
const runtest = (rest: string): VersionFields => ({
  build: redisBuild,
  test: `TERM=dumb ./runtest --durable --single ${rest}`,
});
const jqBuild = [
  'git submodule update --init',
  'autoreconf -fi',
  './configure --with-oniguruma=builtin',
  'make clean',
  'touch src/parser.y src/lexer.l',
  'make -j$(nproc)',
];
const fmt = (target: string): VersionFields => ({
  build: [
    'mkdir -p build',
    'cmake -B build -S .',
    `cmake --build build --parallel $(nproc) --target ${target}`,
  ],
  test: `ctest --test-dir build -V -R ${target}`,
});
const micropython = (ffi: 'ports/unix' | 'unix' | null, args: string): VersionFields => ({
  build: [
    'source ./tools/ci.sh',
    'ci_unix_build_helper VARIANT=standard',
    ...(ffi === null ? [] : [`gcc -shared -o tests/${ffi}/ffi_lib.so tests/${ffi}/ffi_lib.c`]),
  ],
  test: [
    'cd tests',
    `MICROPY_CPYTHON3=python3 MICROPY_MICROPYTHON=../ports/unix/build-standard/micropython ./run-tests.py ${args}`,
  ],
});

/** Every C/C++ repository of the official table. */
export function cRepoTables(): RepoTable[] {
  const c = { language: 'c', perInstance: true } as const;
  const redis = { ...c, officialParser: 'parse_log_redis', parser: 'redis-tcl' } as const;
  return [
    {
      ...redis,
      repo: 'redis/redis',
      versions: {
        '13115': runtest('unit/scripting'),
        '12472': runtest('unit/acl --only "/.*ACL GETUSER.*"'),
        '12272': runtest('unit/type/string --only "/.*(GETRANGE|SETRANGE).*"'),
        '11734': runtest('unit/bitops'),
        '10764': runtest('unit/type/zset --only "BZMPOP"'),
        '10095': runtest('unit/type/list --only "/.*(LPOP|RPOP)"'),
        '9733': runtest('unit/introspection-2'),
        '10068': runtest('unit/type/stream --only "/*XTRIM*"'),
        '11631': runtest('unit/geo --only "/.*GEOSEARCH .*"'),
        '11510': runtest('unit/introspection --only "/.*MONITOR.*"'),
        '11279': runtest('unit/acl'),
        '13338': runtest('unit/type/stream-cgroups'),
      },
    },
    {
      ...c,
      repo: 'jqlang/jq',
      officialParser: 'parse_log_jq',
      parser: 'automake',
      versions: Object.fromEntries(
        ['2839', '2650', '2235', '2658', '2750', '2681', '2919', '2598', '2728'].map((version) => [
          version,
          { build: jqBuild, test: 'make check' },
        ]),
      ),
    },
    {
      ...c,
      repo: 'nlohmann/json',
      officialParser: 'parse_log_doctest',
      parser: 'doctest-xml',
      versions: {
        '4237': {
          build: ['mkdir -p build', 'cd build', 'cmake ..', 'make test-udt_cpp11', 'cd ..'],
          test: './build/tests/test-udt_cpp11 -s -r=xml',
        },
      },
    },
    {
      ...c,
      repo: 'micropython/micropython',
      officialParser: 'parse_log_micropython_test',
      parser: 'micropython',
      versions: {
        '15898': micropython('ports/unix', '-i string_format'),
        '13569': micropython('ports/unix', '-i try'),
        '13039': micropython('unix', '-i slice'),
        '12158': micropython('unix', '-d thread'),
        '10095': micropython(null, '-i basics/fun'),
      },
    },
    {
      ...redis,
      repo: 'valkey-io/valkey',
      versions: {
        '928': runtest('unit/cluster/replica-migration --only "/.*NOREPLICAS.*"'),
        '790': runtest('unit/cluster/cluster-shards'),
        '1499': runtest('unit/introspection-2'),
        '1842': runtest('unit/acl --only "/.*ACL LOAD.*"'),
      },
    },
    {
      ...c,
      repo: 'fmtlib/fmt',
      officialParser: 'parse_log_googletest',
      parser: 'ctest',
      versions: {
        ...Object.fromEntries(['3863', '3158', '2457'].map((version) => [version, fmt('ranges-test')])),
        ...Object.fromEntries(
          ['3901', '3750', '3248', '2317', '2310'].map((version) => [version, fmt('format-test')]),
        ),
        '3272': fmt('xchar-test'),
        '3729': fmt('std-test'),
        '1683': fmt('printf-test'),
      },
    },
  ];
}
