/** Spec §2 route names used across the console, and their paths. */
export const ROUTE_PATHS = {
  login: '/auth/login',
  account: '/account',
  'company-select': '/company/select',
  'company-create': '/company/create',
  dashboard: '/dashboard',
} as const;

export type RouteName = keyof typeof ROUTE_PATHS;
