import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderReport, scriptSafeJson } from '../../src/view/render-report.js';
import { viewDataFormat } from '../../src/view/model/view-data.js';

describe('scriptSafeJson', () => {
  it('writes no text that can end a script element, and parses back to the value', () => {
    const value = { name: '</script><script>alert(1)</script>', line: 'a\u2028b\u2029c <!-- -->' };
    const text = scriptSafeJson(value);
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('renderReport', () => {
  const data = { format: viewDataFormat, generatedAt: '2026-12-04T00:00:00.000Z', runs: [] } as never;

  it('allows only the inlined viewer script, by its SHA-256, and no network', () => {
    const js = 'console.log(1)';
    const html = renderReport(data, { js, css: 'body{}' }, 'a <title>');
    const hash = createHash('sha256').update(js).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('<title>a &lt;title&gt;</title>');
  });

  it('throws SandkitError internal when the bundle holds a closing script tag', () => {
    expect(() => renderReport(data, { js: 'x="</script>"', css: '' }, 't')).toThrow(
      expect.objectContaining({ code: 'internal' }),
    );
  });
});
