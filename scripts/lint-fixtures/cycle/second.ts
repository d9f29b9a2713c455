import { first } from './first.js';

export const second = (): string => (first.length > 0 ? 'second' : '');
