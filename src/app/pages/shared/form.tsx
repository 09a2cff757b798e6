/**
 * The signed-out pages' forms without react-admin's Form (react-hook-form, ra-core's form modules,
 * ~60 KB gzipped of the sign-in chunks): controlled MUI TextFields with the console's rules
 * (contract/validation.ts through src/core/validation), the same behaviour as the console's
 * react-admin forms (validateOnChangeAndBlur): a field is checked once changed, left or submitted,
 * its first failing rule shows under it (aria-invalid, helper text linked by aria-describedby),
 * a submit with errors focuses the first invalid field and calls nothing, no "form not valid" banner.
 * Same ids and names (the field's name), labels without an asterisk, autocomplete attributes.
 */
import { createContext, useContext, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Box, Checkbox, FormControlLabel, FormHelperText, IconButton, InputAdornment, TextField } from '@mui/material';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH, rules, runRules, type Rule } from '../../../../contract/validation';
import { translateRule } from '../../../core/validation';

type Values = Record<string, unknown>;
/** A field rule: the i18n key result of a contract rule, or a ready message. */
export type FieldRule = (value: unknown, values: Values) => string | undefined;

/** A contract rule (contract/validation.ts) as a field rule; translated when shown. */
export const rule =
  (r: Rule): FieldRule =>
  (value) => {
    const result = runRules(value, [r]);
    return result === true ? undefined : `rule:${result}`;
  };
export const requiredRule = rule(rules.required());
export const emailRule = rule(rules.email());
export const minLengthRule = (min: number) => rule(rules.minLength(min));
export const maxLengthRule = (max: number) => rule(rules.maxLength(max));
/** Passes when the value equals another field (the password confirmation). */
export const matches =
  (field: string, message: string): FieldRule =>
  (value, values) =>
    value && value !== values[field] ? message : undefined;

interface FormState {
  values: Values;
  error(name: string): string | undefined;
  change(name: string, value: unknown): void;
  blur(name: string): void;
  register(name: string, rules: FieldRule[], input?: HTMLInputElement | null): void;
}

const FormContext = createContext<FormState | null>(null);

function useFormState(): FormState {
  const state = useContext(FormContext);
  if (!state) throw new Error('A field outside <SimpleForm>');
  return state;
}

/** A form of controlled fields; `onSubmit` runs with the values when every field passes. */
export function SimpleForm({ defaultValues, onSubmit, children }: { defaultValues: Values; onSubmit: (values: Values) => unknown; children: ReactNode }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(defaultValues);
  const [checked, setChecked] = useState<Record<string, true>>({});
  const fields = useRef(new Map<string, { rules: FieldRule[]; input?: HTMLInputElement | null }>());

  const messageOf = (name: string, all: Values): string | undefined => {
    for (const r of fields.current.get(name)?.rules ?? []) {
      const failed = r(all[name], all);
      if (failed) return failed.startsWith('rule:') ? translateRule(t, failed.slice(5)) : failed;
    }
    return undefined;
  };

  const state: FormState = {
    values,
    error: (name) => (checked[name] ? messageOf(name, values) : undefined),
    change: (name, value) => {
      setValues((v) => ({ ...v, [name]: value }));
      setChecked((c) => (c[name] ? c : { ...c, [name]: true }));
    },
    blur: (name) => setChecked((c) => (c[name] ? c : { ...c, [name]: true })),
    register: (name, rules, input) => {
      const known = fields.current.get(name);
      fields.current.set(name, { rules, input: input === undefined ? known?.input : input });
    },
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const names = [...fields.current.keys()];
    setChecked(Object.fromEntries(names.map((n) => [n, true])));
    const firstInvalid = names.find((n) => messageOf(n, values));
    if (firstInvalid) {
      fields.current.get(firstInvalid)?.input?.focus();
      return;
    }
    void onSubmit(values);
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormContext.Provider value={state}>{children}</FormContext.Provider>
    </form>
  );
}

interface TextFieldInputProps {
  name: string;
  label: string;
  rules?: FieldRule[];
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
}

/** A text field of a SimpleForm (id and name: `name`); a password one has the show/hide button. */
export function TextInput({ name, label, rules = [], type = 'text', autoComplete, autoFocus }: TextFieldInputProps) {
  const { t } = useTranslation();
  const form = useFormState();
  const [visible, setVisible] = useState(false);
  form.register(name, rules);
  const error = form.error(name);
  const password = type === 'password';
  return (
    <TextField
      id={name}
      name={name}
      className={`ra-input ra-input-${name}`}
      type={password && visible ? 'text' : type}
      label={label}
      value={(form.values[name] as string | undefined) ?? ''}
      onChange={(event) => form.change(name, event.target.value)}
      onBlur={() => form.blur(name)}
      inputRef={(input: HTMLInputElement | null) => form.register(name, rules, input)}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      error={!!error}
      // an empty helper keeps the line's height, as react-admin's inputs do
      helperText={error ?? '\u200b'}
      fullWidth
      size={password ? 'small' : undefined}
      slotProps={
        password
          ? {
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      aria-label={t(visible ? 'ra.input.password.toggle_visible' : 'ra.input.password.toggle_hidden')}
                      onClick={() => setVisible(!visible)}
                      size="small"
                    >
                      {visible ? <Visibility fontSize="small" /> : <VisibilityOff fontSize="small" />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }
          : undefined
      }
    />
  );
}

/** A required e-mail address field (src/core/forms EmailInput's rules). */
export function EmailInput({ label, name = 'email', autoFocus }: { label: string; name?: string; autoFocus?: boolean }) {
  return <TextInput name={name} type="email" label={label} autoComplete="email" autoFocus={autoFocus} rules={[requiredRule, emailRule]} />;
}

/** A new password (minimum length) and its confirmation, which must match. */
export function NewPasswordInputs(props: { passwordName: string; confirmName: string; passwordLabel: string; confirmLabel: string; mismatchMessage: string }) {
  return (
    <>
      <TextInput
        name={props.passwordName}
        type="password"
        label={props.passwordLabel}
        autoComplete="new-password"
        rules={[requiredRule, minLengthRule(PASSWORD_MIN_LENGTH)]}
      />
      <TextInput
        name={props.confirmName}
        type="password"
        label={props.confirmLabel}
        autoComplete="new-password"
        rules={[requiredRule, matches(props.passwordName, props.mismatchMessage)]}
      />
    </>
  );
}

/** A labelled checkbox of a SimpleForm. */
export function CheckboxInput({ name, label, helperText }: { name: string; label: string; helperText?: string }) {
  const form = useFormState();
  return (
    <Box sx={{ mb: 2 }}>
      <FormControlLabel
        control={
          <Checkbox
            checked={Boolean(form.values[name])}
            onChange={(event) => form.change(name, event.target.checked)}
            onBlur={() => form.blur(name)}
            name={name}
          />
        }
        label={label}
      />
      {helperText && <FormHelperText sx={{ mt: -0.5, ml: 4 }}>{helperText}</FormHelperText>}
    </Box>
  );
}
