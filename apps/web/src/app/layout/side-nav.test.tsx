import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { buildSession, renderRoutes } from '../../test/render.js';
import { OrgScope } from '../guards/org-scope.js';

const routes: RouteObject[] = [
  {
    path: '/:orgId',
    element: <OrgScope />,
    children: [
      { index: true, element: <h1>Home screen</h1> },
      { path: 'teachers', element: <h1>Teachers screen</h1> },
      { path: 'resources', element: <h1>Resources screen</h1> },
    ],
  },
  { path: '/', element: <p>Root page</p> },
  { path: '/sign-in', element: <p>Sign-in page</p> },
];

function nav() {
  return screen.getByRole('navigation', { name: 'Main navigation' });
}

beforeEach(() => {
  window.innerWidth = 1400;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('side navigation', () => {
  it('shows the user and the spec’s items, without Portfolios when the organisation lacks it', () => {
    renderRoutes(routes, '/org-1');
    const n = within(nav());
    expect(n.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(n.getByText('ada@school.test')).toBeInTheDocument();
    expect(n.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/org-1');
    expect(n.getByRole('link', { name: 'Teachers' })).toHaveAttribute('href', '/org-1/teachers');
    expect(n.getByRole('link', { name: 'Analytics' })).toHaveAttribute('href', '/org-1/analytics');
    expect(n.getByRole('button', { name: 'Resources' })).toBeInTheDocument();
    expect(n.getByRole('button', { name: 'Settings' })).toBeInTheDocument();
    expect(n.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(n.queryByRole('link', { name: 'Portfolios' })).not.toBeInTheDocument();
  });

  it('shows Portfolios when the organisation has studentPortfolios', () => {
    const session = buildSession();
    session.currentOrganisation = {
      id: 'org-1',
      name: 'Hillside School',
      features: { orgLibraries: false, studentPortfolios: true, visitLibraries: false },
    };
    renderRoutes(routes, '/org-1', { session });
    expect(within(nav()).getByRole('link', { name: 'Portfolios' })).toHaveAttribute('href', '/org-1/portfolios');
  });

  it('marks the current screen and renders it in the main landmark', () => {
    renderRoutes(routes, '/org-1/teachers');
    expect(within(nav()).getByRole('link', { name: 'Teachers' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav()).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(within(screen.getByRole('main')).getByRole('heading', { name: 'Teachers screen' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute('href', '#main-content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
  });

  it('Resources offers the external help link in a new tab and the teachers’ resources page', () => {
    renderRoutes(routes, '/org-1');
    fireEvent.click(within(nav()).getByRole('button', { name: 'Resources' }));
    const forAdmins = screen.getByRole('menuitem', { name: /For Admins/ });
    expect(forAdmins).toHaveAttribute('href', 'https://help.provider.test/admins');
    expect(forAdmins).toHaveAttribute('target', '_blank');
    expect(forAdmins).toHaveAttribute('rel', expect.stringContaining('noopener'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'For Teachers' }));
    expect(screen.getByRole('heading', { name: 'Resources screen' })).toBeInTheDocument();
  });

  it('Settings lists Admins, LMS Integration, Rostering and Manage Apps', () => {
    renderRoutes(routes, '/org-1');
    fireEvent.click(within(nav()).getByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('menuitem', { name: 'Admins' })).toHaveAttribute('href', '/org-1/admin');
    expect(screen.getByRole('menuitem', { name: 'LMS Integration' })).toHaveAttribute('href', '/org-1/lms');
    expect(screen.getByRole('menuitem', { name: 'Rostering' })).toHaveAttribute('href', '/org-1/rostering');
    expect(screen.getByRole('menuitem', { name: 'Manage Apps' })).toHaveAttribute('href', '/org-1/apps');
  });

  it('closes a menu 2000 ms after the mouse leaves, and not while the mouse is back on it', () => {
    vi.useFakeTimers();
    renderRoutes(routes, '/org-1');
    const settings = within(nav()).getByRole('button', { name: 'Settings' });
    fireEvent.click(settings);
    expect(screen.getByRole('menuitem', { name: 'Admins' })).toBeInTheDocument();

    fireEvent.mouseLeave(settings);
    act(() => vi.advanceTimersByTime(1500));
    // The mouse moves onto the dropdown: the pending close is cancelled.
    fireEvent.mouseEnter(screen.getByRole('menu'));
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByRole('menuitem', { name: 'Admins' })).toBeInTheDocument();

    fireEvent.mouseLeave(screen.getByRole('menu'));
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.getByRole('menuitem', { name: 'Admins' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('menuitem', { name: 'Admins' })).not.toBeInTheDocument();
  });

  it('Sign out calls signOut and goes to /sign-in', async () => {
    const session = buildSession();
    renderRoutes(routes, '/org-1', { session });
    fireEvent.click(within(nav()).getByRole('button', { name: 'Sign out' }));
    expect(session.signOut).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
  });

  it('the avatar opens the organisation picker; choosing one opens its home', async () => {
    const session = buildSession({
      organisations: [
        { id: 'org-1', name: 'Hillside School' },
        { id: 'org-2', name: 'Riverside District' },
      ],
    });
    const { router } = renderRoutes(routes, '/org-1/teachers', { session });
    fireEvent.click(within(nav()).getByRole('button', { name: /choose organisation/ }));
    expect(screen.getByRole('menuitem', { name: 'Hillside School' })).toHaveAttribute('aria-current', 'true');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Riverside District' }));
    expect(router.state.location.pathname).toBe('/org-2');
    expect(session.selectOrganisation).toHaveBeenCalledWith('org-2');
  });

  it('the avatar is the user’s photo, else their {assets} avatar, else their initials', () => {
    const withPhoto = buildSession();
    withPhoto.user = { uid: 'user-1', email: 'ada@school.test', displayName: 'Ada Lovelace', photoURL: 'https://photos.test/ada.png' };
    const first = renderRoutes(routes, '/org-1', { session: withPhoto });
    expect(nav().querySelector('img')).toHaveAttribute('src', 'https://photos.test/ada.png');
    first.unmount();

    renderRoutes(routes, '/org-1');
    const img = nav().querySelector('img');
    expect(img).toHaveAttribute('src', '/assets/user-1/avatar');
    fireEvent.error(img as HTMLImageElement);
    expect(within(nav()).getByText('AL')).toBeInTheDocument();
  });

  it('the avatar button is named by what it shows: the name, e-mail and organisation (WCAG 2.5.3)', () => {
    renderRoutes(routes, '/org-1');
    // The photo fails: the avatar shows initials, a decoration beside the written name.
    fireEvent.error(nav().querySelector('img') as HTMLImageElement);
    const button = within(nav()).getByRole('button', { name: /choose organisation/ });
    expect(button).toHaveAccessibleName('Ada Lovelace ada@school.test Hillside School : choose organisation, account security');
    expect(within(button).getByText('AL').closest('[aria-hidden="true"]')).not.toBeNull();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
  });

  it('a line cut for lack of room shows in full on hover and on keyboard focus', async () => {
    const session = buildSession();
    session.user = { uid: 'user-1', email: 'ada.lovelace.countess.of.lovelace@analytical-engine.school.test', displayName: 'Ada Lovelace', photoURL: null };
    renderRoutes(routes, '/org-1', { session });
    const button = within(nav()).getByRole('button', { name: /choose organisation/ });
    // jsdom lays nothing out: the e-mail line says it is wider than its box.
    const line = within(button).getByText(session.user.email);
    Object.defineProperty(line, 'scrollWidth', { configurable: true, value: 400 });
    Object.defineProperty(line, 'clientWidth', { configurable: true, value: 180 });
    fireEvent.mouseEnter(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(session.user.email);
    fireEvent.mouseLeave(button);
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    fireEvent.focus(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Hillside School');
  });

  it('a line that fits shows no tooltip', async () => {
    renderRoutes(routes, '/org-1');
    const button = within(nav()).getByRole('button', { name: /choose organisation/ });
    fireEvent.focus(button);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('the avatar is not a button when the user has no organisations', () => {
    renderRoutes(routes, '/org-1', { session: buildSession({ organisations: [] }) });
    expect(within(nav()).queryByRole('button', { name: /choose organisation/ })).not.toBeInTheDocument();
    expect(nav().querySelector('img')).toBeInTheDocument();
  });
});

describe('layout width', () => {
  it('at 1150 px and below, the navigation sits behind a burger', () => {
    window.innerWidth = 1150;
    renderRoutes(routes, '/org-1');
    const burger = screen.getByRole('button', { name: 'Open navigation' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById('console-navigation')).toHaveAttribute('inert');
    fireEvent.click(burger);
    expect(screen.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('console-navigation')).not.toHaveAttribute('inert');
  });

  it('the open drawer covers the screen: what is behind it is out of reach, and Escape closes it back to the burger', () => {
    window.innerWidth = 390;
    renderRoutes(routes, '/org-1');
    const main = document.getElementById('main-content');
    expect(main).not.toHaveAttribute('inert');
    fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    // Tab from the drawer's last link must not land on a control hidden behind it.
    expect(main).toHaveAttribute('inert');
    const firstLink = within(nav()).getAllByRole('link')[0];
    firstLink?.focus();
    fireEvent.keyDown(firstLink ?? document.body, { key: 'Escape' });
    const burger = screen.getByRole('button', { name: 'Open navigation' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    expect(burger).toHaveFocus();
    expect(main).not.toHaveAttribute('inert');
  });

  it('above 1150 px, the navigation is permanent', () => {
    window.innerWidth = 1151;
    renderRoutes(routes, '/org-1');
    expect(screen.queryByRole('button', { name: 'Open navigation' })).not.toBeInTheDocument();
    expect(nav()).not.toHaveAttribute('inert');
  });
});

describe('organisation in the path', () => {
  it('a path naming another of the user’s organisations makes it current', () => {
    const session = buildSession({
      organisations: [
        { id: 'org-1', name: 'Hillside School' },
        { id: 'org-2', name: 'Riverside District' },
      ],
    });
    renderRoutes(routes, '/org-2/teachers', { session });
    expect(session.selectOrganisation).toHaveBeenCalledWith('org-2');
    expect(screen.getByRole('status')).toBeInTheDocument();
  });

  it('a path naming none of them goes to /', () => {
    const { router } = renderRoutes(routes, '/someone-elses-org/teachers');
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByText('Root page')).toBeInTheDocument();
  });
});
