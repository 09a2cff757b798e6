// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultBusinessHours, type BusinessHours } from '../../../contract/businessHours';
import { HttpError } from '../../core';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { BusinessHoursSection } from './BusinessHoursSection';
import { accountPlugin } from './index';

const saved: BusinessHours = { ...defaultBusinessHours(), enabled: true, time_zone: 'Europe/Paris', away_message: 'We are closed.', open_now: false };

function renderHours(permissions: Record<string, boolean>, answer: (method: string, body: unknown) => unknown = () => saved) {
  const http = createFakeHttp((method, path, options) => {
    if (path !== '/api/business-hours/') throw new Error(`unexpected ${method} ${path}`);
    return answer(method, options.body);
  });
  const view = renderPluginPage(<BusinessHoursSection />, {
    http,
    user: testUser([membership(1, permissions, { name: 'Demo Company' })]),
    companyId: 1,
    plugins: [accountPlugin],
    features: ['your_account'],
    route: false,
  });
  return { http, ...view };
}

describe('the business hours editor', () => {
  it('shows the week, the time zone and the away message as saved', async () => {
    renderHours({ can_manage_your_account: true });
    const section = await screen.findByRole('region', { name: 'Business hours' });
    expect(await within(section).findByLabelText('Monday: opens (1)')).toHaveValue('09:00');
    expect(within(section).getByLabelText('Friday: closes (1)')).toHaveValue('17:00');
    expect(within(screen.getByTestId('hours-sun')).getByText('Closed')).toBeInTheDocument();
    expect(within(section).getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Paris');
    expect(within(section).getByRole('textbox', { name: 'Away message' })).toHaveValue('We are closed.');
    expect(within(section).getByText('Closed now')).toBeInTheDocument();
  });

  it('edits a day (a second interval, a closed day, an open Sunday) and saves the week', async () => {
    const { http, alertText } = renderHours({ can_manage_your_account: true });
    await screen.findByLabelText('Monday: opens (1)');
    fireEvent.change(screen.getByLabelText('Monday: closes (1)'), { target: { value: '12:30' } });
    await userEvent.click(screen.getByRole('button', { name: 'Add hours on Monday' }));
    fireEvent.change(screen.getByLabelText('Monday: opens (2)'), { target: { value: '13:30' } });
    fireEvent.change(screen.getByLabelText('Monday: closes (2)'), { target: { value: '18:00' } });
    await userEvent.click(screen.getByRole('switch', { name: 'Open on Wednesday' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Open on Sunday' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save business hours' }));
    await waitFor(() => expect(alertText()).toBe('Business hours saved'));
    const put = http.calls.find((c) => c.method === 'PUT')!;
    expect(put.options.body).toEqual({
      enabled: true,
      time_zone: 'Europe/Paris',
      away_message: 'We are closed.',
      days: {
        mon: [{ open: '09:00', close: '12:30' }, { open: '13:30', close: '18:00' }],
        tue: [{ open: '09:00', close: '17:00' }],
        wed: [],
        thu: [{ open: '09:00', close: '17:00' }],
        fri: [{ open: '09:00', close: '17:00' }],
        sat: [],
        sun: [{ open: '09:00', close: '17:00' }],
      },
    });
  });

  it('refuses a closing time before the opening time and a blank away message before saving; shows the server’s refusal', async () => {
    const { alertText } = renderHours({ can_manage_your_account: true }, (method) => {
      if (method === 'PUT') throw new HttpError(400, { time_zone: ['Unknown time zone.'] });
      return saved;
    });
    await screen.findByLabelText('Tuesday: closes (1)');
    fireEvent.change(screen.getByLabelText('Tuesday: closes (1)'), { target: { value: '08:00' } });
    expect(screen.getByText('Must be after the opening time')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save business hours' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Tuesday: closes (1)'), { target: { value: '18:00' } });
    await userEvent.clear(screen.getByRole('textbox', { name: 'Away message' }));
    expect(screen.getByText('Write the away message to send it.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save business hours' })).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Away message' }), 'Back soon');
    await userEvent.click(screen.getByRole('button', { name: 'Save business hours' }));
    await waitFor(() => expect(alertText()).toBe('Could not save business hours (Unknown time zone.)'));
  });

  it('is read-only, with one line saying who can change it, without manage access to the account', async () => {
    const { http } = renderHours({});
    const section = await screen.findByRole('region', { name: 'Business hours' });
    expect(await within(section).findByLabelText('Monday: opens (1)')).toBeDisabled();
    expect(within(section).getByRole('switch', { name: 'Open on Sunday' })).toBeDisabled();
    expect(within(section).getByRole('textbox', { name: 'Away message' })).toBeDisabled();
    expect(within(section).queryByRole('button', { name: 'Save business hours' })).not.toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Add hours on Monday' })).not.toBeInTheDocument();
    expect(within(section).getByText('Only members allowed to manage the account can change business hours.')).toBeInTheDocument();
    expect(http.calls.map((c) => c.method)).toEqual(['GET']);
  });
});
