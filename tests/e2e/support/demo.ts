/** The demo data `npm start` seeds on an empty database (server/core/seed.ts). */
export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'Demo-Console-2026';
export const DEMO_ADMIN = { email: 'admin@demo.test', password: DEMO_PASSWORD, firstName: 'Ada' };
export const DEMO_AGENT = { email: 'agent@demo.test', password: DEMO_PASSWORD, firstName: 'Alex' };
export const DEMO_COMPANY = 'Demo Company';
/** In Northwind the agent role may not view your_account (a per-company permission override). */
export const NORTHWIND = 'Northwind Shop';

let counter = 0;
/** A unique address per call, so tests never share accounts. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.test`;
}
