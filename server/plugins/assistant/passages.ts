/**
 * Splits a knowledge item's text into passages: the unit the assistant retrieves and quotes. Markdown
 * headings start a new section (the passage keeps its heading, so "Returns" finds the returns
 * section's text); within a section paragraphs are gathered up to PASSAGE_TARGET characters, and a
 * paragraph longer than PASSAGE_MAX is cut at sentence ends (or, for a sentence without end, at words).
 * Markdown markup is removed from the passage text: it is what a customer is shown.
 */
import type { KnowledgeFormat } from '../../../contract/assistant';

export const PASSAGE_TARGET = 500;
export const PASSAGE_MAX = 900;

export interface PassageDraft {
  heading: string;
  text: string;
}

/** Markdown inline markup to plain text: links keep their words, emphasis and code marks go. */
export function plainInline(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(\*|_)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** One markdown line without its block markup (list bullets, quotes, table pipes). */
function plainBlockLine(line: string): string {
  return plainInline(
    line
      .replace(/^\s{0,3}>\s?/, '')
      .replace(/^\s*([-*+]|\d+[.)])\s+/, '')
      .replace(/^\s*\|?(.*?)\|?\s*$/, (whole, inner: string) => (whole.includes('|') ? inner.split('|').map((c) => c.trim()).join(' · ') : whole)),
  );
}

/** Sentences of a paragraph (ends kept), for cutting paragraphs longer than PASSAGE_MAX. */
function sentences(paragraph: string): string[] {
  const parts = paragraph.match(/[^.!?。]+(?:[.!?。]+|$)\s*/g) ?? [paragraph];
  return parts.map((s) => s.trim()).filter(Boolean);
}

/** Pieces of at most PASSAGE_MAX characters, cut at sentences, else at words. */
function cut(paragraph: string): string[] {
  if (paragraph.length <= PASSAGE_MAX) return [paragraph];
  const pieces: string[] = [];
  let current = '';
  const push = () => {
    if (current) pieces.push(current);
    current = '';
  };
  for (const sentence of sentences(paragraph)) {
    const words = sentence.length > PASSAGE_MAX ? sentence.split(/\s+/) : [sentence];
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (next.length > PASSAGE_MAX) {
        push();
        current = word.slice(0, PASSAGE_MAX);
      } else current = next;
    }
  }
  push();
  return pieces;
}

interface Section {
  heading: string;
  paragraphs: string[];
}

function sectionsOf(body: string, format: KnowledgeFormat, title: string): Section[] {
  const sections: Section[] = [{ heading: title, paragraphs: [] }];
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    if (text) sections[sections.length - 1].paragraphs.push(text);
    paragraph = [];
  };
  let inFence = false;
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    if (format === 'markdown') {
      if (/^\s*(```|~~~)/.test(raw)) {
        inFence = !inFence;
        continue;
      }
      const heading = inFence ? null : /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
      if (heading) {
        flush();
        sections.push({ heading: plainInline(heading[1]) || title, paragraphs: [] });
        continue;
      }
      if (!inFence && /^\s*([-*_]\s*){3,}$/.test(raw)) {
        flush();
        continue;
      }
      // A list item or a table row is a paragraph of its own.
      if (!inFence && /^\s*(([-*+]|\d+[.)])\s+|\|)/.test(raw)) flush();
      const line = inFence ? raw.trim() : plainBlockLine(raw);
      if (!line) flush();
      else paragraph.push(line);
    } else {
      const line = raw.trim();
      if (!line) flush();
      else paragraph.push(line);
    }
  }
  flush();
  return sections.filter((s) => s.paragraphs.length > 0);
}

/** The passages of a body: each at most PASSAGE_MAX characters, in reading order. */
export function splitIntoPassages(body: string, format: KnowledgeFormat, title: string): PassageDraft[] {
  const passages: PassageDraft[] = [];
  for (const section of sectionsOf(body, format, title)) {
    let current = '';
    const push = () => {
      if (current) passages.push({ heading: section.heading, text: current });
      current = '';
    };
    for (const paragraph of section.paragraphs.flatMap(cut)) {
      if (current && current.length + 1 + paragraph.length > PASSAGE_TARGET) push();
      current = current ? `${current}\n${paragraph}` : paragraph;
    }
    push();
  }
  return passages;
}
