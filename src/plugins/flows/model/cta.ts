/** The call to action's URL as the runtime builds it: the company's domain (https when no scheme is given). */
export function callToActionUrlOf(domain: string): string {
  const d = domain.trim();
  return /^https?:\/\//i.test(d) ? d : `https://${d}`;
}
