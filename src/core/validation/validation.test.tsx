// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, SimpleForm, TextInput } from 'react-admin';
import { createI18nApi } from '../i18n/i18n';
import { email, minLength, maxLength, required, ruleMessage, translateRule, validateOnChangeAndBlur } from './index';

describe('validators', () => {
  it('return react-admin {message, args} with our keys', () => {
    expect(required()('   ', {}, {})).toEqual({ message: 'validation.required', args: {} });
    expect(required()([], {}, {})).toEqual({ message: 'validation.required', args: {} });
    expect(required()('x', {}, {})).toBeUndefined();
    expect((required() as unknown as { isRequired: boolean }).isRequired).toBe(true);
    expect(email()('nope', {}, {})).toEqual({ message: 'validation.email', args: {} });
    expect(email()('', {}, {})).toBeUndefined();
    expect(minLength(8)('short', {}, {})).toEqual({ message: 'validation.minLength', args: { min: 8 } });
    expect(minLength(8)('', {}, {})).toBeUndefined();
    expect(maxLength(3)('long', {}, {})).toEqual({ message: 'validation.maxLength', args: { max: 3 } });
  });

  it('translates rule results', () => {
    const { i18n } = createI18nApi();
    expect(translateRule((k, a) => i18n.t(k, a), 'validation.minLength|8')).toBe('Must be at least 8 characters');
    expect(ruleMessage(true)).toBeUndefined();
  });

  it('validates on change and blur and shows only the first failing rule', async () => {
    const { provider } = createI18nApi();
    render(
      <AdminContext i18nProvider={provider}>
        <SimpleForm {...validateOnChangeAndBlur} onSubmit={() => undefined} toolbar={false}>
          <TextInput source="email" validate={[required(), email(), minLength(8)]} />
        </SimpleForm>
      </AdminContext>,
    );
    const input = await screen.findByLabelText(/email/i);
    await userEvent.click(input);
    await userEvent.tab(); // blur with nothing typed
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await userEvent.type(input, 'a@');
    await waitFor(() => expect(screen.getByText('Enter a valid email address')).toBeInTheDocument());
    expect(screen.queryByText('Must be at least 8 characters')).not.toBeInTheDocument();
    await userEvent.type(input, 'b.co');
    await waitFor(() => expect(screen.getByText('Must be at least 8 characters')).toBeInTheDocument());
  });
});
