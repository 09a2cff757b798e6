/**
 * react-admin's message files use Polyglot syntax: `%{name}` placeholders and plural forms
 * separated by ` |||| ` chosen by `smart_count`. i18next is configured with `%{`/`}` delimiters,
 * so only the plural forms need converting into i18next `_one`/`_other` (and `_many`) keys.
 */
type Messages = { [key: string]: string | Messages };

export function polyglotToI18next(messages: Messages): Messages {
  const out: Messages = {};
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value !== 'string') {
      out[key] = polyglotToI18next(value);
      continue;
    }
    const forms = value.split('||||').map((f) => f.trim());
    if (forms.length < 2) {
      out[key] = value;
      continue;
    }
    const [one, other] = forms;
    out[key] = one; // translate() without smart_count gets the singular
    out[`${key}_one`] = one;
    out[`${key}_other`] = other;
    out[`${key}_many`] = other; // French has a "many" category (large numbers)
    out[`${key}_zero`] = other;
  }
  return out;
}
