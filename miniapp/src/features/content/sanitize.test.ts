import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize';

describe('sanitizeHtml', () => {
  it('keeps the content markup', () => {
    const html = '<h1>About</h1><p>Fair <a href="/terms">terms</a></p>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('removes scripts, handlers and script urls', () => {
    const out = sanitizeHtml(
      '<p onclick="x()">a</p><script>alert(1)</script><img src=x onerror="y()"><a href=" java\tscript:alert(1)">b</a><iframe src="/x"></iframe>',
    );
    expect(out).toBe('<p>a</p><img src="x"><a>b</a>');
  });

  it('isolates links opening a new window', () => {
    expect(sanitizeHtml('<a href="https://x.example" target="_blank">x</a>')).toContain('rel="noopener noreferrer"');
  });
});
