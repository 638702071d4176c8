import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html.ts';

describe('escapeHtml', () => {
  it('leaves no markup a name typed by staff could open, in text or a quoted attribute', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')"> & ស្រា`)).toBe(
      '&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; ស្រា',
    );
  });
});
