// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { AdminContext, Form, TextInput, useNotify } from 'react-admin';
import { alertApiRef, i18nApiRef } from '../apis';
import { ApiProvider } from '../di/ApiProvider';
import { createConsole } from '../plugins/createConsole';
import { ConsoleNotification } from '../alert/ConsoleNotification';
import { required, validateOnChangeAndBlur } from '../validation';

/** A console form: a required field, and a server that refuses what passes the field's rules. */
function ProfileForm() {
  const notify = useNotify();
  const [submitted, setSubmitted] = useState(0);
  return (
    <Form
      onSubmit={() => {
        setSubmitted((n) => n + 1);
        notify('The server refused the name', { type: 'error' });
      }}
      defaultValues={{ name: '' }}
      {...validateOnChangeAndBlur}
      noValidate
    >
      <TextInput source="name" label="Name" validate={required()} />
      <button type="submit">Save</button>
      <output data-testid="submitted">{submitted}</output>
    </Form>
  );
}

function setup() {
  const console = createConsole({ plugins: [], features: [] });
  render(
    <ApiProvider registry={console.registry}>
      <AdminContext i18nProvider={console.get(i18nApiRef).provider}>
        <ProfileForm />
        <ConsoleNotification />
      </AdminContext>
    </ApiProvider>,
  );
  return console.get(alertApiRef);
}

describe('a failed form', () => {
  beforeEach(() => localStorage.clear());

  it('shows its errors on the fields, without the "The form is not valid" banner, then only the server error', async () => {
    const alert = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByTestId('submitted')).toHaveTextContent('0');
    expect(alert.getState().active).toBe(false);
    expect(screen.queryByText('The form is not valid. Please check for errors')).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The server refused the name')).toBeInTheDocument();
    expect(alert.getState()).toMatchObject({ active: true, type: 'error' });
    expect(screen.queryByText(/The form is not valid/)).not.toBeInTheDocument();
  });
});
