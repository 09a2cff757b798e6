import { useEffect, useState } from 'react';
import { Alert, Button } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { httpApiRef } from '../apis';
import { useApi } from '../di/ApiProvider';
import { useAccount } from '../account/useAccount';
import { COMPANY_SELECT_ROUTE } from '../routing/guards';

/**
 * A signed-in user who already works in a company lands on the dashboard, not on the company
 * page where invitations are answered: this notice says which companies invited them and leads
 * there. Loaded once per user; hidden when dismissed, when nothing waits, or when the list fails.
 */
export function PendingInvitationsNotice() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const navigate = useNavigate();
  const userId = useAccount().user?.id;
  const [companies, setCompanies] = useState<string[]>([]);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (userId === undefined) return;
    let current = true;
    http
      .get<{ results?: { company: { name: string } }[] }>('/api/invitations/')
      .then((reply) => {
        if (current) setCompanies([...new Set((reply?.results ?? []).map((invitation) => invitation.company.name))]);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [http, userId]);

  if (dismissed || companies.length === 0) return null;
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        <>
          <Button color="inherit" size="small" onClick={() => navigate(COMPANY_SELECT_ROUTE)} sx={{ whiteSpace: 'nowrap' }}>
            {t('core.invitations.review')}
          </Button>
          <Button color="inherit" size="small" onClick={() => setDismissed(true)}>
            {t('core.invitations.dismiss')}
          </Button>
        </>
      }
    >
      {t('core.invitations.waiting', { companies: companies.join(', ') })}
    </Alert>
  );
}
