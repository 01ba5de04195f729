/**
 * The JavaScript/TypeScript repositories: SWE-bench Multilingual's (one row per pull request) and
 * SWE-bench Multimodal's (Automattic/wp-calypso, chartjs/Chart.js, markedjs/marked,
 * processing/p5.js, diegomura/react-pdf; rows per release). Source: SWE-bench v4.1.0
 * (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/javascript.py`
 * (`MAP_REPO_VERSION_TO_SPECS_JS`), `test_spec/javascript.py` and `log_parsers/javascript.py`.
 * `install` and `apt-pkgs` are baked into the official images and left out; `build` runs at
 * evaluation time and is kept.
 * @module
 */
import { forVersions, type RepoTable } from './repo-table.js';

const xvfb = 'xvfb-run --server-args="-screen 0 1280x1024x24 -ac :99"';
const chartKarma = (config: string): string =>
  `${xvfb} su chromeuser -c "./node_modules/.bin/cross-env NODE_ENV=test ./node_modules/.bin/karma start ${config} --single-run --coverage --grep --auto-watch false"`;
/** immutable-js 2005: jest's JSON report turned into `[STATUS] ancestors > title` lines by jq. */
const jestJsonJq =
  `jq -r '.testResults[].assertionResults[] | "[" + (.status | ascii_upcase) + "] " + ` +
  `((.ancestorTitles | join(" > ")) + (if .ancestorTitles | length > 0 then " > " else "" end) + .title)'`;
const karma = (grep: string): string =>
  `COVERAGE=false BABEL_NO_MODULES=true npx karma start karma.conf.js --single-run --grep="${grep}"`;

/** Every JavaScript repository of the official table. */
export function javascriptRepoTables(): RepoTable[] {
  const js = { language: 'javascript' } as const;
  const multilingual = { ...js, perInstance: true } as const;
  return [
    {
      ...js,
      repo: 'Automattic/wp-calypso',
      officialParser: 'parse_log_calypso',
      parser: 'jest',
      directives: 'calypso',
      versions: forVersions(
        ['0.8', '4.2.3', '4.3.0', '5.10.1', '5.11.1', '6.1.0', '6.7.0', '6.9.0', '6.9.1', '6.9.4', '6.10.0']
          .concat(['6.10.2', '6.10.3', '6.11.1', '6.11.2', '6.11.5', '8.9.1', '8.9.3', '8.9.4', '8.11.0'])
          .concat(['8.11.2', '10.4.1', '10.5.0', '10.6.0', '10.9.0', '10.10.0', '10.12.0', '10.13.0'])
          .concat(['10.14.0', '10.15.2', '10.16.3']),
        { test: 'npm run test-client' },
      ),
    },
    {
      ...js,
      repo: 'chartjs/Chart.js',
      officialParser: 'parse_log_chart_js',
      parser: 'karma',
      failOnly: true,
      versions: {
        ...forVersions(['4.0', '4.1', '4.2', '4.3', '4.4'], {
          test: ['pnpm install', 'pnpm run build', chartKarma('./karma.conf.cjs')],
        }),
        ...forVersions(['3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '3.7', '3.8'], {
          test: ['npm install', 'npm run build', chartKarma('./karma.conf.js')],
        }),
        ...forVersions(['2.0', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9'], {
          test: ['npm install', 'gulp build', `${xvfb} su chromeuser -c "gulp test"`],
        }),
      },
    },
    {
      ...js,
      repo: 'markedjs/marked',
      officialParser: 'parse_log_marked',
      parser: 'jasmine',
      failOnly: true,
      versions: forVersions(
        ['0.3', '0.5', '0.6', '0.7', '1.0', '1.1', '1.2', '2.0', '3.9', '4.0', '4.1', '5.0'],
        { test: './node_modules/.bin/jasmine --no-color --config=jasmine.json' },
      ),
    },
    {
      ...js,
      repo: 'processing/p5.js',
      officialParser: 'parse_log_p5js',
      parser: 'mocha',
      failOnly: true,
      versions: forVersions(
        ['0.10', '0.2', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '1.0', '1.1', '1.2', '1.3', '1.4'].concat([
          '1.5',
          '1.6',
          '1.7',
          '1.8',
          '1.9',
        ]),
        {
          // One upstream string holding two lines.
          test:
            "sed -i 's/concurrency:[[:space:]]*[0-9][0-9]*/concurrency: 1/g' Gruntfile.js\n" +
            'stdbuf -o 1M ./node_modules/.bin/grunt test --quiet --force',
        },
      ),
    },
    {
      ...js,
      repo: 'diegomura/react-pdf',
      officialParser: 'parse_log_react_pdf',
      parser: 'jest',
      versions: {
        ...forVersions(['1.0', '1.1', '1.2'], { test: './node_modules/.bin/jest --no-color' }),
        '2.0': 'NODE_OPTIONS="--experimental-vm-modules" ./node_modules/.bin/jest --no-color',
      },
    },
    {
      ...multilingual,
      repo: 'babel/babel',
      officialParser: 'parse_log_jest',
      parser: 'jest',
      versions: {
        '14532': { test: 'yarn jest babel-generator --verbose', build: ['make build'] },
        '13928': { test: 'yarn jest babel-parser -t "arrow" --verbose', build: ['make build'] },
        '15649': { test: 'yarn jest packages/babel-traverse/test/scope.js --verbose', build: ['make build'] },
        '15445': {
          test: 'yarn jest packages/babel-generator/test/index.js -t "generation " --verbose',
          build: ['make build'],
        },
        '16130': { test: 'yarn jest babel-helpers --verbose', build: ['make build'] },
      },
    },
    {
      ...multilingual,
      repo: 'vuejs/core',
      officialParser: 'parse_log_vitest',
      parser: 'vitest',
      versions: {
        '11899': {
          test: 'pnpm run test packages/compiler-sfc/__tests__/compileStyle.spec.ts --no-watch --reporter=verbose',
          build: ['pnpm run build compiler-sfc'],
        },
        '11870':
          'pnpm run test packages/runtime-core/__tests__/helpers/renderList.spec.ts --no-watch --reporter=verbose',
        '11739':
          'pnpm run test packages/runtime-core/__tests__/hydration.spec.ts --no-watch --reporter=verbose -t "mismatch handling"',
        '11915':
          'pnpm run test packages/compiler-core/__tests__/parse.spec.ts --no-watch --reporter=verbose -t "Element"',
        '11589':
          'pnpm run test packages/runtime-core/__tests__/apiWatch.spec.ts --no-watch --reporter=verbose',
      },
    },
    {
      ...multilingual,
      repo: 'facebook/docusaurus',
      officialParser: 'parse_log_jest',
      parser: 'jest',
      versions: {
        '10309':
          'yarn test packages/docusaurus-plugin-content-docs/src/client/__tests__/docsClientUtils.test.ts --verbose',
        '10130': 'yarn test packages/docusaurus/src/server/__tests__/brokenLinks.test.ts --verbose',
        '9897': 'yarn test packages/docusaurus-utils/src/__tests__/markdownUtils.test.ts --verbose',
        '9183': 'yarn test packages/docusaurus-theme-classic/src/__tests__/options.test.ts --verbose',
        '8927': 'yarn test packages/docusaurus-utils/src/__tests__/markdownLinks.test.ts --verbose',
      },
    },
    {
      ...multilingual,
      repo: 'immutable-js/immutable-js',
      // The official parser picks jest or jest-JSON by pull request.
      officialParser: 'parse_log_immutable_js',
      parser: 'jest',
      versions: {
        '2006': { test: 'npx jest __tests__/Range.ts --verbose', build: ['npm run build'] },
        '2005': {
          test: `npx jest __tests__/OrderedMap.ts __tests__/OrderedSet.ts --silent --json | ${jestJsonJq}`,
          build: ['npm run build'],
          parser: 'jest-json',
        },
      },
    },
    {
      ...multilingual,
      repo: 'mrdoob/three.js',
      officialParser: 'parse_log_tap',
      parser: 'tap',
      versions: {
        '27395': 'npx qunit test/unit/src/math/Sphere.tests.js',
        '26589':
          'npx qunit test/unit/src/objects/Line.tests.js test/unit/src/objects/Mesh.tests.js test/unit/src/objects/Points.tests.js',
        '25687': 'npx qunit test/unit/src/core/Object3D.tests.js -f "/json|clone|copy/i"',
      },
    },
    {
      ...multilingual,
      repo: 'preactjs/preact',
      officialParser: 'parse_log_karma',
      parser: 'karma',
      versions: {
        '4152': karma('test/browser/components.test.js'),
        '4316': karma('test/browser/events.test.js'),
        '4245': karma('hooks/test/browser/useId.test.js'),
        '4182': karma('hooks/test/browser/errorBoundary.test.js'),
        '4436': karma('test/browser/refs.test.js'),
        '3763': karma('test/browser/lifecycles/componentDidMount.test.js'),
        '3739': karma('hooks/test/browser/useState.test.js'),
        '3689': karma('hooks/test/browser/errorBoundary.test.js'),
        '3567': karma('hooks/test/browser/useEffect.test.js'),
        '3562': karma('compat/test/browser/render.test.js'),
        '3454': karma('test/browser/svg.test.js'),
        '3345': karma('hooks/test/browser/useEffect.test.js'),
        '3062': karma('test/browser/render.test.js'),
        '3010': karma('test/browser/render.test.js'),
        '2927': karma('test/browser/render.test.js'),
        '2896': karma('compat/test/browser/memo.test.js'),
        '2757': karma('test/browser/render.test.js'),
      },
    },
    {
      ...multilingual,
      repo: 'axios/axios',
      officialParser: 'parse_log_tap',
      parser: 'tap',
      versions: {
        '5892': "npx mocha test/unit/adapters/http.js -R tap -g 'compression'",
        // The patch adds a dependency: install again after it is applied.
        '5316': { test: "npx mocha test/unit/adapters/http.js -R tap -g 'FormData'", build: ['npm install'] },
        '4738': "timeout 10s npx mocha -R tap test/unit/adapters/http.js -g 'timeout'",
        '4731': "npx mocha -R tap test/unit/adapters/http.js -g 'body length'",
        '6539': 'npx mocha -R tap test/unit/regression/SNYK-JS-AXIOS-7361793.js',
        '5085': 'npx mocha -R tap test/unit/regression/bugs.js',
      },
    },
  ];
}
