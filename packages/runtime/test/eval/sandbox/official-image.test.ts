import { describe, expect, it } from 'vitest';
import {
  checkImageTemplate,
  instanceImageName,
  officialImageNaming,
} from '../../../src/eval/sandbox/official-image.js';

const django = { instance_id: 'django__django-11099', repo: 'django/django' };

describe('instanceImageName', () => {
  it('names the published image as the official harness does (__ → _1776_, lower case)', () => {
    expect(instanceImageName(django, officialImageNaming)).toBe(
      'swebench/sweb.eval.x86_64.django_1776_django-11099:latest',
    );
    expect(instanceImageName({ instance_id: 'Foo__Bar-1', repo: 'Foo/Bar' }, officialImageNaming)).toBe(
      'swebench/sweb.eval.x86_64.foo_1776_bar-1:latest',
    );
  });

  it('keeps local names without a namespace and honours the tag', () => {
    expect(instanceImageName(django, { ...officialImageNaming, namespace: null, tag: 'v2' })).toBe(
      'sweb.eval.x86_64.django__django-11099:v2',
    );
    expect(instanceImageName(django, { ...officialImageNaming, namespace: 'ghcr.io/me' })).toBe(
      'ghcr.io/me/sweb.eval.x86_64.django_1776_django-11099:latest',
    );
  });

  it('fills a template and rejects an unknown field with the accepted ones', () => {
    expect(
      instanceImageName(django, { ...officialImageNaming, template: 'reg/{repo}:{id_1776}-{tag}' }),
    ).toBe('reg/django__django:django_1776_django-11099-latest');
    expect(() => instanceImageName(django, { ...officialImageNaming, template: 'x/{name}' })).toThrow(
      /unknown placeholder \{name\}; the placeholders are \{id\}, \{id_1776\}, \{namespace\}, \{tag\}, \{arch\}, \{repo\}/,
    );
  });
});

describe('checkImageTemplate', () => {
  describe('when the template is well formed', () => {
    it.each(['reg/{id_1776}:{tag}', 'sweb-{id}', '{namespace}/env-{repo}:{arch}'])(
      'accepts %s',
      (template) => {
        expect(() => checkImageTemplate(template)).not.toThrow();
      },
    );
  });

  describe('when it is not', () => {
    it.each([
      ['x/{name}', /unknown placeholder \{name\}; the placeholders are \{id\}/],
      ['x/{ID}', /unknown placeholder \{ID\}/],
      ['x/{id', /unmatched \{ or \}/],
      ['x/id}', /unmatched \{ or \}/],
      ['x/env:{tag}', /names the same image for every instance; put \{id\} or \{id_1776\} in it/],
    ])('throws invalid_option for %s', (template, message) => {
      expect(() => checkImageTemplate(template)).toThrow(
        expect.objectContaining({ code: 'invalid_option', message: expect.stringMatching(message) }),
      );
    });
  });
});
