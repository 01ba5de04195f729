/**
 * One sample instance per repository of the spec table, with the test command the published
 * harness builds for it, written by hand from SWE-bench v4.1.0's source
 * (726c5461e2ef52d83cf1ea2107870a8bb3328d57: constants/*.py, test_spec/python.py
 * `make_eval_script_list_py` + `get_test_directives`, test_spec/utils.py
 * `make_eval_script_list_common`, test_spec/javascript.py). Python rows also pin what runs
 * before the test patch (eval_commands, then install); the others pin their build steps.
 */
import { describe, expect, it } from 'vitest';
import { buildEvalCommand } from '../../../src/eval/specs/build-eval-command.js';
import { knownRepos } from '../../../src/eval/specs/spec-table.js';
import { testPatchTouching } from './spec-test-helpers.js';

interface OfficialCase {
  id: string;
  repo: string;
  version: string;
  /** Files of the test patch (`new:` = added). */
  files: string[];
  /** The lines between the official start and end markers. */
  command: string;
  /** Python: eval_commands then install. */
  before?: string[];
  /** Non-Python: build. */
  build?: string[];
  parser: string;
}

const django = './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1';
const sympy = "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose";
const pipE = 'python -m pip install -e .';

/** The 12 Python repositories of SWE-bench Verified. */
const verifiedPython: OfficialCase[] = [
  {
    id: 'astropy__astropy-12907',
    repo: 'astropy/astropy',
    version: '4.3',
    files: ['astropy/modeling/tests/test_separable.py'],
    command: 'pytest -rA astropy/modeling/tests/test_separable.py',
    before: ['python -m pip install -e .[test] --verbose'],
    parser: 'pytest',
  },
  {
    id: 'astropy__astropy-7166',
    repo: 'astropy/astropy',
    version: '1.3',
    files: ['astropy/utils/tests/test_misc.py'],
    command: 'pytest -rA -vv -o console_output_style=classic --tb=no astropy/utils/tests/test_misc.py',
    before: ['python -m pip install -e .[test] --verbose'],
    parser: 'pytest',
  },
  {
    id: 'django__django-11099',
    repo: 'django/django',
    version: '3.0',
    files: ['tests/auth_tests/test_validators.py'],
    command: `${django} auth_tests.test_validators`,
    before: [
      "sed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen",
      'export LANG=en_US.UTF-8',
      'export LANGUAGE=en_US:en',
      'export LC_ALL=en_US.UTF-8',
      pipE,
    ],
    parser: 'django',
  },
  {
    id: 'django__django-10097',
    repo: 'django/django',
    version: '2.2',
    files: [
      'tests/validators/invalid_urls.txt',
      'tests/validators/tests.py',
      'new:tests/validators/valid_urls.py',
    ],
    command: `${django} validators.tests validators.valid_urls`,
    before: [
      'export LANG=en_US.UTF-8',
      'export LC_ALL=en_US.UTF-8',
      'export PYTHONIOENCODING=utf8',
      'export LANGUAGE=en_US:en',
      'python setup.py install',
    ],
    parser: 'django',
  },
  {
    id: 'django__django-5470',
    repo: 'django/django',
    version: '1.9',
    files: ['tests/user_commands/tests.py'],
    command: './tests/runtests.py --verbosity 2 user_commands.tests',
    before: [
      'export LANG=en_US.UTF-8',
      'export LC_ALL=en_US.UTF-8',
      'export PYTHONIOENCODING=utf8',
      'export LANGUAGE=en_US:en',
      'python setup.py install',
    ],
    parser: 'django',
  },
  {
    id: 'django__django-16379',
    repo: 'django/django',
    version: '4.2',
    files: ['tests/cache/tests.py'],
    command: `${django} cache.tests`,
    before: [pipE],
    parser: 'django',
  },
  {
    id: 'matplotlib__matplotlib-22711',
    repo: 'matplotlib/matplotlib',
    version: '3.5',
    files: [
      'lib/matplotlib/tests/test_widgets.py',
      'lib/matplotlib/tests/baseline_images/test_widgets/x.png',
    ],
    command: 'pytest -rA lib/matplotlib/tests/test_widgets.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'matplotlib__matplotlib-26011',
    repo: 'matplotlib/matplotlib',
    version: '3.7',
    files: ['lib/matplotlib/tests/test_axes.py'],
    command: 'pytest -rA lib/matplotlib/tests/test_axes.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'mwaskom__seaborn-3010',
    repo: 'mwaskom/seaborn',
    version: '0.12',
    files: ['tests/_stats/test_regression.py'],
    command: 'pytest --no-header -rA tests/_stats/test_regression.py',
    before: ['python -m pip install -e .[dev]'],
    parser: 'pytest',
  },
  {
    id: 'pallets__flask-5063',
    repo: 'pallets/flask',
    version: '2.3',
    files: ['tests/test_cli.py'],
    command: 'pytest -rA tests/test_cli.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'psf__requests-1963',
    repo: 'psf/requests',
    version: '2.3',
    files: ['test_requests.py'],
    command: 'pytest -rA test_requests.py',
    before: ['python -m pip install .'],
    parser: 'pytest',
  },
  {
    id: 'pydata__xarray-4094',
    repo: 'pydata/xarray',
    version: '0.12',
    files: ['xarray/tests/test_dataset.py'],
    command: 'pytest -rA xarray/tests/test_dataset.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'pylint-dev__pylint-7080',
    repo: 'pylint-dev/pylint',
    version: '2.15',
    files: ['tests/regrtest_data/directory/pyproject.toml', 'tests/test_self.py'],
    command: 'pytest -rA tests/test_self.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'pytest-dev__pytest-5227',
    repo: 'pytest-dev/pytest',
    version: '4.4',
    files: ['testing/logging/test_reporting.py', 'changelog/5227.feature.rst'],
    command: 'pytest -rA testing/logging/test_reporting.py changelog/5227.feature.rst',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'scikit-learn__scikit-learn-25500',
    repo: 'scikit-learn/scikit-learn',
    version: '1.3',
    files: ['sklearn/tests/test_isotonic.py'],
    command: 'pytest -rA sklearn/tests/test_isotonic.py',
    before: ['python -m pip install -v --no-use-pep517 --no-build-isolation -e .'],
    parser: 'pytest',
  },
  {
    id: 'sphinx-doc__sphinx-8721',
    repo: 'sphinx-doc/sphinx',
    version: '3.5',
    files: [
      'tests/test_ext_viewcode.py',
      'tests/roots/test-ext-viewcode/index.rst',
      'tests/roots/x/notes.txt',
    ],
    command:
      'tox --current-env -epy39 -v -- tests/test_ext_viewcode.py tests/roots/test-ext-viewcode/index.rst',
    before: ['python -m pip install -e .[test]'],
    parser: 'pytest',
  },
  {
    id: 'sympy__sympy-12481',
    repo: 'sympy/sympy',
    version: '1.0',
    files: ['sympy/combinatorics/tests/test_permutations.py'],
    command: `${sympy} sympy/combinatorics/tests/test_permutations.py`,
    before: [pipE],
    parser: 'sympy',
  },
];

/** SWE-bench Multilingual: JavaScript and TypeScript. */
const multilingualJs: OfficialCase[] = [
  {
    id: 'babel__babel-14532',
    repo: 'babel/babel',
    version: '14532',
    files: ['packages/babel-generator/test/index.js'],
    command: 'yarn jest babel-generator --verbose',
    build: ['make build'],
    parser: 'jest',
  },
  {
    id: 'vuejs__core-11899',
    repo: 'vuejs/core',
    version: '11899',
    files: ['packages/compiler-sfc/__tests__/compileStyle.spec.ts'],
    command:
      'pnpm run test packages/compiler-sfc/__tests__/compileStyle.spec.ts --no-watch --reporter=verbose',
    build: ['pnpm run build compiler-sfc'],
    parser: 'vitest',
  },
  {
    id: 'vuejs__core-11739',
    repo: 'vuejs/core',
    version: '11739',
    files: ['packages/runtime-core/__tests__/hydration.spec.ts'],
    command:
      'pnpm run test packages/runtime-core/__tests__/hydration.spec.ts --no-watch --reporter=verbose -t "mismatch handling"',
    parser: 'vitest',
  },
  {
    id: 'facebook__docusaurus-10309',
    repo: 'facebook/docusaurus',
    version: '10309',
    files: ['packages/docusaurus-plugin-content-docs/src/client/__tests__/docsClientUtils.test.ts'],
    command:
      'yarn test packages/docusaurus-plugin-content-docs/src/client/__tests__/docsClientUtils.test.ts --verbose',
    parser: 'jest',
  },
  {
    id: 'immutable-js__immutable-js-2005',
    repo: 'immutable-js/immutable-js',
    version: '2005',
    files: ['__tests__/OrderedMap.ts'],
    command:
      'npx jest __tests__/OrderedMap.ts __tests__/OrderedSet.ts --silent --json | jq -r \'.testResults[].assertionResults[] | "[" + (.status | ascii_upcase) + "] " + ((.ancestorTitles | join(" > ")) + (if .ancestorTitles | length > 0 then " > " else "" end) + .title)\'',
    build: ['npm run build'],
    parser: 'jest-json',
  },
  {
    id: 'immutable-js__immutable-js-2006',
    repo: 'immutable-js/immutable-js',
    version: '2006',
    files: ['__tests__/Range.ts'],
    command: 'npx jest __tests__/Range.ts --verbose',
    build: ['npm run build'],
    parser: 'jest',
  },
  {
    id: 'mrdoob__three.js-25687',
    repo: 'mrdoob/three.js',
    version: '25687',
    files: ['test/unit/src/core/Object3D.tests.js'],
    command: 'npx qunit test/unit/src/core/Object3D.tests.js -f "/json|clone|copy/i"',
    parser: 'tap',
  },
  {
    id: 'preactjs__preact-3689',
    repo: 'preactjs/preact',
    version: '3689',
    files: ['hooks/test/browser/errorBoundary.test.js'],
    command:
      'COVERAGE=false BABEL_NO_MODULES=true npx karma start karma.conf.js --single-run --grep="hooks/test/browser/errorBoundary.test.js"',
    parser: 'karma',
  },
  {
    id: 'axios__axios-5316',
    repo: 'axios/axios',
    version: '5316',
    files: ['test/unit/adapters/http.js'],
    command: "npx mocha test/unit/adapters/http.js -R tap -g 'FormData'",
    build: ['npm install'],
    parser: 'tap',
  },
];

/** SWE-bench Multilingual: Go. */
const multilingualGo: OfficialCase[] = [
  {
    id: 'caddyserver__caddy-6411',
    repo: 'caddyserver/caddy',
    version: '6411',
    files: ['replacer_test.go'],
    command: 'go test -v . -run "TestReplacerNew*"',
    parser: 'go',
  },
  {
    id: 'hashicorp__terraform-34900',
    repo: 'hashicorp/terraform',
    version: '34900',
    files: ['internal/terraform/context_apply2_test.go'],
    command: 'go test -v ./internal/terraform -run "(^TestContext2Apply|^TestContext2Plan).*[Ss]ensitive"',
    parser: 'go',
  },
  {
    id: 'prometheus__prometheus-13845',
    repo: 'prometheus/prometheus',
    version: '13845',
    files: ['promql/engine_test.go'],
    command: 'go test -v ./promql ./model/labels -run "^(TestRangeQuery|TestLabels)"',
    parser: 'go',
  },
  {
    id: 'gohugoio__hugo-12562',
    repo: 'gohugoio/hugo',
    version: '12562',
    files: ['hugolib/pagecollections_test.go'],
    command: 'go test -v ./hugolib/... -run "^TestGetPage[^/]"',
    parser: 'go',
  },
  {
    id: 'gin-gonic__gin-4003',
    repo: 'gin-gonic/gin',
    version: '4003',
    files: ['routes_test.go'],
    command: 'go test . -v -run "TestMethodNotAllowedNoRoute"',
    parser: 'go',
  },
];

/** SWE-bench Multilingual: Rust. */
const multilingualRust: OfficialCase[] = [
  {
    id: 'burntsushi__ripgrep-2209',
    repo: 'burntsushi/ripgrep',
    version: '2209',
    files: ['tests/regression.rs'],
    command:
      'RUSTFLAGS=-Awarnings cargo test --package ripgrep --test integration -- regression::r2208 --exact',
    parser: 'cargo',
  },
  {
    id: 'sharkdp__bat-562',
    repo: 'sharkdp/bat',
    version: '562',
    files: ['tests/integration_tests.rs'],
    command: 'RUSTFLAGS=-Awarnings cargo test --package bat --test integration_tests cache',
    parser: 'cargo',
  },
  {
    id: 'astral-sh__ruff-15309',
    repo: 'astral-sh/ruff',
    version: '15309',
    files: ['crates/ruff_linter/src/rules/pyflakes/mod.rs'],
    command: "cargo test --package ruff_linter 'f52'",
    parser: 'cargo',
  },
  {
    id: 'tokio-rs__tokio-4898',
    repo: 'tokio-rs/tokio',
    version: '4898',
    files: ['tokio/tests/rt_metrics.rs'],
    command: 'RUSTFLAGS="--cfg tokio_unstable" cargo test --features full --test rt_metrics',
    parser: 'cargo',
  },
  {
    id: 'uutils__coreutils-6690',
    repo: 'uutils/coreutils',
    version: '6690',
    files: ['tests/by-util/test_cp.rs'],
    command:
      'cargo test --no-fail-fast -- test_cp_cp test_cp_same_file test_cp_multiple_files test_cp_single_file test_cp_no_file',
    parser: 'cargo',
  },
  {
    id: 'nushell__nushell-13246',
    repo: 'nushell/nushell',
    version: '13246',
    files: ['crates/nu-command/tests/commands/find.rs'],
    command: 'cargo test -p nu-command --no-fail-fast --test main find::',
    build: ['cargo build'],
    parser: 'cargo',
  },
  {
    id: 'tokio-rs__axum-682',
    repo: 'tokio-rs/axum',
    version: '682',
    files: ['axum/src/routing/tests/mod.rs'],
    command:
      'RUSTFLAGS=-Awarnings cargo test --package axum --lib trailing -- with_trailing_slash_post without_trailing_slash_post',
    parser: 'cargo',
  },
];

/** SWE-bench Multilingual: Java, PHP, Ruby, C/C++. */
const multilingualRest: OfficialCase[] = [
  {
    id: 'google__gson-2479',
    repo: 'google/gson',
    version: '2479',
    files: ['gson/src/test/java/com/google/gson/GsonBuilderTest.java'],
    command: [
      'mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.GsonBuilderTest#testRegisterTypeAdapterForObjectAndJsonElements',
      'mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.GsonBuilderTest#testRegisterTypeHierarchyAdapterJsonElements',
      'mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.GsonBuilderTest#testModificationAfterCreate',
    ].join('\n'),
    parser: 'maven',
  },
  {
    id: 'apache__druid-13704',
    repo: 'apache/druid',
    version: '13704',
    files: ['processing/src/test/java/ArithmeticPostAggregatorTest.java'],
    command: [
      'mvnd test -B -pl processing -Dtest=org.apache.druid.query.aggregation.post.ArithmeticPostAggregatorTest#testPow',
      'mvnd test -B -pl processing -Dtest=org.apache.druid.query.aggregation.post.ArithmeticPostAggregatorTest#testDiv',
      'mvnd test -B -pl processing -Dtest=org.apache.druid.query.aggregation.post.ArithmeticPostAggregatorTest#testQuotient',
    ].join('\n'),
    parser: 'maven',
  },
  {
    id: 'javaparser__javaparser-4561',
    repo: 'javaparser/javaparser',
    version: '4561',
    files: ['javaparser-symbol-solver-testing/src/test/java/Issue4560Test.java'],
    command: [
      './mvnw test -B -pl javaparser-symbol-solver-testing -Dtest=Issue4560Test',
      './mvnw test -B -pl javaparser-symbol-solver-testing -Dtest=JavaSymbolSolverTest',
    ].join('\n'),
    build: ['./mvnw clean install -B -pl javaparser-symbol-solver-testing -DskipTests -am'],
    parser: 'maven',
  },
  {
    id: 'projectlombok__lombok-3602',
    repo: 'projectlombok/lombok',
    version: '3602',
    files: ['test/bytecode/src/lombok/bytecode/TestPostCompiler.java'],
    command: 'ant test.instance',
    build: ['ant test.compile'],
    parser: 'ant-junit',
  },
  {
    id: 'apache__lucene-13301',
    repo: 'apache/lucene',
    version: '13301',
    files: ['lucene/core/src/test/org/apache/lucene/geo/TestXYPoint.java'],
    command:
      './gradlew test --tests TestXYPoint.testEqualsAndHashCode -Dtests.seed=3ABEFE4D876DD310 -Dtests.nightly=true -Dtests.locale=es-419 -Dtests.timezone=Asia/Ulaanbaatar -Dtests.asserts=true -Dtests.file.encoding=UTF-8',
    parser: 'gradle',
  },
  {
    id: 'reactivex__rxjava-7597',
    repo: 'reactivex/rxjava',
    version: '7597',
    files: ['src/test/java/ObservableSwitchTest.java'],
    command: './gradlew test --tests io.reactivex.rxjava3.internal.operators.observable.ObservableSwitchTest',
    parser: 'gradle',
  },
  {
    id: 'phpoffice__phpspreadsheet-4313',
    repo: 'phpoffice/phpspreadsheet',
    version: '4313',
    files: ['tests/PhpSpreadsheetTests/Reader/Ods/FormulaTranslatorTest.php'],
    command:
      './vendor/bin/phpunit --testdox --colors=never tests/PhpSpreadsheetTests/Reader/Ods/FormulaTranslatorTest.php',
    parser: 'phpunit',
  },
  {
    id: 'laravel__framework-52451',
    repo: 'laravel/framework',
    version: '52451',
    files: ['tests/Validation/ValidationValidatorTest.php'],
    command:
      "vendor/bin/phpunit --testdox --colors=never tests/Validation/ValidationValidatorTest.php --filter 'custom'",
    parser: 'phpunit',
  },
  {
    id: 'php-cs-fixer__php-cs-fixer-8367',
    repo: 'php-cs-fixer/php-cs-fixer',
    version: '8367',
    files: ['tests/Fixer/Import/FullyQualifiedStrictTypesFixerTest.php'],
    command:
      'vendor/bin/phpunit --testdox --colors=never tests/Fixer/Import/FullyQualifiedStrictTypesFixerTest.php',
    parser: 'phpunit',
  },
  {
    id: 'briannesbitt__carbon-2813',
    repo: 'briannesbitt/carbon',
    version: '2813',
    files: ['tests/Factory/FactoryTest.php'],
    command: 'vendor/bin/phpunit --testdox --colors=never tests/Factory/FactoryTest.php',
    build: ['composer update', 'composer install'],
    parser: 'phpunit',
  },
  {
    id: 'jekyll__jekyll-8761',
    repo: 'jekyll/jekyll',
    version: '8761',
    files: ['features/post_data.feature'],
    command:
      'bundle exec cucumber --publish-quiet --format progress --no-color features/post_data.feature:6 features/post_data.feature:30',
    parser: 'cucumber',
  },
  {
    id: 'jekyll__jekyll-9141',
    repo: 'jekyll/jekyll',
    version: '9141',
    files: ['test/test_site.rb'],
    command: 'bundle exec ruby -I test test/test_site.rb -v -n "/static files/"',
    parser: 'minitest',
  },
  {
    id: 'fluent__fluentd-3640',
    repo: 'fluent/fluentd',
    version: '3640',
    files: ['test/plugin_helper/test_retry_state.rb'],
    command: "bundle exec ruby test/plugin_helper/test_retry_state.rb -v -n '/exponential backoff/'",
    parser: 'test-unit',
  },
  {
    id: 'fastlane__fastlane-21857',
    repo: 'fastlane/fastlane',
    version: '21857',
    files: ['fastlane/spec/lane_manager_base_spec.rb'],
    command:
      'FASTLANE_SKIP_UPDATE_CHECK=1 bundle exec rspec ./fastlane/spec/lane_manager_base_spec.rb --no-color --format json | tail -n +2 | jq -r \'.examples[] | "\\(.description) - \\(.id) - \\(.status)"\'',
    parser: 'rspec',
  },
  {
    id: 'jordansissel__fpm-1829',
    repo: 'jordansissel/fpm',
    version: '1829',
    files: ['spec/fpm/package/deb_spec.rb'],
    command:
      "bundle exec rspec spec/fpm/package/deb_spec.rb --no-color --format json | sed -n '/^{/,$p' | jq -r '.examples[] | \"\\(.description) - \\(.status)\"'",
    parser: 'rspec',
  },
  {
    id: 'faker-ruby__faker-2705',
    repo: 'faker-ruby/faker',
    version: '2705',
    files: ['test/faker/default/test_faker_internet.rb'],
    command: "bundle exec ruby test/faker/default/test_faker_internet.rb -v -n '/password/'",
    parser: 'test-unit',
  },
  {
    id: 'rubocop__rubocop-13705',
    repo: 'rubocop/rubocop',
    version: '13705',
    files: ['spec/rubocop/cop/lint/out_of_range_regexp_ref_spec.rb'],
    command: `bundle exec rspec spec/rubocop/cop/lint/out_of_range_regexp_ref_spec.rb --no-color --format json | sed -n '/^{/,$p' | \\
  jq -r '.examples | group_by(.description) | .[] |
    if any(select(.status == "failed")) then
      (.[0] | "\\(.description) - failed")
    else
      (.[0] | "\\(.description) - \\(.status)")
    end'`,
    parser: 'rspec',
  },
  {
    id: 'redis__redis-12472',
    repo: 'redis/redis',
    version: '12472',
    files: ['tests/unit/acl.tcl'],
    command: 'TERM=dumb ./runtest --durable --single unit/acl --only "/.*ACL GETUSER.*"',
    build: ['make distclean', 'make'],
    parser: 'redis-tcl',
  },
  {
    id: 'jqlang__jq-2839',
    repo: 'jqlang/jq',
    version: '2839',
    files: ['tests/jq.test'],
    command: 'make check',
    build: [
      'git submodule update --init',
      'autoreconf -fi',
      './configure --with-oniguruma=builtin',
      'make clean',
      'touch src/parser.y src/lexer.l',
      'make -j$(nproc)',
    ],
    parser: 'automake',
  },
  {
    id: 'nlohmann__json-4237',
    repo: 'nlohmann/json',
    version: '4237',
    files: ['tests/src/unit-udt.cpp'],
    command: './build/tests/test-udt_cpp11 -s -r=xml',
    build: ['mkdir -p build', 'cd build', 'cmake ..', 'make test-udt_cpp11', 'cd ..'],
    parser: 'doctest-xml',
  },
  {
    id: 'micropython__micropython-10095',
    repo: 'micropython/micropython',
    version: '10095',
    files: ['tests/basics/fun_name.py'],
    command:
      'cd tests\nMICROPY_CPYTHON3=python3 MICROPY_MICROPYTHON=../ports/unix/build-standard/micropython ./run-tests.py -i basics/fun',
    build: ['source ./tools/ci.sh', 'ci_unix_build_helper VARIANT=standard'],
    parser: 'micropython',
  },
  {
    id: 'micropython__micropython-15898',
    repo: 'micropython/micropython',
    version: '15898',
    files: ['tests/basics/string_format.py'],
    command:
      'cd tests\nMICROPY_CPYTHON3=python3 MICROPY_MICROPYTHON=../ports/unix/build-standard/micropython ./run-tests.py -i string_format',
    build: [
      'source ./tools/ci.sh',
      'ci_unix_build_helper VARIANT=standard',
      'gcc -shared -o tests/ports/unix/ffi_lib.so tests/ports/unix/ffi_lib.c',
    ],
    parser: 'micropython',
  },
  {
    id: 'valkey-io__valkey-928',
    repo: 'valkey-io/valkey',
    version: '928',
    files: ['tests/unit/cluster/replica-migration.tcl'],
    command: 'TERM=dumb ./runtest --durable --single unit/cluster/replica-migration --only "/.*NOREPLICAS.*"',
    build: ['make distclean', 'make'],
    parser: 'redis-tcl',
  },
  {
    id: 'fmtlib__fmt-3729',
    repo: 'fmtlib/fmt',
    version: '3729',
    files: ['test/std-test.cc'],
    command: 'ctest --test-dir build -V -R std-test',
    build: [
      'mkdir -p build',
      'cmake -B build -S .',
      'cmake --build build --parallel $(nproc) --target std-test',
    ],
    parser: 'ctest',
  },
];

/** The other Python repositories of SWE-bench (full) and the Multimodal JavaScript ones. */
const otherRepos: OfficialCase[] = [
  {
    id: 'marshmallow-code__marshmallow-1359',
    repo: 'marshmallow-code/marshmallow',
    version: '3.0',
    files: ['tests/test_fields.py'],
    command: 'pytest -rA tests/test_fields.py',
    before: ["python -m pip install -e '.[dev]'"],
    parser: 'pytest',
  },
  {
    id: 'pvlib__pvlib-python-1854',
    repo: 'pvlib/pvlib-python',
    version: '0.9',
    files: ['pvlib/tests/test_pvsystem.py'],
    command: 'pytest -rA pvlib/tests/test_pvsystem.py',
    before: ['python -m pip install -e .[all]'],
    parser: 'pytest',
  },
  {
    id: 'pydicom__pydicom-1694',
    repo: 'pydicom/pydicom',
    version: '2.3',
    files: ['pydicom/tests/test_dataset.py'],
    command: 'pytest -rA pydicom/tests/test_dataset.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'pylint-dev__astroid-1978',
    repo: 'pylint-dev/astroid',
    version: '2.14',
    files: ['tests/unittest_raw_building.py'],
    command: 'pytest -rA tests/unittest_raw_building.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'pyvista__pyvista-4315',
    repo: 'pyvista/pyvista',
    version: '0.39',
    files: ['tests/test_grid.py'],
    command: 'pytest -rA tests/test_grid.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'sqlfluff__sqlfluff-1625',
    repo: 'sqlfluff/sqlfluff',
    version: '0.6',
    files: ['test/rules/std_L031_test.py', 'test/fixtures/rules/std_rule_cases/L031.yml'],
    command: 'pytest -rA test/rules/std_L031_test.py',
    before: [pipE],
    parser: 'pytest',
  },
  {
    id: 'swe-bench__humaneval-0',
    repo: 'swe-bench/humaneval',
    version: '1.0',
    files: ['new:test.py'],
    command: 'python test.py',
    before: [],
    parser: 'pytest',
  },
  {
    id: 'Automattic__wp-calypso-21964',
    repo: 'Automattic/wp-calypso',
    version: '10.10.0',
    files: [
      'client/state/selectors/test/index.js',
      'client/blocks/x/test/__snapshots__/index.js.snap',
      'test/e2e/specs/login.js',
      'config/test.json',
    ],
    command: [
      "./node_modules/.bin/jest --verbose -c=test/client/jest.config.js 'client/state/selectors/test/index.js'",
      "./node_modules/.bin/jest --verbose -c=test/client/jest.config.js 'client/blocks/x/test'",
      'cd test/e2e',
      'NODE_CONFIG_ENV=test npm run test test/e2e/specs/login.js',
      'cd ../..',
    ].join('\n'),
    parser: 'jest',
  },
  {
    id: 'Automattic__wp-calypso-1',
    repo: 'Automattic/wp-calypso',
    version: '8.9.1',
    files: ['packages/x/test/a.js'],
    command: "./node_modules/.bin/jest --verbose -c=test/packages/jest.config.json 'packages/x/test/a.js'",
    parser: 'jest',
  },
  {
    id: 'Automattic__wp-calypso-2',
    repo: 'Automattic/wp-calypso',
    version: '6.1.0',
    files: ['client/a/test/b.js'],
    command: "npm run test-client --verbose 'client/a/test/b.js'",
    parser: 'jest',
  },
  {
    id: 'chartjs__Chart.js-11116',
    repo: 'chartjs/Chart.js',
    version: '4.2',
    files: ['test/specs/scale.linear.tests.js'],
    command: [
      'pnpm install',
      'pnpm run build',
      'xvfb-run --server-args="-screen 0 1280x1024x24 -ac :99" su chromeuser -c "./node_modules/.bin/cross-env NODE_ENV=test ./node_modules/.bin/karma start ./karma.conf.cjs --single-run --coverage --grep --auto-watch false"',
    ].join('\n'),
    parser: 'karma',
  },
  {
    id: 'chartjs__Chart.js-7951',
    repo: 'chartjs/Chart.js',
    version: '2.9',
    files: ['test/specs/core.tooltip.tests.js'],
    command: [
      'npm install',
      'gulp build',
      'xvfb-run --server-args="-screen 0 1280x1024x24 -ac :99" su chromeuser -c "gulp test"',
    ].join('\n'),
    parser: 'karma',
  },
  {
    id: 'markedjs__marked-2574',
    repo: 'markedjs/marked',
    version: '4.0',
    files: ['test/specs/new/x.md', 'test/unit/marked-spec.js'],
    command: './node_modules/.bin/jasmine --no-color --config=jasmine.json',
    parser: 'jasmine',
  },
  {
    id: 'processing__p5.js-5771',
    repo: 'processing/p5.js',
    version: '1.5',
    files: ['test/unit/core/rendering.js'],
    command:
      "sed -i 's/concurrency:[[:space:]]*[0-9][0-9]*/concurrency: 1/g' Gruntfile.js\nstdbuf -o 1M ./node_modules/.bin/grunt test --quiet --force",
    parser: 'mocha',
  },
  {
    id: 'diegomura__react-pdf-1552',
    repo: 'diegomura/react-pdf',
    version: '2.0',
    files: ['packages/layout/tests/text/layoutText.test.js'],
    command: 'NODE_OPTIONS="--experimental-vm-modules" ./node_modules/.bin/jest --no-color',
    parser: 'jest',
  },
  {
    id: 'diegomura__react-pdf-471',
    repo: 'diegomura/react-pdf',
    version: '1.2',
    files: ['tests/text.test.js'],
    command: './node_modules/.bin/jest --no-color',
    parser: 'jest',
  },
];

const groups: [string, OfficialCase[]][] = [
  ['SWE-bench Verified: Python', verifiedPython],
  ['Multilingual: JavaScript and TypeScript', multilingualJs],
  ['Multilingual: Go', multilingualGo],
  ['Multilingual: Rust', multilingualRust],
  ['Multilingual: Java, PHP, Ruby, C/C++', multilingualRest],
  ['SWE-bench full Python and Multimodal JavaScript', otherRepos],
];

describe('buildEvalCommand', () => {
  for (const [title, cases] of groups) {
    describe(`when the row is from ${title}`, () => {
      it.each(cases)('builds the official command for $id', (sample) => {
        const built = buildEvalCommand({
          instance_id: sample.id,
          repo: sample.repo,
          version: sample.version,
          test_patch: testPatchTouching(sample.files),
        });
        expect(built.testCommand).toBe(sample.command);
        expect(built.parser).toBe(sample.parser);
        expect(built.source).toBe('spec');
        if (built.spec?.language === 'python') {
          expect(built.activate).toEqual(['source /opt/miniconda3/bin/activate', 'conda activate testbed']);
          expect(built.beforeTestPatch).toEqual(sample.before);
          expect(built.afterTestPatch).toEqual([]);
          expect(built.applyTestPatch).toBe('git apply -v -');
        } else {
          expect(built.activate).toEqual([]);
          expect(built.beforeTestPatch).toEqual([]);
          expect(built.afterTestPatch).toEqual(sample.build ?? []);
          expect(built.applyTestPatch).toBe('git apply --verbose --reject -');
        }
      });
    });
  }

  it('has a sample for every repository of the table except dbt-core (no official command)', () => {
    const sampled = new Set(groups.flatMap(([, cases]) => cases.map((sample) => sample.repo)));
    const unsampled = knownRepos().filter((repo) => !sampled.has(repo));
    expect(unsampled).toEqual(['dbt-labs/dbt-core']);
  });
});
