import {
  createTheme,
  type CloseButtonProps,
  type CSSVariablesResolver,
  type LoaderProps,
  type MantineColorsTuple,
  type MenuProps,
  type MenuSubItemProps,
  type PaginationProps,
  type PasswordInputProps,
  type TooltipProps,
} from '@mantine/core';
import { hiddenCloseIcon, hiddenSubmenuChevron, paginationIcons, PasswordVisibilityIcon } from './decorative-icons.js';

/**
 * Quire's primary blue. Shade 8 is the filled colour (white text on it) and the link colour (on
 * white); shades 7–9 all keep AA contrast with white, so hover states pass too. theme.test.ts
 * checks the ratios.
 */
const quireBlue: MantineColorsTuple = [
  '#e8f1fb',
  '#d1e2f6',
  '#a6c6ec',
  '#78a8e2',
  '#528fd9',
  '#3a80d3',
  '#2b74cc',
  '#2266b8',
  '#1c5aa6',
  '#164887',
];

/** Filled shade for every colour in the light scheme: shade 8 keeps red and blue buttons above 4.5:1. @internal */
export const LIGHT_PRIMARY_SHADE = 8;

export const theme = createTheme({
  primaryColor: 'quire',
  primaryShade: { light: LIGHT_PRIMARY_SHADE, dark: 8 },
  colors: { quire: quireBlue },
  // Light colours (yellow, lime) get dark text on filled backgrounds.
  autoContrast: true,
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
  headings: { fontWeight: '700' },
  // Plain objects, not Menu.extend() and the like: importing the components here would put them (Menu with its
  // popover, Pagination, Tooltip…) in every route's first download.
  components: {
    // Mantine's focus placeholder (role=presentation) is not an allowed child of role=menu (axe
    // aria-required-children); without it the first item takes focus on open.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } satisfies Partial<MenuProps> },
    // A closed select's options are not in the page (Mantine keeps them, hidden, by default): each kept list was
    // positioned at mount, a forced style and layout pass per select on the Teachers screen's first render
    // (docs/performance-log.md, "First load"). The list mounts when it opens; aria-controls names it only then anyway.
    Combobox: { defaultProps: { keepMounted: false } },
    // Decorative icons drawn by Mantine are hidden from assistive technology (decorative-icons.tsx).
    ComboboxChevron: { defaultProps: { 'aria-hidden': true } },
    Pagination: { defaultProps: paginationIcons satisfies Partial<PaginationProps> },
    CloseButton: { defaultProps: { icon: hiddenCloseIcon } satisfies Partial<CloseButtonProps> },
    MenuSubItem: { defaultProps: { rightSection: hiddenSubmenuChevron } satisfies Partial<MenuSubItemProps> },
    PasswordInput: { defaultProps: { visibilityToggleIcon: PasswordVisibilityIcon } satisfies Partial<PasswordInputProps> },
    // A loader is a <span>: its aria-label needs a role to be allowed (axe aria-prohibited-attr) and read. A shown
    // loader is named ("Loading teachers") and so becomes an image with that name; one beside its own text is
    // aria-hidden, as Mantine hides those inside buttons.
    Loader: { defaultProps: { role: 'img' } satisfies Partial<LoaderProps> },
    // A tooltip keyboard users can reach: it shows on focus as well as on hover.
    Tooltip: { defaultProps: { events: { hover: true, focus: true, touch: false } } satisfies Partial<TooltipProps> },
  },
});

/**
 * Mantine's light defaults put dimmed text (gray 6) and error text (red 6) below 4.5:1 on white;
 * these darker shades pass. Its light red button (red 9 text) is 3.8:1 on its hover background (red 2): one shade
 * lighter each, red 0 and red 1, keeps it above 4.5:1 hovered or not.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    '--mantine-color-red-light': 'var(--mantine-color-red-0)',
    '--mantine-color-red-light-hover': 'var(--mantine-color-red-1)',
  },
  dark: {},
});

