import { DEFAULT_THEME, mergeMantineTheme, type MantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, WCAG_AA_NORMAL_TEXT } from './contrast.js';
import { cssVariablesResolver, LIGHT_PRIMARY_SHADE, theme } from './theme.js';

const merged: MantineTheme = mergeMantineTheme(DEFAULT_THEME, theme);
const WHITE = merged.white;

function shade(color: string, index: number): string {
  const value = merged.colors[color]?.[index];
  if (!value) throw new Error(`No colour ${color}.${index}`);
  return value;
}

/** Resolves 'var(--mantine-color-gray-7)' to the palette value. */
function resolveColorVariable(value: string | undefined): string {
  const match = /var\(--mantine-color-([a-z]+)-(\d)\)/.exec(value ?? '');
  if (!match) throw new Error(`Unexpected colour variable ${value}`);
  return shade(match[1] ?? '', Number(match[2]));
}

describe('contrastRatio', () => {
  it('matches the WCAG reference values', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // Mantine's default blue button (blue.6) is the failure this theme exists to avoid.
    expect(contrastRatio('#228be6', '#ffffff')).toBeLessThan(WCAG_AA_NORMAL_TEXT);
  });
});

describe('theme contrast (WCAG AA, 4.5:1)', () => {
  const primary = merged.primaryColor;
  const filled = shade(primary, LIGHT_PRIMARY_SHADE);

  it('uses its own primary colour with the shade the contrast was checked for', () => {
    expect(primary).toBe('quire');
    expect(merged.primaryShade).toMatchObject({ light: LIGHT_PRIMARY_SHADE });
  });

  it('white text on a filled primary button, and on its hover shade', () => {
    expect(contrastRatio(WHITE, filled)).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
    expect(contrastRatio(WHITE, shade(primary, 9))).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
  });

  it('primary-coloured links and text on white', () => {
    expect(contrastRatio(filled, WHITE)).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
  });

  it('light variant (active navigation item): shade 9 text on shade 1', () => {
    expect(contrastRatio(shade(primary, 9), shade(primary, 1))).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
  });

  it('red filled buttons and the error banner background carry white text', () => {
    expect(contrastRatio(WHITE, shade('red', LIGHT_PRIMARY_SHADE))).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
    expect(contrastRatio(WHITE, shade('red', 9))).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
  });

  it('the info notice: white on dark', () => {
    expect(contrastRatio(WHITE, shade('dark', 7))).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
  });

  it('light red buttons (Revoke): red 9 text on their background and on their hover background', () => {
    const light = cssVariablesResolver(merged).light;
    const text = shade('red', 9);
    expect(contrastRatio(text, resolveColorVariable(light['--mantine-color-red-light']))).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
    expect(contrastRatio(text, resolveColorVariable(light['--mantine-color-red-light-hover']))).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
  });

  it('dimmed and error text on white', () => {
    const light = cssVariablesResolver(merged).light;
    expect(contrastRatio(resolveColorVariable(light['--mantine-color-dimmed']), WHITE)).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
    expect(contrastRatio(resolveColorVariable(light['--mantine-color-error']), WHITE)).toBeGreaterThanOrEqual(WCAG_AA_NORMAL_TEXT);
  });
});
