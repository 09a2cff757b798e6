/** An attribute value as the contact views show it. */
import type { AttributeValue, ContactAttribute } from '../../../../contract/contacts';

export function formatAttribute(attribute: Pick<ContactAttribute, 'type'>, value: AttributeValue | undefined, t: (key: string) => string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (attribute.type === 'boolean') return t(value === true ? 'contacts.yes' : 'contacts.no');
  return String(value);
}
