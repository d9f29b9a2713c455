import type { Page } from '@playwright/test';
import { consoleConfigSchema, contractProblems, graphqlContracts, type ConsoleConfig, type GraphqlContractField } from '@quire/core';
import type { $ZodType } from 'zod/v4/core';

/**
 * The server's answers as the end-to-end helpers read them: checked against their contract in @quire/core (a
 * missing field, a wrong type or a field the contract lacks fails the test) and typed by it.
 */
export function checked<T>(schema: $ZodType<T> & { parse(value: unknown): T }, value: unknown, what: string): T {
  const problems = contractProblems(schema, value);
  if (problems.length > 0) throw new Error(`${what} breaks its contract:\n${problems.join('\n')}`);
  return schema.parse(value);
}

/** A GraphQL answer's `data`: each root field's value checked as a selection of its contract. */
export function checkedGraphqlData(data: Record<string, unknown>, operation: string): void {
  const problems = Object.entries(data).flatMap(([field, value]) => {
    const contract = graphqlContracts[field as GraphqlContractField];
    return contract ? contractProblems(contract, value, { selection: true }, field) : [`${field}: no contract in @quire/core graphqlContracts`];
  });
  if (problems.length > 0) throw new Error(`${operation} breaks its contract:\n${problems.join('\n')}`);
}

/** GET {api}/console-config: the brand and links the server is configured with, checked against the contract. */
export async function readConsoleConfig(page: Page): Promise<ConsoleConfig> {
  return checked(consoleConfigSchema, await (await page.request.get('/api/console-config')).json(), 'GET {api}/console-config');
}
