import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Layout } from 'antd';
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

  it('groups entries under their heading, with only the entries the user may open', async () => {
    signedIn({ permissions: ['brands.list', 'units.list', 'provinces.list'] });
    renderMenu('/brands/update/3');
    // the page's group starts open, its entry marked as the current one, even on the edit screen
    expect(screen.getByTestId('menu-menu.group.catalogue').textContent).toBe('កាតាឡុកទំនិញ');
    const brands = screen.getByTestId('menu-/brands');
    expect(brands.getAttribute('href')).toBe('/brands');
    expect(brands.closest('li')?.className).toContain('ant-menu-item-selected');
    expect(screen.getByTestId('menu-/units')).toBeTruthy();
    expect(screen.queryByTestId('menu-/categories')).toBeNull();
    // a group with nothing allowed is not shown at all
    expect(screen.queryByTestId('menu-menu.group.partners')).toBeNull();
    await userEvent.click(screen.getByTestId('menu-menu.group.gazetteer'));
    expect((await screen.findByTestId('menu-/provinces')).getAttribute('href')).toBe('/provinces');
    expect(screen.queryByTestId('menu-/villages')).toBeNull();
  });

  it('opens no group over the page while folded (a phone), and the page’s group once unfolded', async () => {
    signedIn({ permissions: ['orders.list', 'tax_documents.list'] });
    const folded = (fold: boolean) => () => (
      <Layout.Sider collapsed={fold} collapsedWidth={0}>
        <SideMenu folded={fold} />
      </Layout.Sider>
    );
    const router = createMemoryRouter([{ path: '*', Component: folded(true) }], { initialEntries: ['/tax-documents'] });
    const view = render(<RouterProvider router={router} />);
    // the Sales group's list would float over the page, covering it
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(document.querySelector('.ant-menu-submenu-popup:not(.ant-menu-submenu-hidden)')).toBeNull();
    expect(screen.queryByTestId('menu-/tax-documents')).toBeNull();
    view.unmount();
    const open = createMemoryRouter([{ path: '*', Component: folded(false) }], { initialEntries: ['/tax-documents'] });
    render(<RouterProvider router={open} />);
    await waitFor(() => expect(screen.getByTestId('menu-/tax-documents')).toBeTruthy());
  });
});
