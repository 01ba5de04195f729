/**
 * The Go repositories of SWE-bench Multilingual, one row per pull request. Source: SWE-bench v4.1.0
 * (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/go.py`
 * (`MAP_REPO_VERSION_TO_SPECS_GO`) and `log_parsers/go.py` (every repository: `parse_log_gotest`).
 * The `install` step (`go test -c …`, which warms the module cache) is baked into the official
 * images and left out.
 * @module
 */
import type { RepoTable } from './repo-table.js';

/** Every Go repository of the official table. */
export function goRepoTables(): RepoTable[] {
  const go = { language: 'go', perInstance: true, officialParser: 'parse_log_gotest', parser: 'go' } as const;
  return [
    {
      ...go,
      repo: 'caddyserver/caddy',
      versions: {
        '6411': 'go test -v . -run "TestReplacerNew*"',
        '6345': 'go test -v ./caddytest/integration',
        '6115': 'go test -v ./modules/caddyhttp/reverseproxy',
        '6051': 'go test -v ./caddyconfig/caddyfile',
        '5404': 'go test -v ./caddyconfig/caddyfile',
        '6370': 'go test -v ./cmd',
        '6350': 'go test -v ./caddytest/integration -run "TestCaddyfileAdapt*"',
        '6288': 'go test -v ./caddytest/integration -run "TestCaddyfileAdapt*"',
        '5995': 'go test -v ./caddytest/integration -run "^TestUriReplace"',
        '4943': 'go test -v ./modules/logging',
        '5626': 'go test -v ./caddyconfig/httpcaddyfile -run "Test.*Import"',
        '5761': 'go test -v ./caddyconfig/caddyfile -run "TestLexer.*"',
        '5870': 'go test -v . -run "TestUnsyncedConfigAccess"',
        '4774': 'go test -v ./caddytest/integration -run "TestCaddyfileAdapt*"',
      },
    },
    {
      ...go,
      repo: 'hashicorp/terraform',
      versions: {
        '35611': 'go test -v ./internal/terraform -run "^TestContext2Apply_provisioner"',
        '35543': 'go test -v ./internal/terraform -run "^TestContext2Plan_import"',
        '34900':
          'go test -v ./internal/terraform -run "(^TestContext2Apply|^TestContext2Plan).*[Ss]ensitive"',
        '34580': 'go test -v ./internal/command -run "^TestFmt"',
        '34814': 'go test -v ./internal/builtin/provisioners/remote-exec',
      },
    },
    {
      ...go,
      repo: 'prometheus/prometheus',
      versions: {
        '14861': 'go test -v ./promql -run "^TestEngine"',
        '13845': 'go test -v ./promql ./model/labels -run "^(TestRangeQuery|TestLabels)"',
        '12874': 'go test -v ./tsdb -run "^TestHead"',
        '11859': 'go test -v ./tsdb -run "^TestSnapshot"',
        '10720': 'go test -v ./promql -run "^TestEvaluations"',
        '10633': 'go test -v ./discovery/puppetdb -run "TestPuppetDBRefreshWithParameters"',
        '9248': 'go test -v ./promql -run "^TestEvaluations"',
        '15142': 'go test -v ./tsdb -run "^TestHead"',
      },
    },
    {
      ...go,
      repo: 'gohugoio/hugo',
      versions: {
        '12768': 'go test -v ./markup/goldmark/blockquotes/...',
        '12579': 'go test -v ./resources/page -run "^TestGroupBy"',
        '12562': 'go test -v ./hugolib/... -run "^TestGetPage[^/]"',
        '12448': 'go test -v ./hugolib/... -run "^TestRebuild"',
        '12343': 'go test -v ./resources/page/... -run "^Test.*Permalink"',
        '12204': 'go test -v ./tpl/tplimpl -run "^TestEmbedded"',
        '12171': 'go test -v ./hugolib -run "^Test.*Pages"',
      },
    },
    {
      ...go,
      repo: 'gin-gonic/gin',
      versions: {
        '4003': 'go test . -v -run "TestMethodNotAllowedNoRoute"',
        '3820': 'go test -v ./binding -run "^TestMapping"',
        '3741': 'go test -v . -run "^TestColor"',
        '2755': 'go test -v . -run "^TestTree"',
        '3227': 'go test -v . -run "^TestRedirect"',
        '2121': 'go test -v ./... -run "^Test.*Reader"',
        '1957': 'go test -v . -run "^TestContext.*Bind"',
        '1805': 'go test -v . -run "^Test.*Router"',
      },
    },
  ];
}
