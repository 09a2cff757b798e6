/**
 * A member's capacity for auto-assignment (issue #22): how many open conversations may be assigned to
 * them automatically (default 20). Read from GET /api/assignment-capacities/ (one request for the whole
 * list), saved with PUT /api/assignment-capacities/{user_id}/ when the field loses focus or on Enter
 * (members manage). Without manage access the number is shown as text.
 */
import { TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_ASSIGNMENT_CAPACITY, MAX_ASSIGNMENT_CAPACITY, type AssignmentCapacityList } from '../../../contract/conversations';
import type { TeamMember } from '../../../contract/team';
import { errorText, httpApiRef, useAccount, useAlert, useApi } from '../../core';

const CAPACITIES_PATH = '/api/assignment-capacities/';

/** `name`: the member's name as the list shows it (the field's accessible label names them). */
export function MemberCapacityInput({ member, name, canManage }: { member: Pick<TeamMember, 'id'>; name: string; canManage: boolean }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const { companyId } = useAccount();
  const queryClient = useQueryClient();
  const queryKey = ['team', 'capacities', companyId];
  const capacities = useQuery({ queryKey, queryFn: () => http.get<AssignmentCapacityList>(CAPACITIES_PATH), retry: false });
  const saved = capacities.data?.results.find((r) => r.user_id === member.id)?.capacity ?? DEFAULT_ASSIGNMENT_CAPACITY;
  const [draft, setDraft] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!capacities.data) return null;
  const label = t('team.capacity.of', { name });
  if (!canManage) {
    return (
      <Typography variant="body2" aria-label={label}>
        {saved}
      </Typography>
    );
  }

  const save = async () => {
    if (draft === null) return;
    const value = Number(draft);
    if (draft.trim() === '' || !Number.isInteger(value) || value < 0 || value > MAX_ASSIGNMENT_CAPACITY) {
      alert.error(t('team.capacity.invalid', { max: MAX_ASSIGNMENT_CAPACITY }));
      setDraft(null);
      return;
    }
    if (value === saved) return setDraft(null);
    setPending(true);
    try {
      await http.put(`${CAPACITIES_PATH}${member.id}/`, { capacity: value });
      await queryClient.invalidateQueries({ queryKey });
      alert.success(t('team.capacity.saved'));
    } catch (error) {
      alert.error(t('team.capacity.error', { error: errorText(error) }));
    } finally {
      setDraft(null);
      setPending(false);
    }
  };

  return (
    <TextField
      size="small"
      type="number"
      value={draft ?? String(saved)}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => void save()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
      }}
      disabled={pending}
      sx={{ width: 96 }}
      slotProps={{ htmlInput: { min: 0, max: MAX_ASSIGNMENT_CAPACITY, 'aria-label': label } }}
    />
  );
}
