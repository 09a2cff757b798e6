// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { accountApiRef } from '../apis';
import { renderPluginPage } from '../testing/renderPluginPage';
import { useAccess } from '../permissions/useAccess';
import { useFeature } from '../features/useFeature';
import { membership, testUser } from './testUsers';
import { useAccount } from './useAccount';
import { useSelectCompany } from './useSelectCompany';

function Probe() {
  const { user, company, companyId } = useAccount();
  const members = useAccess('team');
  const select = useSelectCompany();
  const chats = useFeature('chats');
  const location = useLocation();
  return (
    <div>
      <p>user:{user?.email ?? 'none'}</p>
      <p>company:{company?.name ?? 'none'}:{companyId ?? 'null'}</p>
      <p>members:{String(members.canView)}/{String(members.canManage)}</p>
      <p>chats:{String(chats)}</p>
      <p>path:{location.pathname}</p>
      <button onClick={() => select(2)}>pick 2</button>
    </div>
  );
}

describe('account hooks', () => {
  beforeEach(() => localStorage.clear());

  it('re-render on account events; useSelectCompany selects and goes to the dashboard', async () => {
    const { console } = renderPluginPage(<Probe />, { adminContext: false, route: false, path: '/company/select', features: ['chats'] });
    const account = console.get(accountApiRef);
    expect(screen.getByText('user:none')).toBeInTheDocument();
    act(() => account.setUser(testUser([membership(1, { can_view_members: false }), membership(2, { can_manage_members: true })])));
    act(() => account.selectCompany(1));
    expect(screen.getByText('company:Company 1:1')).toBeInTheDocument();
    expect(screen.getByText('members:false/false')).toBeInTheDocument();
    expect(screen.getByText('chats:true')).toBeInTheDocument();
    await userEvent.click(screen.getByText('pick 2'));
    expect(screen.getByText('company:Company 2:2')).toBeInTheDocument();
    expect(screen.getByText('members:true/true')).toBeInTheDocument();
    expect(screen.getByText('path:/dashboard')).toBeInTheDocument();
    act(() => account.clear());
    expect(screen.getByText('user:none')).toBeInTheDocument();
  });
});
