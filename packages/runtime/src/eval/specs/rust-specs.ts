/**
 * The Rust repositories of SWE-bench Multilingual, one row per pull request. Source: SWE-bench
 * v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/rust.py`
 * (`MAP_REPO_VERSION_TO_SPECS_RUST`) and `log_parsers/rust.py` (every repository:
 * `parse_log_cargo`). `install` (`cargo test … --no-run`) is baked into the official images;
 * nushell's `build` (`cargo build`) runs at evaluation time and is kept.
 * @module
 */
import type { RepoTable } from './repo-table.js';

const quiet = 'RUSTFLAGS=-Awarnings cargo test';
const unstable = 'RUSTFLAGS="--cfg tokio_unstable" cargo test';

/** Every Rust repository of the official table. */
export function rustRepoTables(): RepoTable[] {
  const rust = {
    language: 'rust',
    perInstance: true,
    officialParser: 'parse_log_cargo',
    parser: 'cargo',
  } as const;
  const bat = (filter: string): string => `${quiet} --package bat --test integration_tests ${filter}`;
  const ruff = (filter: string): string => `cargo test --package ruff_linter ${filter}`;
  const axumLib = (rest: string): string => `${quiet} --package axum --lib ${rest}`;
  return [
    {
      ...rust,
      repo: 'burntsushi/ripgrep',
      versions: {
        '2576': `${quiet} --package ripgrep --test integration -- regression`,
        '2209': `${quiet} --package ripgrep --test integration -- regression::r2208 --exact`,
      },
    },
    {
      ...rust,
      repo: 'sharkdp/bat',
      versions: {
        '3108': bat('pag'),
        '2835': bat('header'),
        '2650': bat('map_syntax'),
        '2393': bat('cache_'),
        '2201': bat('pag'),
        '2260': bat('syntax'),
        '1892': bat('ignored_suffix_arg'),
        '562': bat('cache'),
      },
    },
    {
      ...rust,
      repo: 'astral-sh/ruff',
      versions: {
        '15626': ruff('--lib rules::flake8_simplify::tests'),
        '15543': ruff('--lib rules::pyupgrade'),
        '15443': ruff('--lib rules::flake8_bandit'),
        '15394': ruff('--lib rules::flake8_pie'),
        '15356': ruff('--lib rules::pycodestyle'),
        '15330': ruff('--lib rules::eradicate'),
        '15309': ruff("'f52'"),
      },
    },
    {
      ...rust,
      repo: 'tokio-rs/tokio',
      versions: {
        '6724': 'cargo test --test io_write_all_buf --no-fail-fast',
        '6838': 'cargo test --test uds_stream --no-fail-fast',
        '6752': 'cargo test --test time_delay_queue --no-fail-fast',
        '4867': 'cargo test --test sync_broadcast --no-fail-fast',
        '4898': `${unstable} --features full --test rt_metrics`,
        '6603': 'cargo test --test sync_mpsc --no-fail-fast',
        '6551': `${unstable} --features full --test rt_metrics --no-fail-fast`,
        '4384': `${quiet} --package tokio --test net_types_unwind --features full --no-fail-fast`,
        '7139': `${unstable} --test fs_file --no-fail-fast`,
      },
    },
    {
      ...rust,
      repo: 'uutils/coreutils',
      versions: {
        '6690':
          'cargo test --no-fail-fast -- test_cp_cp test_cp_same_file test_cp_multiple_files test_cp_single_file test_cp_no_file',
        '6731': 'cargo test backslash --no-fail-fast',
        '6575': 'cargo test cksum --no-fail-fast',
        '6682': 'cargo test mkdir --no-fail-fast',
        '6377': 'cargo test test_env --no-fail-fast',
      },
    },
    {
      ...rust,
      repo: 'nushell/nushell',
      versions: {
        '13246': {
          test: 'cargo test -p nu-command --no-fail-fast --test main find::',
          build: ['cargo build'],
        },
        '12950': 'cargo test external_arguments --no-fail-fast',
        '12901': 'cargo test --no-fail-fast shell::env',
        '13831': { test: 'cargo test -p nu-command --no-fail-fast split_column', build: ['cargo build'] },
        '13605': { test: 'cargo test -p nu-command --no-fail-fast ls::', build: ['cargo build'] },
      },
    },
    {
      ...rust,
      repo: 'tokio-rs/axum',
      versions: {
        '2096': axumLib('-- routing::tests::fallback'),
        '1934': axumLib('-- routing::tests::fallback'),
        // Upstream: every test of 1730 is PASS_TO_PASS (it checks that the code compiles).
        '1730': axumLib('-- routing::tests::mod state'),
        '1119': axumLib('slash'),
        '734': axumLib('-- routing::tests::head'),
        '691': axumLib('-- routing::tests::nest::nesting_router_at_root --exact'),
        '682': axumLib('trailing -- with_trailing_slash_post without_trailing_slash_post'),
      },
    },
  ];
}
