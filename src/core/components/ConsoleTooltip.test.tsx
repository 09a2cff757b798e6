// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
// eslint-disable-next-line no-restricted-imports -- the control: MUI's own tooltip, to show what this one changes
import { Button, Tooltip } from '@mui/material';
import { Profiler, createRef, type ProfilerOnRenderCallback } from 'react';
import { ConsoleTooltip } from './ConsoleTooltip';

/** The phases React's Profiler reports while the tree mounts and its effects settle. */
async function mountPhases(tree: React.ReactElement): Promise<string[]> {
  const phases: string[] = [];
  const onRender: ProfilerOnRenderCallback = (_id, phase) => phases.push(phase);
  await act(async () => {
    render(
      <Profiler id="tooltip" onRender={onRender}>
        {tree}
      </Profiler>,
    );
  });
  return phases;
}

describe('ConsoleTooltip', () => {
  it('names its child with the title, and shows the title on hover', async () => {
    render(
      <ConsoleTooltip title="Refresh" enterDelay={0}>
        <Button>↻</Button>
      </ConsoleTooltip>,
    );
    const button = screen.getByRole('button', { name: 'Refresh' });
    await act(async () => {
      fireEvent.mouseOver(button);
    });
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Refresh');
    fireEvent.mouseLeave(button);
  });

  it("keeps the child's own name, ref, class name and handlers", async () => {
    const ref = createRef<HTMLButtonElement>();
    const onClick = vi.fn();
    const onMouseOver = vi.fn();
    render(
      <ConsoleTooltip title="Close menu" enterDelay={0} className="from-tooltip">
        <Button ref={ref} aria-label="Menu" className="own" onClick={onClick} onMouseOver={onMouseOver}>
          ≡
        </Button>
      </ConsoleTooltip>,
    );
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(ref.current).toBe(button);
    expect(button).toHaveClass('own', 'from-tooltip');
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    await act(async () => {
      fireEvent.mouseOver(button);
    });
    expect(onMouseOver).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Close menu');
  });

  it('anchors the tooltip on its child when opened by keyboard focus too', async () => {
    render(
      <ConsoleTooltip title="Toggle theme" open>
        <Button>◐</Button>
      </ConsoleTooltip>,
    );
    // Controlled open from the first render: the anchor arrives after the commit and the tooltip shows then.
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Toggle theme');
  });

  it('schedules no render inside the commit when it mounts (MUI’s own does: a nested update)', async () => {
    const ours = await mountPhases(
      <ConsoleTooltip title="Refresh">
        <Button>↻</Button>
      </ConsoleTooltip>,
    );
    expect(ours).toContain('mount');
    expect(ours).not.toContain('nested-update');
    document.body.innerHTML = '';
    const mui = await mountPhases(
      <Tooltip title="Refresh">
        <Button>↻</Button>
      </Tooltip>,
    );
    expect(mui).toContain('nested-update');
  });
});
