// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { overrideApi } from '../../../core';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import type { MessageTemplate } from '../../../../contract/channels';
import { chatApiRef, chatsPlugin } from '../index';
import type { ChatService } from '../service/chatService';
import { TemplateDialog } from './TemplateDialog';

const TEMPLATES = [
  {
    id: '1',
    name: 'order_shipped',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1h'] } },
      { type: 'BODY', text: 'Good news {{1}}: your order is on its way.' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Thanks' }] },
    ],
  },
  {
    id: '2',
    name: 'new_arrivals',
    language: 'en_US',
    status: 'APPROVED',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'New arrivals for you.' },
      {
        type: 'CAROUSEL',
        cards: ['Shirt', 'Tote'].map((text) => ({ components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::x'] } }, { type: 'BODY', text }, { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'I want it' }] }] })),
      },
    ],
  },
] as unknown as MessageTemplate[];

function renderDialog(upload = vi.fn(async () => '/media/company-1/chat/photo.png')) {
  const onSend = vi.fn();
  const service = { loadTemplates: vi.fn(async () => TEMPLATES), upload } as unknown as ChatService;
  renderPluginPage(<TemplateDialog open pageId={3} onClose={() => undefined} onSend={onSend} />, { adminContext: false, route: false,
    plugins: [chatsPlugin],
    features: ['chats'],
    overrides: [overrideApi(chatApiRef, service)],
  });
  return { onSend, upload };
}

describe('TemplateDialog: media headers and carousels', () => {
  it('a media-header template needs its file: uploaded here, then sent with the header and the parameters', async () => {
    const { onSend, upload } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Send a template' });
    const option = (await within(dialog).findAllByTestId('template-option'))[0];
    expect(option).toHaveTextContent('image header');
    fireEvent.click(option);
    const send = within(dialog).getByRole('button', { name: 'Send' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Parameter {{1}}' }), { target: { value: 'Ann' } });
    // The sample is a Meta upload handle, not a link: the header still needs a file.
    expect(send).toBeDisabled();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'photo.png', { type: 'image/png' });
    fireEvent.change(within(dialog).getByTestId('template-header-file'), { target: { files: [file] } });
    expect(await within(dialog).findByText('Uploaded: photo.png')).toBeInTheDocument();
    expect(upload).toHaveBeenCalledWith(file);
    expect(within(dialog).getByTestId('template-preview')).toHaveTextContent('Good news Ann: your order is on its way.');
    expect(within(dialog).getByTestId('template-preview')).toHaveTextContent('Thanks');
    await waitFor(() => expect(send).toBeEnabled());
    fireEvent.click(send);
    expect(onSend).toHaveBeenCalledWith(TEMPLATES[0], ['Ann'], { header: { type: 'image', url: '/media/company-1/chat/photo.png', mediaType: 'image/png' } });
  });

  it('a header link must be https; a failed upload says so', async () => {
    renderDialog(vi.fn(async () => Promise.reject(new Error('boom'))));
    const dialog = await screen.findByRole('dialog', { name: 'Send a template' });
    fireEvent.click((await within(dialog).findAllByTestId('template-option'))[0]);
    const link = within(dialog).getByRole('textbox', { name: 'Link to the image (https://)' });
    fireEvent.change(link, { target: { value: 'http://example.com/a.png' } });
    fireEvent.blur(link);
    expect(within(dialog).getByText('Enter an https:// link or upload a file.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByTestId('template-header-file'), { target: { files: [new File(['x'], 'a.png', { type: 'image/png' })] } });
    expect(await within(dialog).findByText('The upload failed. Try again or give a link.')).toBeInTheDocument();
  });

  it('a carousel asks a media link per approved card and previews the cards', async () => {
    const { onSend } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Send a template' });
    const option = (await within(dialog).findAllByTestId('template-option'))[1];
    expect(option).toHaveTextContent('Carousel · 2');
    fireEvent.click(option);
    expect(within(dialog).getByText('This carousel was approved with 2 cards: each one needs its image or video.')).toBeInTheDocument();
    expect(within(dialog).getAllByTestId('template-card-form')).toHaveLength(2);
    expect(within(dialog).getByTestId('template-preview-cards')).toHaveTextContent('Shirt');
    const send = within(dialog).getByRole('button', { name: 'Send' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Card 1: link to the image (https://)' }), { target: { value: 'https://cdn.example.com/shirt.jpg' } });
    expect(send).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Card 2: link to the image (https://)' }), { target: { value: 'https://cdn.example.com/tote.jpg' } });
    expect(send).toBeEnabled();
    fireEvent.click(send);
    expect(onSend).toHaveBeenCalledWith(TEMPLATES[1], [], {
      cards: [
        { type: 'image', link: 'https://cdn.example.com/shirt.jpg', parameters: [] },
        { type: 'image', link: 'https://cdn.example.com/tote.jpg', parameters: [] },
      ],
    });
  });
});
