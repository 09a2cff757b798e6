/** A react-admin validator that passes when the value equals another field of the form. */
export function matchesField(field: string, message: string) {
  return (value: unknown, allValues: Record<string, unknown>) =>
    value && value !== allValues?.[field] ? message : undefined;
}
