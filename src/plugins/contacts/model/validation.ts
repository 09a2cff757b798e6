/** The contact form's checks, the server's own rules (contract/contacts.ts) in the console's words. */
import { contactPhoneE164 } from '../../../../contract/contacts';
import { isEmail } from '../../../../contract/validation';

/** react-admin validators answer a translation key; an empty value is fine (phone and e-mail are optional). */
export const validatePhone = (value: unknown) => (typeof value === 'string' && value.trim() && !contactPhoneE164(value) ? 'contacts.validation.phone' : undefined);
export const validateEmail = (value: unknown) => (typeof value === 'string' && value.trim() && !isEmail(value.trim()) ? 'contacts.validation.email' : undefined);
export const validateName = (value: unknown) => (typeof value === 'string' && value.trim() ? undefined : 'contacts.validation.required');
