import { describe, expect, it } from 'vitest';
import { defaultTestCommand } from '../../../src/eval/instance/test-command.js';

describe('defaultTestCommand', () => {
  describe('when the framework names one runner', () => {
    it.each([
      ['phpunit', ['tests/FooTest.php', 'README.md'], 'vendor/bin/phpunit --testdox tests/FooTest.php'],
      ['rspec', ['spec/a_spec.rb'], 'bundle exec rspec --format documentation --no-color -- spec/a_spec.rb'],
      ['jest-json', [], 'npx --no-install jest --ci --json'],
      ['gradle', ['src/test/A.java'], './gradlew test --console=plain --continue'],
    ] as const)('builds the %s command from the test files', (framework, files, command) => {
      expect(defaultTestCommand(framework, files)).toBe(command);
    });
  });

  describe('when the framework is an output format whose producer differs per repository', () => {
    it.each(['tap', 'karma', 'minitest', 'catch2'] as const)(
      'throws SandkitError invalid_record for %s and asks for a test_cmd',
      (framework) => {
        expect(() => defaultTestCommand(framework, [])).toThrow(
          expect.objectContaining({
            code: 'invalid_record',
            message: expect.stringMatching(/give the row a test_cmd/),
          }),
        );
      },
    );
  });
});
