/** A small valid file per media type, for inbound media sent from the control API without bytes of its own. */

/** A 1×1 PNG (one green pixel). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The smallest PDF viewers accept. */
const MINIMAL_PDF = '%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

export function placeholderMedia(type: 'image' | 'video' | 'audio' | 'document' | 'sticker'): { bytes: Buffer; mimeType: string } {
  switch (type) {
    case 'image':
      return { bytes: Buffer.from(PNG_1X1, 'base64'), mimeType: 'image/png' };
    case 'sticker':
      // Real stickers are webp; a PNG keeps the placeholder viewable everywhere.
      return { bytes: Buffer.from(PNG_1X1, 'base64'), mimeType: 'image/webp' };
    case 'document':
      return { bytes: Buffer.from(MINIMAL_PDF), mimeType: 'application/pdf' };
    case 'audio':
      return { bytes: Buffer.from('OggS-placeholder-audio'), mimeType: 'audio/ogg' };
    case 'video':
      return { bytes: Buffer.from('mp4-placeholder-video'), mimeType: 'video/mp4' };
  }
}
