/**
 * Form fields that several pages share (sign-in, sign-up, password reset, password change), with the
 * spec's generic rules: first failing rule wins, checked on blur and change (validateOnChangeAndBlur).
 * `firstFailing` keeps labels free of react-admin's " *" so they read exactly as the spec's strings.
 */
import { PasswordInput, TextInput } from 'react-admin';
import { PASSWORD_MIN_LENGTH } from '../../../contract/validation';
import { email, minLength, required } from '../validation';
import { firstFailing } from './firstFailing';
import { matchesField } from './matchesField';

/** A required e-mail address field. */
export function EmailInput({ label, source = 'email', autoFocus }: { label: string; source?: string; autoFocus?: boolean }) {
  return (
    <TextInput source={source} type="email" label={label} autoComplete="email" autoFocus={autoFocus} validate={firstFailing(required(), email())} fullWidth />
  );
}

/** A new password (minimum length) and its confirmation, which must match. */
export function NewPasswordInputs(props: { passwordSource: string; confirmSource: string; passwordLabel: string; confirmLabel: string; mismatchMessage: string }) {
  return (
    <>
      <PasswordInput
        source={props.passwordSource}
        label={props.passwordLabel}
        autoComplete="new-password"
        validate={firstFailing(required(), minLength(PASSWORD_MIN_LENGTH))}
        fullWidth
      />
      <PasswordInput
        source={props.confirmSource}
        label={props.confirmLabel}
        autoComplete="new-password"
        validate={firstFailing(required(), matchesField(props.passwordSource, props.mismatchMessage))}
        fullWidth
      />
    </>
  );
}
