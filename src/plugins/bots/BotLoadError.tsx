import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../core';
import { NoBotAccessError } from './api/botService';
import { botErrorText } from './api/errors';

/**
 * Why a bot could not be opened, in one line: the member may not open bots (who can), the bot is not in this company
 * (deleted, or a link of another company: said as the flows say it, not as the server's "Error 404 : Not Found"), or
 * the spec's 'Error while fetching bot({error})' for anything else.
 */
export function BotLoadError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (error instanceof NoBotAccessError) return <Alert severity="info">{t('bots.noAccess')}</Alert>;
  if (isHttpError(error) && error.status === 404) return <Alert severity="warning">{t('bots.notFound')}</Alert>;
  return <Alert severity="error">{t('bots.fetchError', { error: botErrorText(error) })}</Alert>;
}
