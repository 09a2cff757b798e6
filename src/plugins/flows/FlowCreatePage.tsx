import { useState, type FormEvent } from 'react';
import { Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { SubmitButton, useAccount, useAlert, useApi } from '../../core';
import { FLOW_EXTRA_LIMITS, FLOW_LIMITS, flowCreateShape, type FlowCreateBody } from '../../../contract/flows';
import { flowServiceApiRef } from './api/flowService';
import { flowErrorAlert } from './api/errors';
import { useRefreshFlows } from './api/hooks';
import { editPath } from './FlowsPage';
import { TextListField } from './components/TextListField';
import { fieldProblem, translateRule } from './model/validation';

type TextKey = 'flow_name' | 'description' | 'company_name' | 'company_domain';
const TEXT_FIELDS: { name: TextKey; max: number }[] = [
  { name: 'flow_name', max: FLOW_LIMITS.flow_name },
  { name: 'description', max: FLOW_LIMITS.description },
  { name: 'company_name', max: FLOW_EXTRA_LIMITS.company_name },
  { name: 'company_domain', max: FLOW_LIMITS.company_domain },
];

/** The problems of the creation form, per field (§5 via the contract's schema). */
export function creationProblems(values: Record<TextKey, string> & { extra_context: string[] }) {
  return {
    ...Object.fromEntries(TEXT_FIELDS.map(({ name }) => [name, fieldProblem(flowCreateShape[name], values[name])])),
    extra_context: values.extra_context.map((item) => fieldProblem(flowCreateShape.extra_context, [item])),
  } as Record<TextKey, string | null> & { extra_context: (string | null)[] };
}

/** /flows/create: the five creation fields (spec §3/§5), then the editor. */
export default function FlowCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const alert = useAlert();
  const { company } = useAccount();
  const service = useApi(flowServiceApiRef);
  const refresh = useRefreshFlows();
  const [values, setValues] = useState<Record<TextKey, string> & { extra_context: string[] }>({
    flow_name: '',
    description: '',
    company_name: company?.name ?? '',
    company_domain: '',
    extra_context: [],
  });
  const [touched, setTouched] = useState<Partial<Record<TextKey, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const problems = creationProblems(values);
  const invalid = TEXT_FIELDS.some(({ name }) => problems[name]) || problems.extra_context.some(Boolean);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    setPending(true);
    try {
      const body: FlowCreateBody = { flow_name: values.flow_name.trim(), description: values.description.trim(), company_name: values.company_name.trim(), company_domain: values.company_domain.trim(), extra_context: values.extra_context };
      const flow = await service.createFlow(body);
      void refresh();
      navigate(editPath(flow.flow_name));
    } catch (error) {
      alert.error(flowErrorAlert('create', error));
    } finally {
      setPending(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 760 }}>
      <Typography variant="h5" component="h1" fontWeight={700}>
        {t('flows.create.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('flows.create.subtitle')}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <form onSubmit={submit} noValidate aria-label={t('flows.create.title')}>
          <Stack spacing={2}>
            {TEXT_FIELDS.map(({ name, max }) => {
              const shown = touched[name] || submitted || values[name] !== '';
              const problem = shown ? translateRule(t, problems[name]) : null;
              return (
                <TextField
                  key={name}
                  name={name}
                  label={t(`flows.fields.${name}`)}
                  required
                  fullWidth
                  value={values[name]}
                  onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
                  onBlur={() => setTouched((s) => ({ ...s, [name]: true }))}
                  error={!!problem}
                  helperText={problem ?? `${values[name].length}/${max}`}
                  slotProps={{ htmlInput: { 'aria-invalid': !!problem } }}
                />
              );
            })}
            <TextListField
              label={t('flows.fields.extra_context')}
              help={t('flows.create.contextHelp')}
              items={values.extra_context}
              onChange={(extra_context) => setValues((v) => ({ ...v, extra_context }))}
              errors={problems.extra_context.map((p) => translateRule(t, p))}
              maxItems={FLOW_EXTRA_LIMITS.extraContextItems}
            />
            <Stack direction="row" spacing={1} justifyContent="flex-end">
              <Button onClick={() => navigate('/flows')} disabled={pending}>
                {t('flows.create.cancel')}
              </Button>
              <SubmitButton label={t('flows.create.submit')} loading={pending} />
            </Stack>
          </Stack>
        </form>
      </Paper>
    </Box>
  );
}
