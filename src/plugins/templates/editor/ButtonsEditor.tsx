/**
 * The editor's buttons: quick replies, a website (URL with at most one variable at its end, with
 * its example), a phone number, a copy-code offer (marketing). New buttons join their group so
 * quick replies always stay together, as Meta requires; counts follow Meta's limits.
 */
import { useState } from 'react';
import { Box, Button, FormHelperText, IconButton, Menu, MenuItem, Paper, Stack, Typography } from '@mui/material';
import { mdiDeleteOutline, mdiPlus } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../core';
import { TEMPLATE_LIMITS, variablesIn, type TemplateCategory } from '../../../../contract/templates';
import { CountedField } from './fields';
import { newButton, type ButtonDraft, type ButtonKind } from './model';

const KIND_LIMITS: Record<ButtonKind, number> = {
  QUICK_REPLY: TEMPLATE_LIMITS.quickReplies,
  URL: TEMPLATE_LIMITS.urlButtons,
  PHONE_NUMBER: TEMPLATE_LIMITS.phoneButtons,
  COPY_CODE: TEMPLATE_LIMITS.copyCodeButtons,
};

/** Adds a button of `kind` beside its group (quick replies together, the others together). */
export function addButton(buttons: ButtonDraft[], kind: ButtonKind): ButtonDraft[] {
  const quick = kind === 'QUICK_REPLY';
  let at = -1;
  buttons.forEach((b, i) => {
    if ((b.kind === 'QUICK_REPLY') === quick) at = i;
  });
  const next = [...buttons];
  next.splice(at < 0 ? buttons.length : at + 1, 0, newButton(kind));
  return next;
}

export function kindsAvailable(buttons: ButtonDraft[], category: TemplateCategory): ButtonKind[] {
  if (buttons.length >= TEMPLATE_LIMITS.buttons) return [];
  const kinds: ButtonKind[] = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', ...(category === 'MARKETING' ? (['COPY_CODE'] as const) : [])];
  return kinds.filter((kind) => buttons.filter((b) => b.kind === kind).length < KIND_LIMITS[kind]);
}

interface Props {
  buttons: ButtonDraft[];
  category: TemplateCategory;
  onChange: (buttons: ButtonDraft[]) => void;
  error: (field: string) => string | null | undefined;
  touch: (field: string) => void;
}

export function ButtonsEditor({ buttons, category, onChange, error, touch }: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const available = kindsAvailable(buttons, category);
  const update = (index: number, change: Partial<ButtonDraft>) => onChange(buttons.map((b, i) => (i === index ? { ...b, ...change } : b)));

  return (
    <Stack spacing={1.5} data-testid="buttons-editor">
      {buttons.map((button, i) => {
        const at = `buttons.${i}`;
        const hasVariable = button.kind === 'URL' && variablesIn(button.url).length > 0;
        return (
          <Paper key={i} variant="outlined" sx={{ p: 1.5 }} data-testid={`button-${i}`}>
            <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
              <Typography variant="subtitle2">{t(`templates.editor.buttons.kinds.${button.kind}`)}</Typography>
              <IconButton size="small" aria-label={t('templates.editor.buttons.remove', { index: i + 1 })} onClick={() => onChange(buttons.filter((_, j) => j !== i))}>
                <MdiIcon path={mdiDeleteOutline} fontSize="small" />
              </IconButton>
            </Stack>
            <Stack spacing={1.5}>
              {button.kind !== 'COPY_CODE' && (
                <CountedField
                  size="small"
                  label={t('templates.editor.buttons.text')}
                  value={button.text}
                  onChange={(text) => update(i, { text })}
                  onBlur={() => touch(`${at}.text`)}
                  limit={TEMPLATE_LIMITS.buttonText}
                  error={error(`${at}.text`)}
                  inputProps={{ 'data-testid': `${at}.text` }}
                />
              )}
              {button.kind === 'URL' && (
                <>
                  <CountedField
                    size="small"
                    label={t('templates.editor.buttons.url')}
                    value={button.url}
                    onChange={(url) => update(i, { url })}
                    onBlur={() => touch(`${at}.url`)}
                    limit={TEMPLATE_LIMITS.url}
                    error={error(`${at}.url`)}
                    hint={t('templates.editor.buttons.urlHint')}
                    inputProps={{ 'data-testid': `${at}.url` }}
                  />
                  <Box>
                    <Button size="small" disabled={hasVariable} onClick={() => update(i, { url: `${button.url.replace(/\/?$/, '/')}{{1}}` })}>
                      {t('templates.editor.buttons.urlVariable')}
                    </Button>
                  </Box>
                  {hasVariable && (
                    <CountedField
                      size="small"
                      label={t('templates.editor.buttons.urlExample')}
                      value={button.urlExample}
                      onChange={(urlExample) => update(i, { urlExample })}
                      onBlur={() => touch(`${at}.urlExample`)}
                      error={error(`${at}.urlExample`)}
                      hint={t('templates.editor.buttons.urlExampleHint')}
                      inputProps={{ 'data-testid': `${at}.urlExample` }}
                    />
                  )}
                </>
              )}
              {button.kind === 'PHONE_NUMBER' && (
                <CountedField
                  size="small"
                  label={t('templates.editor.buttons.phone')}
                  value={button.phone}
                  onChange={(phone) => update(i, { phone })}
                  onBlur={() => touch(`${at}.phone`)}
                  limit={TEMPLATE_LIMITS.phone}
                  error={error(`${at}.phone`)}
                  hint={t('templates.editor.buttons.phoneHint')}
                  inputProps={{ 'data-testid': `${at}.phone` }}
                />
              )}
              {button.kind === 'COPY_CODE' && (
                <CountedField
                  size="small"
                  label={t('templates.editor.buttons.code')}
                  value={button.code}
                  onChange={(code) => update(i, { code })}
                  onBlur={() => touch(`${at}.code`)}
                  limit={TEMPLATE_LIMITS.copyCodeExample}
                  error={error(`${at}.code`)}
                  hint={t('templates.editor.buttons.codeHint')}
                  inputProps={{ 'data-testid': `${at}.code` }}
                />
              )}
              {error(at) && <FormHelperText error>{error(at)}</FormHelperText>}
            </Stack>
          </Paper>
        );
      })}
      {error('buttons') && <FormHelperText error>{error('buttons')}</FormHelperText>}
      <Box>
        <Button startIcon={<MdiIcon path={mdiPlus} />} disabled={available.length === 0} onClick={(e) => setAnchor(e.currentTarget)} data-testid="add-button">
          {t('templates.editor.buttons.add')}
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
          {t('templates.editor.buttons.count', { count: buttons.length, max: TEMPLATE_LIMITS.buttons })}
        </Typography>
        <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
          {available.map((kind) => (
            <MenuItem
              key={kind}
              onClick={() => {
                onChange(addButton(buttons, kind));
                setAnchor(null);
              }}
            >
              {t(`templates.editor.buttons.kinds.${kind}`)}
            </MenuItem>
          ))}
        </Menu>
      </Box>
    </Stack>
  );
}
