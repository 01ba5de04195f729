/**
 * The PHP repositories of SWE-bench Multilingual, one row per pull request. Source: SWE-bench v4.1.0
 * (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/php.py`
 * (`MAP_REPO_VERSION_TO_SPECS_PHP`) and `log_parsers/php.py` (every repository:
 * `parse_log_phpunit`). Composer `install` steps are baked into the official images; carbon 2813's
 * `build` (its patch adds a dependency) runs at evaluation time and is kept.
 * @module
 */
import type { RepoTable } from './repo-table.js';

/** Every PHP repository of the official table. */
export function phpRepoTables(): RepoTable[] {
  const php = {
    language: 'php',
    perInstance: true,
    officialParser: 'parse_log_phpunit',
    parser: 'phpunit',
  } as const;
  const unit =
    (binary: string) =>
    (target: string): string =>
      `${binary} --testdox --colors=never ${target}`;
  const sheet = unit('./vendor/bin/phpunit');
  const vendor = unit('vendor/bin/phpunit');
  const t = 'tests/PhpSpreadsheetTests';
  return [
    {
      ...php,
      repo: 'phpoffice/phpspreadsheet',
      versions: {
        '4313': sheet(`${t}/Reader/Ods/FormulaTranslatorTest.php`),
        '4214': sheet(`${t}/Calculation/Functions/MathTrig/RoundDownTest.php`),
        '4186': sheet(`${t}/Writer/Xlsx/FunctionPrefixTest.php`),
        '4114': sheet(`${t}/Worksheet/Issue4112Test.php`),
        '3940': sheet(`${t}/Worksheet/WorksheetTest.php`),
        '3903': sheet(`${t}/Shared/StringHelperTest.php`),
        '3570': sheet(`${t}/Calculation/Functions/LookupRef/VLookupTest.php`),
        '3463': sheet(`${t}/Writer/Xlsx/FunctionPrefixTest.php`),
        '3469': sheet(`${t}/Style/StyleTest.php`),
        '3659': sheet(`${t}/Worksheet/Table/Issue3635Test.php`),
      },
    },
    {
      ...php,
      repo: 'laravel/framework',
      versions: {
        '53914': vendor('tests/Integration/Database/DatabaseConnectionsTest.php'),
        '53206': vendor('tests/Support/SupportJsTest.php'),
        '52866': vendor('tests/Container/ContextualAttributeBindingTest.php'),
        '52684': vendor('tests/Support/SupportStrTest.php'),
        '52680': vendor('tests/Database/DatabaseEloquentInverseRelationTest.php'),
        '52451': vendor("tests/Validation/ValidationValidatorTest.php --filter 'custom'"),
        '53949': vendor('tests/Support/OnceTest.php'),
        '51890': vendor("tests/Validation/ValidationValidatorTest.php --filter 'attribute'"),
        '51195': vendor('tests/View/Blade/BladeVerbatimTest.php'),
        '48636': vendor('tests/Database/DatabaseEloquentModelTest.php'),
        '48573': vendor('tests/Cache/CacheArrayStoreTest.php'),
        '46234': vendor('tests/Routing/RoutingUrlGeneratorTest.php'),
        '53696': vendor('tests/Database/DatabaseSchemaBlueprintTest.php'),
      },
    },
    {
      ...php,
      repo: 'php-cs-fixer/php-cs-fixer',
      versions: {
        '8367': vendor('tests/Fixer/Import/FullyQualifiedStrictTypesFixerTest.php'),
        '8331': vendor('tests/Fixer/LanguageConstruct/NullableTypeDeclarationFixerTest.php'),
        '8075': vendor('tests/Fixer/PhpUnit/PhpUnitAttributesFixerTest.php'),
        '8064': vendor('tests/Fixer/StringNotation/SimpleToComplexStringVariableFixerTest.php'),
        '7998': vendor('tests/Fixer/Casing/ConstantCaseFixerTest.php'),
        '7875': vendor('tests/Fixer/Whitespace/StatementIndentationFixerTest.php'),
        '7635': vendor('tests/Fixer/Import/FullyQualifiedStrictTypesFixerTest.php'),
        '7523': vendor('tests/Fixer/Operator/BinaryOperatorSpacesFixerTest.php'),
        '8256': vendor('tests/Fixer/PhpTag/BlankLineAfterOpeningTagFixerTest.php'),
        '7663': vendor('tests/Fixer/Whitespace/StatementIndentationFixerTest.php'),
      },
    },
    {
      ...php,
      repo: 'briannesbitt/carbon',
      versions: {
        '3103': vendor('tests/CarbonImmutable/SettersTest.php'),
        '3098': vendor('tests/CarbonInterval/ConstructTest.php'),
        '3073': vendor('tests/CarbonInterval/TotalTest.php'),
        '3041': vendor('tests/CarbonPeriod/CreateTest.php'),
        '3005': vendor('tests/CarbonInterval/ConstructTest.php'),
        '2981': vendor('tests/CarbonInterval/TotalTest.php'),
        '2813': {
          test: vendor('tests/Factory/FactoryTest.php'),
          build: ['composer update', 'composer install'],
        },
        '2752': vendor('tests/CarbonImmutable/IsTest.php'),
        '2665': vendor('tests/Carbon/RoundTest.php'),
        '2762': vendor('tests/CarbonInterval/RoundingTest.php'),
      },
    },
  ];
}
