import { Badge, Button, Loader, Menu, Modal, NativeSelect, Pagination, PasswordInput, Select, Tooltip } from '@mantine/core';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../test/render.js';

/** Every <svg> on the page that assistive technology would meet: neither hidden (itself or above) nor named. */
function exposedUnnamedSvgs(): SVGElement[] {
  return [...document.querySelectorAll('svg')].filter((svg) => {
    if (svg.closest('[aria-hidden="true"]')) return false;
    return !(svg.getAttribute('role') === 'img' && (svg.getAttribute('aria-label') || svg.getAttribute('aria-labelledby')));
  });
}

describe('decorative icons of the theme’s components (WCAG 1.1.1)', () => {
  it('select chevrons, pagination arrows and dots, close buttons, submenu chevrons are hidden from assistive technology', async () => {
    renderAt(
      <>
        <Select label="Rows per page" data={['10', '20']} defaultValue="10" />
        <NativeSelect label="Permission" data={['Teachers and students', 'Teachers only']} />
        <PasswordInput label="Password" />
        <Pagination total={20} defaultValue={10} />
        <Badge>Library Manager</Badge>
        <Modal opened onClose={() => undefined} title="A dialog">
          <Button>Primary</Button>
        </Modal>
        <Menu opened>
          <Menu.Target>
            <Button>Actions</Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Sub>
              <Menu.Sub.Target>
                <Menu.Sub.Item>Assign license</Menu.Sub.Item>
              </Menu.Sub.Target>
              <Menu.Sub.Dropdown>
                <Menu.Item>Standard</Menu.Item>
              </Menu.Sub.Dropdown>
            </Menu.Sub>
          </Menu.Dropdown>
        </Menu>
      </>,
    );
    await screen.findByRole('dialog', { name: 'A dialog' });
    expect(document.querySelectorAll('svg').length).toBeGreaterThan(5);
    expect(exposedUnnamedSvgs().map((svg) => svg.parentElement?.outerHTML.slice(0, 120))).toEqual([]);
  });
});

describe('tooltips', () => {
  it('show on keyboard focus, not only on hover (WCAG 1.4.13, 2.1.1)', async () => {
    renderAt(
      <Tooltip label="Quire Ambassador">
        <span tabIndex={0} role="img" aria-label="Quire Ambassador">
          ★
        </span>
      </Tooltip>,
    );
    await userEvent.setup().tab();
    fireEvent.focus(screen.getByRole('img', { name: 'Quire Ambassador' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Quire Ambassador');
  });
});

describe('loaders (WCAG 4.1.2)', () => {
  // A spinner is a <span>: named by aria-label without a role, axe reports it (aria-prohibited-attr, serious) and
  // screen readers may not read the name. The theme gives every loader the role of an image, so its name is read.
  it('is an image named by its label', () => {
    renderAt(<Loader aria-label="Loading teachers" />);
    expect(screen.getByRole('img', { name: 'Loading teachers' })).toBeInTheDocument();
  });
});
