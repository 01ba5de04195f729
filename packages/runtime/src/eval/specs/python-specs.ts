/**
 * The Python repositories of SWE-bench (full, Lite, Verified): per version, the test command, the
 * `install` step the evaluation script re-runs and the `eval_commands`. Source: SWE-bench v4.1.0
 * (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/python.py`
 * (`MAP_REPO_VERSION_TO_SPECS_PY`) and `log_parsers/python.py` (`MAP_REPO_TO_PARSER_PY`).
 *
 * Upstream defines `TEST_PYTEST` twice; the second definition (`pytest -rA`) is the one every row
 * uses. Only the fields that act at evaluation time are kept (conda packages, pip pins and
 * `pre_install` are baked into the official images).
 *
 * Over the usual file length on purpose: it is data, one block per repository, kept in one file
 * so that it reads side by side with its upstream source.
 * @module
 */
import { forVersions, type RepoTable } from './repo-table.js';

const pytest = 'pytest -rA';
const astropyPytest = 'pytest -rA -vv -o console_output_style=classic --tb=no';
const django = './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1';
const djangoNoParallel = './tests/runtests.py --verbosity 2';
const seaborn = 'pytest --no-header -rA';
const sphinx = 'tox --current-env -epy39 -v --';
const sympy = "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose";
const editable = 'python -m pip install -e .';

/** Django 1.7–2.2: locale exports before the tests. */
const djangoLocale = [
  'export LANG=en_US.UTF-8',
  'export LC_ALL=en_US.UTF-8',
  'export PYTHONIOENCODING=utf8',
  'export LANGUAGE=en_US:en',
];
/** Django 3.0–3.2: the locale is generated at evaluation time. */
const djangoLocaleGen = [
  "sed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen",
  'export LANG=en_US.UTF-8',
  'export LANGUAGE=en_US:en',
  'export LC_ALL=en_US.UTF-8',
];

/** Every Python repository of the official table. */
export function pythonRepoTables(): RepoTable[] {
  const py = { language: 'python' } as const;
  return [
    {
      ...py,
      repo: 'astropy/astropy',
      officialParser: 'parse_log_pytest_v2',
      parser: 'pytest',
      versions: {
        ...forVersions(['3.0', '3.1', '3.2', '4.1', '4.2', '4.3', '5.0', '5.1', '5.2', 'v5.3'], {
          test: pytest,
          install: 'python -m pip install -e .[test] --verbose',
        }),
        ...forVersions(['0.1', '0.2', '0.3', '0.4', '1.1', '1.2', '1.3'], {
          test: astropyPytest,
          install: 'python -m pip install -e .[test] --verbose',
        }),
      },
    },
    {
      ...py,
      repo: 'dbt-labs/dbt-core',
      officialParser: null,
      parser: null,
      versions: forVersions(
        ['0.13', '0.14', '0.15', '0.16', '0.17', '0.18', '0.19', '0.20', '0.21'].concat([
          '1.0',
          '1.1',
          '1.2',
          '1.3',
          '1.4',
          '1.5',
          '1.6',
          '1.7',
        ]),
        { test: null, install: editable },
      ),
    },
    {
      ...py,
      repo: 'django/django',
      officialParser: 'parse_log_django',
      parser: 'django',
      directives: 'django-modules',
      versions: {
        ...forVersions(['1.7', '1.8', '1.10', '1.11', '2.0', '2.1', '2.2'], {
          test: django,
          install: 'python setup.py install',
          evalCommands: djangoLocale,
        }),
        '1.9': { test: djangoNoParallel, install: 'python setup.py install', evalCommands: djangoLocale },
        ...forVersions(['1.4', '1.5', '1.6'], { test: django, install: 'python setup.py install' }),
        ...forVersions(['3.0', '3.1', '3.2'], {
          test: django,
          install: editable,
          evalCommands: djangoLocaleGen,
        }),
        ...forVersions(['4.0', '4.1', '4.2', '5.0', '5.1', '5.2'], { test: django, install: editable }),
      },
    },
    {
      ...py,
      repo: 'matplotlib/matplotlib',
      officialParser: 'parse_log_matplotlib',
      parser: 'pytest',
      versions: {
        ...forVersions(['3.5', '3.6', '3.7', '3.0', '3.1', '3.2', '3.3', '3.4'], {
          test: pytest,
          install: editable,
        }),
        ...forVersions(['3.8', '3.9'], {
          test: pytest,
          install: 'python -m pip install --no-build-isolation -e ".[dev]"',
        }),
        ...forVersions(['2.0', '2.1', '2.2', '1.0', '1.1', '1.2', '1.3', '1.4', '1.5'], {
          test: pytest,
          install: 'python setup.py build; python setup.py install',
          nonRoot: true,
        }),
      },
    },
    {
      ...py,
      repo: 'marshmallow-code/marshmallow',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(
        ['2.18', '2.19', '2.20', '3.0', '3.1', '3.10', '3.11', '3.12', '3.13', '3.15', '3.16', '3.19'].concat(
          ['3.2', '3.4', '3.8', '3.9'],
        ),
        { test: pytest, install: "python -m pip install -e '.[dev]'" },
      ),
    },
    {
      ...py,
      repo: 'mwaskom/seaborn',
      officialParser: 'parse_log_seaborn',
      parser: 'pytest',
      versions: {
        '0.11': { test: seaborn, install: editable },
        ...forVersions(['0.12', '0.13', '0.14'], {
          test: seaborn,
          install: 'python -m pip install -e .[dev]',
        }),
      },
    },
    {
      ...py,
      repo: 'pallets/flask',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(['2.0', '2.1', '2.2', '2.3', '3.0', '3.1'], { test: pytest, install: editable }),
    },
    {
      ...py,
      repo: 'psf/requests',
      officialParser: 'parse_log_pytest_options',
      parser: 'pytest',
      versions: forVersions(
        ['0.7', '0.8', '0.9', '0.11', '0.13', '0.14', '1.1', '1.2', '2.0', '2.2', '2.3', '2.4', '2.5']
          .concat(['2.7', '2.8', '2.9', '2.10', '2.11', '2.12', '2.17', '2.18', '2.19', '2.22', '2.26'])
          .concat(['2.25', '2.27', '2.31', '3.0']),
        { test: pytest, install: 'python -m pip install .' },
      ),
    },
    {
      ...py,
      repo: 'pvlib/pvlib-python',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9'], {
        test: pytest,
        install: 'python -m pip install -e .[all]',
      }),
    },
    {
      ...py,
      repo: 'pydata/xarray',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(
        ['0.12', '0.18', '0.19', '0.20', '2022.03', '2022.06', '2022.09', '2023.07', '2024.05'],
        { test: pytest, install: editable },
      ),
    },
    {
      ...py,
      repo: 'pydicom/pydicom',
      officialParser: 'parse_log_pytest_options',
      parser: 'pytest',
      versions: forVersions(['1.0', '1.1', '1.2', '1.3', '1.4', '2.0', '2.1', '2.2', '2.3', '2.4', '3.0'], {
        test: pytest,
        install: editable,
      }),
    },
    {
      ...py,
      repo: 'pylint-dev/astroid',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(
        ['2.10', '2.12', '2.13', '2.14', '2.15', '2.16', '2.5', '2.6', '2.7', '2.8', '2.9', '3.0'],
        { test: pytest, install: editable },
      ),
    },
    {
      ...py,
      repo: 'pylint-dev/pylint',
      officialParser: 'parse_log_pytest_options',
      parser: 'pytest',
      versions: forVersions(
        [
          '2.10',
          '2.11',
          '2.13',
          '2.14',
          '2.15',
          '2.16',
          '2.17',
          '2.8',
          '2.9',
          '3.0',
          '3.1',
          '3.2',
          '3.3',
          '4.0',
        ],
        { test: pytest, install: editable },
      ),
    },
    {
      ...py,
      repo: 'pytest-dev/pytest',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(
        [
          '4.4',
          '4.5',
          '4.6',
          '5.0',
          '5.1',
          '5.2',
          '5.3',
          '5.4',
          '6.0',
          '6.2',
          '6.3',
          '7.0',
          '7.1',
          '7.2',
        ].concat(['7.4', '8.0', '8.1', '8.2', '8.3', '8.4']),
        { test: pytest, install: editable },
      ),
    },
    {
      ...py,
      repo: 'pyvista/pyvista',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(
        Array.from({ length: 24 }, (_, i) => `0.${20 + i}`),
        { test: pytest, install: editable },
      ),
    },
    {
      ...py,
      repo: 'scikit-learn/scikit-learn',
      officialParser: 'parse_log_pytest_v2',
      parser: 'pytest',
      versions: forVersions(['0.20', '0.21', '0.22', '1.3', '1.4', '1.5', '1.6'], {
        test: pytest,
        install: 'python -m pip install -v --no-use-pep517 --no-build-isolation -e .',
      }),
    },
    {
      ...py,
      repo: 'sphinx-doc/sphinx',
      officialParser: 'parse_log_pytest_v2',
      parser: 'pytest',
      versions: forVersions(
        ['1.5', '1.6', '1.7', '1.8', '2.0', '2.1', '2.2', '2.3', '2.4', '3.0', '3.1', '3.2', '3.3', '3.4']
          .concat(['3.5', '4.0', '4.1', '4.2', '4.3', '4.4', '4.5', '5.0', '5.1', '5.2', '5.3', '6.0'])
          .concat(['6.2', '7.0', '7.1', '7.2', '7.3', '7.4', '8.0', '8.1']),
        { test: sphinx, install: 'python -m pip install -e .[test]' },
      ),
    },
    {
      ...py,
      repo: 'sqlfluff/sqlfluff',
      officialParser: 'parse_log_pytest',
      parser: 'pytest',
      versions: forVersions(
        [
          '0.10',
          '0.11',
          '0.12',
          '0.13',
          '0.4',
          '0.5',
          '0.6',
          '0.8',
          '0.9',
          '1.0',
          '1.1',
          '1.2',
          '1.3',
        ].concat(['1.4', '2.0', '2.1', '2.2']),
        { test: pytest, install: editable },
      ),
    },
    {
      ...py,
      repo: 'swe-bench/humaneval',
      officialParser: null,
      parser: null,
      directives: 'humaneval',
      versions: { '1.0': { test: 'python' } },
    },
    {
      ...py,
      repo: 'sympy/sympy',
      officialParser: 'parse_log_sympy',
      parser: 'sympy',
      versions: forVersions(
        ['0.7', '1.0', '1.1', '1.2', '1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11', '1.12'].concat(
          ['1.13', '1.14'],
        ),
        { test: sympy, install: editable },
      ),
    },
  ];
}
