import { describe, expect, it } from 'vitest';
import { safeUrl } from './safeUrl';

const BASE = 'https://console.example.com';

describe('safeUrl', () => {
  it('passes http(s) URLs and same-origin paths, resolved', () => {
    expect(safeUrl('https://cdn.example.com/a.png', BASE)).toBe('https://cdn.example.com/a.png');
    expect(safeUrl('http://localhost:8080/media/x.png', BASE)).toBe('http://localhost:8080/media/x.png');
    expect(safeUrl('/media/chats/1/x.png', BASE)).toBe('https://console.example.com/media/chats/1/x.png');
    expect(safeUrl('  https://cdn.example.com/b.png ', BASE)).toBe('https://cdn.example.com/b.png');
  });

  it('refuses every other scheme, whatever its case or padding', () => {
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' \tjavascript:alert(1)', 'java\nscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'data:image/png;base64,AAAA', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'blob:https://console.example.com/1', 'http://[bad']) {
      expect(safeUrl(bad, BASE), bad).toBeNull();
    }
    expect(safeUrl('', BASE)).toBeNull();
    expect(safeUrl(null, BASE)).toBeNull();
    expect(safeUrl(undefined, BASE)).toBeNull();
  });
});
