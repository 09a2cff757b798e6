import { Box, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The contacts page's tabs: the contacts (/contacts), the company's attribute definitions (/contact-attributes) and its segments (/segments). */
export function ContactsTabs({ current }: { current: 'contacts' | 'attributes' | 'segments' }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ px: { xs: 2, md: 3 }, pt: { xs: 2, md: 3 } }}>
      <Typography variant="h4" component="h1" fontWeight={700}>
        {t('contacts.title')}
      </Typography>
      <Typography color="text.secondary">
        {t('contacts.subtitle')}
      </Typography>
      <Tabs value={current} sx={{ mt: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="contacts" label={t('contacts.tabs.contacts')} component={Link} to="/contacts" />
        <Tab value="attributes" label={t('contacts.tabs.attributes')} component={Link} to="/contact-attributes" />
        <Tab value="segments" label={t('contacts.tabs.segments')} component={Link} to="/segments" />
      </Tabs>
    </Box>
  );
}
