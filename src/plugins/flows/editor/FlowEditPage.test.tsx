// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router-dom';
import { HttpError } from '../../../core';
import { membership, testUser } from '../../../core/account/testUsers';
import type { FlowSaveBody } from '../../../../contract/flows';
import FlowEditPage from './FlowEditPage';
import { choiceLabel } from './StepList';
import { fakeFlowServer, flowFixture } from '../testing/fixtures';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { botsPlugin } from '../../bots';
import { templatesPlugin } from '../../templates';
import { flowsPlugin } from '..';

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true })]);
const viewer = testUser([membership(1, { can_manage_flows: false, can_view_flows: true }, { role: { id: 'agent', name: 'Agent' } })]);
const route = '/flows/edit/:flowName';

function open(http = fakeFlowServer([flowFixture(1, 'Shop tour')]), user = admin) {
  const view = renderPluginPage(<FlowEditPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/edit/Shop%20tour', route, http, user, besideRoutes: <Link to="/chats">Chats link</Link> });
  return { view, http };
}

// The editor is one large page: skip the accessibility tree's visibility check (getComputedStyle of
// every node) that makes role queries slow in jsdom. Hidden elements are not queried here.
beforeAll(() => configure({ defaultHidden: true }));
afterAll(() => configure({ defaultHidden: false }));

const stepIds = () => screen.getAllByTestId('flow-step').map((el) => el.getAttribute('data-step-id'));

// The machine running the suite is shared and loaded: this page is large, give each test room.
describe('/flows/edit/{flowName}', { timeout: 120_000 }, () => {
  it('finds the flow by its name and shows every part, with per-step counts', async () => {
    open();
    expect(screen.getByRole('status').textContent).toContain('Loading the flow…');
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop tour' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Intro message/ }) as HTMLInputElement).value).toBe('Welcome!');
    expect(stepIds()).toEqual(['pick', 'products', 'bye']);
    await waitFor(() => expect(screen.getByLabelText('Customers who reached step pick: 5; who left there: 2')).toBeTruthy());
    expect(screen.getByLabelText('Customers who reached step bye: 0; who left there: 0')).toBeTruthy();
    expect(within(screen.getByTestId('flow-keywords')).getByText('tour')).toBeTruthy();
  });

  it('offers the branching view only where branching_flows is enabled', async () => {
    const off = renderPluginPage(<FlowEditPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/edit/Shop%20tour', route, http: fakeFlowServer([flowFixture(1, 'Shop tour')]), user: admin });
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop tour' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Branching view' })).toBeNull();
    off.unmount();
    const on = renderPluginPage(<FlowEditPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates', 'branching_flows'], companyId: 1, signedIn: true, path: '/flows/edit/Shop%20tour', route, http: fakeFlowServer([flowFixture(1, 'Shop tour')]), user: admin });
    fireEvent.click(await screen.findByRole('button', { name: 'Branching view' }));
    await waitFor(() => expect(on.currentPath()).toBe('/flows/branch/Shop%20tour'));
  });

  it('a flow name that does not exist says so', async () => {
    renderPluginPage(<FlowEditPage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/edit/Nope', route, http: fakeFlowServer([flowFixture(1, 'Shop tour')]), user: admin });
    expect(await screen.findByText('This flow does not exist (any more) in this company.')).toBeTruthy();
  });

  it('the phone preview follows the edits', async () => {
    open();
    const intro = await screen.findByRole('textbox', { name: /Intro message/ });
    fireEvent.change(intro, { target: { value: 'Hello there' } });
    const preview = screen.getByTestId('flow-preview');
    expect(within(preview).getByText('Hello there')).toBeTruthy();
    expect(within(preview).queryByText('Welcome!')).toBeNull();
    fireEvent.change(screen.getAllByRole('textbox', { name: /Media URL/ })[0], { target: { value: 'https://cdn.acme.test/a.png' } });
    expect(within(preview).getByTestId('preview-media')).toBeTruthy();
    expect(within(preview).getAllByTestId('preview-step').map((el) => el.getAttribute('data-step-id'))).toEqual(['pick', 'products', 'bye']);
  });

  it("reorders steps, saves the whole flow and says 'Success : flow has been updated!'", async () => {
    const { view, http } = open();
    await screen.findByRole('heading', { level: 1, name: 'Shop tour' });
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Move step bye up' }));
    expect(stepIds()).toEqual(['pick', 'bye', 'products']);
    expect(screen.getByTestId('flow-save-state').textContent).toContain('Unsaved changes');
    await userEvent.click(screen.getByRole('button', { name: 'Add a step' }));
    fireEvent.change(within(screen.getAllByTestId('flow-step')[3]).getByRole('textbox', { name: /Message/ }), { target: { value: 'New one' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.alertText()).toBe('Success : flow has been updated!'));
    const body = http.calls.find((c) => c.path === '/api/flows/1/save/')!.options.body as FlowSaveBody;
    expect(body.steps!.map((s) => s.step_id)).toEqual(['pick', 'bye', 'products', 'step_4']);
    expect(body).toMatchObject({ flow_name: 'Shop tour', intro_msg: 'Welcome!', call_to_action: 'Shop now', keywords: ['tour'], extra_context: ['Returns are free.'] });
    expect(screen.getByTestId('flow-save-state').textContent).toContain('All changes saved');
  });

  it("a refused save shows 'Error ' + error + '(' + message + ')'; an invalid flow is not sent", async () => {
    const failing = new HttpError(400, { errors: [], error: 'Invalid steps', message: 'This step does not exist in this flow.' });
    const { view, http } = open(fakeFlowServer([flowFixture(1, 'Shop tour')], { failSave: failing }));
    const intro = await screen.findByRole('textbox', { name: /Intro message/ });
    fireEvent.change(intro, { target: { value: 'Welcome!!' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.alertText()).toBe('Error Invalid steps(This step does not exist in this flow.)'));
    const cta = screen.getByRole('textbox', { name: /Call to action/ });
    fireEvent.change(cta, { target: { value: 'x'.repeat(21) } });
    expect(screen.getByText('Ensure this field has no more than 20 characters.')).toBeTruthy();
    const saves = http.calls.filter((c) => c.path === '/api/flows/1/save/').length;
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(view.alertText()).toBe('Fix the highlighted fields before saving.');
    expect(http.calls.filter((c) => c.path === '/api/flows/1/save/').length).toBe(saves);
  });

  it('offers the next steps by their message, the id beside (not step_1 alone)', async () => {
    open();
    await screen.findByRole('heading', { level: 1, name: 'Shop tour' });
    const first = screen.getAllByTestId('flow-step')[0];
    fireEvent.mouseDown(within(first).getByRole('combobox', { name: /Option 1 goes to/ }));
    const listbox = await screen.findByRole('listbox');
    const second = screen.getAllByTestId('flow-step')[1];
    const secondId = (within(second).getByRole('textbox', { name: /Step id/ }) as HTMLInputElement).value;
    const secondMessage = (within(second).getByRole('textbox', { name: /message/i }) as HTMLInputElement).value;
    expect(within(listbox).getByRole('option', { name: choiceLabel({ id: secondId, message: secondMessage }) })).toBeTruthy();
    expect(choiceLabel({ id: secondId, message: secondMessage })).toContain(secondMessage.slice(0, 10));
  });

  it('renaming a step renames the options that point to it', async () => {
    const { http } = open();
    await screen.findByRole('heading', { level: 1, name: 'Shop tour' });
    const products = screen.getAllByTestId('flow-step')[1];
    fireEvent.change(within(products).getByRole('textbox', { name: /Step id/ }), { target: { value: 'catalogue' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(http.calls.some((c) => c.path === '/api/flows/1/save/')).toBe(true));
    const body = http.calls.find((c) => c.path === '/api/flows/1/save/')!.options.body as FlowSaveBody;
    expect(body.steps![0].options).toEqual([{ text: 'Products', next_step_id: 'catalogue' }]);
  });

  it("tries the flow as it is in the editor (the unsaved draft goes along)", async () => {
    const { http } = open();
    const intro = await screen.findByRole('textbox', { name: /Intro message/ });
    fireEvent.change(intro, { target: { value: 'Draft hi' } });
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    const log = screen.getByTestId('test-chat-log');
    expect(await within(log).findByText('Draft hi')).toBeTruthy();
    await userEvent.click(within(log).getByRole('button', { name: 'Products' }));
    await waitFor(() => expect(http.calls.filter((c) => c.path === '/api/flows/1/test-chat/').length).toBe(2));
    const [first, second] = http.calls.filter((c) => c.path === '/api/flows/1/test-chat/').map((c) => c.options.body as Record<string, unknown>);
    expect(first).toMatchObject({ reset: true, state: null, flow: { intro_msg: 'Draft hi' } });
    expect(second).toMatchObject({ button_id: 'flow:pick:0', state: { step_id: 'pick' } });
  });

  it("says what happens instead of showing nothing: another flow's keyword starts that flow, a message after the end goes to the bot (issue #25)", async () => {
    open();
    await screen.findByRole('heading', { level: 1, name: 'Shop tour' });
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    const log = screen.getByTestId('test-chat-log');
    await within(log).findByRole('button', { name: 'Products' });
    const input = screen.getByRole('textbox', { name: 'Your message' });
    await userEvent.type(input, 'returns{Enter}');
    expect(await within(log).findByText('Starts the flow "Returns": in a conversation, that flow answers now')).toBeTruthy();
    await userEvent.type(input, 'bye{Enter}');
    expect(await within(log).findByText('The flow has ended: in a conversation this message goes on to the bot, unless it is a keyword of a flow.')).toBeTruthy();
  });

  it('shows the versions with what changed, and restores one as a new version', async () => {
    const { view, http } = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Version history' }));
    const versions = await screen.findAllByTestId('flow-version');
    expect(versions.map((v) => v.getAttribute('data-version'))).toEqual(['2', '1']);
    expect(within(versions[0]).getByText('Fields: Intro message')).toBeTruthy();
    expect(within(versions[0]).getByText('Steps added: bye')).toBeTruthy();
    await userEvent.click(within(versions[1]).getByRole('button', { name: 'Restore version 1' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Restore version 1?' })).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(view.alertText()).toBe('Version 1 restored'));
    expect(http.calls.some((c) => c.method === 'POST' && c.path === '/api/flows/1/versions/1/restore/')).toBe(true);
    expect((screen.getByRole('textbox', { name: /Intro message/ }) as HTMLInputElement).value).toBe('Old welcome');
    await waitFor(() => expect(screen.getAllByTestId('flow-version').map((v) => v.getAttribute('data-version'))).toEqual(['3', '2', '1']));
  });

  it('leaves without asking when nothing changed', async () => {
    const { view } = open();
    await screen.findByRole('textbox', { name: /Intro message/ });
    await userEvent.click(screen.getByRole('link', { name: 'Chats link' }));
    await waitFor(() => expect(view.currentPath()).toBe('/chats'));
  });

  it('asks before leaving with unsaved changes; Stay keeps them, Leave goes', async () => {
    const { view } = open();
    fireEvent.change(await screen.findByRole('textbox', { name: /Intro message/ }), { target: { value: 'Welcome!!' } });
    await userEvent.click(screen.getByRole('link', { name: 'Chats link' }));
    expect(view.currentPath()).toBe('/flows/edit/Shop%20tour');
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Stay' }));
    expect((screen.getByRole('textbox', { name: /Intro message/ }) as HTMLInputElement).value).toBe('Welcome!!');
    await userEvent.click(screen.getByRole('button', { name: 'Back to flows' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(view.currentPath()).toBe('/flows'));
  });

  it('is read-only without manage access (no save, no try-it)', async () => {
    open(undefined, viewer);
    await screen.findByRole('heading', { level: 1, name: 'Shop tour' });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByTestId('flow-test-chat')).toBeNull();
    expect((screen.getByRole('textbox', { name: /Intro message/ }) as HTMLInputElement).disabled).toBe(true);
  });
});
