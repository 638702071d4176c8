import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderApp, signedIn } from '../test/render.tsx';
import { SideMenu } from './SideMenu.tsx';

function renderMenu(path: string) {
  const router = createMemoryRouter([{ path: '*', Component: SideMenu }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
}

describe('side menu', () => {
  it('lists the dashboard for a user who may view it, linked in the page language', async () => {
    mockFetch();
    signedIn({ permissions: ['dashboards.view'] });
    renderApp('/en/dashboards');
    const menu = await screen.findByTestId('side-menu');
    const item = await screen.findByTestId('menu-/dashboards');
    expect(menu.contains(item)).toBe(true);
    expect(item.textContent).toBe('Dashboard');
    expect(item.getAttribute('href')).toBe('/en/dashboards');
  });

  it('links Khmer pages without a prefix', () => {
    signedIn({ permissions: ['dashboards.view'] });
    renderMenu('/dashboards');
    const item = screen.getByTestId('menu-/dashboards');
    expect(item.textContent).toBe('ផ្ទាំងគ្រប់គ្រង');
    expect(item.getAttribute('href')).toBe('/dashboards');
  });

  it('leaves out screens the stored permissions do not allow', () => {
    signedIn({ permissions: ['profiles.view', 'orders.list'] });
    renderMenu('/dashboards');
    expect(screen.getByTestId('side-menu')).toBeTruthy();
    expect(screen.queryByTestId('menu-/dashboards')).toBeNull();
  });
});
