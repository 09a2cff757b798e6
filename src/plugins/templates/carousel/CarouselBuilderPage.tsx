/**
 * /templates/create-whatsapp-carousel?channel=<id>[&template=<id>|&duplicate=<id>] (issue #10;
 * spec §2, feature whatsapp_carousel): the carousel builder. A marketing template: a message, then
 * 2–10 cards, each with an image or video header (uploaded with progress, handed to Meta's
 * resumable upload), its text and the same one or two buttons as every other card. Cards are
 * added, moved and removed; the phone preview shows them as a row the customer swipes. Checked as
 * typed with the contract's CarouselSubmission schema; submitted to
 * POST /api/whatsapp-template/submit_carousel_template/ (name, language, components, category,
 * phone_number), then 'Template successfully created.' and /templates.
 */
import { useMemo, useState } from 'react';
import { Alert, Autocomplete, Box, Button, FormHelperText, IconButton, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { mdiChevronDown, mdiChevronUp, mdiDeleteOutline, mdiPlus } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { TEMPLATE_LIMITS } from '../../../../contract/templates';
import { phoneOf } from '../editor/api';
import { EditorLoadError, EditorLoading, EditorPageShell, SubmitBar, useEditorForm, useTemplateTarget } from '../editor/EditorPage';
import { CountedField, MediaUpload, VariableText } from '../editor/fields';
import { languageLabel, META_LANGUAGES } from '../editor/languages';
import { fillVariables } from '../editor/model';
import { CarouselRow, MessageBubble, PhoneFrame, type PreviewMessage } from '../../../core/components/whatsappPreview/PhonePreview';
import {
  addCard,
  CAROUSEL_BUTTON_KINDS,
  carouselComponents,
  carouselErrors,
  carouselFieldOfPath,
  carouselFromTemplate,
  carouselSubmission,
  CARD_BODY_LIMIT,
  initialCarousel,
  moveCard,
  removeCard,
  setLayout,
  updateCard,
  type CardButtonDraft,
  type CarouselButtonKind,
  type CarouselDraft,
} from './model';

/** The phone's messages: the body bubble and a card per card. */
export function carouselPreview(draft: CarouselDraft, emptyBody: string): { body: PreviewMessage; cards: PreviewMessage[] } {
  return {
    body: { header: null, body: fillVariables(draft.body, draft.bodyExamples) || emptyBody, buttons: [] },
    cards: draft.cards.map((card) => ({
      header: { kind: 'media', format: draft.headerFormat, url: card.media?.previewUrl ?? null },
      body: fillVariables(card.body, card.bodyExamples),
      buttons: draft.layout.map((kind, i) => ({ kind, label: card.buttons[i]?.text ?? '' })),
    })),
  };
}

/** A server's field errors (dotted contract paths) on the builder's fields. */
function serverCarouselErrors(body: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!body || typeof body !== 'object') return errors;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const message = Array.isArray(value) ? value.find((v) => typeof v === 'string') : typeof value === 'string' ? value : null;
    if (!message || key === 'code') continue;
    const field = key === 'detail' || key === 'non_field_errors' || key === 'phone_number' ? 'form' : carouselFieldOfPath(key);
    errors[field] ??= message;
  }
  return errors;
}

export default function CarouselBuilderPage() {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<CarouselDraft>(initialCarousel);
  const { api, channel, editing, loading, loadError } = useTemplateTarget({
    check: (found) => (found.platform !== 'whatsapp' ? t('templates.carousel.notWhatsApp') : null),
    onSource: (source, isEditing) => {
      const loaded = carouselFromTemplate(source);
      if (!isEditing) {
        loaded.name = `${source.name}_copy`.slice(0, TEMPLATE_LIMITS.name);
        loaded.cards = loaded.cards.map((card) => (card.media && /^https?:\/\//.test(card.media.handle) ? { ...card, media: null } : card));
      }
      setDraft(loaded);
    },
  });

  const isEdit = editing !== null;
  const errors = useMemo(() => carouselErrors(draft, isEdit), [draft, isEdit]);
  const form = useEditorForm(errors, isEdit);
  const { errorOf } = form;
  const apply = (next: CarouselDraft, ...fields: string[]) => {
    setDraft(next);
    form.changed(...fields);
  };
  const preview = carouselPreview(draft, t('templates.editor.preview.emptyBody'));

  if (loading) return <EditorLoading />;
  if (loadError || !channel) return <EditorLoadError title={t('templates.carousel.title')} message={loadError} />;

  const submit = () =>
    form.submit(
      () =>
        editing
          ? api.edit(channel.id, editing.id, { category: 'MARKETING', components: carouselComponents(draft) })
          : api.submitCarousel(carouselSubmission(draft, phoneOf(channel))),
      serverCarouselErrors,
    );

  const layoutSlots: (CarouselButtonKind | null)[] = [draft.layout[0] ?? null, draft.layout[1] ?? null];
  const setSlot = (slot: number, kind: CarouselButtonKind | null) => {
    const next = [...draft.layout];
    if (kind === null) next.splice(slot, 1);
    else next[slot] = kind;
    apply(setLayout(draft, next.filter(Boolean)), 'layout');
  };
  const updateButton = (cardIndex: number, buttonIndex: number, change: Partial<CardButtonDraft>) => {
    const card = draft.cards[cardIndex];
    apply(updateCard(draft, cardIndex, { buttons: card.buttons.map((b, i) => (i === buttonIndex ? { ...b, ...change } : b)) }), `cards.${cardIndex}.buttons.${buttonIndex}`);
  };

  return (
    <EditorPageShell
      title={editing ? t('templates.carousel.editTitle', { name: editing.name }) : t('templates.carousel.title')}
      subtitle={t('templates.carousel.subtitle', { channel: channel.name })}
      onSubmit={() => void submit()}
      notices={
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('templates.carousel.intro')}
        </Alert>
      }
      formError={form.fromServer.form}
      preview={
        <PhoneFrame businessName={channel.name}>
          <MessageBubble message={preview.body} />
          <CarouselRow cards={preview.cards} />
        </PhoneFrame>
      }
    >
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <CountedField
            label={t('templates.editor.name')}
            value={draft.name}
            onChange={(name) => apply({ ...draft, name }, 'name')}
            limit={TEMPLATE_LIMITS.name}
            error={errorOf('name')}
            hint={t('templates.editor.nameHint')}
            disabled={isEdit}
            required
            inputProps={{ 'data-testid': 'name' }}
          />
          <Autocomplete
            options={META_LANGUAGES as readonly string[]}
            value={draft.language}
            disabled={isEdit}
            disableClearable
            getOptionLabel={(code) => languageLabel(code, i18n.language)}
            onChange={(_e, language) => apply({ ...draft, language }, 'language')}
            renderInput={(props) => <TextField {...props} FormHelperTextProps={{ sx: { '&.Mui-disabled': { color: 'text.secondary' } } }} label={t('templates.editor.language')} error={!!errorOf('language')} helperText={errorOf('language') || t('templates.editor.languageHint')} />}
          />
          <VariableText
            testId="body"
            label={t('templates.carousel.body')}
            value={draft.body}
            examples={draft.bodyExamples}
            onChange={(body, bodyExamples) => apply({ ...draft, body, bodyExamples }, 'body')}
            multiline
            limit={TEMPLATE_LIMITS.body}
            error={errorOf('body')}
            hint={t('templates.editor.bodyHint')}
            examplesError={(i) => (i === null ? errorOf('bodyExamples') : errorOf(`bodyExamples.${i}`))}
          />
        </Stack>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">{t('templates.carousel.layout')}</Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap flexWrap="wrap">
            <TextField
              select
              label={t('templates.carousel.headerFormat')}
              value={draft.headerFormat}
              onChange={(e) => apply({ ...draft, headerFormat: e.target.value as 'IMAGE' | 'VIDEO', cards: draft.cards.map((c) => ({ ...c, media: null })) })}
              sx={{ flex: '1 1 140px' }}
            >
              <MenuItem value="IMAGE">{t('templates.editor.header.formats.IMAGE')}</MenuItem>
              <MenuItem value="VIDEO">{t('templates.editor.header.formats.VIDEO')}</MenuItem>
            </TextField>
            {layoutSlots.map((kind, slot) =>
              slot === 1 && layoutSlots[0] === null ? null : (
                <TextField
                  key={slot}
                  select
                  label={t('templates.carousel.layoutSlot', { index: slot + 1 })}
                  value={kind ?? ''}
                  onChange={(e) => setSlot(slot, (e.target.value || null) as CarouselButtonKind | null)}
                  sx={{ flex: '1 1 160px' }}
                  SelectProps={{ displayEmpty: true }}
                  slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `layout-${slot}` } }}
                >
                  <MenuItem value="">{t('templates.editor.header.formats.NONE')}</MenuItem>
                  {CAROUSEL_BUTTON_KINDS.map((k) => (
                    <MenuItem key={k} value={k}>
                      {t(`templates.editor.buttons.kinds.${k}`)}
                    </MenuItem>
                  ))}
                </TextField>
              ),
            )}
          </Stack>
          <FormHelperText error={!!errorOf('layout')}>{errorOf('layout') || t('templates.carousel.layoutHelp')}</FormHelperText>
        </Stack>
      </Paper>

      <Stack spacing={2}>
        <Stack direction="row" alignItems="center" justifyContent="space-between">
          <Typography variant="h6" component="h2">{t('templates.carousel.cardsTitle')}</Typography>
          <Typography variant="body2" color="text.secondary" data-testid="cards-count">
            {t('templates.carousel.cardsCount', { count: draft.cards.length, max: TEMPLATE_LIMITS.carouselCardsMax })}
          </Typography>
        </Stack>
        {errorOf('cards') && <Alert severity="error">{errorOf('cards')}</Alert>}
        {draft.cards.map((card, i) => {
          const at = `cards.${i}`;
          return (
            <Paper key={card.key} variant="outlined" sx={{ p: 2 }} data-testid={`card-${i}`}>
              <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
                <Typography variant="subtitle1" component="h3">{t('templates.carousel.card', { index: i + 1 })}</Typography>
                <Stack direction="row">
                  <ConsoleTooltip title={t('templates.carousel.moveLeft', { index: i + 1 })}>
                    <span>
                      <IconButton aria-label={t('templates.carousel.moveLeft', { index: i + 1 })} disabled={i === 0} onClick={() => apply(moveCard(draft, i, i - 1))}>
                        <MdiIcon path={mdiChevronUp} />
                      </IconButton>
                    </span>
                  </ConsoleTooltip>
                  <ConsoleTooltip title={t('templates.carousel.moveRight', { index: i + 1 })}>
                    <span>
                      <IconButton aria-label={t('templates.carousel.moveRight', { index: i + 1 })} disabled={i === draft.cards.length - 1} onClick={() => apply(moveCard(draft, i, i + 1))}>
                        <MdiIcon path={mdiChevronDown} />
                      </IconButton>
                    </span>
                  </ConsoleTooltip>
                  <ConsoleTooltip title={t('templates.carousel.removeCard', { index: i + 1 })}>
                    <span>
                      <IconButton
                        aria-label={t('templates.carousel.removeCard', { index: i + 1 })}
                        disabled={draft.cards.length <= TEMPLATE_LIMITS.carouselCardsMin || isEdit}
                        onClick={() => apply(removeCard(draft, i))}
                      >
                        <MdiIcon path={mdiDeleteOutline} />
                      </IconButton>
                    </span>
                  </ConsoleTooltip>
                </Stack>
              </Stack>
              <Stack spacing={2}>
                <MediaUpload
                  testId={`${at}.media`}
                  format={draft.headerFormat}
                  media={card.media}
                  onChange={(media) => apply(updateCard(draft, i, { media }), `${at}.media`)}
                  upload={(file, onProgress) => api.uploadMedia(channel.id, file, draft.headerFormat, onProgress)}
                  error={errorOf(`${at}.media`)}
                />
                <VariableText
                  testId={`${at}.body`}
                  label={t('templates.carousel.cardBody')}
                  value={card.body}
                  examples={card.bodyExamples}
                  onChange={(body, bodyExamples) => apply(updateCard(draft, i, { body, bodyExamples }), `${at}.body`)}
                  multiline
                  limit={CARD_BODY_LIMIT}
                  error={errorOf(`${at}.body`)}
                  examplesError={(j) => (j === null ? errorOf(`${at}.bodyExamples`) : errorOf(`${at}.bodyExamples.${j}`))}
                />
                {draft.layout.map((kind, b) => (
                  <Stack key={b} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                    <CountedField
                      size="small"
                      label={`${t(`templates.editor.buttons.kinds.${kind}`)} · ${t('templates.editor.buttons.text')}`}
                      value={card.buttons[b]?.text ?? ''}
                      onChange={(text) => updateButton(i, b, { text })}
                      limit={TEMPLATE_LIMITS.buttonText}
                      error={errorOf(`${at}.buttons.${b}.text`)}
                      inputProps={{ 'data-testid': `${at}.buttons.${b}.text` }}
                    />
                    {kind === 'URL' && (
                      <CountedField
                        size="small"
                        label={t('templates.editor.buttons.url')}
                        value={card.buttons[b]?.url ?? ''}
                        onChange={(url) => updateButton(i, b, { url })}
                        limit={TEMPLATE_LIMITS.url}
                        error={errorOf(`${at}.buttons.${b}.url`) || errorOf(`${at}.buttons.${b}.urlExample`)}
                        inputProps={{ 'data-testid': `${at}.buttons.${b}.url` }}
                      />
                    )}
                    {kind === 'PHONE_NUMBER' && (
                      <CountedField
                        size="small"
                        label={t('templates.editor.buttons.phone')}
                        value={card.buttons[b]?.phone ?? ''}
                        onChange={(phone) => updateButton(i, b, { phone })}
                        limit={TEMPLATE_LIMITS.phone}
                        error={errorOf(`${at}.buttons.${b}.phone`)}
                        inputProps={{ 'data-testid': `${at}.buttons.${b}.phone` }}
                      />
                    )}
                  </Stack>
                ))}
                {(errorOf(`${at}.buttons`) || errorOf(at)) && <FormHelperText error>{errorOf(`${at}.buttons`) || errorOf(at)}</FormHelperText>}
              </Stack>
            </Paper>
          );
        })}
        <Box>
          <Button
            startIcon={<MdiIcon path={mdiPlus} />}
            disabled={draft.cards.length >= TEMPLATE_LIMITS.carouselCardsMax || isEdit}
            onClick={() => apply(addCard(draft))}
            data-testid="add-card"
          >
            {t('templates.carousel.addCard')}
          </Button>
        </Box>
      </Stack>

      <SubmitBar
        label={t(editing ? 'templates.editor.save' : 'templates.carousel.submit')}
        testId="submit-carousel"
        saving={form.saving}
        submitted={form.submitted}
        invalidCount={form.invalidCount}
      />
    </EditorPageShell>
  );
}
