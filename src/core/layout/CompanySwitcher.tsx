import { Avatar, Button } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAccount } from '../account/useAccount';
import { COMPANY_SELECT_ROUTE } from '../routing/guards';

/** Shows the selected company's logo and name; opens the company picker. */
export function CompanySwitcher() {
  const { company } = useAccount();
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (
    <Button
      color="inherit"
      onClick={() => navigate(COMPANY_SELECT_ROUTE)}
      title={t('core.appBar.switchCompany')}
      aria-label={t('core.appBar.switchCompany')}
      startIcon={
        <Avatar src={company?.logo ?? undefined} alt="" sx={{ width: 28, height: 28, bgcolor: 'secondary.main', color: 'secondary.contrastText', fontSize: 14 }}>
          {company?.name?.[0]?.toUpperCase()}
        </Avatar>
      }
      sx={{ ml: 1 }}
    >
      <span data-testid="company-switcher-name">{company?.name ?? t('core.appBar.noCompany')}</span>
    </Button>
  );
}
