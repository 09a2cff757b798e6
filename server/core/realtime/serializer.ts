/**
 * Phoenix serializer 2.0.0 (JSON): every frame is `[join_ref, ref, topic, event, payload]`.
 * Decoding validates the shape strictly; a frame that fails still yields what could be read
 * (join_ref, ref, topic) so the caller can answer with an error reply when a ref is known.
 */

import { MAX_JSON_DEPTH, exceedsJsonDepth } from '../input/jsonDepth';

export const SERIALIZER_VSN = '2.0.0';

export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

export type DecodeResult =
  | { ok: true; frame: Frame }
  | { ok: false; reason: string; joinRef: string | null; ref: string | null; topic: string | null };

/** Longest topic, event or ref accepted (the binary serializer's limit, applied to JSON as well). */
const MAX_FIELD = 255;

function refOrNull(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.length <= MAX_FIELD) return value;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `["join_ref","ref","topic",` at the start of a frame: read without parsing the rest. */
const FRAME_HEAD = /^\s*\[\s*("(?:[^"\\]|\\.){0,255}"|null)\s*,\s*("(?:[^"\\]|\\.){0,255}"|null)\s*,\s*("(?:[^"\\]|\\.){1,255}")/;

/** The refs and topic of a frame that will not be parsed (too deep), so its push can still get its error reply. */
function frameHead(text: string): { joinRef: string | null; ref: string | null; topic: string | null } {
  const match = FRAME_HEAD.exec(text.slice(0, 2048));
  if (!match) return { joinRef: null, ref: null, topic: null };
  try {
    return { joinRef: JSON.parse(match[1]) as string | null, ref: JSON.parse(match[2]) as string | null, topic: JSON.parse(match[3]) as string };
  } catch {
    return { joinRef: null, ref: null, topic: null };
  }
}

export function decodeFrame(text: string): DecodeResult {
  // The frame array is one level: its payload may nest MAX_JSON_DEPTH more, like a request body.
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH + 1)) return { ok: false, reason: 'payload nested too deeply', ...frameHead(text) };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed message', joinRef: null, ref: null, topic: null };
  }
  if (!Array.isArray(raw)) return { ok: false, reason: 'malformed message', joinRef: null, ref: null, topic: null };

  const joinRef = refOrNull(raw[0]);
  const ref = refOrNull(raw[1]);
  const topic = typeof raw[2] === 'string' && raw[2].length > 0 && raw[2].length <= MAX_FIELD ? raw[2] : null;
  const partial = { joinRef: joinRef ?? null, ref: ref ?? null, topic };
  if (raw.length !== 5 || joinRef === undefined || ref === undefined || topic === null) {
    return { ok: false, reason: 'malformed message', ...partial };
  }
  const event = raw[3];
  if (typeof event !== 'string' || event.length === 0 || event.length > MAX_FIELD) {
    return { ok: false, reason: 'malformed message', ...partial };
  }
  if (!isPlainObject(raw[4])) return { ok: false, reason: 'payload must be an object', ...partial };
  return { ok: true, frame: { joinRef, ref, topic, event, payload: raw[4] } };
}

/** Encodes one frame; `payloadJson` lets a broadcast encode its payload once for every subscriber. */
export function encodeFrame(joinRef: string | null, ref: string | null, topic: string, event: string, payload: unknown): string {
  return encodeWithPayloadJson(joinRef, ref, topic, event, JSON.stringify(payload ?? {}));
}

export function encodeWithPayloadJson(joinRef: string | null, ref: string | null, topic: string, event: string, payloadJson: string): string {
  return `[${JSON.stringify(joinRef)},${JSON.stringify(ref)},${JSON.stringify(topic)},${JSON.stringify(event)},${payloadJson}]`;
}

export function encodeReply(joinRef: string | null, ref: string | null, topic: string, status: 'ok' | 'error', response: unknown): string {
  return encodeFrame(joinRef, ref, topic, 'phx_reply', { status, response: response ?? {} });
}

/**
 * Reads the refs of a binary push (phoenix.js binary serializer, kind 0) so it can be refused
 * with a reply: this server speaks JSON only.
 */
export function peekBinaryPush(data: Buffer): { joinRef: string; ref: string; topic: string } | null {
  if (data.length < 5 || data[0] !== 0) return null;
  const [joinRefSize, refSize, topicSize] = [data[1], data[2], data[3]];
  let offset = 5;
  const take = (n: number) => {
    const value = data.subarray(offset, offset + n).toString('utf8');
    offset += n;
    return value;
  };
  if (data.length < offset + joinRefSize + refSize + topicSize) return null;
  return { joinRef: take(joinRefSize), ref: take(refSize), topic: take(topicSize) };
}
