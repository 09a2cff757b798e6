export type Span = { text: string; bold?: boolean; italic?: boolean; strike?: boolean; mono?: boolean };

/** WhatsApp's formatting (*bold*, _italic_, ~strikethrough~, ```monospace```) as spans for the preview. */
export function formatSpans(text: string): Span[] {
  const spans: Span[] = [];
  const pattern = /```([\s\S]+?)```|\*([^*\n]+)\*|_([^_\n]+)_|~([^~\n]+)~/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index! > last) spans.push({ text: text.slice(last, match.index) });
    if (match[1] !== undefined) spans.push({ text: match[1], mono: true });
    else if (match[2] !== undefined) spans.push({ text: match[2], bold: true });
    else if (match[3] !== undefined) spans.push({ text: match[3], italic: true });
    else spans.push({ text: match[4], strike: true });
    last = match.index! + match[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last) });
  return spans;
}
