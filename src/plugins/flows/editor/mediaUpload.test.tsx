// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import type { HttpProvider } from '../../../core';
import type { PresignedUpload } from '../../../../contract/chats';
import { FlowPreview } from './FlowPreview';
import { toDraft } from '../model/draft';
import { mediaPreviewUrl, uploadMedia } from '../../../core/media/upload';

let n = 0;
/** An http provider answering the presign call like GET /api/chats/presigned_url/ (a fresh random folder each time). */
function presigner(): HttpProvider {
  return {
    get: vi.fn(async () => {
      n++;
      const fileUrl = `${window.location.origin}/media/chats/7/${String(n).padStart(32, '0')}/tour.png`;
      return { upload_url: `${window.location.origin}/media/upload/chats/7/x/tour.png?signature=s`, method: 'PUT', headers: { 'Content-Type': 'image/png' }, file_url: fileUrl, expires_at: '' } satisfies PresignedUpload;
    }),
  } as unknown as HttpProvider;
}

const ok = (async () => new Response(JSON.stringify({}), { status: 200 })) as typeof fetch;
const file = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'tour.png', { type: 'image/png' });

describe('uploadMedia and its local preview', () => {
  let objectUrls = 0;
  const revoked: string[] = [];

  beforeEach(() => {
    // jsdom has no object URLs: each call hands out a distinct one, as a browser does.
    URL.createObjectURL = vi.fn(() => `blob:${window.location.origin}/preview-${++objectUrls}`);
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
  });
  afterEach(cleanup);

  it('stores the plain /media/ path and previews the just-uploaded file from the browser (its plain URL answers 403)', async () => {
    const stored = await uploadMedia(presigner(), file(), ok);
    expect(stored).toMatch(/^\/media\/chats\/7\/\d{32}\/tour\.png$/);
    expect(mediaPreviewUrl(stored)).toMatch(/^blob:/);
    // A URL not uploaded here (a signed one handed out by the API, another site's) is loaded as it is.
    const signed = `${stored}?exp=1&sig=abc`;
    expect(mediaPreviewUrl(signed)).toBe(signed);
    expect(mediaPreviewUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
  });

  it("the flow preview shows the just-uploaded intro image from the browser's copy", async () => {
    const stored = await uploadMedia(presigner(), file(), ok);
    const draft = toDraft({ flow_name: 'Tour', description: 'd', company_name: 'Acme', company_domain: 'acme.test', extra_context: [], intro_msg: 'Hi', intro_media_url: stored, find_out_more_msg: '', find_out_more_media_url: null, call_to_action: null, keywords: [], steps: [] });
    renderPluginPage(<FlowPreview draft={draft} businessName="Acme" />, { adminContext: false, route: false });
    const img = screen.getByTestId('preview-media').querySelector('img')!;
    expect(img.getAttribute('src')).toBe(mediaPreviewUrl(stored));
    expect(img.getAttribute('src')).toMatch(/^blob:/);
  });

  it('keeps the newest previews only, releasing the older ones', async () => {
    const first = await uploadMedia(presigner(), file(), ok);
    const firstPreview = mediaPreviewUrl(first);
    for (let i = 0; i < 20; i++) await uploadMedia(presigner(), file(), ok);
    expect(revoked).toContain(firstPreview);
    expect(mediaPreviewUrl(first)).toBe(first);
  });
});
