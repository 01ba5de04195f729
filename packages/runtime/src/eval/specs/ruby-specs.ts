/**
 * The Ruby repositories of SWE-bench Multilingual, one row per pull request. Source: SWE-bench
 * v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/ruby.py`
 * (`MAP_REPO_VERSION_TO_SPECS_RUBY`) and `log_parsers/ruby.py`. The RSpec rows pipe RSpec's JSON
 * report through jq into `<description> - [<id> - ]<status>` lines, which is what the official
 * parser (`parse_log_rspec_transformed_json`) reads. Bundler `install` and `pre_install` steps are
 * baked into the official images.
 * @module
 */
import type { RepoTable } from './repo-table.js';

const fastlaneJq = `tail -n +2 | jq -r '.examples[] | "\\(.description) - \\(.id) - \\(.status)"'`;
const fpmJq = `sed -n '/^{/,$p' | jq -r '.examples[] | "\\(.description) - \\(.status)"'`;
/** Upstream groups rubocop's repeated examples by description: failed when any run failed. */
const rubocopJq = [
  "sed -n '/^{/,$p' | \\",
  "  jq -r '.examples | group_by(.description) | .[] |",
  '    if any(select(.status == "failed")) then',
  '      (.[0] | "\\(.description) - failed")',
  '    else',
  '      (.[0] | "\\(.description) - \\(.status)")',
  "    end'",
].join('\n');

/** Every Ruby repository of the official table. */
export function rubyRepoTables(): RepoTable[] {
  const ruby = { language: 'ruby', perInstance: true } as const;
  const testUnit = { ...ruby, officialParser: 'parse_log_ruby_unit', parser: 'test-unit' } as const;
  const rspec = { ...ruby, officialParser: 'parse_log_rspec_transformed_json', parser: 'rspec' } as const;
  const fastlane = (spec: string): string =>
    `FASTLANE_SKIP_UPDATE_CHECK=1 bundle exec rspec ${spec} --no-color --format json | ${fastlaneJq}`;
  const rubocop = (spec: string): string =>
    `bundle exec rspec spec/rubocop/${spec} --no-color --format json | ${rubocopJq}`;
  const cucumber = (features: string): string =>
    `bundle exec cucumber --publish-quiet --format progress --no-color ${features}`;
  return [
    {
      ...ruby,
      repo: 'jekyll/jekyll',
      // The official parser picks minitest or cucumber by pull request.
      officialParser: 'parse_log_jekyll',
      parser: 'minitest',
      versions: {
        '9141': 'bundle exec ruby -I test test/test_site.rb -v -n "/static files/"',
        '8761': {
          test: cucumber('features/post_data.feature:6 features/post_data.feature:30'),
          parser: 'cucumber',
        },
        '8047': 'bundle exec ruby -I test test/test_filters.rb -v -n "/where_exp filter/"',
        '8167': 'bundle exec ruby -I test test/test_utils.rb -v -n "/Utils.slugify/"',
        '8771': {
          test: cucumber('features/incremental_rebuild.feature:27 features/incremental_rebuild.feature:70'),
          parser: 'cucumber',
        },
      },
    },
    {
      ...testUnit,
      repo: 'fluent/fluentd',
      versions: {
        '4598': "bundle exec ruby test/plugin_helper/test_http_server_helper.rb -v -n '/mount/'",
        '4311': "bundle exec ruby test/config/test_system_config.rb -v -n '/rotate_age/'",
        '4655': "bundle exec ruby test/plugin/test_in_http.rb -v -n '/test_add/'",
        '4030': 'bundle exec ruby test/plugin/out_forward/test_ack_handler.rb -v',
        '3917': 'bundle exec ruby test/test_config.rb -v',
        '3640': "bundle exec ruby test/plugin_helper/test_retry_state.rb -v -n '/exponential backoff/'",
        '3641': 'bundle exec ruby test/test_supervisor.rb -v',
        '3616': "bundle exec ruby test/plugin/test_in_http.rb -v -n '/test_application/'",
        '3631': "bundle exec ruby test/test_event_router.rb -v -n '/handle_emits_error/'",
        '3466': "bundle exec ruby test/plugin/test_in_tail.rb -v -n '/test_should_replace_target_info/'",
        '3328':
          "bundle exec ruby test/plugin/test_in_tail.rb -v -n '/test_ENOENT_error_after_setup_watcher/'",
        '3608': "bundle exec ruby test/plugin/test_output_as_buffered_retries.rb -v -n '/retry_max_times/'",
      },
    },
    {
      ...rspec,
      repo: 'fastlane/fastlane',
      versions: {
        '21857': fastlane('./fastlane/spec/lane_manager_base_spec.rb'),
        '20958': fastlane('./fastlane/spec/actions_specs/import_from_git_spec.rb'),
        '20642': fastlane('./frameit/spec/device_spec.rb'),
        '19765': fastlane('./fastlane/spec/actions_specs/download_dsyms_spec.rb'),
        '20975': fastlane('./match/spec/storage/s3_storage_spec.rb'),
        '19304': fastlane('./fastlane/spec/actions_specs/zip_spec.rb'),
        '19207': fastlane('./fastlane/spec/actions_specs/zip_spec.rb'),
      },
    },
    {
      ...rspec,
      repo: 'jordansissel/fpm',
      versions: {
        '1850': `bundle exec rspec spec/fpm/package/empty_spec.rb --no-color --format json | ${fpmJq}`,
        '1829': `bundle exec rspec spec/fpm/package/deb_spec.rb --no-color --format json | ${fpmJq}`,
      },
    },
    {
      ...testUnit,
      repo: 'faker-ruby/faker',
      versions: {
        '2970': "bundle exec ruby test/faker/default/test_faker_internet.rb -v -n '/email/'",
        '2705': "bundle exec ruby test/faker/default/test_faker_internet.rb -v -n '/password/'",
      },
    },
    {
      ...rspec,
      repo: 'rubocop/rubocop',
      versions: {
        '13705': rubocop('cop/lint/out_of_range_regexp_ref_spec.rb'),
        '13687': rubocop('cop/lint/safe_navigation_chain_spec.rb'),
        '13680': rubocop('cop/style/redundant_line_continuation_spec.rb'),
        '13668': rubocop('cop/style/sole_nested_conditional_spec.rb'),
        '13627': rubocop('cop/style/multiple_comparison_spec.rb'),
        '13653': rubocop('cop/style/access_modifier_declarations_spec.rb'),
        '13579': rubocop('cop/layout/line_continuation_spacing_spec.rb'),
        '13560': rubocop('cop/style/file_null_spec.rb'),
        '13503': rubocop('cop/style/dig_chain_spec.rb'),
        '13479': rubocop('cop/layout/leading_comment_space_spec.rb'),
        '13431': rubocop('cop/layout/empty_lines_around_method_body_spec.rb'),
        '13424': rubocop('cop/style/safe_navigation_spec.rb'),
        '13393': rubocop('cop/style/guard_clause_spec.rb'),
        '13396': rubocop('cop/style/redundant_parentheses_spec.rb'),
        '13375': rubocop('cli_spec.rb'),
        '13362': rubocop('cop/style/redundant_freeze_spec.rb'),
      },
    },
  ];
}
