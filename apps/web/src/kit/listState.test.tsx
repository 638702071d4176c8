import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type ListUpdate, useListState } from './listState.tsx';

let update: ListUpdate = () => {};

function Probe() {
  const list = useListState(['store_id']);
  update = list.update;
  const { search } = useLocation();
  return (
    <>
      <output data-testid="address">{search}</output>
      <output data-testid="search">{list.state.search}</output>
    </>
  );
}

describe('the list’s address', () => {
  it('keeps a settled search when another change follows before the next render (a refetch, a filter)', () => {
    render(
      <MemoryRouter initialEntries={['/stocks/manage?page=3']}>
        <Probe />
      </MemoryRouter>,
    );
    act(() => {
      // the search box's settled text, then in the same tick the list's stay-in-range or a filter
      update({ search: 'SMPL-RICE' });
      update({ 'filter[store_id]': '2' });
    });
    expect(screen.getByTestId('search').textContent).toBe('SMPL-RICE');
    const address = new URLSearchParams(screen.getByTestId('address').textContent ?? '');
    expect(address.get('search')).toBe('SMPL-RICE');
    expect(address.get('filter[store_id]')).toBe('2');
    expect(address.get('page')).toBeNull();
    act(() => update({ page: '2' }));
    expect(new URLSearchParams(screen.getByTestId('address').textContent ?? '').get('search')).toBe('SMPL-RICE');
  });
});
