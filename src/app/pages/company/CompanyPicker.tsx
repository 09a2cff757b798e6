import { CompanyAvatar } from '../../../core';
import { useId, useState } from 'react';
import { Box, Button, InputAdornment, List, ListItemAvatar, ListItemButton, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { mdiCheck, mdiMagnify, mdiPlus } from '@mdi/js';
import { Link as RouterDomLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CompanyMembership } from '../../../../contract/api';
import { filterCompanies } from './filterCompanies';
import { MdiIcon } from '../../../core';

/** Spec §2: row height 70, max height 200 px. */
export const COMPANY_ROW_HEIGHT = 70;
export const COMPANY_LIST_MAX_HEIGHT = 200;

interface CompanyPickerProps {
  companies: CompanyMembership[];
  selectedId: number | null;
  onSelect: (companyId: number) => void;
}

/**
 * The company picker of spec §2: a search field showing the selected company's logo, the count of
 * results, and the matching companies with their role and plan ("Free plan" when none).
 */
export function CompanyPicker({ companies, selectedId, onSelect }: CompanyPickerProps) {
  const { t } = useTranslation();
  const listId = useId();
  const [term, setTerm] = useState('');
  const visible = filterCompanies(companies, term);
  const selected = companies.find((company) => company.id === selectedId) ?? null;

  return (
    <Box>
      <TextField
        type="search"
        fullWidth
        label={t('pages.companySelect.search')}
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        autoFocus
        slotProps={{
          htmlInput: { 'aria-controls': listId, autoComplete: 'off' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                {selected ? (
                  <CompanyAvatar name={selected.name} logo={selected.logo} size={28} />
                ) : (
                  <MdiIcon path={mdiMagnify} color="action" />
                )}
              </InputAdornment>
            ),
          },
        }}
      />

      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mt: 2, mb: 1 }}>
        <Typography variant="body2" color="text.secondary" aria-live="polite">
          {t('pages.companySelect.results', { count: visible.length })}
        </Typography>
        <Button
          component={RouterDomLink}
          to="/company/create"
          size="small"
          variant="outlined"
          startIcon={<MdiIcon path={mdiPlus} />}
          sx={{ fontWeight: 600 }}
        >
          {t('pages.actions.createCompany')}
        </Button>
      </Stack>

      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 2, overflow: 'hidden' }}>
        {visible.length === 0 ? (
          <Typography color="text.secondary" sx={{ height: COMPANY_ROW_HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            {t('pages.companySelect.empty')}
          </Typography>
        ) : (
          <List
            id={listId}
            role="listbox"
            aria-label={t('pages.companySelect.listLabel')}
            disablePadding
            sx={{ maxHeight: COMPANY_LIST_MAX_HEIGHT, overflowY: 'auto' }}
          >
            {visible.map((company) => (
              <CompanyRow key={company.id} company={company} selected={company.id === selectedId} onSelect={onSelect} />
            ))}
          </List>
        )}
      </Box>
    </Box>
  );
}

function CompanyRow({ company, selected, onSelect }: { company: CompanyMembership; selected: boolean; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  const plan = company.subscription_plan_name || t('pages.companySelect.defaultPlan');
  return (
    <ListItemButton
      role="option"
      aria-selected={selected}
      selected={selected}
      onClick={() => onSelect(company.id)}
      sx={{ height: COMPANY_ROW_HEIGHT, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}
    >
      <ListItemAvatar>
        <CompanyAvatar name={company.name} logo={company.logo} />
      </ListItemAvatar>
      <ListItemText
        primary={company.name}
        secondary={
          <>
            <span>{company.role?.name}</span>
            <Box component="span" aria-hidden sx={{ mx: 0.75 }}>
              ·
            </Box>
            <span>{plan}</span>
          </>
        }
        slotProps={{ primary: { fontWeight: 600, noWrap: true }, secondary: { noWrap: true } }}
      />
      {selected && <MdiIcon path={mdiCheck} color="primary" fontSize="small" />}
    </ListItemButton>
  );
}
