/**
 * The Java repositories of SWE-bench Multilingual, one row per pull request. Source: SWE-bench
 * v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57) `swebench/harness/constants/java.py`
 * (`MAP_REPO_VERSION_TO_SPECS_JAVA`) and `log_parsers/java.py`. Maven rows run one `mvnd test`
 * per listed test (upstream marks which are FAIL_TO_PASS and which PASS_TO_PASS). The
 * `pre_install` scripts (lombok's `test.instance` ant target, lucene's and rxjava's gradle
 * `testLogging` blocks) and the maven `install` steps are baked into the official images.
 *
 * Over the usual file length on purpose: it is data, one block per repository, kept in one file
 * so that it reads side by side with its upstream source.
 * @module
 */
import type { RepoTable } from './repo-table.js';

/** `mvnd test` of each `Class#method` of `module`. */
function mvnd(module: string, tests: readonly string[], parallel = true): string[] {
  const threads = parallel ? ' -T 1C' : '';
  return tests.map((test) => `mvnd test -B${threads} -pl ${module} -Dtest=${test}`);
}

/** The same class, several methods. */
function methods(className: string, names: readonly string[]): string[] {
  return names.map((name) => `${className}#${name}`);
}

/** Every Java repository of the official table. */
export function javaRepoTables(): RepoTable[] {
  const java = { language: 'java', perInstance: true } as const;
  const maven = { ...java, officialParser: 'parse_log_maven', parser: 'maven' } as const;
  const gradle = { ...java, officialParser: 'parse_log_gradle_custom', parser: 'gradle' } as const;
  const gson = 'com.google.gson';
  const druid = 'org.apache.druid';
  const lombok = { build: ['ant test.compile'], test: 'ant test.instance' } as const;
  const lucene = (target: string): string => `./gradlew test --tests ${target}`;
  return [
    {
      ...maven,
      repo: 'google/gson',
      versions: {
        '2158': {
          test: mvnd(
            'gson',
            methods(`${gson}.functional.PrimitiveTest`, [
              'testByteSerialization',
              'testShortSerialization',
              'testIntSerialization',
              'testLongSerialization',
              'testFloatSerialization',
              'testDoubleSerialization',
              'testPrimitiveIntegerAutoboxedSerialization',
              'testPrimitiveIntegerAutoboxedInASingleElementArraySerialization',
              'testReallyLongValuesSerialization',
              'testPrimitiveLongAutoboxedSerialization',
            ]),
          ),
        },
        '2024': {
          test: mvnd('gson', [
            `${gson}.functional.FieldNamingTest#testUpperCaseWithUnderscores`,
            `${gson}.functional.NamingPolicyTest#testGsonWithUpperCaseUnderscorePolicySerialization`,
            `${gson}.functional.NamingPolicyTest#testGsonWithUpperCaseUnderscorePolicyDeserialiation`,
          ]),
        },
        '2479': {
          test: mvnd(
            'gson',
            methods(`${gson}.GsonBuilderTest`, [
              'testRegisterTypeAdapterForObjectAndJsonElements',
              'testRegisterTypeHierarchyAdapterJsonElements',
              'testModificationAfterCreate',
            ]),
          ),
        },
        '2134': {
          test: mvnd(
            'gson',
            methods(`${gson}.internal.bind.util.ISO8601UtilsTest`, [
              'testDateParseInvalidDay',
              'testDateParseInvalidMonth',
              'testDateParseWithDefaultTimezone',
            ]),
          ),
        },
        '2061': {
          test: mvnd('gson', [
            `${gson}.stream.JsonReaderTest#testHasNextEndOfDocument`,
            `${gson}.internal.bind.JsonTreeReaderTest#testHasNext_endOfDocument`,
            `${gson}.stream.JsonReaderTest#testReadEmptyObject`,
            `${gson}.stream.JsonReaderTest#testReadEmptyArray`,
            `${gson}.internal.bind.JsonTreeReaderTest#testSkipValue_emptyJsonObject`,
            `${gson}.internal.bind.JsonTreeReaderTest#testSkipValue_filledJsonObject`,
          ]),
        },
        '2311': {
          test: mvnd(
            'gson',
            methods(`${gson}.JsonPrimitiveTest`, [
              'testEqualsIntegerAndBigInteger',
              'testLongEqualsBigInteger',
              'testEqualsAcrossTypes',
            ]),
          ),
        },
        '1100': {
          test: mvnd(
            'gson',
            methods(`${gson}.DefaultDateTypeAdapterTest`, [
              'testNullValue',
              'testDatePattern',
              'testInvalidDatePattern',
            ]),
          ),
        },
        '1093': {
          test: mvnd(
            'gson',
            methods(`${gson}.stream.JsonWriterTest`, [
              'testNonFiniteDoublesWhenLenient',
              'testNonFiniteBoxedDoublesWhenLenient',
              'testNonFiniteDoubles',
              'testNonFiniteBoxedDoubles',
              'testDoubles',
            ]),
          ),
        },
        '1014': {
          test: mvnd(
            'gson',
            methods(`${gson}.internal.bind.JsonTreeReaderTest`, [
              'testSkipValue_emptyJsonObject',
              'testSkipValue_filledJsonObject',
            ]),
          ),
        },
      },
    },
    {
      ...maven,
      repo: 'apache/druid',
      versions: {
        '15402': {
          test: mvnd(
            'processing',
            methods(`${druid}.query.groupby.GroupByQueryQueryToolChestTest`, [
              'testCacheStrategy',
              'testResultLevelCacheKeyWithSubTotalsSpec',
              'testMultiColumnCacheStrategy',
            ]),
          ),
        },
        '14092': {
          test: mvnd(
            'server',
            methods(`${druid}.discovery.DruidLeaderClientTest`, [
              'test503ResponseFromServerAndCacheRefresh',
              'testServerFailureAndRedirect',
            ]),
          ),
        },
        '14136': {
          test: mvnd(
            'processing',
            methods(`${druid}.timeline.VersionedIntervalTimelineTest`, [
              'testOverlapSecondContainsFirstZeroLengthInterval',
              'testOverlapSecondContainsFirstZeroLengthInterval2',
              'testOverlapSecondContainsFirstZeroLengthInterval3',
              'testOverlapSecondContainsFirstZeroLengthInterval4',
              'testOverlapFirstContainsSecond',
              'testOverlapSecondContainsFirst',
            ]),
          ),
        },
        '13704': {
          test: mvnd(
            'processing',
            methods(`${druid}.query.aggregation.post.ArithmeticPostAggregatorTest`, [
              'testPow',
              'testDiv',
              'testQuotient',
            ]),
            false,
          ),
        },
        '16875': {
          test: mvnd(
            'server',
            methods(`${druid}.server.metrics.WorkerTaskCountStatsMonitorTest`, [
              'testMonitorWithPeon',
              'testMonitorWithNulls',
              'testMonitorIndexer',
            ]),
            false,
          ),
        },
      },
    },
    {
      ...maven,
      repo: 'javaparser/javaparser',
      versions: {
        '4561': {
          build: ['./mvnw clean install -B -pl javaparser-symbol-solver-testing -DskipTests -am'],
          test: [
            './mvnw test -B -pl javaparser-symbol-solver-testing -Dtest=Issue4560Test',
            './mvnw test -B -pl javaparser-symbol-solver-testing -Dtest=JavaSymbolSolverTest',
          ],
        },
        '4538': {
          build: ['./mvnw clean install -B -pl javaparser-core-testing -DskipTests -am'],
          test: [
            './mvnw test -B -pl javaparser-core-testing -Dtest=NodeTest',
            './mvnw test -B -pl javaparser-core-testing -Dtest=NodePositionTest',
          ],
        },
      },
    },
    {
      ...java,
      repo: 'projectlombok/lombok',
      officialParser: 'parse_log_ant',
      parser: 'ant-junit',
      versions: Object.fromEntries(
        ['3602', '3312', '3697', '3326', '3674', '3594', '3422', '3215', '3486', '3042', '3052', '2792']
          .concat(['3571', '3479', '3371', '3350', '3009'])
          .map((version) => [version, lombok]),
      ),
    },
    {
      ...gradle,
      repo: 'apache/lucene',
      versions: {
        '13494': lucene('org.apache.lucene.facet.TestStringValueFacetCounts'),
        '13704': lucene('org.apache.lucene.search.TestLatLonDocValuesQueries'),
        '13301': lucene(
          'TestXYPoint.testEqualsAndHashCode -Dtests.seed=3ABEFE4D876DD310 -Dtests.nightly=true -Dtests.locale=es-419 -Dtests.timezone=Asia/Ulaanbaatar -Dtests.asserts=true -Dtests.file.encoding=UTF-8',
        ),
        '12626': lucene('org.apache.lucene.index.TestIndexWriter'),
        '12212': lucene('org.apache.lucene.facet.TestDrillSideways'),
        '13170': lucene('org.apache.lucene.analysis.opennlp.TestOpenNLPSentenceBreakIterator'),
        '12196': lucene('org.apache.lucene.queryparser.classic.TestMultiFieldQueryParser'),
        '12022': lucene('org.apache.lucene.document.TestLatLonShape'),
        '11760': lucene('org.apache.lucene.queries.intervals.TestIntervalBuilder'),
      },
    },
    {
      ...gradle,
      repo: 'reactivex/rxjava',
      versions: {
        '7597':
          './gradlew test --tests io.reactivex.rxjava3.internal.operators.observable.ObservableSwitchTest',
      },
    },
  ];
}
