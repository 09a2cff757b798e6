/**
 * The fake's Resumable Upload API (Graph API "Resumable Upload API", used for the sample media of
 * template headers), in Meta's published format:
 *
 *   POST /{app-id}/uploads?file_name=…&file_length=…&file_type=…   → {"id": "upload:<session>?sig=<sig>"}
 *   POST /upload:<session>?sig=…  (Authorization: OAuth <token>, header file_offset, the bytes as body)
 *                                                                   → {"h": "<handle>"} once every byte arrived
 *   GET  /upload:<session>?sig=…                                    → {"id": "upload:<session>", "file_offset": N}
 *
 * Sessions belong to the token that opened them and live in memory; handles are remembered (what
 * file they name) so a test can check the handle a template carries is one this upload produced.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { FakeGraphError, missingParameter } from './fakeGraphError';

/** The file types Meta's template samples accept through the resumable upload. */
export const UPLOAD_FILE_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'video/mp4', 'application/pdf'] as const;

interface UploadSession {
  token: string;
  fileName: string;
  fileLength: number;
  fileType: string;
  received: Buffer[];
  offset: number;
}

export interface UploadedFile {
  fileName: string;
  fileType: string;
  bytes: Buffer;
}

function invalidUpload(details: string): FakeGraphError {
  return new FakeGraphError(400, 100, '(#100) Invalid parameter', 'OAuthException', undefined, details);
}

export class FakeUploads {
  private readonly sessions = new Map<string, UploadSession>();
  /** handle → the file it names. */
  readonly handles = new Map<string, UploadedFile>();

  constructor(
    private readonly appId: string,
    private readonly secret: string,
  ) {}

  private sign(session: string): string {
    return createHmac('sha256', this.secret).update(session).digest('base64url').slice(0, 22);
  }

  /** POST /{app-id}/uploads. */
  start(appId: string, token: string, query: Record<string, string | undefined>): { id: string } {
    if (appId !== this.appId) throw new FakeGraphError(400, 100, `Unsupported post request. Object with ID '${appId}' does not exist.`, 'GraphMethodException', 33);
    const fileName = query.file_name;
    const fileType = query.file_type;
    const length = query.file_length;
    if (!fileName) throw missingParameter('file_name');
    if (!length) throw missingParameter('file_length');
    if (!fileType) throw missingParameter('file_type');
    if (!/^\d{1,10}$/.test(length) || Number(length) < 1) throw invalidUpload('file_length must be a positive number of bytes.');
    if (!(UPLOAD_FILE_TYPES as readonly string[]).includes(fileType)) {
      throw invalidUpload(`file_type must be one of ${UPLOAD_FILE_TYPES.join(', ')}.`);
    }
    const session = randomBytes(18).toString('base64url');
    this.sessions.set(session, { token, fileName, fileLength: Number(length), fileType, received: [], offset: 0 });
    return { id: `upload:${session}?sig=${this.sign(session)}` };
  }

  private session(id: string, sig: string | undefined, token: string): { key: string; session: UploadSession } {
    const key = id.replace(/^upload:/, '');
    const session = this.sessions.get(key);
    if (!session || sig !== this.sign(key) || session.token !== token) {
      throw new FakeGraphError(400, 100, `Unsupported request. Object with ID '${id}' does not exist.`, 'GraphMethodException', 33);
    }
    return { key, session };
  }

  /** POST /upload:<session>: the bytes from `file_offset`; the handle once the file is complete. */
  receive(id: string, sig: string | undefined, token: string, fileOffset: string | undefined, body: unknown): { h: string } | { id: string; file_offset: number } {
    const { key, session } = this.session(id, sig, token);
    if (fileOffset === undefined) throw missingParameter('file_offset');
    if (Number(fileOffset) !== session.offset) throw invalidUpload(`file_offset must be ${session.offset}, the bytes received so far.`);
    if (!Buffer.isBuffer(body) || body.length === 0) throw invalidUpload('The request body must carry the file bytes.');
    if (session.offset + body.length > session.fileLength) throw invalidUpload('More bytes than file_length were sent.');
    session.received.push(body);
    session.offset += body.length;
    if (session.offset < session.fileLength) return { id: `upload:${key}`, file_offset: session.offset };
    this.sessions.delete(key);
    const handle = `4::${Buffer.from(session.fileType).toString('base64')}:${randomBytes(24).toString('base64url')}`;
    this.handles.set(handle, { fileName: session.fileName, fileType: session.fileType, bytes: Buffer.concat(session.received) });
    return { h: handle };
  }

  /** GET /upload:<session>: where to resume. */
  status(id: string, sig: string | undefined, token: string): { id: string; file_offset: number } {
    const { key, session } = this.session(id, sig, token);
    return { id: `upload:${key}`, file_offset: session.offset };
  }
}

const registry = new WeakMap<object, FakeUploads>();

/** The upload sessions and handles of one fake (keyed by its store: tests reach them through `fake.state`). */
export function fakeUploadsOf(store: object, appId?: string, secret?: string): FakeUploads {
  let uploads = registry.get(store);
  if (!uploads) {
    if (appId === undefined || secret === undefined) throw new Error('this fake Meta has no upload API');
    uploads = new FakeUploads(appId, secret);
    registry.set(store, uploads);
  }
  return uploads;
}
