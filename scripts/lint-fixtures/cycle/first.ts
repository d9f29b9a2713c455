import { second } from './second.js';

export const first = (): string => `first then ${second()}`;
